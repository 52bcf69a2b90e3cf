/** The default SSRF policy's address and name classification (lib/net/addresses.ts). */
import { describe, expect, it } from "vitest";
import { classifyAddress, isIpLiteral, isLocalHostName, isPublicAddress } from "@/lib/net/addresses";

/** The host of `url` as the guarded transport sees it (WHATWG URL parsing, brackets removed). */
const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, "");

describe("classifyAddress", () => {
  it("refuses every non-public IPv4 range with its name", () => {
    const cases: [string, string][] = [
      ["127.0.0.1", "loopback"],
      ["127.255.255.254", "loopback"],
      ["0.0.0.0", "unspecified"],
      ["10.0.0.1", "private"],
      ["172.16.0.1", "private"],
      ["172.31.255.255", "private"],
      ["192.168.1.1", "private"],
      ["169.254.169.254", "linkLocal"],
      ["169.254.0.1", "linkLocal"],
      ["100.64.0.1", "carrierGradeNat"],
      ["100.127.255.255", "carrierGradeNat"],
      ["224.0.0.1", "multicast"],
      ["239.255.255.250", "multicast"],
      ["255.255.255.255", "broadcast"],
      ["192.0.2.1", "reserved"],
      ["240.0.0.1", "reserved"],
    ];
    expect(cases.map(([a]) => [a, classifyAddress(a)])).toEqual(cases);
  });

  it("refuses every non-public IPv6 range, and IPv4-mapped / NAT64 forms by their embedded IPv4 address", () => {
    const cases: [string, string][] = [
      ["::1", "loopback"],
      ["::", "unspecified"],
      ["fc00::1", "uniqueLocal"],
      ["fd12:3456::1", "uniqueLocal"],
      ["fe80::1", "linkLocal"],
      ["fe80::1%eth0", "linkLocal"],
      ["ff02::1", "multicast"],
      ["::ffff:127.0.0.1", "loopback"],
      ["::ffff:7f00:1", "loopback"],
      ["::ffff:10.1.2.3", "private"],
      ["::ffff:169.254.169.254", "linkLocal"],
      ["::ffff:100.64.0.1", "carrierGradeNat"],
      ["::ffff:0.0.0.0", "unspecified"],
      ["64:ff9b::7f00:1", "loopback"],
      ["64:ff9b::a9fe:a9fe", "linkLocal"],
      ["::7f00:1", "nonGlobal"],
      ["2002:7f00:1::", "6to4"],
      ["2001::1", "teredo"],
      ["2001:db8::1", "reserved"],
      ["[::1]", "loopback"],
    ];
    expect(cases.map(([a]) => [a, classifyAddress(a)])).toEqual(cases);
  });

  it("answers public for public unicast addresses, mapped and NAT64 forms included", () => {
    const addresses = [
      "8.8.8.8",
      "140.82.112.3",
      "1.1.1.1",
      "2606:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
    ];
    expect(addresses.map(classifyAddress)).toEqual(addresses.map(() => "public"));
    expect(addresses.every(isPublicAddress)).toBe(true);
    expect(isPublicAddress("172.32.0.1")).toBe(true);
    expect(isPublicAddress("172.15.255.255")).toBe(true);
    expect(isPublicAddress("100.128.0.1")).toBe(true);
  });

  it("answers invalid for what is not an address", () => {
    expect(["localhost", "example.com", "", "1.2.3.4.5", "::g"].map(classifyAddress)).toEqual([
      "invalid",
      "invalid",
      "invalid",
      "invalid",
      "invalid",
    ]);
  });

  it("sees through decimal, octal, hex and short IPv4 forms: URL parsing normalises them to loopback", () => {
    const urls = [
      "http://2130706433/",
      "http://0x7f.1/",
      "http://0177.0.0.1/",
      "http://0x7f000001/",
      "http://127.1/",
      "http://017700000001/",
      "http://[::ffff:127.0.0.1]/",
      "http://[0:0:0:0:0:ffff:7f00:1]/",
      "http://[::1]/",
    ];
    const hosts = urls.map(hostOf);
    expect(hosts).toEqual([
      "127.0.0.1",
      "127.0.0.1",
      "127.0.0.1",
      "127.0.0.1",
      "127.0.0.1",
      "127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:7f00:1",
      "::1",
    ]);
    expect(hosts.map(classifyAddress)).toEqual(hosts.map(() => "loopback"));
    expect(hosts.every(isIpLiteral)).toBe(true);
    // ipaddr.js reads the unnormalised forms the same way, should one ever reach it directly.
    expect(["2130706433", "0x7f.1", "0177.0.0.1"].map(classifyAddress)).toEqual([
      "loopback",
      "loopback",
      "loopback",
    ]);
    expect(hostOf("http://169.254.169.254/latest/meta-data/")).toBe("169.254.169.254");
    expect(classifyAddress(hostOf("http://0xa9.0xfe.0xa9.0xfe/"))).toBe("linkLocal");
  });
});

describe("isLocalHostName", () => {
  it("refuses localhost, *.localhost, local-use suffixes and single-label names; case and a trailing dot ignored", () => {
    const names = [
      "localhost",
      "LOCALHOST",
      "localhost.",
      "api.localhost",
      "metadata.google.internal",
      "metadata.google.internal.",
      "printer.local",
      "nas.home.arpa",
      "localhost.localdomain",
      "metadata",
      "intranet",
    ];
    expect(names.filter((n) => !isLocalHostName(n))).toEqual([]);
  });

  it("lets public names and IP literals through (IP literals are classified as addresses instead)", () => {
    const names = [
      "github.com",
      "gitlab.example.com",
      "localhost.example.com",
      "internal.example.com",
      "127.0.0.1",
      "::1",
    ];
    expect(names.filter((n) => isLocalHostName(n))).toEqual([]);
  });
});
