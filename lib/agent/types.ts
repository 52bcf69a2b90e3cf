/**
 * Agent-loop contracts (pi's `packages/agent/src/types.ts`): the stream a model call produces, the
 * events a run emits, and the loop's configuration with pi's hooks (pi's `agent-loop.ts`).
 */
import type { Model } from "@/lib/llm/models";
import type {
  AssistantMessage,
  ImageContent,
  Message,
  TextContent,
  ThinkingLevel,
  ToolCall,
  ToolDeclaration,
  ToolResultMessage,
  Usage,
} from "@/lib/llm/types";
import type { AgentTool } from "@/lib/tools/types";
import type { AgentMessage } from "./messages";

/** One event of a streamed assistant message (pi-ai's `AssistantMessageEvent`). */
export type AssistantStreamEvent =
  | { type: "start"; partial: AssistantMessage }
  | {
      type: "text_start" | "thinking_start" | "text_end" | "thinking_end";
      contentIndex: number;
      partial: AssistantMessage;
    }
  | {
      type: "text_delta" | "thinking_delta" | "toolcall_delta";
      contentIndex: number;
      delta: string;
      partial: AssistantMessage;
    }
  | { type: "toolcall_start" | "toolcall_end"; contentIndex: number; partial: AssistantMessage }
  | { type: "done"; reason: string; message: AssistantMessage }
  | { type: "error"; reason: "error" | "aborted"; error: AssistantMessage };

/** What a model call receives: the rendered system prompt, provider messages and tool declarations. */
export interface LlmRequestContext {
  systemPrompt: string;
  messages: Message[];
  tools: ToolDeclaration[];
}

/** Per-request options the loop passes to a {@link StreamFn} (pi passes `config` with `reasoning`). */
export interface StreamOptions {
  /** The model of this request (after `prepareNextTurn` / `prepareRequest`), when the config has one. */
  model?: Model;
  /** The requested thinking level; `undefined` = off. */
  thinkingLevel?: ThinkingLevel;
}

/** A model call. Must never throw: failures end the stream with an `error` event (pi's `StreamFn` contract). */
export type StreamFn = (
  context: LlmRequestContext,
  signal?: AbortSignal,
  options?: StreamOptions,
) => AsyncIterable<AssistantStreamEvent>;

/** Events of a run, with pi's names and order (pi's `agent-loop.ts`). */
export type AgentEvent =
  | { type: "agent_start" }
  | { type: "turn_start" }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantStreamEvent }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown }
  | {
      type: "tool_execution_update";
      toolCallId: string;
      toolName: string;
      args: unknown;
      partialResult: unknown;
    }
  | {
      type: "tool_execution_end";
      toolCallId: string;
      toolName: string;
      result: ToolResultMessage;
      isError: boolean;
    }
  | { type: "turn_end"; message: AssistantMessage; toolResults: ToolResultMessage[] }
  | { type: "agent_end"; messages: AgentMessage[] };

/** pi's `AgentContext`: the transcript (system messages included) and the executable tools (pi's `agent-loop.ts`). */
export interface AgentContext {
  messages: AgentMessage[];
  tools: AgentTool[];
}

/** A tool's outcome inside the loop (pi's `AgentToolResult` with its optional loop fields). */
export interface ToolOutcome {
  content: (TextContent | ImageContent)[];
  details?: unknown;
  usage?: Usage;
  /** Stops the tool-call continuation when every result of the batch sets it (pi's `agent-loop.ts`). */
  terminate?: boolean;
  structuredContent?: unknown;
}

/** `beforeToolCall` input (pi `BeforeToolCallContext`). `args` are the validated arguments; mutate to change them. */
export interface BeforeToolCallContext {
  assistantMessage: AssistantMessage;
  toolCall: ToolCall;
  args: unknown;
  context: AgentContext;
}

/** `beforeToolCall` result: `block` answers the call with `reason` (or `Tool execution was blocked`). */
export interface BeforeToolCallResult {
  block?: boolean;
  reason?: string;
}

/** `afterToolCall` input (pi `AfterToolCallContext`). */
export interface AfterToolCallContext {
  assistantMessage: AssistantMessage;
  toolCall: ToolCall;
  args: unknown;
  result: ToolOutcome;
  isError: boolean;
  context: AgentContext;
}

/** `afterToolCall` result: each present field overrides the result's (pi's `agent-loop.ts`). */
export interface AfterToolCallResult {
  content?: (TextContent | ImageContent)[];
  details?: unknown;
  usage?: Usage;
  terminate?: boolean;
  isError?: boolean;
  structuredContent?: unknown;
}

