/**
 * Test users for route tests: real Better Auth accounts (sign-up through its handler) with a session cookie and a
 * personal access token, so route handlers are called exactly as a browser or the CLI calls them.
 */
import { createAuth } from "@/lib/auth/server";
import { withDb } from "@/lib/db/client";
import type { Actor } from "@/lib/projects/identity";

export const ORIGIN = "http://127.0.0.1:3000";

export interface TestUser {
  id: string;
  email: string;
  name: string;
  /** `Cookie` header value of a signed-in browser. */
  cookie: string;
  /** The personal workspace's id. */
  workspaceId: string;
}

let counter = 0;

async function authCall(
  path: string,
  init: { method?: string; body?: unknown; cookie?: string },
): Promise<Response> {
  const headers: Record<string, string> = { origin: ORIGIN };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.cookie) headers.cookie = init.cookie;
  const request = new Request(`${ORIGIN}/api/auth${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return withDb((scope) => scope.run((db) => createAuth(db, ORIGIN).handler(request)));
}

/** Call a Better Auth route as `user` (JSON in, JSON out). @throws Error with the body on a non-2xx answer. */
export async function authJson<T = unknown>(
  path: string,
  body?: unknown,
  user?: { cookie: string },
): Promise<T> {
  const res = await authCall(path, { body, cookie: user?.cookie });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** The `name=value` pairs of a response's Set-Cookie headers, as one Cookie header. */
export function cookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Sign up a fresh user (unique email) and return it signed in. */
export async function createTestUser(name = "Test user"): Promise<TestUser> {
  counter += 1;
  const email = `user-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const res = await authCall("/sign-up/email", { body: { email, password: "correct horse battery", name } });
  if (!res.ok) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string } };
  const workspaceId = await withDb(async (scope) => {
    const rows = await scope.query<{ id: string }>(
      "SELECT id FROM workspaces WHERE owner_user_id = $1 AND kind = 'personal'",
      [body.user.id],
    );
    return rows[0].id;
  });
  return { id: body.user.id, email, name, cookie: cookieOf(res), workspaceId };
}

/** One test file's signed-in user (see {@link signedInUser}). */
export interface SignedInUser {
  /**
   * The user as an {@link Actor} (its id and personal workspace, what `makeProject`, `projectWithSession` and the
   * lib take), signed up on the first call; every later call, concurrent ones too, answers the same user.
   */
  actor(): Promise<Actor>;
  /** The signed-up user, for `asUser` and `promptEvents`. @throws Error when read before `actor()` resolved. */
  readonly user: TestUser;
}

/**
 * The signed-in user a route test file calls every route as (a {@link createTestUser} account; the file's projects
 * live in its personal workspace), signed up lazily: call this once at the file's top level, `await actor()` in
 * `beforeAll` or wherever the user is first needed, and then read `user`. Each call makes its own user, never one
 * cached in this module: the files of a Vitest worker share its module registry (`isolate: false`), so a module-wide
 * user would be shared by every file the worker runs (its projects, its prompt rate limit).
 */
export function signedInUser(): SignedInUser {
  let signedUp: Promise<TestUser> | undefined;
  let user: TestUser | undefined;
  return {
    async actor() {
      signedUp ??= createTestUser().then(
        (created) => {
          user = created;
          return created;
        },
        (error: unknown) => {
          signedUp = undefined;
          throw error;
        },
      );
      const { id, workspaceId } = await signedUp;
      return { userId: id, workspaceId };
    },
    get user() {
      if (!user) throw new Error("signedInUser: `user` read before the first `await actor()`");
      return user;
    },
  };
}

/** A request as `user`'s browser (cookie and same-origin Origin header). */
export function asUser(user: { cookie: string } | null, url: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  if (user) headers.set("cookie", user.cookie);
  if (init.method && init.method !== "GET") headers.set("origin", ORIGIN);
  return new Request(new URL(url, ORIGIN), { ...init, headers });
}
