/**
 * Strata's database WebSocket proxy (scripts/db-proxy.mjs) in a process of its own, as `npm start` runs it (in
 * its own process, beside the app and the execution service). The bench's in-process proxy would relay every
 * query of the app and the service on the bench's event loop — the one the probe measures with — so a heavy
 * import's flushes would show up as probe latency that no user of `npm start` sees.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** A running proxy process: `endpoint` is the value for STRATA_DB_PROXY. */
export interface ProxyProcess {
  endpoint: string;
  close(): Promise<void>;
}

const SCRIPT = `
import { startDbProxy } from ${JSON.stringify(path.join(root, "scripts/db-proxy.mjs"))};
const proxy = await startDbProxy({ target: process.env.STRATA_BENCH_PROXY_TARGET });
process.send({ endpoint: proxy.endpoint });
process.on("disconnect", () => process.exit(0));
`;

/**
 * Start a proxy to `target` ("host:port" of the Postgres the bench database is on) in a child process.
 * @throws Error when it exits before it is listening (with its exit code).
 */
export async function startProxyProcess(target: string): Promise<ProxyProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--input-type=module", "-e", SCRIPT], {
    env: { ...process.env, STRATA_BENCH_PROXY_TARGET: target },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.once("message", (message) => resolve((message as { endpoint: string }).endpoint));
    child.once("exit", (code) => reject(new Error(`the database proxy process exited (code ${code})`)));
  });
  return {
    endpoint,
    async close() {
      if (child.exitCode !== null) return;
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await gone;
    },
  };
}
