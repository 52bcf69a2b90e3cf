/**
 * The owner of a run: the server-side task that runs it from `run_start` to `run_end`, independent of any HTTP
 * request. It heartbeats the run lock every {@link PULSE_MS} (picking up an abort requested by any tab on any
 * instance, and a takeover), reports the session's waiting steer/follow-up texts as pi's `queue_update`, and when
 * the work is over closes the run (`closeRun`) — handing back texts still queued for it as `queue_returned` when a
 * tab watches the run, else leaving them for the next prompt run — and writes `run_end` with the outcome.
 */
import type { RunEvent } from "@/lib/agent-session/session-run";
import { DbScope } from "@/lib/db/client";
import { closeRun, listQueued } from "@/lib/session/queue";
import {
  pulseRun,
  RUN_STALE_MS,
  RUN_WATCHED_MS,
  type RunKind,
  type RunMode,
  type RunOutcome,
} from "@/lib/session/runs";
import { type LoggedEvent, RunEventLog } from "./event-log";

/** Heartbeat, abort and queue polling interval (ms). */
export const PULSE_MS = 500;
/** Pause between two tries to release the lock of a run that ended while the database was unreachable (ms). */
const CLOSE_RETRY_MS = 1000;

/** What the work of a run gets. */
export interface RunWorkContext {
  /** Emit an event into the run's log (resolves when buffered, or stored for the awaited types). */
  emit: (event: RunEvent) => Promise<void>;
  /** Aborts on `POST …/abort` (any tab, any instance) or when the run was taken over. */
  signal: AbortSignal;
  /** A tab streams the run (in this process, or `watched_at` within 5 s): queued texts can be handed back. */
  watched(): boolean;
}

export interface OwnedRunOptions {
  sessionId: string;
  /** The run lock (`session_runs` id); undefined for a `!command` beside a live run (no lock, no stored log). */
  runId?: string;
  kind: RunKind;
  mode: RunMode;
  /** Texts an earlier run left undelivered, handed back first (`queue_returned`). */
  returned?: string[];
  work: (context: RunWorkContext) => Promise<void>;
}

/** A run owned by this process. */
export interface OwnedRun {
  readonly runId: string | undefined;
  /** Get its events from now on (call before {@link OwnedRun.start} to get them all); returns the unsubscribe. */
  subscribe(subscriber: (logged: LoggedEvent) => void): () => void;
  /** Start it (once); resolves with the outcome when `run_end` is stored (or could not be, see docs/runs.md). */
  start(): Promise<RunOutcome>;
}

const EMPTY_QUEUE = JSON.stringify({ steering: [], followUp: [] });

/** The abort functions of the runs this process owns, by session (`POST …/abort` on this instance acts at once). */
const localAborts = new Map<string, Set<() => void>>();

/**
 * Abort at once the runs of session `sessionId` owned by this process (after `requestAbort` set the flag, which
 * owners on other instances pick up within {@link PULSE_MS}). @returns how many were aborted.
 */
export function abortLocalRuns(sessionId: string): number {
  const aborts = [...(localAborts.get(sessionId) ?? [])];
  for (const abort of aborts) abort();
  return aborts.length;
}

/**
 * A run lock that could not be released because the database was unreachable: keep trying in the background
 * until the database is back, at most {@link RUN_STALE_MS} (after which the lock is stale and taken over anyway).
 */
async function closeWhenBack(sessionId: string, runId: string): Promise<void> {
  const deadline = Date.now() + RUN_STALE_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, CLOSE_RETRY_MS));
    const s = new DbScope();
    try {
      await closeRun(s, sessionId, runId, { handBack: false });
      return;
    } catch {
      // still unreachable
    } finally {
      await s.release();
    }
  }
}

