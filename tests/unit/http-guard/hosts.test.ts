/** The Host allow-list (DNS rebinding): which names are answered, how the setting is parsed and refused. */
import { describe, expect, it } from "vitest";
import { checkHost, hostNameOf, parseAllowedHosts } from "@/lib/http-guard";

const names = (env: { HOST?: string; STRATA_ALLOWED_HOSTS?: string }) => {
  const parsed = parseAllowedHosts(env);
  if (!parsed.ok) throw new Error(parsed.message);
  return [...parsed.names];
};

describe("parseAllowedHosts", () => {
  it("answers the loopback names by default", () => {
    expect(names({})).toEqual(["127.0.0.1", "localhost", "[::1]"]);
  });

  it("adds HOST unless it is a wildcard address", () => {
    expect(names({ HOST: "Devbox.LAN" })).toEqual(["127.0.0.1", "localhost", "[::1]", "devbox.lan"]);
    expect(names({ HOST: "0.0.0.0" })).toEqual(["127.0.0.1", "localhost", "[::1]"]);
    expect(names({ HOST: "::" })).toEqual(["127.0.0.1", "localhost", "[::1]"]);
    expect(names({ HOST: "127.0.0.1" })).toEqual(["127.0.0.1", "localhost", "[::1]"]);
  });

  it("adds STRATA_ALLOWED_HOSTS, normalised (case, trailing dot, IPv6 brackets, blanks skipped)", () => {
    expect(
      names({ STRATA_ALLOWED_HOSTS: " Strata.Example.com, devbox.lan.,,192.168.1.20, fd00::5 ,[fe80::1]" }),
    ).toEqual([
      "127.0.0.1",
      "localhost",
      "[::1]",
      "strata.example.com",
      "devbox.lan",
      "192.168.1.20",
      "[fd00::5]",
      "[fe80::1]",
    ]);
  });

  it("refuses an entry that is not a host name, naming it and the fix", () => {
    for (const bad of [
      "http://strata.example.com",
      "strata.example.com:3000",
      "*.example.com",
      "a b",
      "0.0.0.0",
    ]) {
      expect(parseAllowedHosts({ STRATA_ALLOWED_HOSTS: `localhost,${bad}` })).toEqual({
        ok: false,
        message: `STRATA_ALLOWED_HOSTS entry ${JSON.stringify(bad)} is not a host name. List exact names or IP addresses separated by commas (e.g. strata.example.com,192.168.1.20), without scheme, port, path or wildcard, and restart Strata.`,
      });
    }
  });
});

describe("hostNameOf", () => {
  it("takes the name of a Host header, with or without port", () => {
    expect(hostNameOf("127.0.0.1:3107")).toBe("127.0.0.1");
    expect(hostNameOf("LOCALHOST")).toBe("localhost");
    expect(hostNameOf("localhost.:80")).toBe("localhost");
    expect(hostNameOf("[::1]:3000")).toBe("[::1]");
    expect(hostNameOf("[::1]")).toBe("[::1]");
  });

  it("gives nothing for a missing or malformed Host", () => {
    for (const bad of [
      null,
      undefined,
      "",
      "evil@127.0.0.1",
      "127.0.0.1:99999",
      "127.0.0.1/x",
      "a b",
      "::1",
    ]) {
      expect(hostNameOf(bad)).toBeUndefined();
    }
  });
});

describe("checkHost", () => {
  const allowed = new Set(["127.0.0.1", "localhost", "[::1]"]);
  const refusal = (shown: string) => ({
    status: 421,
    code: "host_not_allowed",
    message: `Host ${shown} is not a name this Strata answers to (protection against DNS rebinding). It answers to 127.0.0.1, localhost, [::1], the HOST it was started with and the names listed in STRATA_ALLOWED_HOSTS (comma-separated); to use this name, add it there and restart Strata.`,
  });

  it("serves the allowed names on any port", () => {
    expect(checkHost("127.0.0.1:3107", allowed)).toBeUndefined();
    expect(checkHost("localhost:3000", allowed)).toBeUndefined();
    expect(checkHost("[::1]:3000", allowed)).toBeUndefined();
  });

  it("refuses a foreign name with 421, also names that only start like an allowed one", () => {
    expect(checkHost("attacker.example", allowed)).toEqual(refusal('"attacker.example"'));
    expect(checkHost("127.0.0.1.attacker.example:3107", allowed)).toEqual(
      refusal('"127.0.0.1.attacker.example:3107"'),
    );
    expect(checkHost("sub.localhost", allowed)).toEqual(refusal('"sub.localhost"'));
    expect(checkHost(null, allowed)).toEqual(refusal("(none)"));
  });
});
