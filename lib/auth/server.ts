/**
 * Strata's Better Auth instance: email + password (scrypt), HTTP-only cookies, the organization plugin (workspaces,
 * members, invitations, four roles), the API-key plugin (personal access tokens) and the local owner's sign-in.
 *
 * One instance per request, bound to that request's database connection (`DbScope.run`): the edge runtime gives a
 * request no connection another request opened. Building it costs about a millisecond (`npm run bench`).
 */
import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { organization } from "better-auth/plugins/organization";
import * as schema from "@/db/schema";
import type { Db } from "@/lib/db/client";
import { localOwnerPlugin } from "./local-owner";
import { consumeRateLimit } from "./rate-limit";
import { accessControl, organizationRoles } from "./roles";
import {
  type ChangedMember,
  createUserWorkspaces,
  guardInvitation,
  guardSlug,
  guardWorkspaceDelete,
  keepAnOwner,
} from "./workspaces";

type Env = Record<string, string | undefined>;

/** How long a browser stays signed in (s): 30 days, refreshed daily while used. */
export const SESSION_EXPIRES_IN = 30 * 24 * 3600;
/** How long an invitation by email is valid (s): 7 days. */
export const INVITATION_EXPIRES_IN = 7 * 24 * 3600;
/** Personal access tokens: requests per minute per token (Better Auth's default, 10 a day, would lock a CLI user out). */
export const TOKEN_REQUESTS_PER_MINUTE = 600;

/**
 * The secret Better Auth signs cookies with.
 * @throws Error naming `BETTER_AUTH_SECRET` (never its value) when it is unset or shorter than 32 characters.
 */
export function authSecret(env: Env): string {
  const secret = env.BETTER_AUTH_SECRET;
  if (!secret || secret.length < 32)
    throw new Error(
      "BETTER_AUTH_SECRET is not set (or shorter than 32 characters). `npm start` creates one in .strata/; elsewhere set it, e.g. `openssl rand -base64 32`.",
    );
  return secret;
}

/** Per-IP limits on Better Auth's routes, seconds / requests; `STRATA_SIGNIN_RATE_LIMIT` overrides sign-in's 10 a minute. */
export function authRateRules(env: Env) {
  const signIn = Number(env.STRATA_SIGNIN_RATE_LIMIT ?? 10);
  return {
    "/sign-in/email": { window: 60, max: Number.isFinite(signIn) && signIn > 0 ? signIn : 10 },
    "/sign-up/email": { window: 3600, max: 30 },
    "/change-password": { window: 60, max: 5 },
    "/api-key/create": { window: 60, max: 10 },
    "/api-key/verify": { window: 60, max: 60 },
  };
}

/** Sign-ups per hour for the whole server: `STRATA_SIGNUP_RATE_LIMIT` (default 100; a non-positive or non-number value: 100). */
export function signUpServerRule(env: Env): { window: number; max: number } {
  const max = Number(env.STRATA_SIGNUP_RATE_LIMIT ?? 100);
  return { window: 3600, max: Number.isFinite(max) && max > 0 ? Math.floor(max) : 100 };
}

/**
 * The server-wide sign-up cap ({@link signUpServerRule}), on top of the per-address 30 an hour: that one is keyed by
 * `X-Forwarded-For`, which a client reaching `next start` directly forges at will. Counts every HTTP sign-up attempt
 * (`ctx.request` set); the CLI's `npx strata user create` (a server-side call) is not counted or refused.
 * @throws APIError 429 (`X-Retry-After` seconds) over the cap.
 */
async function limitSignUps(db: Db, env: Env, ctx: { path: string; request?: Request }): Promise<void> {
  if (env.STRATA_AUTH_RATE_LIMIT === "off" || ctx.path !== "/sign-up/email" || !ctx.request) return;
  const decision = await consumeRateLimit(db, "auth:server|/sign-up/email", signUpServerRule(env));
  if (!decision.allowed)
    throw new APIError(
      "TOO_MANY_REQUESTS",
      {
        code: "RATE_LIMITED",
        message: `Too many sign-ups on this server right now; try again in ${decision.retryAfter} s.`,
      },
      { "X-Retry-After": String(decision.retryAfter) },
    );
}

/** SHA-256 (hex) of `value`: how a session cookie is named in a rate-limit key (never the cookie itself). */
async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The session cookie's value in a `Cookie` header (plain or `__Secure-` name), or "". */
function sessionCookie(headers: Headers | undefined): string {
  const match = /(?:^|;\s*)(?:__Secure-)?strata\.session_token=([^;]*)/.exec(headers?.get("cookie") ?? "");
  return match?.[1] ?? "";
}

