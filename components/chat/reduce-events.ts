/**
 * Pure state machine: agent event stream (plus a few local actions) → the chat's message list.
 * `message_start` opens a message, `message_update` deltas grow the open assistant message,
 * `message_end` replaces it with the final message from the server.
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { AssistantMessage, TextContent, ThinkingContent, ToolCall, UserMessage } from "@/lib/llm/types";
import type { AgentEvent, AssistantMessageEvent } from "./events";
import { parsePartialJsonObject } from "./partial-json";
import { emptyQueue, type QueueAction, type QueueState, reduceQueue } from "./queue";
import { reduceShell, type ShellAction, type ShellRun } from "./shell-state";

export type ToolRunStatus = "running" | "done" | "error" | "interrupted";

export interface ToolRun {
  toolName: string;
  args: unknown;
  status: ToolRunStatus;
  result?: unknown;
  /** The running call's last partial result (`tool_execution_update`), e.g. the bash tool's wait notice. */
  partial?: unknown;
}

/** pi's auto-retry wait on screen (`auto_retry_start`), until the retried run starts. */
export interface RetryWait {
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  errorMessage: string;
}

/** pi's texts for the end of a retry series and for an abort during one (interactive-mode.ts). */
export const retryFailedText = (attempt: number, finalError: string | undefined) =>
  `Retry failed after ${attempt} attempts: ${finalError || "Unknown error"}`;
export const abortedAfterRetriesText = (attempt: number) =>
  `Aborted after ${attempt} retry attempt${attempt > 1 ? "s" : ""}`;

/** Shown when the server closed a run that went silent (its instance stopped): `run_end` outcome `taken_over`. */
export const runTakenOverText =
  "The agent's run stopped on the server (it went silent and was closed). What it stored is shown; send the prompt again to go on.";

export interface ChatState {
  messages: AgentMessage[];
  /** Index of the message between its `message_start` and `message_end`. */
  openIndex: number | null;
  /** Index of the optimistic user message added by `local_prompt`, until the server echoes it. */
  pendingUserIndex: number | null;
  /** Raw streamed JSON of tool call arguments of the open message, by content index. */
  toolArgsText: Record<number, string>;
  tools: Record<string, ToolRun>;
  running: boolean;
  errors: string[];
  /** Steering and follow-up messages waiting for the running agent. */
  queue: QueueState;
  /** `!command`s sent from this page, by a local id. */
  shells: Record<string, ShellRun>;
  /** The auto-retry wait shown with its Cancel button, or null. */
  retry: RetryWait | null;
  /** The attempt of the retry series in progress (0: none); an abort during it says so, as pi does. */
  retryAttempt: number;
  /** What each request dropped or replaced for its model (`request_notice`), by the answer it preceded. */
  notices: RequestNotices;
}

/**
 * The `request_notice` lines of this view: `pending` until the request's assistant message starts, then under
 * that message's `timestamp` (its identity across a `reset` to the stored messages, which keep it).
 */
export interface RequestNotices {
  byTimestamp: Record<number, string[]>;
  pending: string[];
}

const noNotices = (): RequestNotices => ({ byTimestamp: {}, pending: [] });

/** The notice lines shown above assistant message `message` (none for other roles). */
export function noticesFor(notices: RequestNotices, message: AgentMessage): string[] {
  return message.role === "assistant" ? (notices.byTimestamp[message.timestamp] ?? []) : [];
}

/** Notices of `notices` whose answer is among `messages` (a reset keeps those of the messages it keeps). */
function keptNotices(notices: RequestNotices, messages: AgentMessage[]): RequestNotices {
  const byTimestamp: Record<number, string[]> = {};
  for (const m of messages) {
    const lines = noticesFor(notices, m);
    if (lines.length > 0) byTimestamp[(m as AssistantMessage).timestamp] = lines;
  }
  return { byTimestamp, pending: [] };
}

/** An assistant message started: the pending notice lines go above it. */
function attachPending(notices: RequestNotices, message: AgentMessage): RequestNotices {
  if (message.role !== "assistant" || notices.pending.length === 0) return notices;
  return { byTimestamp: { ...notices.byTimestamp, [message.timestamp]: notices.pending }, pending: [] };
}

export type LocalAction =
  | { type: "reset"; messages: AgentMessage[] }
  | { type: "local_prompt"; text: string; timestamp: number }
  /** The server refused the prompt before a run started: its optimistic message goes away. */
  | { type: "local_prompt_refused" }
  /** The Retry button re-runs the failed last turn: a run starts without a new user message. */
  | { type: "local_retry" }
  | { type: "stream_closed" }
  | { type: "local_error"; message: string };

export type ChatAction =
  | AgentEvent
  | LocalAction
  | Exclude<QueueAction, { type: "queue_update" }>
  | ShellAction;

export function initialChatState(messages: AgentMessage[] = []): ChatState {
  return {
    messages,
    openIndex: null,
    pendingUserIndex: null,
    toolArgsText: {},
    tools: {},
    running: false,
    errors: [],
    queue: emptyQueue(),
    shells: {},
    retry: null,
    retryAttempt: 0,
    notices: noNotices(),
  };
}

