/**
 * The database side of `strata user create` (bin/commands/user.mjs), loaded through tsx: an account made by Better
 * Auth's own sign-up (`createAuth(db, origin).api.signUpEmail`), so the password is hashed as at the sign-up page
 * and the personal workspace is created by the same hook. This is how an operator creates the first owner in
 * accounts mode (docs/auth.md). Edge-safe like the rest of `lib/`: reading the password stays in `bin/`.
 */
import { APIError } from "better-auth/api";
import { sql } from "drizzle-orm";
import { createAuth } from "@/lib/auth/server";
import { DbScope } from "@/lib/db/client";
import type { Env } from "@/lib/llm/models";

export { setNodeWebSocket } from "@/lib/db/client";

/** A user-facing failure (address taken, password too short…); the CLI prints its message without a stack. */
export class CommandError extends Error {
  override name = "CommandError";
}

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

/**
 * Create the account `email` / `name` / `password` with its personal workspace (sign-up works even with
 * `STRATA_SIGNUP=closed`: the operator is creating it). The session Better Auth's sign-up opens is deleted at once.
 * `secret` signs nothing that is kept; any value of 32+ characters does. `env` is the environment Better Auth is
 * configured from (the command's; default `process.env`).
 * @returns the new user's id, email and name and the personal workspace's id
 * @throws CommandError for an invalid address, a password outside 8–256 characters, or an address already in use
 */
export async function createUser(input: {
  email: string;
  name: string;
  password: string;
  secret: string;
  env?: Env;
}): Promise<{ id: string; email: string; name: string; workspaceId: string }> {
  const email = input.email.trim().toLowerCase();
  const name = input.name.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new CommandError(`Not an email address: ${input.email}`);
  if (name === "") throw new CommandError("--name must not be empty");
  if (input.password.length < MIN_PASSWORD_LENGTH)
    throw new CommandError(`The password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  if (input.password.length > MAX_PASSWORD_LENGTH)
    throw new CommandError(`The password must have at most ${MAX_PASSWORD_LENGTH} characters`);
  const env = { ...(input.env ?? process.env), BETTER_AUTH_SECRET: input.secret, STRATA_SIGNUP: "open" };
  const scope = new DbScope();
  try {
    return await scope.run(async (db) => {
      const auth = createAuth(db, "http://127.0.0.1", env);
      let result: Awaited<ReturnType<typeof auth.api.signUpEmail>>;
      try {
        result = await auth.api.signUpEmail({ body: { email, name, password: input.password } });
      } catch (error) {
        if (error instanceof APIError) {
          const code = (error.body as { code?: string } | undefined)?.code ?? "";
          if (/USER_ALREADY_EXISTS/.test(code))
            throw new CommandError(`An account with the address ${email} already exists`);
          throw new CommandError(`Cannot create the account: ${error.message}`);
        }
        throw error;
      }
      if (result.token) await db.execute(sql`DELETE FROM auth_sessions WHERE token = ${result.token}`);
      const rows = await db.execute<{ id: string }>(
        sql`SELECT id FROM workspaces WHERE owner_user_id = ${result.user.id} AND kind = 'personal' LIMIT 1`,
      );
      return {
        id: result.user.id,
        email: result.user.email,
        name: result.user.name,
        workspaceId: rows.rows[0]?.id ?? "",
      };
    });
  } finally {
    await scope.release();
  }
}
