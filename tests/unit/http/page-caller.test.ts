/** Where a page sends a visitor without a caller (lib/http/page-caller.ts `signInLocation`), for each mode. */
import { describe, expect, it } from "vitest";
import { signInLocation } from "@/lib/http/page-caller";

const at = (url: string, cookie?: string) => new Request(url, { headers: cookie ? { cookie } : {} });

describe("signInLocation", () => {
  it("local mode on a loopback Host: the local owner's sign-in, back to the page", () => {
    for (const url of ["http://127.0.0.1:3000/x", "http://localhost:3000/x", "http://[::1]:3000/x"])
      expect(signInLocation(at(url), "/projects/p?x=1", "local", true)).toBe(
        "/api/auth/local/sign-in?callbackURL=%2Fprojects%2Fp%3Fx%3D1",
      );
  });

  it("local mode after sign-out (strata_signed_out=1) or on another Host: the sign-in page", () => {
    expect(signInLocation(at("http://127.0.0.1:3000/", "a=b; strata_signed_out=1"), "/", "local", true)).toBe(
      "/sign-in?next=%2F",
    );
    expect(signInLocation(at("http://strata.lan:3000/"), "/agent", "local", true)).toBe(
      "/sign-in?next=%2Fagent",
    );
    expect(signInLocation(at("http://127.0.0.1:3000/", "strata_signed_out=0"), "/", "local", true)).toBe(
      "/api/auth/local/sign-in?callbackURL=%2F",
    );
  });

  it("accounts mode: sign-in, or sign-up while no account exists — never the local sign-in", () => {
    expect(signInLocation(at("http://127.0.0.1:3000/"), "/?workspace=w", "accounts", true)).toBe(
      "/sign-in?next=%2F%3Fworkspace%3Dw",
    );
    expect(signInLocation(at("http://127.0.0.1:3000/"), "/", "accounts", false)).toBe("/sign-up?next=%2F");
  });
});
