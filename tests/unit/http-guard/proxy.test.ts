/**
 * The request guard as Next runs it (`proxy.ts`): refusals are answered before the app with their exact JSON,
 * passes go on (`x-middleware-next`) with the security headers, and a page's CSP reaches Next on the request
 * (`x-middleware-request-content-security-policy`) so Next puts the same nonce on its scripts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { setEnv } from "../../helpers/env";

const APP = "http://127.0.0.1:3107";

function call(path: string, init: { method?: string; headers?: Record<string, string> } = {}): Response {
  return proxy(
    new Request(`${APP}${path}`, {
      method: init.method ?? "GET",
      headers: { host: "127.0.0.1:3107", ...init.headers },
    }),
  );
}

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe("proxy.ts", () => {
  it("refuses a cross-origin text/plain POST of a !command with 403 cross_origin, before any route", async () => {
    const res = call("/api/sessions/s1/prompt", {
      method: "POST",
      headers: {
        origin: "http://evil.example",
        "sec-fetch-site": "cross-site",
        "content-type": "text/plain",
      },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("x-middleware-next")).toBeNull();
    expect(await res.json()).toEqual({
      error: {
        code: "cross_origin",
        message:
          'Cross-site request refused: Sec-Fetch-Site is "cross-site", not "same-origin". State-changing requests (POST, PUT, PATCH, DELETE) are accepted only from Strata\'s own pages, or from clients that send neither Origin nor Sec-Fetch-Site (curl, scripts, the strata CLI).',
      },
    });
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("refuses a foreign Host with 421 host_not_allowed, pages and API alike", async () => {
    for (const path of ["/", "/api/config", "/_next/static/chunks/main.js"]) {
      const res = call(path, { headers: { host: "attacker.example" } });
      expect(res.status).toBe(421);
      expect((await res.json()).error.code).toBe("host_not_allowed");
    }
  });

  it("serves a name listed in STRATA_ALLOWED_HOSTS, and answers 500 bad_config for a bad entry", async () => {
    restore = setEnv({ STRATA_ALLOWED_HOSTS: "strata.example.com" });
    expect(call("/", { headers: { host: "strata.example.com:3107" } }).headers.get("x-middleware-next")).toBe(
      "1",
    );
    restore();
    restore = setEnv({ STRATA_ALLOWED_HOSTS: "https://strata.example.com" });
    const res = call("/api/config");
    expect(res.status).toBe(500);
    expect((await res.json()).error).toEqual({
      code: "bad_config",
      message:
        'STRATA_ALLOWED_HOSTS entry "https://strata.example.com" is not a host name. List exact names or IP addresses separated by commas (e.g. strata.example.com,192.168.1.20), without scheme, port, path or wildcard, and restart Strata.',
    });
  });

  it("passes Strata's own POST and a non-browser POST on, with the API headers", () => {
    const variants: Record<string, string>[] = [{ origin: APP, "sec-fetch-site": "same-origin" }, {}];
    for (const headers of variants) {
      const res = call("/api/projects", { method: "POST", headers });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-middleware-next")).toBe("1");
      expect(res.headers.get("content-security-policy")).toBe(
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      );
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    }
  });

  it("gives each page a fresh nonce, the same on the response and on the request handed to Next", () => {
    const first = call("/projects/p1");
    const second = call("/projects/p1");
    const csp = first.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
    expect(second.headers.get("content-security-policy")).not.toBe(csp);
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