function replaceAt<T>(list: T[], index: number, value: T): T[] {
  const next = list.slice();
  next[index] = value;
  return next;
}

type AssistantBlock = TextContent | ThinkingContent | ToolCall;

function applyDelta(
  msg: AssistantMessage,
  ev: AssistantMessageEvent,
  argsText: Record<number, string>,
): { message: AssistantMessage; argsText: Record<number, string> } {
  const content: AssistantBlock[] = msg.content.slice();
  const i = ev.contentIndex;
  const at = content[i];
  switch (ev.type) {
    case "text_start":
      content[i] = { type: "text", text: "" };
      break;
    case "thinking_start":
      content[i] = { type: "thinking", thinking: "" };
      break;
    case "text_delta":
      content[i] =
        at?.type === "text" ? { ...at, text: at.text + ev.delta } : { type: "text", text: ev.delta };
      break;
    case "thinking_delta":
      content[i] =
        at?.type === "thinking"
          ? { ...at, thinking: at.thinking + ev.delta }
          : { type: "thinking", thinking: ev.delta };
      break;
    case "toolcall_start":
      content[i] = { type: "toolCall", id: ev.id, name: ev.name, arguments: {} };
      argsText = { ...argsText, [i]: "" };
      break;
    case "toolcall_delta": {
      if (at?.type !== "toolCall") return { message: msg, argsText };
      const raw = (argsText[i] ?? "") + ev.delta;
      argsText = { ...argsText, [i]: raw };
      const parsed = parsePartialJsonObject(raw);
      if (parsed) content[i] = { ...at, arguments: parsed };
      break;
    }
    default:
      return { message: msg, argsText };
  }
  // Sparse writes (a delta for index 2 before index 1) must not leave holes.
  for (let k = 0; k < content.length; k++) {
    if (content[k] === undefined) content[k] = { type: "text", text: "" };
  }
  return { message: { ...msg, content }, argsText };
}

