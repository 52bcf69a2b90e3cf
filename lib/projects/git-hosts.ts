/**
 * What a git import may reach, read from the server's environment:
 *
 * - `STRATA_GIT_IMPORT_HOSTS`: a comma-separated list of host names, each exact (`github.com`, `127.0.0.1`) or a
 *   subdomain wildcard (`*.example.com`, which does not match `example.com` itself). Unset or empty: any host name.
 * - `STRATA_GIT_IMPORT_ALLOW_PRIVATE`: `1` / `true` / `yes` / `on` (any case) lets an import reach loopback,
 *   private, link-local, CGNAT… addresses and local names (`localhost`, `*.internal`) — for a self-hosted git
 *   server on the same machine or network, and the test stacks. Anything else, or unset: refused (the default),
 *   after DNS resolution and on every redirect hop (`lib/net/git-http.ts`).
 */
import type { GitImportNetPolicy } from "@/lib/net/git-http";

/**
 * @returns a predicate on a URL's host name (lower-cased, without port), or undefined when every host is allowed.
 */
export function gitImportHostPolicy(
  env: Record<string, string | undefined>,
): ((host: string) => boolean) | undefined {
  const patterns = (env.STRATA_GIT_IMPORT_HOSTS ?? "")
    .split(",")
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p !== "");
  if (patterns.length === 0) return undefined;
  return (host) => {
    const h = host.toLowerCase().replace(/^\[|\]$/g, "");
    return patterns.some((p) => (p.startsWith("*.") ? h.endsWith(p.slice(1)) : h === p));
  };
}

/** @returns true when `STRATA_GIT_IMPORT_ALLOW_PRIVATE` is `1`, `true`, `yes` or `on` (any case, spaces ignored). */
export function gitImportAllowsPrivate(env: Record<string, string | undefined>): boolean {
  return ["1", "true", "yes", "on"].includes(
    (env.STRATA_GIT_IMPORT_ALLOW_PRIVATE ?? "").trim().toLowerCase(),
  );
}

/**
 * The network policy of a git import from the environment: `{ allowHost, allowPrivate }` for
 * `createGitImportHttp` (`lib/net/git-http.ts`).
 */
export function gitImportPolicy(env: Record<string, string | undefined>): GitImportNetPolicy {
  return { allowHost: gitImportHostPolicy(env), allowPrivate: gitImportAllowsPrivate(env) };
}