/**
 * The per-account limits, on top of Better Auth's per-address ones (same rule, from {@link authRateRules}): sign-in
 * keyed by the lower-cased email, change-password by the session (a stolen cookie must not guess the current
 * password at will). The per-address limit alone does not hold: `next start` passes a client's own
 * `X-Forwarded-For` through and Better Auth keys by it, so a brute force rotating that header was never limited.
 * @throws APIError 429 (`X-Retry-After` seconds) over the limit.
 */
async function limitPerAccount(
  db: Db,
  env: Env,
  ctx: { path: string; body?: { email?: unknown }; headers?: Headers },
): Promise<void> {
  if (env.STRATA_AUTH_RATE_LIMIT === "off") return;
  let subject = "";
  if (ctx.path === "/sign-in/email" && typeof ctx.body?.email === "string")
    subject = `account:${ctx.body.email.trim().toLowerCase().slice(0, 320)}`;
  else if (ctx.path === "/change-password" && sessionCookie(ctx.headers))
    subject = `session:${await sha256Hex(sessionCookie(ctx.headers))}`;
  if (!subject || subject === "account:") return;
  const path = ctx.path as "/sign-in/email" | "/change-password";
  const decision = await consumeRateLimit(db, `auth:${subject}|${path}`, authRateRules(env)[path]);
  if (!decision.allowed)
    throw new APIError(
      "TOO_MANY_REQUESTS",
      {
        code: "RATE_LIMITED",
        message: `Too many ${path === "/sign-in/email" ? "sign-in attempts for this account" : "password changes from this session"}. Try again in ${decision.retryAfter} s.`,
      },
      { "X-Retry-After": String(decision.retryAfter) },
    );
}

/**
 * Characters a name may not hold: control characters (a newline in an author wrote a commit header isomorphic-git
 * cannot read back, so approving that member's rules proposal answered 500 for good; a NUL is refused by Postgres),
 * `<` and `>` (they delimit the author's email), and the bidirectional controls (U+061C, U+200E/F, U+202A–E,
 * U+2066–9: a right-to-left override shows "Alice\u202Eecila" reversed in a member list, a spoofed name).
 */