export function reduceChat(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "reset":
      return { ...initialChatState(action.messages), notices: keptNotices(state.notices, action.messages) };

    case "request_notice": {
      const lines = Array.isArray(action.notices) ? action.notices : [];
      if (lines.length === 0) return state;
      return { ...state, notices: { ...state.notices, pending: [...state.notices.pending, ...lines] } };
    }

    case "local_prompt": {
      const user: UserMessage = { role: "user", content: action.text, timestamp: action.timestamp };
      return {
        ...state,
        messages: [...state.messages, user],
        pendingUserIndex: state.messages.length,
        running: true,
        errors: [],
      };
    }

    case "local_retry":
      return { ...state, running: true, errors: [], retry: null, retryAttempt: 0 };

    case "auto_retry_start":
      // The run goes on after its agent_end: it waits, then continues (Abort, not Send, until it ends).
      return {
        ...state,
        running: true,
        retry: {
          attempt: Number(action.attempt) || 0,
          maxAttempts: Number(action.maxAttempts) || 0,
          delayMs: Number(action.delayMs) || 0,
          errorMessage: String(action.errorMessage ?? ""),
        },
        retryAttempt: Number(action.attempt) || 0,
      };

    case "auto_retry_end":
      return {
        ...state,
        retry: null,
        retryAttempt: 0,
        errors: action.success
          ? state.errors
          : [...state.errors, retryFailedText(Number(action.attempt) || 0, action.finalError)],
      };

    case "local_error":
    case "error":
      return { ...state, errors: [...state.errors, action.message] };

    case "local_prompt_refused": {
      const at = state.pendingUserIndex;
      if (at === null) return state;
      return { ...state, messages: state.messages.filter((_, i) => i !== at), pendingUserIndex: null };
    }

    case "run_start":
      // A follower sees the run from its first event; the Retry re-run is shown as the Retry button shows it.
      return action.mode === "retry"
        ? reduceChat(state, { type: "local_retry" })
        : { ...state, running: true };

    case "run_end": {
      const closed = reduceChat(state, { type: "stream_closed" });
      return action.outcome === "taken_over"
        ? { ...closed, errors: [...closed.errors, runTakenOverText] }
        : closed;
    }

    case "stream_closed": {
      const tools: Record<string, ToolRun> = {};
      for (const [id, run] of Object.entries(state.tools)) {
        tools[id] = run.status === "running" ? { ...run, status: "interrupted" } : run;
      }
      return {
        ...state,
        running: false,
        openIndex: null,
        pendingUserIndex: null,
        toolArgsText: {},
        tools,
        retry: null,
        retryAttempt: 0,
        // A request that never answered: its notice goes with it.
        notices: { ...state.notices, pending: [] },
        // No run, no queue: what an abort did not hand back is gone with the run.
        queue: reduceQueue(state.queue, { type: "queue_cleared" }),
      };
    }

    case "queue_update":
    case "local_queued":
    case "queue_cleared":
      return { ...state, queue: reduceQueue(state.queue, action) };

    case "shell_start":
    case "shell_message":
    case "shell_closed":
      return reduceShell(state, action);

    case "agent_start":
      // pi stops the retry indicator when the retried run starts.
      return { ...state, running: true, retry: null };

    case "agent_end":
      return { ...state, running: false, openIndex: null, toolArgsText: {} };

    case "message_start": {
      const { message } = action;
      if (message.role === "assistant" && state.notices.pending.length > 0)
        return reduceChat({ ...state, notices: attachPending(state.notices, message) }, action);
      if (message.role === "user" && state.pendingUserIndex !== null) {
        return {
          ...state,
          messages: replaceAt(state.messages, state.pendingUserIndex, message),
          openIndex: state.pendingUserIndex,
          pendingUserIndex: null,
          toolArgsText: {},
        };
      }
      if (state.pendingUserIndex !== null) {
        // A message the run stores before the prompt (the session's first system message) goes before it.
        const at = state.pendingUserIndex;
        return {
          ...state,
          messages: [...state.messages.slice(0, at), message, ...state.messages.slice(at)],
          openIndex: at,
          pendingUserIndex: at + 1,
          toolArgsText: {},
        };
      }
      return {
        ...state,
        messages: [...state.messages, message],
        openIndex: state.messages.length,
        toolArgsText: {},
      };
    }

    case "message_update": {
      const idx = state.openIndex;
      if (idx === null) return state;
      const open = state.messages[idx];
      if (open?.role !== "assistant") return state;
      const { message, argsText } = applyDelta(open, action.assistantMessageEvent, state.toolArgsText);
      if (message === open) return state;
      return { ...state, messages: replaceAt(state.messages, idx, message), toolArgsText: argsText };
    }

    case "message_end": {
      const message =
        action.message.role === "assistant" &&
        action.message.stopReason === "aborted" &&
        state.retryAttempt > 0
          ? { ...action.message, errorMessage: abortedAfterRetriesText(state.retryAttempt) }
          : action.message;
      const idx = state.openIndex;
      let messages: AgentMessage[];
      let pendingUserIndex = state.pendingUserIndex;
      if (idx !== null && state.messages[idx]?.role === message.role) {
        messages = replaceAt(state.messages, idx, message);
      } else if (message.role === "user" && pendingUserIndex !== null) {
        messages = replaceAt(state.messages, pendingUserIndex, message);
        pendingUserIndex = null;
      } else if (pendingUserIndex !== null && message.role !== "user") {
        // Stored before the prompt (as in `message_start`): before its optimistic message.
        messages = [
          ...state.messages.slice(0, pendingUserIndex),
          message,
          ...state.messages.slice(pendingUserIndex),
        ];
        pendingUserIndex++;
      } else {
        messages = [...state.messages, message];
      }
      return { ...state, messages, openIndex: null, pendingUserIndex, toolArgsText: {} };
    }

    case "tool_execution_start":
      return {
        ...state,
        tools: {
          ...state.tools,
          [action.toolCallId]: { toolName: action.toolName, args: action.args, status: "running" },
        },
      };

    case "tool_execution_update": {
      const prev = state.tools[action.toolCallId];
      if (prev?.status !== "running") return state;
      return {
        ...state,
        tools: { ...state.tools, [action.toolCallId]: { ...prev, partial: action.partialResult } },
      };
    }

    case "tool_execution_end": {
      const prev = state.tools[action.toolCallId];
      return {
        ...state,
        tools: {
          ...state.tools,
          [action.toolCallId]: {
            toolName: action.toolName,
            args: prev?.args,
            status: action.isError ? "error" : "done",
            result: action.result,
          },
        },
      };
    }

    case "turn_start":
    case "turn_end":
    case "files_changed":
      return state;

    default:
      return state;
  }
}

const FILE_WRITING_TOOLS = new Set(["write", "edit"]);

/**
 * The file paths an event says the agent changed, as the agent named them (absolute VFS paths or
 * project-relative): `files_changed` paths, and the `path` argument of a successful write/edit
 * tool execution (whose args are only on `tool_execution_start`, hence `prev`).
 */
export function changedPathsOf(prev: ChatState, event: ChatAction): string[] {
  if (event.type === "files_changed") return Array.isArray(event.paths) ? event.paths : [];
  if (event.type === "tool_execution_end" && !event.isError && FILE_WRITING_TOOLS.has(event.toolName)) {
    const args = prev.tools[event.toolCallId]?.args;
    if (args && typeof args === "object") {
      const a = args as Record<string, unknown>;
      const path = a.path ?? a.file_path;
      if (typeof path === "string" && path) return [path];
    }
  }
  return [];
}

/** Maps a path the agent reported to a project-relative path (strips the project root and "./"). */
export function toProjectPath(path: string, rootPath: string | null): string {
  let p = path.replace(/\\/g, "/");
  const root = rootPath?.replace(/\/+$/, "");
  if (root && (p === root || p.startsWith(`${root}/`))) p = p.slice(root.length);
  while (p.startsWith("./")) p = p.slice(2);
  return p.replace(/^\/+/, "");
}
