/** A scripted `StreamFn` (a fake LLM with exact event timing) and helpers for the agent-loop tests. */
import { z } from "zod";
import type { AgentEvent, AssistantStreamEvent, LlmRequestContext, StreamFn } from "@/lib/agent/types";
import { type AssistantMessage, emptyUsage, type StopReason, type ToolCall } from "@/lib/llm/types";
import type { AgentTool } from "@/lib/tools/types";

export interface ScriptedTurn {
  text?: string;
  toolCalls?: { id: string; name: string; arguments: Record<string, unknown> }[];
  stopReason?: StopReason;
  errorMessage?: string;
  /** Emit no `start` event. */
  noStart?: boolean;
  /** Awaited after `start`, before the content (to steer or abort mid-stream). */
  gate?: () => Promise<void>;
}

export function assistant(turn: ScriptedTurn): AssistantMessage {
  const content: AssistantMessage["content"] = [];
  if (turn.text !== undefined) content.push({ type: "text", text: turn.text });
  for (const c of turn.toolCalls ?? []) content.push({ type: "toolCall", ...c } satisfies ToolCall);
  return {
    role: "assistant",
    content,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "scripted",
    usage: emptyUsage(),
    stopReason: turn.stopReason ?? ((turn.toolCalls?.length ?? 0) > 0 ? "toolUse" : "stop"),
    ...(turn.errorMessage ? { errorMessage: turn.errorMessage } : {}),
    timestamp: 1,
  };
}

/** A StreamFn answering each request with the next turn; `requests` records what each request got. */
export function scriptedStream(turns: ScriptedTurn[]): StreamFn & {
  requests: LlmRequestContext[];
  options: unknown[];
} {
  const queue = [...turns];
  const requests: LlmRequestContext[] = [];
  const options: unknown[] = [];
  const fn = async function* (context: LlmRequestContext, signal?: AbortSignal, opts?: unknown) {
    requests.push(structuredClone(context));
    options.push(opts);
    const turn = queue.shift() ?? { text: "(no turn)" };
    const final = assistant(turn);
    const partial: AssistantMessage = { ...final, content: [] };
    if (!turn.noStart) yield { type: "start", partial } satisfies AssistantStreamEvent;
    await turn.gate?.();
    if (signal?.aborted) {
      partial.stopReason = "aborted";
      partial.errorMessage = "Request was aborted";
      yield { type: "error", reason: "aborted", error: partial } satisfies AssistantStreamEvent;
      return;
    }
    if (!turn.noStart)
      for (const [i, block] of final.content.entries()) {
        partial.content.push(block);
        if (block.type === "text") {
          yield { type: "text_start", contentIndex: i, partial };
          yield { type: "text_delta", contentIndex: i, delta: block.text, partial };
          yield { type: "text_end", contentIndex: i, partial };
        } else {
          yield { type: "toolcall_start", contentIndex: i, partial };
          yield { type: "toolcall_end", contentIndex: i, partial };
        }
      }
    if (final.stopReason === "error" || final.stopReason === "aborted")
      yield { type: "error", reason: final.stopReason, error: final } satisfies AssistantStreamEvent;
    else yield { type: "done", reason: final.stopReason, message: final } satisfies AssistantStreamEvent;
  } as unknown as StreamFn & { requests: LlmRequestContext[]; options: unknown[] };
  fn.requests = requests;
  fn.options = options;
  return fn;
}

/** A tool that resolves after `delayMs` with `text` (or the `execute` given). */
export function tool(
  name: string,
  options: Partial<AgentTool> & { delayMs?: number; text?: string } = {},
): AgentTool {
  const { delayMs = 0, text = `${name} ok`, ...rest } = options;
  return {
    name,
    label: name,
    description: `${name} tool`,
    parameters: z.object({ value: z.string() }),
    async execute() {
      await new Promise((r) => setTimeout(r, delayMs));
      return { content: [{ type: "text", text }], details: { name } };
    },
    ...rest,
  };
}

/** `agent_start`, `message_start(user)`, `tool_execution_end(tc1)`, … */
export function label(event: AgentEvent): string {
  switch (event.type) {
    case "message_start":
    case "message_end":
    case "message_update":
      return `${event.type}(${event.message.role})`;
    case "tool_execution_start":
    case "tool_execution_end":
    case "tool_execution_update":
      return `${event.type}(${event.toolCallId})`;
    default:
      return event.type;
  }
}

/** Text of a message's first text block (or string content). */
export function textOf(message: object): string {
  const m = message as { content?: unknown };
  if (typeof m.content === "string") return m.content;
  const block = (m.content as { type: string; text?: string }[] | undefined)?.find((b) => b.type === "text");
  return block?.text ?? "";
}

export const user = (text: string, timestamp = 1) => ({
  role: "user" as const,
  content: [{ type: "text" as const, text }],
  timestamp,
});
