/**
 * `bin/strata.mjs user create`, spawned as a process against the test database: the account is made by Better Auth's
 * sign-up (the password signs in afterwards), with its personal workspace and owner member row and no session left
 * behind; a taken address, a short password, no terminal and missing options are one-line errors.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { withDb } from "@/lib/db/client";
import { authJson } from "../../helpers/auth";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const cli = path.join(root, "bin/strata.mjs");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function strata(args: string[], stdin: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [cli, ...args],
      { cwd: root, env: process.env, encoding: "utf8" },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin);
  });
}

const email = `owner-${Date.now().toString(36)}@example.test`;

describe("strata user create", () => {
  it("creates an account that signs in, with its personal workspace, and leaves no session", async () => {
    const run = await strata(
      ["user", "create", "--email", email.toUpperCase(), "--name", "Ada Owner", "--password-stdin"],
      "correct horse battery\n",
    );
    expect(run.stderr).toBe(
      `Created the account ${email} (Ada Owner) with a personal workspace; sign in at the server's /sign-in\n`,
    );
    expect(run.code).toBe(0);
    const id = run.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const rows = await withDb(async (scope) => ({
      user: await scope.query<{ email: string; name: string }>(
        "SELECT email, name FROM users WHERE id = $1",
        [id],
      ),
      workspaces: await scope.query<{ kind: string; role: string }>(
        `SELECT w.kind, m.role FROM workspaces w JOIN workspace_members m ON m.workspace_id = w.id AND m.user_id = $1
         WHERE w.owner_user_id = $1`,
        [id],
      ),
      sessions: await scope.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM auth_sessions WHERE user_id = $1",
        [id],
      ),
    }));
    expect(rows.user).toEqual([{ email, name: "Ada Owner" }]);
    expect(rows.workspaces).toEqual([{ kind: "personal", role: "owner" }]);
    expect(rows.sessions).toEqual([{ n: 0 }]);
    const signedIn = await authJson<{ user: { id: string } }>("/sign-in/email", {
      email,
      password: "correct horse battery",
    });
    expect(signedIn.user.id).toBe(id);
  });

  it("refuses an address already in use, a short password, no password source and missing options", async () => {
    const taken = await strata(
      ["user", "create", "--email", email, "--name", "Again", "--password-stdin"],
      "another password\n",
    );
    expect([taken.code, taken.stderr]).toEqual([
      1,
      `strata: An account with the address ${email} already exists\n`,
    ]);
    const short = await strata(
      ["user", "create", "--email", "short@example.test", "--name", "S", "--password-stdin"],
      "1234567\n",
    );
    expect([short.code, short.stderr]).toEqual([1, "strata: The password must have at least 8 characters\n"]);
    const noTerminal = await strata(["user", "create", "--email", "t@example.test", "--name", "T"], "");
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toBe(
      "strata: No terminal to ask for the password: pipe it in with --password-stdin (e.g. `printf '%s' \"$PASSWORD\" | npx strata user create … --password-stdin`)\n",
    );
    const missing = await strata(["user", "create", "--name", "T"], "");
    expect(missing.code).toBe(2);
    expect(missing.stderr.split("\n")[0]).toBe("strata: user create needs --email and --name");
    const badEmail = await strata(
      ["user", "create", "--email", "not-an-address", "--name", "X", "--password-stdin"],
      "correct horse battery\n",
    );
    expect([badEmail.code, badEmail.stderr]).toEqual([1, "strata: Not an email address: not-an-address\n"]);
  });
});