/** Create the owner of a run (not started: subscribe first, then {@link OwnedRun.start}). */
export function createOwnedRun(options: OwnedRunOptions): OwnedRun {
  const { sessionId, runId } = options;
  const log = new RunEventLog(runId);
  const abort = new AbortController();
  const state: OwnedRunState = { stop: undefined, failed: false, watchedAt: 0, lastQueue: EMPTY_QUEUE };
  let started: Promise<RunOutcome> | undefined;
  const watched = () => log.subscriberCount > 0 || Date.now() - state.watchedAt < RUN_WATCHED_MS;
  const emit = (event: RunEvent) => {
    if (event.type === "error") state.failed = true;
    if (event.type === "message_end" && event.message.role === "assistant")
      state.failed = event.message.stopReason === "error";
    return log.emit(event);
  };

  const run = async (): Promise<RunOutcome> => {
    await emit({ type: "run_start", runId: runId ?? null, kind: options.kind, mode: options.mode });
    if (options.returned && options.returned.length > 0)
      await emit({ type: "queue_returned", texts: options.returned });
    const abortNow = () => {
      state.stop ??= "abort";
      abort.abort();
    };
    const unregister = runId ? registerLocalAbort(sessionId, abortNow) : () => {};
    const pulse = runId ? startPulse(sessionId, runId, { state, abort, emit }) : undefined;
    try {
      await options.work({ emit, signal: abort.signal, watched });
    } catch (error) {
      await emit({ type: "error", message: error instanceof Error ? error.message : String(error) });
    } finally {
      if (pulse) clearInterval(pulse);
      unregister();
    }
    if (runId && state.stop !== "taken_over") await closeOwnedRun(sessionId, runId, { state, emit, watched });
    const outcome: RunOutcome =
      state.stop === "abort" ? "aborted" : (state.stop ?? (state.failed ? "error" : "done"));
    await emit({ type: "run_end", outcome });
    // Stored, or given up after RUN_STALE_MS: then a taker writes `run_end` (docs/runs.md).
    await log.close(RUN_STALE_MS);
    return outcome;
  };

  return {
    runId,
    subscribe: (subscriber) => log.subscribe(subscriber),
    start: () => {
      started ??= run();
      return started;
    },
  };
}

/** What an owned run tracks while it works: why it stopped, whether it failed, when it was last watched, the queue last sent. */
interface OwnedRunState {
  stop: "abort" | "taken_over" | undefined;
  failed: boolean;
  /** `Date.now()` of the last heartbeat that found the run watched (ms). */
  watchedAt: number;
  /** The JSON of the queue last emitted as `queue_update`. */
  lastQueue: string;
}

/** Let a Stop in this process abort the run at once (`localAborts`); returns the unregistration. */
function registerLocalAbort(sessionId: string, abortNow: () => void): () => void {
  const set = localAborts.get(sessionId) ?? new Set();
  localAborts.set(sessionId, set.add(abortNow));
  return () => {
    const current = localAborts.get(sessionId);
    current?.delete(abortNow);
    if (current?.size === 0) localAborts.delete(sessionId);
  };
}

/**
 * The run's heartbeat every PULSE_MS: `pulseRun` keeps the lock live and says whether someone watches, asked to stop
 * or took over (then the run aborts); while live, a changed queue is emitted as `queue_update`. A missed heartbeat
 * is retried on the next tick; ticks never overlap.
 */
function startPulse(
  sessionId: string,
  runId: string,
  run: { state: OwnedRunState; abort: AbortController; emit: (event: RunEvent) => Promise<void> | void },
): ReturnType<typeof setInterval> {
  const { state, abort, emit } = run;
  let pulsing = false;
  return setInterval(async () => {
    if (pulsing || abort.signal.aborted) return;
    pulsing = true;
    const s = new DbScope();
    try {
      const pulse = await pulseRun(s, runId);
      if (pulse.watched) state.watchedAt = Date.now();
      if (pulse.state === "abort" || pulse.state === "taken_over") {
        state.stop ??= pulse.state;
        abort.abort();
      }
      if (pulse.state !== "live") return;
      const queue = await listQueued(s, sessionId);
      const json = JSON.stringify(queue);
      if (json !== state.lastQueue) {
        state.lastQueue = json;
        await emit({ type: "queue_update", ...queue });
      }
    } catch {
      // a missed heartbeat is retried on the next tick
    } finally {
      await s.release();
      pulsing = false;
    }
  }, PULSE_MS);
}

/**
 * Release the run's lock (`closeRun`): texts still queued go back to whoever watches (`queue_returned`) and an
 * emitted queue is cleared. With the database unreachable, the lock is released once it is back (else it goes stale).
 */
async function closeOwnedRun(
  sessionId: string,
  runId: string,
  run: { state: OwnedRunState; emit: (event: RunEvent) => Promise<void> | void; watched: () => boolean },
): Promise<void> {
  const s = new DbScope();
  try {
    const texts = await closeRun(s, sessionId, runId, { handBack: run.watched() });
    if (texts.length > 0) await run.emit({ type: "queue_returned", texts });
    if (run.state.lastQueue !== EMPTY_QUEUE)
      await run.emit({ type: "queue_update", steering: [], followUp: [] });
  } catch {
    void closeWhenBack(sessionId, runId);
  } finally {
    await s.release();
  }
}
