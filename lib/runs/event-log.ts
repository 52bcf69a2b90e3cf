/**
 * The event log of one run (`run_events`): the writer its owner emits every event into. Events are buffered and
 * flushed at most {@link FLUSH_MS} after the first one (at once, and awaited, for `message_end`,
 * `tool_execution_end` and `run_end`); a flush merges consecutive token deltas, numbers the events 1, 2, 3…,
 * hands them to the in-process subscribers (the POST's own stream) without waiting for the database, and then
 * stores them in one multi-row INSERT that also sets `session_runs.last_seq`. A failed insert keeps its rows
 * and is retried with the next flush (and by {@link RunEventLog.close}); nothing is written once the log has a
 * `run_end` (e.g. a taker's, `outcome = 'taken_over'`), so a log never goes on past its end.
 */
import type { RunEvent } from "@/lib/agent-session/session-run";
import { DbScope } from "@/lib/db/client";
import type { RunOutcome } from "@/lib/session/runs";
import { DELTA_TYPES, eventData } from "./wire";

/** Longest wait between an event and its delivery to subscribers (ms). */
export const FLUSH_MS = 50;
/** Events whose emit waits for the flush (and its insert, while the database keeps up). */
const AWAITED = new Set(["message_end", "tool_execution_end", "run_end"]);
/** Rows per INSERT statement (3 parameters each, well below Postgres's 65 535). */
const ROWS_PER_INSERT = 500;
/** Pause before another try to store rows whose insert failed (ms). */
const RETRY_MS = 1000;

/** One numbered event, as subscribers get it: `data` is its wire JSON (lib/runs/wire.ts). */
export interface LoggedEvent {
  seq: number;
  event: RunEvent;
  data: string;
}

type Subscriber = (logged: LoggedEvent) => void;

interface Row {
  seq: number;
  type: string;
  data: string;
}

/** `b` appended to `a` when both are token deltas of the same kind and content block, else undefined. */
function merged(a: RunEvent, b: RunEvent): RunEvent | undefined {
  if (a.type !== "message_update" || b.type !== "message_update") return undefined;
  const x = a.assistantMessageEvent;
  const y = b.assistantMessageEvent;
  if (!DELTA_TYPES.has(x.type) || x.type !== y.type) return undefined;
  if (!("delta" in x) || !("delta" in y) || x.contentIndex !== y.contentIndex) return undefined;
  return { ...b, assistantMessageEvent: { ...y, delta: x.delta + y.delta } } as RunEvent;
}

/**
 * The writer of run `runId`'s log (`runId` undefined: numbered and delivered in process only, nothing stored:
 * a `!command` beside a live run, which has no `session_runs` row).
 */
export class RunEventLog {
  private buffer: RunEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private seq = 0;
  private readonly subscribers = new Set<Subscriber>();
  private unsaved: Row[] = [];
  private writing: Promise<void> = Promise.resolve();
  /** The last insert failed: awaited flushes stop waiting for the database until one succeeds. */
  private behind = false;
  private outcome: RunOutcome | null = null;
  private scope = new DbScope();

  constructor(readonly runId: string | undefined) {}

  /** Seq of the last event handed to subscribers (0: none yet). */
  get lastSeq(): number {
    return this.seq;
  }

  /** Subscribers in this process (the POST's stream). */
  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Get every event from now on, numbered; returns the unsubscribe function. */
  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /**
   * Buffer `event`; resolves at once, or — for `message_end`, `tool_execution_end`, `run_end` — after the flush
   * (and its insert, unless the database is behind). Never rejects.
   */
  emit(event: RunEvent): Promise<void> {
    const last = this.buffer[this.buffer.length - 1];
    const joined = last ? merged(last, event) : undefined;
    if (joined) this.buffer[this.buffer.length - 1] = joined;
    else this.buffer.push(event);
    if (event.type === "run_end") this.outcome = event.outcome;
    if (AWAITED.has(event.type)) return this.flush();
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
    return Promise.resolve();
  }

  /** Deliver the buffered events now and start storing them; resolves when stored (or the insert failed). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const events = this.buffer;
    this.buffer = [];
    for (const event of events) {
      const logged = { seq: ++this.seq, event, data: eventData(event) };
      for (const subscriber of this.subscribers) {
        try {
          subscriber(logged);
        } catch (error) {
          console.error("[strata] a run event subscriber failed:", error);
        }
      }
      if (this.runId) this.unsaved.push({ seq: logged.seq, type: event.type, data: logged.data });
    }
    if (!this.runId || this.unsaved.length === 0) return Promise.resolve();
    const wait = !this.behind;
    this.writing = this.writing.then(() => this.store());
    return wait ? this.writing : Promise.resolve();
  }

  /**
   * Flush, then keep retrying to store what is left until it is stored or `deadlineMs` has passed; release the
   * connection. @returns whether every event is stored.
   */
  async close(deadlineMs: number): Promise<boolean> {
    const deadline = Date.now() + deadlineMs;
    await this.flush();
    await this.writing;
    while (this.unsaved.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      this.writing = this.writing.then(() => this.store());
      await this.writing;
    }
    await this.scope.release();
    return this.unsaved.length === 0;
  }

  /** Insert the unsaved rows (oldest first, in chunks); on failure they stay for the next try. */
  private async store(): Promise<void> {
    while (this.unsaved.length > 0) {
      const rows = this.unsaved.slice(0, ROWS_PER_INSERT);
      const final = this.outcome !== null && rows.length === this.unsaved.length ? this.outcome : null;
      try {
        await this.insert(rows, final);
      } catch (error) {
        if (!this.behind)
          console.warn(
            `[strata] run ${this.runId}: storing events failed, retrying: ${error instanceof Error ? error.message : error}`,
          );
        this.behind = true;
        return;
      }
      this.behind = false;
      this.unsaved.splice(0, rows.length);
    }
  }

  /** One statement: the rows (unless the log already has a `run_end`), `last_seq`, and with the last rows the outcome. */
  private async insert(rows: Row[], outcome: RunOutcome | null): Promise<void> {
    const params: unknown[] = [this.runId, outcome];
    const values = rows.map((r) => {
      params.push(r.seq, r.type, r.data);
      const n = params.length;
      return `($${n - 2}::int, $${n - 1}::text, $${n}::text)`;
    });
    await this.scope.query(
      `WITH ins AS (
         INSERT INTO run_events (run_id, seq, type, data)
         SELECT $1::uuid, v.seq, v.type, v.data FROM (VALUES ${values.join(", ")}) AS v(seq, type, data)
         WHERE NOT EXISTS (SELECT 1 FROM run_events WHERE run_id = $1::uuid AND type = 'run_end')
         ON CONFLICT DO NOTHING RETURNING seq
       ) UPDATE session_runs SET last_seq = GREATEST(last_seq, (SELECT max(seq) FROM ins)),
           outcome = COALESCE(outcome, $2::text)
         WHERE id = $1::uuid AND EXISTS (SELECT 1 FROM ins)`,
      params,
      { repeatable: true },
    );
  }
}
