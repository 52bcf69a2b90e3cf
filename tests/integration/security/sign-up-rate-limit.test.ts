/**
 * Mass sign-up against the real Better Auth route with its Postgres rate limits on. The per-address limit (30 an hour)
 * is keyed by `X-Forwarded-For`, which `next start` passes through from the client, so a new forged address per
 * attempt was never limited. The server-wide cap (`STRATA_SIGNUP_RATE_LIMIT` per hour, lib/auth/server.ts) holds
 * whatever the header says; the operator's `npx strata user create` is not refused by it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/auth/[...all]/route";
import { createUser } from "@/lib/cli/user-commands";
import { withDb } from "@/lib/db/client";
import { ORIGIN } from "../../helpers/auth";
import { setEnv } from "../../helpers/env";

const KEY = "auth:server|/sign-up/email";
const run = Math.random().toString(36).slice(2, 8);
let restoreEnv: () => void;
const savedRate = process.env.STRATA_AUTH_RATE_LIMIT;

function signUp(i: number): Promise<Response> {
  const request = new Request(`${ORIGIN}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, "x-forwarded-for": `203.0.113.${i}` },
    body: JSON.stringify({
      email: `mass-${run}-${i}@example.test`,
      password: "correct horse battery",
      name: `M${i}`,
    }),
  });
  return (POST as (r: Request) => Promise<Response>)(request);
}

beforeAll(async () => {
  restoreEnv = setEnv({ STRATA_SIGNUP_RATE_LIMIT: "3" });
  delete process.env.STRATA_AUTH_RATE_LIMIT;
  // The cap is one counter for the whole server: start this test's window from zero.
  await withDb((scope) => scope.query("DELETE FROM rate_limits WHERE key = $1", [KEY]));
});

afterAll(async () => {
  restoreEnv();
  if (savedRate === undefined) delete process.env.STRATA_AUTH_RATE_LIMIT;
  else process.env.STRATA_AUTH_RATE_LIMIT = savedRate;
  await withDb((scope) => scope.query("DELETE FROM rate_limits WHERE key = $1", [KEY]));
});

describe("server-wide sign-up cap", () => {
  it("a forged X-Forwarded-For per attempt does not lift it", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) statuses.push((await signUp(i)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await signUp(6);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.headers.get("x-retry-after")).toBe(String(retryAfter));
    expect(await refused.json()).toEqual({
      code: "RATE_LIMITED",
      message: `Too many sign-ups on this server right now; try again in ${retryAfter} s.`,
    });
    const created = await withDb((scope) =>
      scope.query<{ n: number }>("SELECT count(*)::int AS n FROM users WHERE email LIKE $1", [
        `mass-${run}-%`,
      ]),
    );
    expect(created[0].n).toBe(3);
  });

  it("the operator's `npx strata user create` still works while the cap is reached", async () => {
    const user = await createUser({
      email: `operator-${run}@example.test`,
      name: "Operator",
      password: "correct horse battery",
      secret: "x".repeat(40),
    });
    expect(user.email).toBe(`operator-${run}@example.test`);
  });
});
