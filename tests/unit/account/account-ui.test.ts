import { describe, expect, it } from "vitest";
import { initials } from "@/components/account/app-header";
import { AccountError, accountErrorMessage, errorOf } from "@/components/account/auth-fetch";
import { newPasswordProblem } from "@/components/account/password-section";
import { passwordProblem } from "@/components/account/sign-up-form";
import { tokenUsage } from "@/components/account/token-reveal";
import { tokenPreview, tokenRequest } from "@/components/account/tokens-section";
import { describeUserAgent } from "@/components/account/user-agent";

describe("accountErrorMessage", () => {
  const msg = (status: number, code: string, message = "", retryAfter?: number) =>
    accountErrorMessage(new AccountError(status, code, message, retryAfter));

  it("puts Better Auth's codes in words with what to do next", () => {
    expect(msg(401, "INVALID_EMAIL_OR_PASSWORD", "Invalid email or password")).toBe(
      "Wrong email or password. Check both and try again.",
    );
    expect(msg(422, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL")).toBe(
      "An account with this email already exists. Sign in instead, or use another email.",
    );
    expect(msg(400, "PASSWORD_TOO_SHORT")).toBe("The password is too short: use at least 8 characters.");
    expect(msg(400, "PASSWORD_TOO_LONG")).toBe("The password is too long: use at most 256 characters.");
    expect(msg(400, "EMAIL_PASSWORD_SIGN_UP_DISABLED")).toBe(
      "Sign-up is closed on this server; ask an owner for an invitation.",
    );
    expect(msg(400, "INVALID_PASSWORD")).toBe(
      "The current password is wrong. Type it again (or sign out and back in if you forgot it).",
    );
    expect(msg(403, "SESSION_NOT_FRESH")).toBe(
      "For your security, sign in again to do this (this sign-in is more than a day old).",
    );
  });

  it("says how long to wait after a 429, from Retry-After", () => {
    expect(msg(429, "", "Too many requests. Please try again later.", 42)).toBe(
      "Too many attempts — try again in 42 s.",
    );
    expect(msg(429, "rate_limited")).toBe("Too many attempts — wait a minute and try again.");
  });

  it("falls back to the status and the server's message", () => {
    expect(msg(0, "network")).toBe(
      "Could not reach the Strata server. Check that it is running and your connection, then try again.",
    );
    expect(msg(401, "UNAUTHORIZED", "Unauthorized")).toBe("You are signed out. Sign in again, then retry.");
    expect(msg(403, "forbidden", "Your role (viewer) cannot write.")).toBe(
      "Not allowed: Your role (viewer) cannot write.",
    );
    expect(msg(500, "internal", "Internal error")).toBe("Internal error (HTTP 500).");
    expect(msg(502, "")).toBe("The server answered HTTP 502. Try again in a moment.");
    expect(accountErrorMessage(new Error("boom"))).toBe(
      "Something went wrong: boom. Reload the page and try again.",
    );
  });

  it("reads both error shapes and both retry headers", async () => {
    const a = await errorOf(
      new Response(JSON.stringify({ code: "INVALID_EMAIL", message: "Invalid email" }), { status: 400 }),
    );
    expect([a.status, a.code, a.message, a.retryAfter]).toEqual([
      400,
      "INVALID_EMAIL",
      "Invalid email",
      undefined,
    ]);
    const b = await errorOf(
      new Response(JSON.stringify({ error: { code: "rate_limited", message: "Slow down" } }), {
        status: 429,
        headers: { "retry-after": "7" },
      }),
    );
    expect([b.status, b.code, b.message, b.retryAfter]).toEqual([429, "rate_limited", "Slow down", 7]);
    const c = await errorOf(new Response("<html>", { status: 429, headers: { "x-retry-after": "12.2" } }));
    expect([c.code, c.message, c.retryAfter]).toEqual(["", "", 13]);
  });
});

describe("password checks before sending", () => {
  it("sign-up: at least 8 characters", () => {
    expect(passwordProblem("1234567")).toBe("The password is too short: use at least 8 characters.");
    expect(passwordProblem("12345678")).toBeNull();
  });
  it("settings: length and the confirmation", () => {
    expect(newPasswordProblem("short", "short")).toBe(
      "The new password is too short: use at least 8 characters.",
    );
    expect(newPasswordProblem("x".repeat(257), "x".repeat(257))).toBe(
      "The new password is too long: use at most 256 characters.",
    );
    expect(newPasswordProblem("long enough", "long enougH")).toBe(
      "The two new passwords do not match. Type the same password in both fields.",
    );
    expect(newPasswordProblem("long enough", "long enough")).toBeNull();
  });
});

describe("access tokens", () => {
  it("builds the create request: name required, expiry in whole days 1-366 → seconds", () => {
    expect(tokenRequest("  laptop CLI ", "")).toEqual({ name: "laptop CLI", expiresIn: null });
    expect(tokenRequest("ci", "30")).toEqual({ name: "ci", expiresIn: 2_592_000 });
    expect(tokenRequest("ci", "366")).toEqual({ name: "ci", expiresIn: 31_622_400 });
    expect(tokenRequest(" ", "")).toBe("Give the token a name, e.g. the machine or script that will use it.");
    expect(tokenRequest("x".repeat(65), "")).toBe("The name is too long: at most 64 characters.");
    for (const bad of ["0", "367", "1.5", "-1", "abc"])
      expect(tokenRequest("ci", bad)).toBe(
        "Expiry must be a whole number of days from 1 to 366, or empty for no expiry.",
      );
  });
  it("shows a token's start and how to use it", () => {
    expect(tokenPreview("strata_AbCd")).toBe("strata_AbCd…");
    expect(tokenPreview(null)).toBe("strata_…");
    expect(tokenUsage("http://127.0.0.1:3000", "strata_x")).toEqual({
      cli: "npx strata --server http://127.0.0.1:3000 --token strata_x session export <session-id>",
      curl: 'curl -H "Authorization: Bearer strata_x" http://127.0.0.1:3000/api/me',
    });
  });
});

describe("header and sessions wording", () => {
  it("initials from the name, else the email", () => {
    expect(initials("Ada Lovelace", "ada@x.io")).toBe("AL");
    expect(initials("Local owner", "owner@strata.localhost")).toBe("LO");
    expect(initials("", "grace.hopper@navy.mil")).toBe("GH");
    expect(initials("", "bob@x.io")).toBe("BX");
    expect(initials("zoë", "z@x.io")).toBe("Z");
  });
  it("names devices from their user agent", () => {
    expect(
      describeUserAgent(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      ),
    ).toBe("Chrome on Linux");
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
      ),
    ).toBe("Safari on macOS");
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      ),
    ).toBe("Edge on Windows");
    expect(
      describeUserAgent(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Safari on iPhone");
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36",
      ),
    ).toBe("Chrome on Android");
    expect(describeUserAgent("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")).toBe(
      "Firefox on Linux",
    );
    expect(describeUserAgent("curl/8.5.0")).toBe("curl");
    expect(describeUserAgent("node")).toBe("Strata CLI or script");
    expect(describeUserAgent(null)).toBe("Unknown device");
    expect(describeUserAgent("")).toBe("Unknown device");
  });
});
