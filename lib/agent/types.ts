/**
 * Agent-loop contracts (pi's `packages/agent/src/types.ts`): the stream a model call produces, the
 * events a run emits, and the loop's configuration.
 */
import type { AssistantMessage, Message, ToolDeclaration, ToolResultMessage } from "@/lib/llm/types";
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

/** A model call. Must never throw: failures end the stream with an `error` event (pi's `StreamFn` contract). */
export type StreamFn = (
  context: LlmRequestContext,
  signal?: AbortSignal,
) => AsyncIterable<AssistantStreamEvent>;

/** Events of a run, with pi's names and order (pi 9.1). */
export type AgentEvent =
  | { type: "agent_start" }
  | { type: "turn_start" }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantStreamEvent }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown }
  | {
      type: "tool_execution_end";
      toolCallId: string;
      toolName: string;
      result: ToolResultMessage;
      isError: boolean;
    }
  | { type: "turn_end"; message: AssistantMessage; toolResults: ToolResultMessage[] }
  | { type: "agent_end"; messages: AgentMessage[] };

export interface AgentLoopConfig {
  tools: AgentTool[];
  stream: StreamFn;
  /** AgentMessage[] → provider messages (pi's `convertToLlm`). */
  convertToLlm(messages: AgentMessage[]): Message[];
  /** Builds the request (system prompt text + tool declarations) from the converted transcript. */
  buildRequest(messages: Message[]): LlmRequestContext;
  /** Runs right before every model request (e.g. to release the database connection). */
  beforeRequest?(): Promise<void>;
  /** Runs after a turn's tool results, before `turn_end` (e.g. flush the VFS and checkpoint). */
  afterToolResults?(results: ToolResultMessage[]): Promise<void>;
  /** Called when a tool finished, before its `tool_execution_end` (e.g. persist its file changes). */
  afterToolExecution?(toolName: string): Promise<void>;
}
