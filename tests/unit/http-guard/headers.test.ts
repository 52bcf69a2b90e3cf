/** Security headers: the kind of each response, its CSP, and the fixed headers. */
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, createNonce, responseKind, securityHeaders } from "@/lib/http-guard";

const PAGE_REST =
  "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

describe("responseKind", () => {
  it("tells pages, API answers and static assets apart", () => {
    expect(responseKind("/")).toBe("page");
    expect(responseKind("/projects/abc")).toBe("page");
    expect(responseKind("/agent")).toBe("page");
    expect(responseKind("/api")).toBe("api");
    expect(responseKind("/api/config")).toBe("api");
    expect(responseKind("/api/sessions/x/prompt")).toBe("api");
    expect(responseKind("/_next/static/chunks/ts.worker.js")).toBe("asset");
    expect(responseKind("/icon.svg")).toBe("asset");
    expect(responseKind("/apis")).toBe("page");
  });
});

describe("contentSecurityPolicy", () => {
  it("pages: scripts only with this request's nonce (strict-dynamic), Monaco's workers and styles allowed", () => {
    expect(contentSecurityPolicy("page", { nonce: "abc123==" })).toBe(
      `default-src 'self'; script-src 'self' 'nonce-abc123==' 'strict-dynamic'; ${PAGE_REST}`,
    );
    expect(contentSecurityPolicy("page", { nonce: "n", dev: true })).toBe(
      `default-src 'self'; script-src 'self' 'nonce-n' 'strict-dynamic' 'unsafe-eval'; ${PAGE_REST}`,
    );
  });

  it("assets (a worker's own policy): same-origin scripts; API answers: nothing at all", () => {
    expect(contentSecurityPolicy("asset")).toBe(`default-src 'self'; script-src 'self'; ${PAGE_REST}`);
    expect(contentSecurityPolicy("api")).toBe(
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
  });
});

describe("securityHeaders", () => {
  it("adds frame, sniffing, referrer and cross-origin isolation headers to the CSP", () => {
    expect(securityHeaders("api")).toEqual({
      "Content-Security-Policy":
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Resource-Policy": "same-origin",
    });
  });

  it("nonces are 128 random bits, base64, fresh each time", () => {
    const a = createNonce();
    const b = createNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(b).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(a).not.toBe(b);
  });
});