/** What `prepareNextTurn`, `shouldStopAfterTurn` and `finishTurn` see of the turn that just ended. */
export interface TurnContext {
  message: AssistantMessage;
  toolResults: ToolResultMessage[];
  context: AgentContext;
  newMessages: AgentMessage[];
}

/** `prepareNextTurn` result (pi's `agent-loop.ts`): a replacement context/model/level and messages for the next turn. */
export interface NextTurnSnapshot {
  context?: AgentContext;
  model?: Model;
  /** `"off"` clears the level. */
  thinkingLevel?: ThinkingLevel;
  /** Emitted and appended before the pending steering messages. */
  messages?: AgentMessage[];
}

/** `prepareRequest` input and result (pi's `agent-loop.ts`). */
export interface RequestSnapshot {
  context: AgentContext;
  model?: Model;
  thinkingLevel?: ThinkingLevel;
}

/** `finishTurn` decision (pi's `agent-loop.ts`). */
export type FinishTurnDecision = { action: "end" } | { action: "continue" } | undefined;

export interface AgentLoopConfig {
  tools: AgentTool[];
  stream: StreamFn;
  /** AgentMessage[] → provider messages (pi's `convertToLlm`). Default: keep provider roles (pi's `agent-loop.ts`). */
  convertToLlm?(messages: AgentMessage[]): Message[] | Promise<Message[]>;
  /**
   * Builds the request from the converted transcript. Default pi's: `{ systemPrompt: "", messages, tools: [] }`
   * (the prompt and tool declarations live in the transcript's system messages, pi's `agent-loop.ts`).
   */
  buildRequest?(messages: Message[]): LlmRequestContext;
  /** Runs right before every model request (e.g. to release the database connection). */
  beforeRequest?(): Promise<void>;
  /** Runs after a turn's tool results, before `finishTurn`/`turn_end` (e.g. flush the VFS and checkpoint). */
  afterToolResults?(results: ToolResultMessage[]): Promise<void>;
  /** Called when a tool finished, before its `tool_execution_end` (e.g. persist its file changes). */
  afterToolExecution?(toolName: string, toolCallId: string, args: unknown): Promise<void>;

  /** The model passed to `stream` (replaceable by `prepareNextTurn`/`prepareRequest`). */
  model?: Model;
  /**
   * Requested thinking level (pi's `reasoning`); stamped on each assistant message (pi's `agent-loop.ts`). When the key is
   * absent the loop does not stamp (see docs/pi-differences.md); the `Agent` always sets it.
   */
  thinkingLevel?: ThinkingLevel;
  /** `"sequential"` runs every call one after another (pi's `agent-loop.ts`). Default `"parallel"`. */
  toolExecution?: "parallel" | "sequential";
  beforeToolCall?(
    context: BeforeToolCallContext,
    signal?: AbortSignal,
  ): Promise<BeforeToolCallResult | undefined> | BeforeToolCallResult | undefined;
  afterToolCall?(
    context: AfterToolCallContext,
    signal?: AbortSignal,
  ): Promise<AfterToolCallResult | undefined> | AfterToolCallResult | undefined;
  /** Steering messages typed while the agent works (pi's `agent-loop.ts`). */
  getSteeringMessages?(): Promise<AgentMessage[]> | AgentMessage[];
  /** Follow-up messages taken when the loop would stop (pi's `agent-loop.ts`). */
  getFollowUpMessages?(): Promise<AgentMessage[]> | AgentMessage[];
  /** Before every turn after the first (pi's `agent-loop.ts`). */
  prepareNextTurn?(
    turn: TurnContext,
    signal?: AbortSignal,
  ): Promise<NextTurnSnapshot | undefined> | NextTurnSnapshot | undefined;
  /** Right before every request (pi's `agent-loop.ts`). */
  prepareRequest?(
    request: RequestSnapshot,
    signal?: AbortSignal,
  ): Promise<Partial<RequestSnapshot> | undefined> | Partial<RequestSnapshot> | undefined;
  /** After tool results, before `turn_end` (pi's `agent-loop.ts`). */
  finishTurn?(turn: TurnContext, signal?: AbortSignal): Promise<FinishTurnDecision> | FinishTurnDecision;
  /** AgentMessage[] → AgentMessage[] before `convertToLlm` on every request (pi's `agent-loop.ts`). */
  transformContext?(messages: AgentMessage[], signal?: AbortSignal): Promise<AgentMessage[]> | AgentMessage[];
}
