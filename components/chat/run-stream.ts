/**
 * Reading the event streams of `POST /api/sessions/:id/prompt` into chat actions: a run's stream (agent
 * events, compaction outcomes, queue updates) and a `!command`'s stream (its `bashExecution` message).
 */
import type { BashExecutionMessage } from "@/lib/agent/messages";
import { toAgentEvent } from "./events";
import type { ChatAction } from "./reduce-events";
import { readSseStream, type SseEvent } from "./sse";

/** Applies an action; returns the state before it (for `changedPathsOf`). */
export type Apply<S> = (action: ChatAction) => S;

/**
 * `apply` only while `current()` holds; otherwise the action is dropped and the state is unchanged. A prompt's
 * stream stays open after its `agent_end` (the run finishes its queue, then sends `run_end`), and the user may send
 * the next prompt meanwhile: the earlier stream's late `run_end` / close must not end the newer run's view (it
 * would drop the newer prompt's optimistic message, which then showed twice).
 */
export function applyWhile<S>(apply: Apply<S>, current: () => boolean, state: () => S): Apply<S> {
  return (action) => (current() ? apply(action) : state());
}

/** Handles the events of a run's stream one by one (the POST answer and any re-attached stream alike). */
export interface RunEventHandler {
  /** Applies one server-sent event. */
  handle(sse: SseEvent): void;
  /** Whether a compaction happened so far (the server's context changed: re-read it afterwards). */
  readonly compacted: boolean;
}

/**
 * The handler of a run's events: agent events go to `apply` (then `onEvent` with the state before), compaction
 * outcomes become errors or the `compacted` flag, `queue_returned` texts go to `onReturned`.
 */
export function createRunEventHandler<S>(
  apply: Apply<S>,
  onEvent?: (prev: S, action: ChatAction) => void,
  onReturned?: (texts: string[]) => void,
): RunEventHandler {
  let compacted = false;
  return {
    get compacted() {
      return compacted;
    },
    handle(sse) {
      if (sse.event === "queue_returned") {
        // Queued texts no run will deliver (an abort, a failure, or a run whose tab went away): back to the user.
        const texts = (JSON.parse(sse.data || "{}") as { texts?: unknown }).texts;
        if (Array.isArray(texts)) onReturned?.(texts.filter((t): t is string => typeof t === "string"));
        return;
      }
      if (sse.event === "compaction_end" || sse.event === "auto_compaction_end") {
        compacted = true;
        const end = JSON.parse(sse.data || "{}") as { errorMessage?: string; skipped?: string };
        if (end.errorMessage)
          apply({ type: "local_error", message: `Compaction failed: ${end.errorMessage}` });
        else if (end.skipped === "nothing")
          apply({ type: "local_error", message: "Nothing to compact yet." });
        return;
      }
      const event = toAgentEvent(sse.event, sse.data);
      if (!event) return;
      const prev = apply(event);
      onEvent?.(prev, event);
    },
  };
}

/**
 * Reads a run's stream to its end, applying each agent event. Resolves whether a compaction happened
 * (the server's context changed: re-read it afterwards). Rejects with the reader's error.
 */
export async function consumeRunStream<S>(
  body: ReadableStream<Uint8Array>,
  apply: Apply<S>,
  onEvent?: (prev: S, action: ChatAction) => void,
  onReturned?: (texts: string[]) => void,
): Promise<{ compacted: boolean }> {
  const handler = createRunEventHandler(apply, onEvent, onReturned);
  await readSseStream(body, handler.handle);
  return { compacted: handler.compacted };
}

/**
 * Reads a `!command`'s stream: its `bashExecution` message (start, end) and any error; `onFilesChanged` gets
 * the paths of its `files_changed` event (the files the command changed, checkpointed); `onRunStart` the run id
 * of its `run_start` (a command on an idle session is a server-owned run of mode `bash`).
 */
export async function consumeShellStream<S>(
  body: ReadableStream<Uint8Array>,
  id: string,
  apply: Apply<S>,
  onFilesChanged?: (paths: string[]) => void,
  onRunStart?: (runId: string) => void,
): Promise<void> {
  await readSseStream(body, (sse) => {
    const event = toAgentEvent(sse.event, sse.data);
    if (!event) return;
    if (event.type === "run_start") {
      if (typeof event.runId === "string" && event.runId) onRunStart?.(event.runId);
    } else if (event.type === "error") apply({ type: "local_error", message: event.message });
    else if (event.type === "files_changed") onFilesChanged?.(Array.isArray(event.paths) ? event.paths : []);
    else if (
      (event.type === "message_start" || event.type === "message_end") &&
      event.message.role === "bashExecution"
    ) {
      const message: BashExecutionMessage = event.message;
      apply({ type: "shell_message", id, message, final: event.type === "message_end" });
    }
  });
}
