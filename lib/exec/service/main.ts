/**
 * The execution service's process: `node --import tsx lib/exec/service/main.ts` (started by `npm start`, the
 * Vitest global setup and the e2e stack; tsx resolves the `@/` alias, and the pool's workers inherit the loader).
 *
 * Environment: `STRATA_EXEC_TOKEN` (required: the bearer token callers send), `STRATA_EXEC_PORT` (default: a free
 * port), `STRATA_EXEC_WORKERS` (default: max(2, CPU cores)), `STRATA_EXEC_MEMORY_MB` (a worker's heap cap, default
 * the shell's 512 MiB), the sharing caps of pool.ts (`STRATA_EXEC_PER_WORKSPACE`, `STRATA_EXEC_PER_USER`: running
 * commands of one workspace / user before others go first, default max(1, workers − 1); `STRATA_EXEC_MAX_PROCESSES`:
 * most worker processes at once, default 2 × workers), and the app's database settings (`DATABASE_URL`, `STRATA_DB_PROXY`), which the handlers use.
 *
 * When ready it prints `[strata-exec] listening on <url> (<n> workers)`, sends `{ type: "ready", url }` to a parent
 * that spawned it with an IPC channel, and writes the URL to `STRATA_EXEC_URL_FILE` when set. SIGTERM/SIGINT or
 * the parent's IPC channel closing stop it. Node-only.
 */
import fs from "node:fs";
import os from "node:os";
import { defaultCaps } from "./pool";
import { startExecService } from "./server";

const log = (line: string) => console.error(line);

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number (got ${raw})`);
  return n;
}

async function main(): Promise<void> {
  const token = process.env.STRATA_EXEC_TOKEN;
  if (!token || token.length < 16) {
    throw new Error(
      "STRATA_EXEC_TOKEN is not set (or shorter than 16 characters): the execution service only answers callers that send it. `npm start` makes one; by hand: STRATA_EXEC_TOKEN=$(openssl rand -hex 24) node --import tsx lib/exec/service/main.ts, and give the app the same STRATA_EXEC_TOKEN and STRATA_EXEC_URL.",
    );
  }
  const workers = positiveInt("STRATA_EXEC_WORKERS", 0) || Math.max(2, os.availableParallelism());
  const caps = defaultCaps(workers);
  const service = await startExecService({
    token,
    port: positiveInt("STRATA_EXEC_PORT", 0),
    workers,
    memoryMb: positiveInt("STRATA_EXEC_MEMORY_MB", 0) || undefined,
    perWorkspace: positiveInt("STRATA_EXEC_PER_WORKSPACE", 0) || caps.perWorkspace,
    perUser: positiveInt("STRATA_EXEC_PER_USER", 0) || caps.perUser,
    maxProcesses: positiveInt("STRATA_EXEC_MAX_PROCESSES", 0) || caps.maxProcesses,
    log,
  });
  log(`[strata-exec] listening on ${service.url} (${workers} workers)`);
  if (process.env.STRATA_EXEC_URL_FILE)
    fs.writeFileSync(process.env.STRATA_EXEC_URL_FILE, `${service.url}\n`);
  process.send?.({ type: "ready", url: service.url });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await service.close().catch(() => undefined);
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.on("disconnect", stop);
}

main().catch((error) => {
  log(`[strata-exec] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
