/**
 * `strata user create` against the test database, in process (tests/helpers/cli.ts `runStrata`, the password on its
 * stdin): the account is made by Better Auth's sign-up (the password signs in afterwards), with its personal
 * workspace and owner member row and no session left behind; a taken address, a short password, no terminal and
 * missing options are one-line errors. One case spawns the real binary: the password piped into the process's
 * stdin, and no terminal when stdin is a pipe without `--password-stdin` (exit 2).
 */
import { describe, expect, it } from "vitest";
import { withDb } from "@/lib/db/client";
import { authJson } from "../../helpers/auth";
import { runStrata, spawnStrata } from "../../helpers/cli";

const strata = (args: string[], stdin: string) => runStrata(args, { stdin });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n$/;

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

  it("the real binary reads the password from its stdin, and without --password-stdin a pipe is no terminal (spawned)", async () => {
    const piped = `piped-${email}`;
    const [created, noTerminal] = await Promise.all([
      spawnStrata(["user", "create", "--email", piped, "--name", "Piped", "--password-stdin"], {
        stdin: "correct horse battery\nignored second line\n",
      }),
      spawnStrata(["user", "create", "--email", "t@example.test", "--name", "T"], { stdin: "" }),
    ]);
    expect(created.stderr).toBe(
      `Created the account ${piped} (Piped) with a personal workspace; sign in at the server's /sign-in\n`,
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(UUID);
    const signedIn = await authJson<{ user: { id: string } }>("/sign-in/email", {
      email: piped,
      password: "correct horse battery",
    });
    expect(`${signedIn.user.id}\n`).toBe(created.stdout);
    expect(noTerminal).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "strata: No terminal to ask for the password: pipe it in with --password-stdin (e.g. `printf '%s' \"$PASSWORD\" | npx strata user create … --password-stdin`)\n",
    });
  }, 60_000);
});
