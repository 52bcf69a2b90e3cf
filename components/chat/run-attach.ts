/**
 * Following a server-owned run's event stream (docs/http-api.md, `GET /api/sessions/:id/runs/:runId/events`):
 * every event carries its seq as the SSE `id:`; a stream that drops before `run_end` is re-attached from the
 * last seq seen (`Last-Event-ID`), after a pause of 0.5, 1, 2 and 4 s; then the drop is reported (the caller
 * offers Reconnect). Events already applied are never applied twice.
 */
import { ApiError, apiFetch } from "@/components/http/api-fetch";
import type { RunMode, RunOutcome } from "./events";
import { readSseStream, type SseEvent } from "./sse";

/** Pauses before the re-attach attempts after a dropped stream (ms); after the last one the drop is reported. */
export const REATTACH_DELAYS_MS: readonly number[] = [500, 1000, 2000, 4000];

/** The seq of an SSE `id:` field: a positive integer, else null. */
export function seqOf(id: string | undefined): number | null {
  if (id === undefined || !/^\d+$/.test(id)) return null;
  const seq = Number(id);
  return Number.isSafeInteger(seq) && seq > 0 ? seq : null;
}

/**
 * Where a viewer is in one run's event log: the last seq applied, the run (from `run_start`), whether `run_end`
 * was seen. `admit` decides whether an arriving event is new.
 */
export class RunCursor {
  /** The last seq applied (0: none). */
  seq: number;
  runId: string | null;
  mode: RunMode | null = null;
  /** Set by `run_end`. */
  outcome: RunOutcome | null = null;

  constructor(runId: string | null = null, seq = 0) {
    this.runId = runId;
    this.seq = seq;
  }

  /**
   * True when `sse` is new and must be applied (its seq is above the cursor, or it has none); advances the
   * cursor and records `run_start` / `run_end`. False for a replayed event already applied.
   */
  admit(sse: SseEvent): boolean {
    const seq = seqOf(sse.id);
    if (seq !== null) {
      if (seq <= this.seq) return false;
      this.seq = seq;
    }
    if (sse.event === "run_start" || sse.event === "run_end") {
      let data: { runId?: unknown; mode?: unknown; outcome?: unknown } = {};
      try {
        data = JSON.parse(sse.data || "{}");
      } catch {
        // A malformed frame still marks the run's start or end.
      }
      if (sse.event === "run_start") {
        if (typeof data.runId === "string") this.runId = data.runId;
        this.mode = data.mode === "retry" || data.mode === "bash" ? data.mode : "prompt";
      } else {
        const o = data.outcome;
        this.outcome = o === "aborted" || o === "error" || o === "taken_over" ? o : "done";
      }
    }
    return true;
  }
}

/** How following a run ended. */
export type FollowResult =
  /** `run_end` arrived: the run is over. */
  | { kind: "ended"; outcome: RunOutcome }
  /** A stream without the run protocol (no `run_start`: nothing to re-attach to) ended. */
  | { kind: "closed" }
  /** The server does not know the run (404): re-read the session. */
  | { kind: "gone" }
  /** The stream dropped and every re-attach failed (or was refused): `error` says why. */
  | { kind: "lost"; error: string };

export interface FollowOptions {
  cursor: RunCursor;
  /** An already open stream to read first (the POST answer); without, the first step is `open`. */
  first?: ReadableStream<Uint8Array>;
  /** Opens the run's stream after seq `after`; rejects with an {@link ApiError} or a network error. */
  open(runId: string, after: number, signal: AbortSignal): Promise<ReadableStream<Uint8Array>>;
  /** Called with each new event, in seq order (replayed duplicates are skipped). */
  onEvent(sse: SseEvent): void;
  /** Called before re-attach attempt `attempt` (1-based), after `delayMs`, with why the stream dropped. */
  onReconnecting?(attempt: number, delayMs: number, reason: string): void;
  /** Called each time `open` answered with a stream (the connection is back). */
  onReconnected?(): void;
  signal: AbortSignal;
  delays?: readonly number[];
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
}

const isAbortError = (err: unknown) => err instanceof DOMException && err.name === "AbortError";

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new DOMException("Aborted", "AbortError"));
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener("abort", cancel);
      resolve();
    }
    function cancel() {
      clearTimeout(timer);
      reject(new DOMException("Aborted", "AbortError"));
    }
    signal.addEventListener("abort", cancel, { once: true });
  });
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Reads a run's events to its `run_end`, re-attaching after drops. Resolves how it ended; rejects with an
 * AbortError when `signal` aborts, and with the reader's error when a stream without the run protocol fails
 * (nothing to re-attach to: the caller reports it as before).
 */
