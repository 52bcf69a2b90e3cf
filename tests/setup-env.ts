/**
 * Setup of an integration or property test file, in the worker that runs it: this worker's database and execution
 * service (made by tests/global-setup.ts, one per worker of the pool, chosen by `VITEST_POOL_ID`).
 */
import { inject } from "vitest";

const workers = inject("strataWorkers");
const poolId = Number(process.env.VITEST_POOL_ID ?? 1);
const mine = workers[(poolId - 1) % workers.length];
if (!mine) throw new Error(`tests/global-setup.ts made no resources for worker ${poolId}`);
Object.assign(process.env, mine);
