/**
 * The git import transport's per-hop checks without any network: `checkDestinationUrl` (before connecting) and
 * `resolveDestination` (the socket's lookup) with a stubbed resolver. End-to-end cases against loopback servers
 * are in tests/integration/git/ssrf.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  checkDestinationUrl,
  GIT_IMPORT_UNREACHABLE,
  GitImportUnreachableError,
  type ResolvedAddress,
  resolveDestination,
} from "@/lib/net/git-http";

/** What `fn` threw: the class name, message and (for refusals) detail; "ok" when it did not throw. */
function outcome(fn: () => void): string {
  try {
    fn();
    return "ok";
  } catch (error) {
    if (error instanceof GitImportUnreachableError) return `${error.message} | ${error.detail}`;
    return `Error: ${(error as Error).message}`;
  }
}

async function resolved(promise: Promise<ResolvedAddress[]>): Promise<string> {
  try {
    return (await promise).map((a) => a.address).join(",");
  } catch (error) {
    if (error instanceof GitImportUnreachableError) return `${error.message} | ${error.detail}`;
    return `Error: ${(error as Error).message}`;
  }
}

const G = GIT_IMPORT_UNREACHABLE;
const dns =
  (table: Record<string, string[]>) =>
  async (host: string): Promise<ResolvedAddress[]> => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

describe("checkDestinationUrl (default policy: public destinations only)", () => {
  it("has the one generic text", () => {
    expect(G).toBe(
      "Git import failed: the repository could not be reached (its host name did not resolve, it did not answer, or it is not a public http(s) host; private addresses need STRATA_GIT_IMPORT_ALLOW_PRIVATE). Check the URL and that this server can reach it.",
    );
  });

  it("refuses every non-public IP literal and local name with the generic text, before any lookup", () => {
    const urls = [
      "http://127.0.0.1:8080/x.git",
      "http://2130706433/x.git",
      "http://0x7f.1/x.git",
      "http://127.0.0.1./x.git",
      "http://0.0.0.0/x.git",
      "http://10.0.0.1/x.git",
      "http://172.16.5.4/x.git",
      "http://192.168.0.10/x.git",
      "http://169.254.169.254/latest/meta-data/",
      "http://100.64.0.1/x.git",
      "http://224.0.0.1/x.git",
      "http://255.255.255.255/x.git",
      "http://[::1]/x.git",
      "http://[::]/x.git",
      "http://[fd00::1]/x.git",
      "http://[fe80::1]/x.git",
      "http://[::ffff:127.0.0.1]/x.git",
      "http://[::ffff:169.254.169.254]/x.git",
      "http://[64:ff9b::a9fe:a9fe]/x.git",
      "http://localhost:3000/x.git",
      "http://LOCALHOST./x.git",
      "http://git.localhost/x.git",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://metadata/x.git",
    ];
    expect(urls.map((u) => outcome(() => checkDestinationUrl(new URL(u), {})))).toEqual([
      `${G} | address 127.0.0.1 is refused (loopback)`,
      `${G} | address 127.0.0.1 is refused (loopback)`,
      `${G} | address 127.0.0.1 is refused (loopback)`,
      `${G} | address 127.0.0.1 is refused (loopback)`,
      `${G} | address 0.0.0.0 is refused (unspecified)`,
      `${G} | address 10.0.0.1 is refused (private)`,
      `${G} | address 172.16.5.4 is refused (private)`,
      `${G} | address 192.168.0.10 is refused (private)`,
      `${G} | address 169.254.169.254 is refused (linkLocal)`,
      `${G} | address 100.64.0.1 is refused (carrierGradeNat)`,
      `${G} | address 224.0.0.1 is refused (multicast)`,
      `${G} | address 255.255.255.255 is refused (broadcast)`,
      `${G} | address ::1 is refused (loopback)`,
      `${G} | address :: is refused (unspecified)`,
      `${G} | address fd00::1 is refused (uniqueLocal)`,
      `${G} | address fe80::1 is refused (linkLocal)`,
      `${G} | address ::ffff:7f00:1 is refused (loopback)`,
      `${G} | address ::ffff:a9fe:a9fe is refused (linkLocal)`,
      `${G} | address 64:ff9b::a9fe:a9fe is refused (linkLocal)`,
      `${G} | host name localhost is refused (local name)`,
      `${G} | host name localhost. is refused (local name)`,
      `${G} | host name git.localhost is refused (local name)`,
      `${G} | host name metadata.google.internal is refused (local name)`,
      `${G} | host name metadata is refused (local name)`,
    ]);
  });

  it("refuses other protocols with the generic text, and lets public destinations through", () => {
    expect(outcome(() => checkDestinationUrl(new URL("file:///etc/passwd"), {}))).toBe(
      `${G} | protocol file: is not http(s)`,
    );
    expect(outcome(() => checkDestinationUrl(new URL("ftp://example.com/x.git"), {}))).toBe(
      `${G} | protocol ftp: is not http(s)`,
    );
    expect(
      ["https://github.com/o/r.git", "http://140.82.112.3/o/r.git", "https://[2606:4700::1111]/r.git"].map(
        (u) => outcome(() => checkDestinationUrl(new URL(u), {})),
      ),
    ).toEqual(["ok", "ok", "ok"]);
  });

  it("allows private destinations with allowPrivate, or one exact address and port with allowAddress", () => {
    expect(
      outcome(() => checkDestinationUrl(new URL("http://127.0.0.1:8080/x.git"), { allowPrivate: true })),
    ).toBe("ok");
    expect(
      outcome(() => checkDestinationUrl(new URL("http://localhost/x.git"), { allowPrivate: true })),
    ).toBe("ok");
    const allowAddress = (address: string, port: number) => address === "127.0.0.1" && port === 8080;
    expect(
      ["http://127.0.0.1:8080/x.git", "http://127.0.0.1:8081/x.git", "http://127.0.0.2:8080/x.git"].map((u) =>
        outcome(() => checkDestinationUrl(new URL(u), { allowAddress })),
      ),
    ).toEqual([
      "ok",
      `${G} | address 127.0.0.1 is refused (loopback)`,
      `${G} | address 127.0.0.2 is refused (loopback)`,
    ]);
  });

  it("applies the host allow-list (STRATA_GIT_IMPORT_HOSTS) first, with its own message", () => {
    const allowHost = (h: string) => h === "github.com";
    expect(outcome(() => checkDestinationUrl(new URL("https://gitlab.com/x.git"), { allowHost }))).toBe(
      "Error: host gitlab.com is not allowed (STRATA_GIT_IMPORT_HOSTS)",
    );
    expect(outcome(() => checkDestinationUrl(new URL("https://gitlab.com/x.git"), { allowHost }, true))).toBe(
      "Error: redirected to host gitlab.com is not allowed (STRATA_GIT_IMPORT_HOSTS)",
    );
    expect(outcome(() => checkDestinationUrl(new URL("https://github.com/x.git"), { allowHost }))).toBe("ok");
  });
});