export async function followRun(options: FollowOptions): Promise<FollowResult> {
  const { cursor, signal } = options;
  const delays = options.delays ?? REATTACH_DELAYS_MS;
  const sleep = options.sleep ?? abortableSleep;
  let body = options.first;
  let failures = 0;
  for (;;) {
    let reason: string;
    try {
      if (!body) {
        if (!cursor.runId) return { kind: "closed" };
        body = await options.open(cursor.runId, cursor.seq, signal);
        options.onReconnected?.();
      }
      await readSseStream(body, (sse) => {
        if (!cursor.admit(sse)) return;
        // Only a stream that makes progress resets the backoff (one that closes at once keeps counting).
        failures = 0;
        options.onEvent(sse);
      });
      if (cursor.outcome) return { kind: "ended", outcome: cursor.outcome };
      if (!cursor.runId) return { kind: "closed" };
      reason = "The run's event stream ended before the run did";
    } catch (err) {
      if (isAbortError(err)) throw err;
      if (signal.aborted) throw new DOMException("Aborted", "AbortError");
      if (cursor.outcome) return { kind: "ended", outcome: cursor.outcome };
      if (!cursor.runId) throw err;
      if (err instanceof ApiError && err.status === 404) return { kind: "gone" };
      // Refused (signed out, no access): trying again will not help.
      if (err instanceof ApiError && err.status >= 400 && err.status < 500)
        return { kind: "lost", error: err.message };
      reason = messageOf(err);
    }
    body = undefined;
    if (failures >= delays.length) return { kind: "lost", error: reason };
    const delay = delays[failures];
    failures++;
    options.onReconnecting?.(failures, delay, reason);
    await sleep(delay, signal);
  }
}

/**
 * `GET /api/sessions/:id/runs/:runId/events` after seq `after` (sent as `?after=` and, once there is a cursor,
 * as `Last-Event-ID`). Resolves the event stream; rejects with an {@link ApiError} (404: unknown run; status 0:
 * network error) or an AbortError.
 */
export async function openRunEvents(
  sessionId: string,
  runId: string,
  after: number,
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const url = `/api/sessions/${encodeURIComponent(sessionId)}/runs/${encodeURIComponent(runId)}/events?after=${after}`;
  const headers: Record<string, string> = { accept: "text/event-stream" };
  if (after > 0) headers["last-event-id"] = String(after);
  const res = await apiFetch(url, { headers, signal, cache: "no-store" });
  if (!res.body) throw new ApiError(0, "network_error", "The server answered without an event stream");
  return res.body;
}

/** The storage of the runs a tab started (`window.sessionStorage`: per tab, kept across its reloads). */
export type RunMemory = Pick<Storage, "getItem" | "setItem">;

const runKey = (sessionId: string) => `strata.run.${sessionId}`;

/** Remembers that this tab started run `runId` of the session (so a reload can tell its own run from another tab's). */
export function rememberRun(memory: RunMemory | null, sessionId: string, runId: string): void {
  try {
    memory?.setItem(runKey(sessionId), runId);
  } catch {
    // Storage refused: after a reload the run is shown as started elsewhere.
  }
}

/** How long a sent prompt or `!command` whose run id this tab has not seen yet may claim a live run (ms). */
export const SENT_CLAIM_MS = 60_000;

/**
 * Remembers that this tab sent a run of `mode` to the session at `now` (ms), before its POST answered: a reload
 * in between still knows the run as this tab's (`rememberRun` replaces it with the run id once `run_start` came).
 */
export function rememberSent(
  memory: RunMemory | null,
  sessionId: string,
  mode: RunMode,
  now = Date.now(),
): void {
  try {
    memory?.setItem(runKey(sessionId), `sent:${mode}:${now}`);
  } catch {
    // Storage refused: after a reload the run is shown as started elsewhere.
  }
}

/**
 * Whether this tab (before a reload) started run `runId` of the session: its id was remembered, or this tab sent
 * a run of the same `mode` less than {@link SENT_CLAIM_MS} before `now` and never saw its id.
 */
export function startedHere(
  memory: RunMemory | null,
  sessionId: string,
  runId: string,
  mode: RunMode | null = null,
  now = Date.now(),
): boolean {
  try {
    const v = memory?.getItem(runKey(sessionId)) ?? null;
    if (v === runId) return true;
    const sent = v?.match(/^sent:(prompt|retry|bash):(\d+)$/);
    if (!sent || mode === null || sent[1] !== mode) return false;
    const age = now - Number(sent[2]);
    return age >= 0 && age < SENT_CLAIM_MS;
  } catch {
    return false;
  }
}

/** The tab's `sessionStorage`, or null where it is unavailable. */
export function tabMemory(): RunMemory | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
}
