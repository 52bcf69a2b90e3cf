/**
 * The cap on one caller's concurrent follow streams (`GET …/runs/:runId/events`) in this app instance: each
 * open stream holds a slot until it ends; past {@link MAX_FOLLOWS_PER_CALLER} the next one is refused (the
 * route answers 429 with `Retry-After`). Followers of one run share one tail (run-tail.ts), so this bounds the
 * streams (memory, sockets) one user can keep open, not database load.
 */

/** Concurrent follow streams one caller may hold on one app instance. */
export const MAX_FOLLOWS_PER_CALLER = 20;

/** Seconds a refused caller is told to wait (`Retry-After`): a stream of theirs may have ended by then. */
export const FOLLOW_RETRY_AFTER_S = 5;

const open = new Map<string, number>();

/**
 * Take a follow slot for caller `callerId` (a user id). Returns the function that gives it back (idempotent),
 * or null when the caller already holds `max` streams.
 */
export function acquireFollowSlot(callerId: string, max = MAX_FOLLOWS_PER_CALLER): (() => void) | null {
  const held = open.get(callerId) ?? 0;
  if (held >= max) return null;
  open.set(callerId, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (open.get(callerId) ?? 1) - 1;
    if (left > 0) open.set(callerId, left);
    else open.delete(callerId);
  };
}

/** How many follow streams caller `callerId` holds on this instance now. */
export function openFollows(callerId: string): number {
  return open.get(callerId) ?? 0;
}

/** The words of the refusal: what happened and what to do next. */
export function tooManyFollowsMessage(max = MAX_FOLLOWS_PER_CALLER): string {
  return `Too many live run streams: you already follow ${max} runs at once on this server (each open Strata tab with a running agent holds one). Close some tabs, or wait for their runs to end, and try again in ${FOLLOW_RETRY_AFTER_S} s.`;
}