describe("resolveDestination (the socket's lookup)", () => {
  const resolve = dns({
    "public.example": ["140.82.112.3", "2606:4700::1111"],
    "rebind.example": ["140.82.112.3", "127.0.0.1"],
    "loopback.example": ["127.0.0.1"],
    "mapped.example": ["::ffff:10.0.0.7"],
    "metadata.example": ["169.254.169.254"],
    "v6only.example": ["2606:4700::1111"],
    "empty.example": [],
  });

  it("answers the checked addresses of a public name (filtered by family when the socket asks)", async () => {
    expect(await resolved(resolveDestination("public.example", 443, { resolve }))).toBe(
      "140.82.112.3,2606:4700::1111",
    );
    expect(await resolved(resolveDestination("public.example", 443, { resolve }, 4))).toBe("140.82.112.3");
    expect(await resolved(resolveDestination("public.example", 443, { resolve }, 6))).toBe("2606:4700::1111");
  });

  it("refuses a name when any address is not public, and failed or empty resolutions, all with the generic text", async () => {
    const names = [
      "rebind.example",
      "loopback.example",
      "mapped.example",
      "metadata.example",
      "nowhere.example",
    ];
    expect(await Promise.all(names.map((n) => resolved(resolveDestination(n, 80, { resolve }))))).toEqual([
      `${G} | host name rebind.example resolves to 127.0.0.1 (loopback)`,
      `${G} | host name loopback.example resolves to 127.0.0.1 (loopback)`,
      `${G} | host name mapped.example resolves to ::ffff:10.0.0.7 (private)`,
      `${G} | host name metadata.example resolves to 169.254.169.254 (linkLocal)`,
      `${G} | host name nowhere.example did not resolve`,
    ]);
    expect(await resolved(resolveDestination("empty.example", 80, { resolve }))).toBe(
      `${G} | host name empty.example has no address`,
    );
    expect(await resolved(resolveDestination("v6only.example", 80, { resolve }, 4))).toBe(
      `${G} | host name v6only.example has no address`,
    );
  });

  it("lets private answers through with allowPrivate, or by exact address and port with allowAddress", async () => {
    expect(await resolved(resolveDestination("rebind.example", 80, { resolve, allowPrivate: true }))).toBe(
      "140.82.112.3,127.0.0.1",
    );
    const allowAddress = (a: string, p: number) => a === "127.0.0.1" && p === 8080;
    expect(await resolved(resolveDestination("loopback.example", 8080, { resolve, allowAddress }))).toBe(
      "127.0.0.1",
    );
    expect(await resolved(resolveDestination("loopback.example", 8081, { resolve, allowAddress }))).toBe(
      `${G} | host name loopback.example resolves to 127.0.0.1 (loopback)`,
    );
  });
});
