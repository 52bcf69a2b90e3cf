/**
 * The Host allow-list (DNS rebinding): a page on attacker.example whose name was re-pointed at 127.0.0.1
 * reaches Strata with `Host: attacker.example`, so Strata answers only to the names it is served under.
 */

/** Names always answered: the loopback names a local browser uses. */
export const LOOPBACK_HOST_NAMES: readonly string[] = ["127.0.0.1", "localhost", "[::1]"];

/** Names `HOST` may carry that mean "every interface", not a name anyone browses to. */
const WILDCARD_ADDRESSES = new Set(["0.0.0.0", "::", "[::]"]);

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const DNS_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/** The names Strata answers to, or why the configuration is unusable. */
export type AllowedHosts = { ok: true; names: ReadonlySet<string> } | { ok: false; message: string };

/**
 * Normalise a host name: lower case, no trailing dot, IPv6 literals in brackets. Undefined when `name` is
 * not a DNS name, an IPv4 literal or an IPv6 literal (with or without brackets).
 */
export function normalizeHostName(name: string): string | undefined {
  let n = name.trim().toLowerCase();
  if (n.endsWith(".")) n = n.slice(0, -1);
  if (!n.startsWith("[") && n.includes(":")) n = `[${n}]`;
  if (IPV6.test(n) || IPV4.test(n) || DNS_NAME.test(n)) return n;
  return undefined;
}

/**
 * The allow-list from the environment: {@link LOOPBACK_HOST_NAMES}, `HOST` (the address `npm start` serves
 * on, unless it is a wildcard such as 0.0.0.0) and `STRATA_ALLOWED_HOSTS` (comma-separated exact names, e.g.
 * `strata.example.com,devbox.lan`; no scheme, port, path or wildcard).
 * @returns `{ ok: false, message }` naming the first bad entry of STRATA_ALLOWED_HOSTS and the fix.
 */
export function parseAllowedHosts(env: { HOST?: string; STRATA_ALLOWED_HOSTS?: string }): AllowedHosts {
  const names = new Set(LOOPBACK_HOST_NAMES);
  const host = env.HOST ? normalizeHostName(env.HOST) : undefined;
  if (host && !WILDCARD_ADDRESSES.has(host)) names.add(host);
  for (const raw of (env.STRATA_ALLOWED_HOSTS ?? "").split(",")) {
    if (raw.trim() === "") continue;
    const name = normalizeHostName(raw);
    if (!name || WILDCARD_ADDRESSES.has(name)) {
      return {
        ok: false,
        message: `STRATA_ALLOWED_HOSTS entry ${JSON.stringify(raw.trim())} is not a host name. List exact names or IP addresses separated by commas (e.g. strata.example.com,192.168.1.20), without scheme, port, path or wildcard, and restart Strata.`,
      };
    }
    names.add(name);
  }
  return { ok: true, names };
}

/**
 * The host name of a `Host` header (`name`, `name:port`, `[v6]:port`), normalised; undefined when the
 * header is missing or malformed (user info, a path, a bad port).
 */
export function hostNameOf(hostHeader: string | null | undefined): string | undefined {
  if (!hostHeader) return undefined;
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]@/\\\s]+)(?::(\d{1,5}))?$/.exec(hostHeader);
  if (!match || (match[2] !== undefined && Number(match[2]) > 65535)) return undefined;
  return normalizeHostName(match[1]);
}

/** The refusal of a request whose Host is not allowed (HTTP 421), or undefined when it may be served. */
export function checkHost(
  hostHeader: string | null | undefined,
  allowed: ReadonlySet<string>,
): { status: 421; code: "host_not_allowed"; message: string } | undefined {
  const name = hostNameOf(hostHeader);
  if (name !== undefined && allowed.has(name)) return undefined;
  const shown = hostHeader ? JSON.stringify(hostHeader.slice(0, 100)) : "(none)";
  return {
    status: 421,
    code: "host_not_allowed",
    message: `Host ${shown} is not a name this Strata answers to (protection against DNS rebinding). It answers to 127.0.0.1, localhost, [::1], the HOST it was started with and the names listed in STRATA_ALLOWED_HOSTS (comma-separated); to use this name, add it there and restart Strata.`,
  };
}
