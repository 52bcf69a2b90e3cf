/**
 * Retrying an operation that is safe to repeat (opening a connection, a read, a whole transaction that
 * failed before its COMMIT was sent) while the database connection drops or is refused: backoff from 100 ms,
 * doubling to 1 s, for at most the retry budget (`STRATA_DB_RETRY_MS`, default 8 s), with p-retry.
 *
 * Once an operation has spent its whole budget, the database counts as down: later operations try once and
 * give up at once, until one succeeds (so a run doing many small reads during a long outage ends in one
 * budget, not one budget per read).
 */
import pRetry from "p-retry";
import { DbUnavailableError, describeDbError, isTransientDbError, unavailableMessage } from "./errors";
import { dbSettings, RETRY_FIRST_DELAY_MS, RETRY_MAX_DELAY_MS } from "./settings";

/** When an operation last gave up after its whole budget (0: the last attempt succeeded). */
let downSince = 0;

/** Thrown by an attempt that must simply be tried again later (e.g. a COMMIT outcome still `in progress`). */
export class TryAgainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TryAgainError";
  }
}

/** An attempt's error as an `Error` (a WebSocket `ErrorEvent` is not one), keeping `code`. */
function asError(error: unknown): Error {
  if (error instanceof Error) return error;
  const wrapped = new Error(describeDbError(error)) as Error & { code?: unknown };
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== undefined) wrapped.code = code;
  return wrapped;
}

/**
 * Run `attempt` until it succeeds, retrying transient connection errors ({@link isTransientDbError}) and
 * {@link TryAgainError} with backoff within the retry budget.
 * @param onGiveUp builds the error thrown when the budget is spent (default: {@link DbUnavailableError} with
 *   {@link unavailableMessage}); it gets the budget (ms) and the last error's text.
 * @throws any other error of an attempt unchanged, at once.
 */
export async function retryTransient<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  onGiveUp: (budgetMs: number, cause: string) => Error = (budget, cause) =>
    new DbUnavailableError(unavailableMessage(budget, cause)),
): Promise<T> {
  const budgetMs = dbSettings().retryMs;
  const down = downSince !== 0;
  const retryable = (error: unknown) => error instanceof TryAgainError || isTransientDbError(error);
  try {
    return await pRetry(
      async (n) => {
        try {
          const result = await attempt(n);
          downSince = 0;
          return result;
        } catch (error) {
          throw asError(error);
        }
      },
      {
        retries: Number.POSITIVE_INFINITY,
        factor: 2,
        minTimeout: RETRY_FIRST_DELAY_MS,
        maxTimeout: RETRY_MAX_DELAY_MS,
        maxRetryTime: down ? 0 : budgetMs,
        randomize: false,
        unref: true,
        shouldRetry: ({ error }) => retryable(error),
      },
    );
  } catch (error) {
    if (retryable(error)) {
      downSince ||= Date.now();
      throw onGiveUp(budgetMs, describeDbError(error));
    }
    throw error;
  }
}