const UNSAFE_NAME = /[\u0000-\u001f\u007f-\u009f<>\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Refuse a display name or a team name holding an {@link UNSAFE_NAME} character (sign-up, update-user, a team's
 * create and update).
 * @throws APIError 400 `INVALID_NAME` naming what to remove.
 */
export function checkDisplayName(name: unknown): void {
  if (typeof name === "string" && UNSAFE_NAME.test(name))
    throw new APIError("BAD_REQUEST", {
      code: "INVALID_NAME",
      message:
        "A name cannot contain line breaks, tabs or other control characters, text-direction controls, “<” or “>”. Remove them and try again.",
    });
}

/** The name a Better Auth request sets, if any: a user's or a team's (create: `name`, update: `data.name`). */
function nameSetBy(path: string, body: unknown): unknown {
  const b = (body ?? {}) as { name?: unknown; data?: { name?: unknown } };
  if (path === "/sign-up/email" || path === "/update-user" || path === "/organization/create") return b.name;
  if (path === "/organization/update") return b.data?.name;
  return undefined;
}

/**
 * The hooks around every auth endpoint: before, the display-name check and the per-account and sign-up rate limits;
 * after `/organization/leave` (which has no organization hook), keep an owner in the team. The other member changes
 * use afterUpdateMemberRole and afterRemoveMember (organizationPlugin).
 */
function authHooks(db: Db, env: Env) {
  return {
    before: createAuthMiddleware(async (ctx) => {
      checkDisplayName(nameSetBy(ctx.path, ctx.body));
      await limitPerAccount(db, env, ctx);
      await limitSignUps(db, env, ctx);
    }),
    after: createAuthMiddleware(async (ctx) => {
      const left = ctx.context.returned as ChangedMember | undefined;
      if (ctx.path === "/organization/leave" && left && typeof left === "object" && "organizationId" in left)
        await keepAnOwner(db, left);
    }),
  };
}

/** Teams as Better Auth organizations: Strata's roles, invitation expiry, and the guards on slugs, invitations, deletes and owners. */
function organizationPlugin(db: Db) {
  return organization({
    ac: accessControl,
    roles: organizationRoles,
    creatorRole: "owner",
    invitationExpiresIn: INVITATION_EXPIRES_IN,
    cancelPendingInvitationsOnReInvite: true,
    organizationHooks: {
      beforeCreateOrganization: async ({ organization: org }) => guardSlug(db, org.slug),
      beforeUpdateOrganization: async ({ organization: org, member }) =>
        guardSlug(db, org.slug, member.organizationId),
      beforeCreateInvitation: async ({ organization: org }) => guardInvitation(db, org.id),
      beforeDeleteOrganization: async ({ organization: org }) => guardWorkspaceDelete(db, org.id),
      afterUpdateMemberRole: async ({ member, previousRole }) => keepAnOwner(db, member, previousRole),
      afterRemoveMember: async ({ member }) => keepAnOwner(db, member),
    },
  });
}

/**
 * A Better Auth instance on `db`. `origin` is the request's origin (the Host allow-list of `lib/http-guard` has
 * already vetted it): it is the base URL and the only trusted origin, so a cross-site form post is refused (CSRF).
 * @throws Error when `BETTER_AUTH_SECRET` is missing (see {@link authSecret}).
 */
export function createAuth(db: Db, origin: string, env: Env = process.env) {
  const pending = new Set<Promise<unknown>>();
  const auth = betterAuth({
    appName: "Strata",
    baseURL: origin,
    basePath: "/api/auth",
    secret: authSecret(env),
    trustedOrigins: [origin],
    database: trackingAdapter(
      pending,
      drizzleAdapter(db, {
        provider: "pg",
        schema: {
          user: schema.users,
          session: schema.authSessions,
          account: schema.authAccounts,
          verification: schema.authVerifications,
          organization: schema.workspaces,
          member: schema.workspaceMembers,
          invitation: schema.workspaceInvitations,
          apikey: schema.apiKeys,
        },
      }),
    ),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 256,
      autoSignIn: true,
      disableSignUp: env.STRATA_SIGNUP === "closed",
      revokeSessionsOnPasswordReset: true,
    },
    session: { expiresIn: SESSION_EXPIRES_IN, updateAge: 24 * 3600 },
    advanced: {
      database: { generateId: "uuid" },
      cookiePrefix: "strata",
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    rateLimit: {
      enabled: env.STRATA_AUTH_RATE_LIMIT !== "off",
      window: 60,
      max: 300,
      customRules: authRateRules(env),
      customStorage: { consume: (key, rule) => consumeRateLimit(db, `auth:${key}`, rule) },
    },
    hooks: authHooks(db, env),
    databaseHooks: {
      user: { create: { after: async (user) => createUserWorkspaces(db, user.id) } },
    },
    telemetry: { enabled: false },
    plugins: [
      organizationPlugin(db),
      apiKey({
        defaultPrefix: "strata_",
        // `start` shown in Settings to tell tokens apart: the prefix and 5 characters of the token (default 6 = "strata").
        startingCharactersConfig: { shouldStore: true, charactersLength: 12 },
        rateLimit: { enabled: true, timeWindow: 60_000, maxRequests: TOKEN_REQUESTS_PER_MINUTE },
        keyExpiration: { defaultExpiresIn: null, minExpiresIn: 1, maxExpiresIn: 366 },
        maximumNameLength: 64,
      }),
      localOwnerPlugin(env),
    ],
  });
  pendingWork.set(auth, pending);
  return auth;
}

export type StrataAuth = ReturnType<typeof createAuth>;

/** Database calls each instance has started and not finished (see {@link settleAuth}). */
const pendingWork = new WeakMap<object, Set<Promise<unknown>>>();

type AdapterFactory = ReturnType<typeof drizzleAdapter>;

/**
 * The adapter with every call it makes recorded in `pending` until it settles. Better Auth starts some calls without
 * awaiting them (the API-key plugin's deletion of expired keys after a create, list or verify): on a connection the
 * request releases when it answers, they would fail with "Connection terminated".
 */
function trackingAdapter(pending: Set<Promise<unknown>>, factory: AdapterFactory): AdapterFactory {
  return (options) =>
    new Proxy(factory(options), {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const result = value.apply(target, args);
          if (result && typeof (result as Promise<unknown>).then === "function") {
            const call = Promise.resolve(result);
            pending.add(call);
            call.then(
              () => pending.delete(call),
              () => pending.delete(call),
            );
          }
          return result;
        };
      },
    });
}

/**
 * Wait until every database call `auth` started has settled — call it before the request's connection is released.
 * Never throws (a failed background call was already logged by Better Auth).
 */
export async function settleAuth(auth: StrataAuth): Promise<void> {
  const pending = pendingWork.get(auth);
  while (pending && pending.size > 0) await Promise.allSettled([...pending]);
}
