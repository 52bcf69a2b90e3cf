/**
 * The cross-request message queue of a session's live run (`session_queue`): pi's steering and follow-up
 * queues (`Agent.steer` / `Agent.followUp`, pi's `agent-session.ts`, pi's `agent-loop.ts`) when the prompt that queues and the run that
 * delivers are different requests, browser tabs or server instances; plus messages waiting for the run to
 * end (`append`, e.g. a `!command` result, pi's pending bash messages, 6.1 step 7).
 *
 * Guarantees, all under the session row lock that `startRun` also takes:
 * - a message is queued only while a run is live ({@link enqueueForRun} returns null otherwise);
 * - a run finishes only when no message is waiting ({@link finishRunIfIdle}); so a queued message is
 *   either delivered by that run or handed back by an abort, never lost or delivered twice.
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { DbScope, Query } from "@/lib/db/client";
import { cancelWaiting } from "./queue-cancel";
import { RUN_STALE_MS } from "./runs";

/** `steer` and `followUp` are pi's queues; `append` waits for the run to end and is then persisted. */
export type QueueKind = "steer" | "followUp" | "append";

/** One queued message. */
export interface QueuedMessage {
  id: string;
  kind: QueueKind;
  /** What the user typed (handed back on abort). */
  inputText: string;
  message: AgentMessage;
  /** Who queued it (the author of the entry it becomes); null when unknown. */
  userId: string | null;
}

/** pi's drain modes (pi's `agent-session.ts`). */
export type DrainMode = "one-at-a-time" | "all";

interface Row {
  seq: string | number;
  id: string;
  kind: QueueKind;
  input_text: string;
  message: AgentMessage;
  user_id: string | null;
}

const toQueued = (rows: Row[]): QueuedMessage[] =>
  rows
    .sort((a, b) => Number(a.seq) - Number(b.seq))
    .map((r) => ({
      id: r.id,
      kind: r.kind,
      inputText: r.input_text,
      message: r.message,
      userId: r.user_id ?? null,
    }));

async function liveRunId(q: Query, sessionId: string): Promise<string | undefined> {
  const rows = await q<{ id: string }>(
    `SELECT id FROM session_runs WHERE session_id = $1 AND finished_at IS NULL AND kind = 'prompt'
     AND heartbeat_at >= now() - ($2::int * interval '1 millisecond')`,
    [sessionId, RUN_STALE_MS],
  );
  return rows[0]?.id;
}

/**
 * Queue `message` for the session's live prompt run (only a prompt run drains the queue when it ends).
 * @returns the queued row, or null when no prompt run is live (the caller then starts a run itself).
 */
export async function enqueueForRun(
  scope: DbScope,
  sessionId: string,
  input: { kind: QueueKind; inputText: string; message: AgentMessage; userId?: string | null },
): Promise<QueuedMessage | null> {
  return scope.transaction(async (q) => {
    await q("SELECT id FROM sessions WHERE id = $1 FOR UPDATE", [sessionId]);
    if (!(await liveRunId(q, sessionId))) return null;
    const rows = await q<Row>(
      `INSERT INTO session_queue (session_id, kind, input_text, message, user_id) VALUES ($1, $2, $3, $4, $5)
       RETURNING seq, id, kind, input_text, message, user_id`,
      [sessionId, input.kind, input.inputText, JSON.stringify(input.message), input.userId ?? null],
    );
    return toQueued(rows)[0] ?? null;
  });
}

/**
 * Take the waiting messages of `kind` (oldest first; one with `one-at-a-time`) for delivery, for run `runId`
 * when given (nothing once that run no longer holds the session). Concurrent takers never get the same row.
 */
export async function claimQueued(
  scope: DbScope,
  sessionId: string,
  kind: QueueKind,
  mode: DrainMode = "all",
  runId?: string,
): Promise<QueuedMessage[]> {
  // With `runId`: only while that run still holds the session (a run taken over after going silent takes
  // nothing that was queued for its successor).
  const rows = await scope.query<Row>(
    `UPDATE session_queue SET claimed_at = now() WHERE seq IN (
       SELECT seq FROM session_queue WHERE session_id = $1 AND kind = $2 AND claimed_at IS NULL
         AND ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM session_runs WHERE id = $3 AND finished_at IS NULL))
       ORDER BY seq ${mode === "one-at-a-time" ? "LIMIT 1" : ""} FOR UPDATE SKIP LOCKED)
     RETURNING seq, id, kind, input_text, message, user_id`,
    [sessionId, kind, runId ?? null],
  );
  return toQueued(rows);
}

/** The waiting steer and follow-up texts, oldest first (pi's `queue_update` payload). */
export async function listQueued(
  scope: DbScope,
  sessionId: string,
): Promise<{ steering: string[]; followUp: string[] }> {
  const rows = await scope.query<Row>(
    `SELECT seq, id, kind, input_text, message, user_id FROM session_queue
     WHERE session_id = $1 AND claimed_at IS NULL AND kind IN ('steer', 'followUp') ORDER BY seq`,
    [sessionId],
  );
  const queued = toQueued(rows);
  return {
    steering: queued.filter((m) => m.kind === "steer").map((m) => m.inputText),
    followUp: queued.filter((m) => m.kind === "followUp").map((m) => m.inputText),
  };
}

/**
 * Hand back every waiting steer and follow-up message (Strata's abort: queued text returns to the user
 * instead of being dropped or delivered to a later run). `append` rows are kept.
 * @returns the typed texts, oldest first.
 */
export async function cancelQueued(scope: DbScope, sessionId: string): Promise<string[]> {
  return cancelWaiting((text, params) => scope.query(text, params), sessionId);
}

/**
 * Finish run `runId` unless a message is waiting for it: under the session lock, either marks the run
 * finished and returns `{ finished: true }`, or returns `{ finished: false }` so the run delivers what is
 * waiting (follow-ups, steering, appends) and tries again.
 */
export async function finishRunIfIdle(
  scope: DbScope,
  sessionId: string,
  runId: string,
): Promise<{ finished: boolean }> {
  return scope.transaction(async (q) => {
    await q("SELECT id FROM sessions WHERE id = $1 FOR UPDATE", [sessionId]);
    const waiting = await q(
      "SELECT 1 FROM session_queue WHERE session_id = $1 AND claimed_at IS NULL LIMIT 1",
      [sessionId],
    );
    if (waiting.length > 0) return { finished: false };
    await q("UPDATE session_runs SET finished_at = now() WHERE id = $1", [runId]);
    return { finished: true };
  });
}

/**
 * Close run `runId` if it is still live and hand back what was queued for it (under the session lock, so no
 * other run can own those rows); with `handBack: false` the rows stay for the next prompt run to hand back. A run that `finishRunIfIdle` already closed had nothing waiting, and nothing
 * can be queued for it afterwards: then this is a no-op returning `[]`, and rows queued for a newer run stay.
 * @returns the typed texts handed back, oldest first.
 */
export async function closeRun(
  scope: DbScope,
  sessionId: string,
  runId: string,
  options: { handBack?: boolean } = {},
): Promise<string[]> {
  return scope.transaction(async (q) => {
    await q("SELECT id FROM sessions WHERE id = $1 FOR UPDATE", [sessionId]);
    const closed = await q(
      "UPDATE session_runs SET finished_at = now() WHERE id = $1 AND finished_at IS NULL RETURNING id",
      [runId],
    );
    // No one to hand them to (the client went away): the next prompt run takes them back (`startPromptRun`).
    if (closed.length === 0 || options.handBack === false) return [];
    return cancelWaiting(q, sessionId);
  });
}
