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
  let started: Promise<RunOutcome> | undefined;
  let stop: "abort" | "taken_over" | undefined;
  let failed = false;
  let watchedAt = 0;
  const watched = () => log.subscriberCount > 0 || Date.now() - watchedAt < RUN_WATCHED_MS;
  const emit = (event: RunEvent) => {
    if (event.type === "error") failed = true;
    if (event.type === "message_end" && event.message.role === "assistant")
      failed = event.message.stopReason === "error";
    return log.emit(event);
  };

  const run = async (): Promise<RunOutcome> => {
    await emit({ type: "run_start", runId: runId ?? null, kind: options.kind, mode: options.mode });
    if (options.returned && options.returned.length > 0)
      await emit({ type: "queue_returned", texts: options.returned });
    let lastQueue = EMPTY_QUEUE;
    let pulsing = false;
    const abortNow = () => {
      stop ??= "abort";
      abort.abort();
    };
    if (runId) {
      const set = localAborts.get(sessionId) ?? new Set();
      localAborts.set(sessionId, set.add(abortNow));
    }
    const pulse = runId
      ? setInterval(async () => {
          if (pulsing || abort.signal.aborted) return;
          pulsing = true;
          const s = new DbScope();
          try {
            const state = await pulseRun(s, runId);
            if (state.watched) watchedAt = Date.now();
            if (state.state === "abort" || state.state === "taken_over") {
              stop ??= state.state;
              abort.abort();
            }
            if (state.state !== "live") return;
            const queue = await listQueued(s, sessionId);
            const json = JSON.stringify(queue);
            if (json !== lastQueue) {
              lastQueue = json;
              await emit({ type: "queue_update", ...queue });
            }
          } catch {
            // a missed heartbeat is retried on the next tick
          } finally {
            await s.release();
            pulsing = false;
          }
        }, PULSE_MS)
      : undefined;
    try {
      await options.work({ emit, signal: abort.signal, watched });
    } catch (error) {
      await emit({ type: "error", message: error instanceof Error ? error.message : String(error) });
    } finally {
      if (pulse) clearInterval(pulse);
      const set = localAborts.get(sessionId);
      set?.delete(abortNow);
      if (set?.size === 0) localAborts.delete(sessionId);
    }
    if (runId && stop !== "taken_over") {
      const s = new DbScope();
      try {
        const texts = await closeRun(s, sessionId, runId, { handBack: watched() });
        if (texts.length > 0) await emit({ type: "queue_returned", texts });
        if (lastQueue !== EMPTY_QUEUE) await emit({ type: "queue_update", steering: [], followUp: [] });
      } catch {
        // The database is unreachable: release the lock once it is back (else it goes stale).
        void closeWhenBack(sessionId, runId);
      } finally {
        await s.release();
      }
    }
    const outcome: RunOutcome = stop === "abort" ? "aborted" : (stop ?? (failed ? "error" : "done"));
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
