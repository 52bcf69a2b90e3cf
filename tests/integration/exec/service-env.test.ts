/**
 * The execution service runs untrusted interpreters, so its environment holds no credential of the app's: started
 * with provider keys and the app's secrets in the environment, the service process has none of them (only the
 * system's, the database's and its own settings: scripts/exec-service.mjs `serviceEnv`), and its workers have not
 * even the service's token. Read from /proc/<pid>/environ, as anything running in those processes could.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { serviceEnv, startExecService } from "../../../scripts/exec-service.mjs";

const DECOYS = {
  ANTHROPIC_API_KEY: "sk-ant-decoy-service-env",
  OPENAI_API_KEY: "sk-decoy-service-env",
  GOOGLE_GENERATIVE_AI_API_KEY: "decoy-google",
  OPENAI_COMPATIBLE_API_KEY: "decoy-compatible",
  BETTER_AUTH_SECRET: "decoy-auth-secret-0123456789abcdef",
  STRATA_SECRETS_KEY: "decoy-secrets-key",
  GITHUB_TOKEN: "ghp_decoy",
};

/** The variables of process `pid` (name → value). */
function environOf(pid: number): Record<string, string> {
  const raw = fs.readFileSync(`/proc/${pid}/environ`, "utf8");
  return Object.fromEntries(
    raw
      .split("\0")
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

/** The ids of `pid`'s child processes. */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // Field 4 of /proc/<pid>/stat is the parent's id (after the command in parentheses).
        const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

let service: Awaited<ReturnType<typeof startExecService>>;
beforeAll(async () => {
  service = await startExecService({ env: { ...process.env, ...DECOYS, STRATA_EXEC_WORKERS: "2" } });
}, 120_000);
afterAll(() => service?.close());

describe("the execution service's environment", () => {
  it("the service has the system's, the database's and its own variables, and no credential of the app", () => {
    const env = environOf(service.pid as number);
    const expected = {
      ...serviceEnv({ ...process.env, STRATA_EXEC_WORKERS: "2" }),
      STRATA_EXEC_TOKEN: service.token,
    };
    // Plus its port, and Node's IPC channel to the process that started it.
    const ipc = { NODE_CHANNEL_FD: "", NODE_CHANNEL_SERIALIZATION_MODE: "" };
    expect(Object.keys(env).sort()).toEqual(
      Object.keys({ ...expected, ...ipc, STRATA_EXEC_PORT: "" }).sort(),
    );
    expect(env.DATABASE_URL).toBe(process.env.DATABASE_URL);
    for (const name of Object.keys(DECOYS)) expect(env[name], name).toBeUndefined();
    expect(Object.values(env).filter((v) => Object.values(DECOYS).includes(v))).toEqual([]);
  });

  it("its workers have the same variables without the service's token", async () => {
    const pid = service.pid as number;
    const workers = await vi.waitFor(
      () => {
        const found = childrenOf(pid);
        expect(found.length).toBe(2);
        return found;
      },
      { timeout: 30_000, interval: 50 },
    );
    const parent = environOf(pid);
    for (const worker of workers) {
      const env = environOf(worker);
      expect(env.DATABASE_URL).toBe(parent.DATABASE_URL);
      const { STRATA_EXEC_TOKEN: _token, ...rest } = parent;
      expect(Object.keys(env).sort()).toEqual(Object.keys(rest).sort());
    }
  });
});
