/** Cross-site refusal (CSRF): which state-changing requests pass, and the exact 403 answers. */
import { describe, expect, it } from "vitest";
import { type CrossSiteInput, checkCrossSite } from "@/lib/http-guard";

const WHO =
  "State-changing requests (POST, PUT, PATCH, DELETE) are accepted only from Strata's own pages, or from clients that send neither Origin nor Sec-Fetch-Site (curl, scripts, the strata CLI).";

const request = (over: Partial<CrossSiteInput>): CrossSiteInput => ({
  method: "POST",
  host: "127.0.0.1:3107",
  protocol: "http:",
  origin: null,
  secFetchSite: null,
  ...over,
});

const originRefusal = (origin: string, own: string) => ({
  status: 403,
  code: "cross_origin",
  message: `Cross-origin request refused: Origin ${JSON.stringify(origin)} is not this Strata (${own}). ${WHO}`,
});
const siteRefusal = (site: string) => ({
  status: 403,
  code: "cross_origin",
  message: `Cross-site request refused: Sec-Fetch-Site is ${JSON.stringify(site)}, not "same-origin". ${WHO}`,
});

describe("checkCrossSite", () => {
  it("never refuses GET, HEAD or OPTIONS", () => {
    for (const method of ["GET", "HEAD", "OPTIONS", "get"]) {
      expect(
        checkCrossSite(request({ method, origin: "http://evil.example", secFetchSite: "cross-site" })),
      ).toBeUndefined();
    }
  });

  it("allows Strata's own pages (same Origin, Sec-Fetch-Site same-origin)", () => {
    expect(checkCrossSite(request({ origin: "http://127.0.0.1:3107" }))).toBeUndefined();
    expect(
      checkCrossSite(request({ origin: "http://127.0.0.1:3107", secFetchSite: "same-origin" })),
    ).toBeUndefined();
    expect(checkCrossSite(request({ secFetchSite: "same-origin" }))).toBeUndefined();
    expect(
      checkCrossSite(
        request({ host: "Strata.Example.com", protocol: "https:", origin: "https://strata.example.com:443" }),
      ),
    ).toBeUndefined();
  });

  it("allows a client sending neither Origin nor Sec-Fetch-Site (curl, the CLI)", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"])
      expect(checkCrossSite(request({ method }))).toBeUndefined();
  });

  it("refuses a cross-origin text/plain POST from another site (Sec-Fetch-Site: cross-site)", () => {
    expect(checkCrossSite(request({ origin: "http://evil.example", secFetchSite: "cross-site" }))).toEqual(
      siteRefusal("cross-site"),
    );
  });

  it("refuses same-site (another port of localhost) and none", () => {
    expect(
      checkCrossSite(
        request({ host: "localhost:3000", origin: "http://localhost:4000", secFetchSite: "same-site" }),
      ),
    ).toEqual(siteRefusal("same-site"));
    expect(checkCrossSite(request({ secFetchSite: "none" }))).toEqual(siteRefusal("none"));
  });

  it("refuses any other Origin when the browser sends no Sec-Fetch-Site (plain http on a LAN name)", () => {
    const own = "http://127.0.0.1:3107";
    expect(checkCrossSite(request({ origin: "http://evil.example" }))).toEqual(
      originRefusal("http://evil.example", own),
    );
    expect(checkCrossSite(request({ origin: "http://127.0.0.1:4000" }))).toEqual(
      originRefusal("http://127.0.0.1:4000", own),
    );
    expect(checkCrossSite(request({ origin: "https://127.0.0.1:3107" }))).toEqual(
      originRefusal("https://127.0.0.1:3107", own),
    );
    expect(checkCrossSite(request({ origin: "null" }))).toEqual(originRefusal("null", own));
    expect(checkCrossSite(request({ method: "DELETE", origin: "http://localhost:3107" }))).toEqual(
      originRefusal("http://localhost:3107", own),
    );
    expect(checkCrossSite(request({ method: "PROPFIND", origin: "http://evil.example" }))).toEqual(
      originRefusal("http://evil.example", own),
    );
  });

  it("refuses an Origin when the request has no Host to compare with", () => {
    expect(checkCrossSite(request({ host: null, origin: "http://127.0.0.1:3107" }))).toEqual(
      originRefusal("http://127.0.0.1:3107", "unknown origin"),
    );
  });
});
