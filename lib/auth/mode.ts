/**
 * How people get in: `local` (the embedded default: PGlite, bound to loopback — a local owner account exists and a
 * loopback browser is signed in as it) or `accounts` (sign-up / sign-in only). `npm start` decides and passes
 * `STRATA_AUTH_MODE`; a server started another way (`next start`, a platform) is `accounts` unless told otherwise.
 */

export type AuthMode = "local" | "accounts";

/** The local owner's sign-in address (the embedded default's automatic account). */
export const LOCAL_OWNER_EMAIL = "owner@strata.localhost";
export const LOCAL_OWNER_NAME = "Local owner";

/**
 * The mode for `env`: `local` when `STRATA_AUTH_MODE=local` (set by `npm start` only on its embedded database, when no
 * `DATABASE_URL` was given) and `HOST` is unset or a loopback address; `accounts` otherwise.
 */
export function authMode(env: Record<string, string | undefined>): AuthMode {
  if (env.STRATA_AUTH_MODE !== "local") return "accounts";
  if (env.HOST && !isLoopbackHost(env.HOST)) return "accounts";
  return "local";
}

/** Whether `host` (a bind address or a Host header's name, no port) names this machine's loopback interface. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}
