/**
 * Which hosts a git import may reach: `STRATA_GIT_IMPORT_HOSTS`, a comma-separated list of host names, each
 * exact (`github.com`, `127.0.0.1`) or a subdomain wildcard (`*.example.com`, which does not match
 * `example.com` itself). Unset or empty: any host (the default for a local install). Self-hosted servers set it
 * so a project URL cannot make the server reach internal hosts.
 */

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
