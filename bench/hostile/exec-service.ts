/**
 * The execution service for the bench: a separate process (`node --import tsx lib/exec/service/main.ts`, through
 * scripts/exec-service.mjs, as `npm start` runs it) on the bench database, with the environment the app needs to
 * reach it. Its own output is kept (the last 4 KB) and shown only when it fails to start.
 */
import { startExecService } from "../../scripts/exec-service.mjs";

/** A running service for one bench section. */
export interface BenchExecService {
  /** `STRATA_EXEC_URL` and `STRATA_EXEC_TOKEN` for the app (and `createExecutor`). */
  env: { STRATA_EXEC_URL: string; STRATA_EXEC_TOKEN: string };
  /** e.g. "execution service http://127.0.0.1:41234 (2 workers)". */
  describe: string;
  close(): Promise<void>;
}

/**
 * Start the service with `env` (the bench's: DATABASE_URL, STRATA_DB_PROXY), `STRATA_EXEC_WORKERS` defaulting
 * to max(2, cores) as in `npm start`.
 * @throws Error when it does not start, with its output.
 */
export async function startBenchExecService(env: NodeJS.ProcessEnv): Promise<BenchExecService> {
  let output = "";
  let workers = "?";
  try {
    const service = await startExecService({
      env,
      output: (chunk) => {
        output = (output + chunk.toString("utf8")).slice(-4000);
        workers = output.match(/listening on \S+ \((\d+) workers\)/)?.[1] ?? workers;
      },
    });
    return {
      env: service.env,
      describe: `execution service ${service.url} (${workers} workers)`,
      close: () => service.close(),
    };
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${output}`);
  }
}
