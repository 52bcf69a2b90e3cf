/**
 * pi's streaming protocol of one assistant response: `AssistantMessageEvent` (`packages/ai/src/types.ts`) and
 * `AssistantMessageEventStream` (`packages/ai/src/utils/event-stream.ts`), reimplemented.
 *
 * A stream emits `start` first, then `text_*`, `thinking_*` and `toolcall_*` events, and ends with exactly one
 * `done` or `error`. `partial` is the live response-so-far (the same object on every event, as in pi), not a
 * snapshot: copy it if you need the state at event time.
 */
import type { AssistantMessage, StopReason, ToolCall } from "./types";

/** One event of an assistant response stream; field names follow pi exactly. */
export type AssistantMessageEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "text_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
  | { type: "done"; reason: Extract<StopReason, "stop" | "length" | "toolUse">; message: AssistantMessage }
  | { type: "error"; reason: Extract<StopReason, "aborted" | "error">; error: AssistantMessage };

/**
 * A push-based async iterable of {@link AssistantMessageEvent}s with a `result()` promise for the final
 * message (pi's `AssistantMessageEventStream`). Events pushed after `done`/`error` are ignored. Iterating is
 * single-consumer: every event is delivered once.
 */
export class AssistantMessageEventStream implements AsyncIterable<AssistantMessageEvent> {
  private readonly queue: AssistantMessageEvent[] = [];
  private readonly waiting: ((result: IteratorResult<AssistantMessageEvent>) => void)[] = [];
  private finished = false;
  private readonly final: Promise<AssistantMessage>;
  private resolveFinal!: (message: AssistantMessage) => void;

  constructor() {
    this.final = new Promise((resolve) => {
      this.resolveFinal = resolve;
    });
  }

  /** Deliver an event; a `done` or `error` event ends the stream and settles `result()`. */
  push(event: AssistantMessageEvent): void {
    if (this.finished) return;
    if (event.type === "done" || event.type === "error") {
      this.finished = true;
      this.resolveFinal(event.type === "done" ? event.message : event.error);
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter({ value: event, done: false });
    else this.queue.push(event);
    if (this.finished) {
      for (const pending of this.waiting.splice(0)) pending({ value: undefined, done: true });
    }
  }

  /** The final assistant message (from `done` or `error`). Never rejects. */
  result(): Promise<AssistantMessage> {
    return this.final;
  }

  /**
   * A plain iterator rather than an async generator: a queued event is handed out with one resolved promise
   * (a generator's `yield` costs several more microtask turns per event, which shows at thousands of deltas).
   */
  [Symbol.asyncIterator](): AsyncIterator<AssistantMessageEvent> {
    return {
      next: (): Promise<IteratorResult<AssistantMessageEvent>> => {
        const next = this.queue.shift();
        if (next) return Promise.resolve({ value: next, done: false });
        if (this.finished) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiting.push(resolve);
        });
      },
      return: (): Promise<IteratorResult<AssistantMessageEvent>> =>
        Promise.resolve({ value: undefined, done: true }),
    };
  }
}
