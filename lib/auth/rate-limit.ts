/**
 * Fixed-window rate limits stored in Postgres (`rate_limits`), so every app instance counts the same requests: an
 * in-memory limiter would let each instance grant the full budget. One atomic upsert per check. Used as Better
 * Auth's rate-limit storage (sign-in, sign-up, token routes) and for prompting.
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { AuthError } from "./errors";

export interface RateRule {
  /** Window length, seconds. */
  window: number;
  /** Requests allowed per window. */
  max: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (when refused), else null. */
  retryAfter: number | null;
}

/**
 * Count one request against `key` under `rule` and say whether it is allowed. The window starts at the first
 * request and resets `rule.window` seconds later.
 * @param nowMs clock, ms since the epoch (tests pass their own).
 */
export async function consumeRateLimit(
  db: Db,
  key: string,
  rule: RateRule,
  nowMs = Date.now(),
): Promise<RateDecision> {
  const windowMs = rule.window * 1000;
  const result = await db.execute<{ count: number; window_start: string | number }>(sql`
    INSERT INTO rate_limits (key, count, window_start) VALUES (${key}, 1, ${nowMs})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start + ${windowMs} <= ${nowMs} THEN 1 ELSE rate_limits.count + 1 END,
      window_start = CASE WHEN rate_limits.window_start + ${windowMs} <= ${nowMs} THEN ${nowMs} ELSE rate_limits.window_start END
    RETURNING count, window_start`);
  const row = result.rows[0];
  const count = Number(row?.count ?? 1);
  if (count <= rule.max) return { allowed: true, retryAfter: null };
  const start = Number(row?.window_start ?? nowMs);
  return { allowed: false, retryAfter: Math.max(1, Math.ceil((start + windowMs - nowMs) / 1000)) };
}

/** The prompt limit per user: `STRATA_PROMPT_RATE_LIMIT` prompts (default 60) per `STRATA_PROMPT_RATE_WINDOW` s (default 60). */
export function promptRule(env: Record<string, string | undefined>): RateRule {
  const max = Number(env.STRATA_PROMPT_RATE_LIMIT ?? 60);
  const window = Number(env.STRATA_PROMPT_RATE_WINDOW ?? 60);
  return {
    max: Number.isFinite(max) && max > 0 ? max : 60,
    window: Number.isFinite(window) && window > 0 ? window : 60,
  };
}

/**
 * Count one prompt (a prompt, steer, follow-up, retry or `!command`) of `userId`.
 * @throws AuthError 429 `rate_limited` with `retryAfter` when the user is over the limit.
 */
export async function limitPrompts(
  db: Db,
  userId: string,
  env: Record<string, string | undefined>,
): Promise<void> {
  const rule = promptRule(env);
  const decision = await consumeRateLimit(db, `prompt:${userId}`, rule);
  if (!decision.allowed)
    throw new AuthError(
      429,
      "rate_limited",
      `Too many prompts: the limit is ${rule.max} per ${rule.window} s. Try again in ${decision.retryAfter} s; your message is kept in the composer.`,
      decision.retryAfter ?? undefined,
    );
}
