/**
 * The database limits of one server instance, from the environment (read on every use, so a changed value
 * applies to the next connection):
 *
 * | variable                     | default | meaning                                                             |
 * | ---------------------------- | ------- | ------------------------------------------------------------------- |
 * | `STRATA_DB_MAX_CONNECTIONS`  | 20      | connections this instance opens at once (1–1000); beyond, requests queue |
 * | `STRATA_DB_QUEUE_TIMEOUT_MS` | 10000   | how long a request waits for a connection before 503 `database_busy` (ms) |
 * | `STRATA_DB_RETRY_MS`         | 8000    | how long a dropped or refused connection is retried with backoff (ms; 0 = no retry) |
 */

/** Defaults of {@link dbSettings}. */
export const DB_DEFAULTS = { maxConnections: 20, queueTimeoutMs: 10_000, retryMs: 8_000 } as const;

/** First retry delay, doubled per attempt up to {@link RETRY_MAX_DELAY_MS} (ms). */
export const RETRY_FIRST_DELAY_MS = 100;
/** Longest delay between two retries (ms). */
export const RETRY_MAX_DELAY_MS = 1_000;

export interface DbSettings {
  maxConnections: number;
  queueTimeoutMs: number;
  retryMs: number;
}

function readInt(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)}).`);
  }
  return value;
}

/**
 * The limits in effect now.
 * @throws Error naming the variable and its allowed range when one is set to something else.
 */
export function dbSettings(): DbSettings {
  return {
    maxConnections: readInt("STRATA_DB_MAX_CONNECTIONS", DB_DEFAULTS.maxConnections, 1, 1000),
    queueTimeoutMs: readInt("STRATA_DB_QUEUE_TIMEOUT_MS", DB_DEFAULTS.queueTimeoutMs, 1, 600_000),
    retryMs: readInt("STRATA_DB_RETRY_MS", DB_DEFAULTS.retryMs, 0, 600_000),
  };
}
