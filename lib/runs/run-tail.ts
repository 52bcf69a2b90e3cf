/**
 * One shared tail of a run's log per app instance (docs/runs.md): every follower of run R in this process
 * subscribes to the same {@link RunTail}, which reads the new `run_events` rows of R once per tick (every
 * {@link TAIL_MS} while nothing new is stored), fans them out to its subscribers, keeps the recent ones in a
 * buffer a joining follower replays from, and marks R watched (and checks its owner is alive) once per
 * {@link WATCH_MS} — not once per follower. The tail stops when its last subscriber leaves or when it has
 * read the run's `run_end`. {@link runFollowMetrics} counts its reads, for tests and diagnostics.
 */
import type { DbScope } from "@/lib/db/client";
import { DbScope as Scope } from "@/lib/db/client";
import { endSilentRun } from "@/lib/session/runs";

/** Pause between two reads of the log while nothing new is stored (ms). */
export const TAIL_MS = 100;
/** How often a run's tail marks the run watched and checks its owner is alive (ms). */
export const WATCH_MS = 2000;
/** Rows per read. */
export const PAGE = 500;
/** The most rows, and the most `data` characters, a tail keeps for followers that join later. */
const BUFFER_ROWS = 2000;
const BUFFER_CHARS = 4_000_000;

/** One stored event: its seq, type and wire JSON. */
export interface StoredEvent {
  seq: number;
  type: string;
  data: string;
}

/**
 * Statements the follow path of this process has sent about `run_events`, since the process started:
 * `tailReads` (a shared tail's reads of new rows), `replayReads` (a follower's own read from a cursor older
 * than its tail's buffer), `watchTicks` (a tail's watched_at bump + owner check + run_end lookup, 3 statements).
 * Counters only grow; compare two readings.
 */
export const runFollowMetrics = { tailReads: 0, replayReads: 0, watchTicks: 0 };

/** The stored events of run `runId` with seq > `after`, oldest first (at most `limit`). */
export async function readRunEvents(
  scope: DbScope,
  runId: string,
  after: number,
  limit = PAGE,
): Promise<StoredEvent[]> {
  const rows = await scope.query<{ seq: number; type: string; data: string }>(
    "SELECT seq, type, data FROM run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
    [runId, after, limit],
  );
  return rows.map((r) => ({ seq: Number(r.seq), type: r.type, data: r.data }));
}

/** What a tail tells one follower: each new row, in seq order, then once that it stopped (with its error). */
export interface TailSubscriber {
  push(row: StoredEvent): void;
  stopped(error: unknown): void;
}

/** The live tails of this process, by run id. */
const tails = new Map<string, RunTail>();

/** The number of live tails in this process (tests). */
export function liveTailCount(): number {
  return tails.size;
}

/**
 * The shared tail of run `runId`, started if none is live; `from` (a seq) is where a new tail starts reading,
 * i.e. the cursor of the follower that starts it.
 */
export function tailOf(runId: string, from: number): RunTail {
  let tail = tails.get(runId);
  if (!tail) {
    tail = new RunTail(runId, from);
    tails.set(runId, tail);
  }
  return tail;
}

/**
 * The reader of one run's log shared by the followers of this process. Its buffer holds every row with seq in
 * (`base`, `head`]; rows are stored in seq order without gaps, so a follower that replayed up to at least the
 * head it saw when it subscribed, then takes the pushed rows after its cursor, misses and repeats nothing.
 */
export class RunTail {
  /** The largest seq read. */
  private head: number;
  /** The buffer holds every row after this seq (up to `head`). */
  private base: number;
  private buffer: StoredEvent[] = [];
  private bufferChars = 0;
  private readonly subscribers = new Set<TailSubscriber>();
  private readonly scope = new Scope();
  private stopping = false;
  private wake: (() => void) | undefined;
  /** The seq of the run's `run_end` once known (read, or looked up at a watch tick), else null. */
  endSeq: number | null = null;

  constructor(
    readonly runId: string,
    from: number,
  ) {
    this.head = from;
    this.base = from;
    void this.loop();
  }

  /**
   * Add `subscriber`: it gets every row read from now on. Returns the buffered rows after `cursor` (possibly
   * none) when the buffer covers the cursor, else null — then the follower replays from Postgres itself.
   */
  subscribe(subscriber: TailSubscriber, cursor: number): StoredEvent[] | null {
    this.subscribers.add(subscriber);
    if (cursor < this.base) return null;
    return this.buffer.filter((row) => row.seq > cursor);
  }

  /** Remove `subscriber`; the last one leaving stops the tail. */
  unsubscribe(subscriber: TailSubscriber): void {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size === 0) this.stop();
  }

  private stop(): void {
    this.stopping = true;
    if (tails.get(this.runId) === this) tails.delete(this.runId);
    this.wake?.();
  }

  private finished(): boolean {
    return this.endSeq !== null && this.head >= this.endSeq;
  }

  private async loop(): Promise<void> {
    let lastWatch = 0;
    let failure: unknown;
    try {
      while (!this.stopping && !this.finished()) {
        if (Date.now() - lastWatch >= WATCH_MS) {
          lastWatch = Date.now();
          await this.watch();
          if (this.stopping || this.finished()) break;
        }
        runFollowMetrics.tailReads++;
        const rows = await readRunEvents(this.scope, this.runId, this.head);
        if (this.stopping) break;
        for (const row of rows) {
          this.head = row.seq;
          this.keep(row);
          if (row.type === "run_end") this.endSeq = row.seq;
          for (const subscriber of this.subscribers) subscriber.push(row);
        }
        if (rows.length < PAGE && !this.finished()) await this.pause(TAIL_MS);
      }
    } catch (error) {
      // The database failed for longer than its retry budget: every follower reports it and may re-attach.
      failure = error;
    } finally {
      this.stop();
      for (const subscriber of this.subscribers) subscriber.stopped(failure);
      await this.scope.release();
    }
  }

  /**
   * Mark the run watched (its owner hands queued texts back to a watcher), end it when its owner died (so its
   * followers end too), and look up its `run_end` (a follower whose cursor is past it has nothing to wait for).
   */
  private async watch(): Promise<void> {
    runFollowMetrics.watchTicks++;
    await this.scope.query(
      "UPDATE session_runs SET watched_at = now() WHERE id = $1 AND finished_at IS NULL",
      [this.runId],
      { repeatable: true },
    );
    await endSilentRun(this.scope, this.runId);
    const end = await this.scope.query<{ seq: number }>(
      "SELECT seq FROM run_events WHERE run_id = $1 AND type = 'run_end' LIMIT 1",
      [this.runId],
    );
    if (end[0]) this.endSeq = Number(end[0].seq);
  }

  private keep(row: StoredEvent): void {
    this.buffer.push(row);
    this.bufferChars += row.data.length;
    while (this.buffer.length > BUFFER_ROWS || (this.bufferChars > BUFFER_CHARS && this.buffer.length > 1)) {
      const old = this.buffer.shift() as StoredEvent;
      this.bufferChars -= old.data.length;
      this.base = old.seq;
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
