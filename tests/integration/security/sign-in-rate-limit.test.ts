/**
 * Sign-in brute force against the real Better Auth route (app/api/auth/[...all]) with its Postgres rate limits on.
 * Measured on a running `next start` (helper H): Next passes a client's own `X-Forwarded-For` through, and Better
 * Auth keys its per-address limit by it, so 30 wrong passwords for one account with a different forged address each
 * were all answered 401, never 429. The per-account limit (lib/auth/server.ts) holds whatever the header says (and
 * change-password is limited per session); a 429 carries `Retry-After`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/auth/[...all]/route";
import { createTestUser, ORIGIN, type TestUser } from "../../helpers/auth";

const saved = { rate: process.env.STRATA_AUTH_RATE_LIMIT, signIn: process.env.STRATA_SIGNIN_RATE_LIMIT };
let victim: TestUser;
let bystander: TestUser;
const net = Math.floor(Math.random() * 200) + 20;

function signIn(email: string, password: string, forwardedFor: string): Promise<Response> {
  const request = new Request(`${ORIGIN}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, "x-forwarded-for": forwardedFor },
    body: JSON.stringify({ email, password }),
  });
  return (POST as (r: Request) => Promise<Response>)(request);
}

function changePassword(cookie: string, currentPassword: string, forwardedFor: string): Promise<Response> {
  const request = new Request(`${ORIGIN}/api/auth/change-password`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, cookie, "x-forwarded-for": forwardedFor },
    body: JSON.stringify({ currentPassword, newPassword: "a new password 123" }),
  });
  return (POST as (r: Request) => Promise<Response>)(request);
}

beforeAll(async () => {
  victim = await createTestUser("Victim");
  bystander = await createTestUser("Bystander");
  delete process.env.STRATA_AUTH_RATE_LIMIT;
  process.env.STRATA_SIGNIN_RATE_LIMIT = "3";
});

afterAll(() => {
  process.env.STRATA_AUTH_RATE_LIMIT = saved.rate;
  if (saved.signIn === undefined) delete process.env.STRATA_SIGNIN_RATE_LIMIT;
  else process.env.STRATA_SIGNIN_RATE_LIMIT = saved.signIn;
});

describe("sign-in rate limit", () => {
  it("a forged X-Forwarded-For per attempt does not lift the limit on one account", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++)
      statuses.push((await signIn(victim.email, `wrong password ${i}`, `203.0.${net}.${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const refused = await signIn(victim.email.toUpperCase(), "correct horse battery", `203.0.${net}.99`);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get("x-retry-after")).toBe(String(retryAfter));
    expect(await refused.json()).toEqual({
      code: "RATE_LIMITED",
      message: `Too many sign-in attempts for this account. Try again in ${retryAfter} s.`,
    });
  });

  it("another account is not locked by it", async () => {
    const res = await signIn(bystander.email, "correct horse battery", `203.0.${net}.100`);
    expect(res.status).toBe(200);
  });

  it("the per-address limit answers 429 with Retry-After", async () => {
    const address = `198.51.${net}.7`;
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i++)
      statuses.push((await signIn(`nobody-${net}-${i}@example.test`, "wrong password", address)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const refused = await signIn(`nobody-${net}-5@example.test`, "wrong password", address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({ message: "Too many requests. Please try again later." });
  });

  it("a stolen session cookie cannot guess the current password at will (5 a minute per session)", async () => {
    const owner = await createTestUser("Cookie owner");
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++)
      statuses.push((await changePassword(owner.cookie, `guess ${i} wrong`, `192.0.2.${i + net}`)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const refused = await changePassword(owner.cookie, "correct horse battery", `192.0.2.${net}`);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(await refused.json()).toEqual({
      code: "RATE_LIMITED",
      message: `Too many password changes from this session. Try again in ${retryAfter} s.`,
    });
  });
});
