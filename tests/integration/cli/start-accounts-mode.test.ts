/**
 * `npm start` (scripts/start.mjs) outside the embedded loopback default makes no secrets: with DATABASE_URL, or a HOST
 * that is not loopback, a missing or short BETTER_AUTH_SECRET / STRATA_SECRETS_KEY stops it at once with one line
 * naming the variable and how to make one — before any database, build or port is touched.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const stateDir = mkdtempSync(path.join(tmpdir(), "strata-start-"));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

function start(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = { ...process.env };
  for (const name of ["DATABASE_URL", "STRATA_DB_PROXY", "BETTER_AUTH_SECRET", "STRATA_SECRETS_KEY", "HOST"])
    delete base[name];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, "scripts/start.mjs")],
      { cwd: root, env: { ...base, PORT: "5218", STRATA_DIR: stateDir, ...env }, encoding: "utf8" },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const SECRET = "0123456789abcdef0123456789abcdef0123456789a=";

describe("npm start in accounts mode", () => {
  it("with DATABASE_URL and no BETTER_AUTH_SECRET: one line, exit 1", async () => {
    const run = await start({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" });
    expect([run.code, run.stdout, run.stderr]).toEqual([
      1,
      "",
      "[strata] BETTER_AUTH_SECRET is not set: DATABASE_URL is set, so npm start does not make one. Create it with `openssl rand -base64 32` and start again with BETTER_AUTH_SECRET=<that value> in the environment (keep it: changing it signs everyone out).\n",
    ]);
  });

  it("with HOST=0.0.0.0 and a short STRATA_SECRETS_KEY: one line naming it, no secrets.json made", async () => {
    const run = await start({ HOST: "0.0.0.0", BETTER_AUTH_SECRET: SECRET, STRATA_SECRETS_KEY: "short" });
    expect([run.code, run.stderr]).toEqual([
      1,
      "[strata] STRATA_SECRETS_KEY is shorter than 32 characters: HOST=0.0.0.0 is not a loopback address, so npm start does not make one. Create it with `openssl rand -base64 32` and start again with STRATA_SECRETS_KEY=<that value> in the environment (keep it: changing it makes the stored workspace secrets unreadable).\n",
    ]);
    expect(existsSync(path.join(stateDir, "secrets.json"))).toBe(false);
  });
});
