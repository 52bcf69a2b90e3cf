/**
 * Runs owned by the server (docs/runs.md). A run — a prompt, a retry, a `!command` — belongs to the server, not
 * to the HTTP request that started it: its owner ({@link createOwnedRun}, owner.ts) runs it from `run_start` to
 * `run_end`, heartbeats the session's run lock, aborts only on `POST …/abort` (any tab, any instance) and closes
 * the run when it ends, while a closed or reloaded tab merely detaches. Every event goes through the run's
 * {@link RunEventLog} (event-log.ts): buffered ≤ 50 ms, consecutive token deltas merged, numbered 1, 2, 3…,
 * delivered at once to the in-process subscribers (the starting POST's stream) and stored in `run_events`, the
 * source of truth any instance replays from a cursor and tails until `run_end` ({@link followRun}, follow.ts; one shared tail per run
 * per instance, run-tail.ts; at most {@link MAX_FOLLOWS_PER_CALLER} streams per caller, follow-limit.ts).
 * Layer: above `agent/` and `session/`, below `http/`; edge-safe.
 */
export { FLUSH_MS, type LoggedEvent, RunEventLog } from "./event-log";
export {
  findRun,
  followCursor,
  followRun,
  readRunEvents,
  type StoredEvent,
  TAIL_MS,
  WATCH_MS,
} from "./follow";
export {
  acquireFollowSlot,
  FOLLOW_RETRY_AFTER_S,
  MAX_FOLLOWS_PER_CALLER,
  openFollows,
  tooManyFollowsMessage,
} from "./follow-limit";
export {
  abortLocalRuns,
  createOwnedRun,
  type OwnedRun,
  type OwnedRunOptions,
  PULSE_MS,
  type RunWorkContext,
} from "./owner";
export { eventData } from "./wire";
