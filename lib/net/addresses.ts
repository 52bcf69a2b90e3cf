/**
 * Which network destinations an outgoing request made on a user's behalf (a git import) may reach by default:
 * public unicast addresses only. Classification is `ipaddr.js`'s (IANA special-purpose registries), plus the
 * embedded IPv4 of IPv4-mapped (`::ffff:a.b.c.d`) and NAT64 (`64:ff9b::/96`) IPv6 addresses, and IPv6 only
 * inside global unicast `2000::/3`. Pure code (no Node APIs); it lives in `lib/net/` beside the Node transport
 * that uses it (see `lib/net/git-http.ts`).
 */
import ipaddr from "ipaddr.js";

/**
 * Why an address is refused, or "public". The names are ipaddr.js's ranges (`loopback`, `private`,
 * `linkLocal`, `carrierGradeNat`, `uniqueLocal`, `multicast`, `broadcast`, `unspecified`, `reserved`,
 * `6to4`, `teredo`…) plus `nonGlobal` (IPv6 outside 2000::/3, e.g. the deprecated IPv4-compatible `::a.b.c.d`)
 * and `invalid` (not an IP address at all).
 */
export type AddressClass = "public" | "invalid" | "nonGlobal" | string;

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

/**
 * Classify one IP address.
 * @param address an IPv4 (dotted quad; ipaddr.js also accepts the octal/hex/long forms such as `0x7f.1` and
 *   `2130706433`) or IPv6 address, with or without `[...]` brackets and a `%zone` suffix.
 * @returns "public" for a public unicast address, otherwise the name of the range that refuses it.
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return "invalid";
  let ip = ipaddr.parse(bare);
  if (ip.kind() === "ipv6") {
    const v6 = ip as ipaddr.IPv6;
    const range = v6.range();
    // Mapped and NAT64 addresses reach the embedded IPv4 address: classify that one.
    if (range === "ipv4Mapped") ip = v6.toIPv4Address();
    else if (range === "rfc6052") ip = ipaddr.IPv4.parse(v6.toByteArray().slice(12).join("."));
    else if (range !== "unicast") return range;
    else if (!v6.match(GLOBAL_UNICAST_V6)) return "nonGlobal";
    else return "public";
  }
  const range = (ip as ipaddr.IPv4).range();
  return range === "unicast" ? "public" : range;
}

/** @returns true when `address` (see {@link classifyAddress}) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === "public";
}

/** @returns true when `host` is written as an IP address (URL hosts are normalised: IPv4 dotted, IPv6 in brackets). */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host.replace(/^\[|\]$/g, ""));
}

/** Private-use and special-use name suffixes (RFC 6761, RFC 6762, RFC 8375, ICANN's `.internal`). */
const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa", ".localdomain"];

/**
 * Host names refused before any DNS lookup by default: `localhost` and `*.localhost`, `.local` (mDNS),
 * `.internal` (which holds `metadata.google.internal`), `.home.arpa`, `.localdomain`, and single-label names
 * (`metadata`, `intranet`: resolved through the server's search domains). Case and one trailing dot are ignored.
 * @param host a URL host name (no port); IP literals are not names and answer false.
 * @returns true when the name is refused.
 */
export function isLocalHostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  if (isIpLiteral(h)) return false;
  if (h === "localhost" || !h.includes(".")) return true;
  return LOCAL_SUFFIXES.some((s) => h.endsWith(s));
}
