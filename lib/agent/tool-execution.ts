/**
 * Executing one assistant message's tool calls (pi's `executeToolCalls` and helpers in agent-loop.ts,
 * pi's `agent-loop.ts`): each call is prepared in call order (lookup, argument preparation, schema validation,
 * `beforeToolCall`); in parallel mode executions run concurrently, `tool_execution_end` comes in completion
 * order and the tool-result messages in call order after all finished; in sequential mode each call is
 * prepared, run, ended and its result message emitted before the next one.
 */
import type { AssistantMessage, ToolCall, ToolResultMessage } from "@/lib/llm/types";
import { type AgentTool, ToolError } from "@/lib/tools/types";
import type { AgentContext, AgentEvent, AgentLoopConfig, ToolOutcome } from "./types";

/** pi's `agent-loop.ts`: the text of a tool call cut off by the output limit. */
export function lengthTruncatedToolCallText(name: string): string {
  return `Tool call "${name}" was not executed: the response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.`;
}

/** pi's `agent-loop.ts` texts. */
export const TOOL_BLOCKED_TEXT = "Tool execution was blocked";
export const TOOL_ABORTED_TEXT = "Operation aborted";
export const toolNotFoundText = (name: string) => `Tool ${name} not found`;

type Emit = (event: AgentEvent) => Promise<void>;

/** The hooks and tools the executor reads. */
export type ToolExecutionConfig = Pick<
  AgentLoopConfig,
  "afterToolExecution" | "beforeToolCall" | "afterToolCall" | "toolExecution"
>;

/** A batch's result messages (call order) and whether every result asked to terminate (pi's `agent-loop.ts`). */
export interface ExecutedToolBatch {
  messages: ToolResultMessage[];
  terminate: boolean;
}

interface Finalized {
  call: ToolCall;
  result: ToolOutcome;
  isError: boolean;
  /** The call reached the tool's `execute`. */
  executed: boolean;
}

/**
 * pi `createErrorToolResult`: `{ content: [{ type: "text", text }], details: {} }`; a {@link ToolError}'s details
 * instead of `{}`.
 */
function errorOutcome(text: string, details: unknown = {}): ToolOutcome {
  return { content: [{ type: "text", text }], details };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function validationMessage(
  tool: AgentTool,
  args: unknown,
  issues: { path: PropertyKey[]; message: string }[],
): string {
  const lines = issues.map(
    (i) => `  - ${i.path.length > 0 ? i.path.map(String).join(".") : "root"}: ${i.message}`,
  );
  return `Validation failed for tool "${tool.name}":\n${lines.join("\n")}\n\nReceived arguments:\n${JSON.stringify(args, null, 2)}`;
}

type Preparation =
  | { kind: "immediate"; call: ToolCall; result: ToolOutcome; isError: true }
  | { kind: "prepared"; call: ToolCall; tool: AgentTool; args: unknown };

async function prepareToolCall(
  context: AgentContext,
  assistant: AssistantMessage,
  call: ToolCall,
  config: ToolExecutionConfig,
  signal?: AbortSignal,
): Promise<Preparation> {
  const immediate = (text: string): Preparation => ({
    kind: "immediate",
    call,
    result: errorOutcome(text),
    isError: true,
  });
  const tool = context.tools.find((t) => t.name === call.name);
  if (!tool) return immediate(toolNotFoundText(call.name));
  let args: unknown;
  try {
    const raw = tool.prepareArguments ? tool.prepareArguments(call.arguments) : call.arguments;
    const parsed = tool.parameters.safeParse(raw);
    if (!parsed.success) return immediate(validationMessage(tool, raw, parsed.error.issues));
    args = parsed.data;
  } catch (error) {
    return immediate(messageOf(error));
  }
  if (config.beforeToolCall) {
    try {
      const decision = await config.beforeToolCall(
        { assistantMessage: assistant, toolCall: call, args, context },
        signal,
      );
      if (decision?.block) return immediate(decision.reason || TOOL_BLOCKED_TEXT);
    } catch (error) {
      return immediate(messageOf(error));
    }
  }
  return { kind: "prepared", call, tool, args };
}

async function executePrepared(
  p: Extract<Preparation, { kind: "prepared" }>,
  emit: Emit,
  signal?: AbortSignal,
): Promise<{ result: ToolOutcome; isError: boolean }> {
  if (signal?.aborted) return { result: errorOutcome(TOOL_ABORTED_TEXT), isError: true };
  try {
    const out = (await p.tool.execute(p.call.id, p.args, signal, (partialResult) => {
      void emit({
        type: "tool_execution_update",
        toolCallId: p.call.id,
        toolName: p.call.name,
        args: p.call.arguments,
        partialResult,
      });
    })) as ToolOutcome | undefined;
    return { result: { ...out, content: out?.content ?? [] }, isError: false };
  } catch (error) {
    if (signal?.aborted) return { result: errorOutcome(TOOL_ABORTED_TEXT), isError: true };
    const details = error instanceof ToolError ? error.details : undefined;
    return { result: errorOutcome(messageOf(error), details), isError: true };
  }
}

/** `afterToolCall` overrides, field by field (pi's `agent-loop.ts`); a throw turns the result into an error. */
async function finalizeExecuted(
  context: AgentContext,
  assistant: AssistantMessage,
  p: Extract<Preparation, { kind: "prepared" }>,
  executed: { result: ToolOutcome; isError: boolean },
  config: ToolExecutionConfig,
  signal?: AbortSignal,
): Promise<Finalized> {
  let { result, isError } = executed;
  if (config.afterToolCall) {
    try {
      const o = await config.afterToolCall(
        { assistantMessage: assistant, toolCall: p.call, args: p.args, result, isError, context },
        signal,
      );
      if (o) {
        const next: ToolOutcome = { ...result };
        if (o.content !== undefined) {
          next.content = o.content;
          if (o.structuredContent === undefined) delete next.structuredContent;
        }
        if (o.structuredContent !== undefined) next.structuredContent = o.structuredContent;
        if (o.details !== undefined) next.details = o.details;
        if (o.usage !== undefined) next.usage = o.usage;
        if (o.terminate !== undefined) next.terminate = o.terminate;
        if (o.isError !== undefined) isError = o.isError;
        result = next;
      }
    } catch (error) {
      result = errorOutcome(messageOf(error));
      isError = true;
    }
  }
  return { call: p.call, result, isError, executed: true };
}

const resultMessages = new WeakMap<Finalized, ToolResultMessage>();

/** The result message of a finalized call (one object per call: the `tool_execution_end` result is the stored message). */
function toMessage(f: Finalized): ToolResultMessage {
  const existing = resultMessages.get(f);
  if (existing) return existing;
  const message: ToolResultMessage & { usage?: unknown; structuredContent?: unknown } = {
    role: "toolResult",
    toolCallId: f.call.id,
    toolName: f.call.name,
    content: f.result.content,
    details: f.result.details,
    isError: f.isError,
    timestamp: Date.now(),
  };
  if (f.result.usage !== undefined) message.usage = f.result.usage;
  if (f.result.structuredContent !== undefined) message.structuredContent = f.result.structuredContent;
  resultMessages.set(f, message);
  return message;
}

async function emitEnd(f: Finalized, message: ToolResultMessage, config: ToolExecutionConfig, emit: Emit) {
  if (f.executed) await config.afterToolExecution?.(f.call.name, f.call.id, f.call.arguments);
  await emit({
    type: "tool_execution_end",
    toolCallId: f.call.id,
    toolName: f.call.name,
    result: message,
    isError: f.isError,
  });
}

async function emitResultMessage(message: ToolResultMessage, emit: Emit) {
  await emit({ type: "message_start", message });
  await emit({ type: "message_end", message });
}

const startEvent = (call: ToolCall): AgentEvent => ({
  type: "tool_execution_start",
  toolCallId: call.id,
  toolName: call.name,
  args: call.arguments,
});

/** pi's `agent-loop.ts`: terminate only when every result of a non-empty batch sets `terminate: true`. */
function shouldTerminate(finalized: Finalized[]): boolean {
  return finalized.length > 0 && finalized.every((f) => f.result.terminate === true);
}

/** pi's `agent-loop.ts`: a `length` stop runs nothing and answers each call with the truncation error; never terminates. */
export async function failTruncatedToolCalls(calls: ToolCall[], emit: Emit): Promise<ExecutedToolBatch> {
  const messages: ToolResultMessage[] = [];
  for (const call of calls) {
    await emit(startEvent(call));
    const f: Finalized = {
      call,
      result: errorOutcome(lengthTruncatedToolCallText(call.name)),
      isError: true,
      executed: false,
    };
    const message = toMessage(f);
    await emit({
      type: "tool_execution_end",
      toolCallId: call.id,
      toolName: call.name,
      result: message,
      isError: true,
    });
    await emitResultMessage(message, emit);
    messages.push(message);
  }
  return { messages, terminate: false };
}

/**
 * Run the tool calls of `assistant` with pi's events (`tool_execution_start`/`_update`/`_end`, then the
 * `toolResult` messages' `message_start`/`message_end`). Sequential when `config.toolExecution` is
 * `"sequential"` or any called tool has `executionMode: "sequential"` (pi's `agent-loop.ts`); parallel otherwise (pi's `agent-loop.ts`).
 */
export async function executeToolCalls(
  context: AgentContext,
  assistant: AssistantMessage,
  config: ToolExecutionConfig,
  emit: Emit,
  signal?: AbortSignal,
): Promise<ExecutedToolBatch> {
  const calls = assistant.content.filter((c): c is ToolCall => c.type === "toolCall");
  const sequential =
    config.toolExecution === "sequential" ||
    calls.some((c) => context.tools.find((t) => t.name === c.name)?.executionMode === "sequential");
  if (sequential) {
    const finalized: Finalized[] = [];
    const messages: ToolResultMessage[] = [];
    for (const call of calls) {
      await emit(startEvent(call));
      const p = await prepareToolCall(context, assistant, call, config, signal);
      const f: Finalized =
        p.kind === "immediate"
          ? { call, result: p.result, isError: true, executed: false }
          : await finalizeExecuted(
              context,
              assistant,
              p,
              await executePrepared(p, emit, signal),
              config,
              signal,
            );
      const message = toMessage(f);
      await emitEnd(f, message, config, emit);
      await emitResultMessage(message, emit);
      finalized.push(f);
      messages.push(message);
      if (signal?.aborted) break;
    }
    return { messages, terminate: shouldTerminate(finalized) };
  }

  const entries: (Finalized | (() => Promise<Finalized>))[] = [];
  for (const call of calls) {
    await emit(startEvent(call));
    const p = await prepareToolCall(context, assistant, call, config, signal);
    if (p.kind === "immediate") {
      const f: Finalized = { call, result: p.result, isError: true, executed: false };
      await emitEnd(f, toMessage(f), config, emit);
      entries.push(f);
    } else {
      entries.push(async () => {
        const f = await finalizeExecuted(
          context,
          assistant,
          p,
          await executePrepared(p, emit, signal),
          config,
          signal,
        );
        await emitEnd(f, toMessage(f), config, emit);
        return f;
      });
    }
    if (signal?.aborted) break;
  }
  const ordered = await Promise.all(entries.map((e) => (typeof e === "function" ? e() : e)));
  const messages: ToolResultMessage[] = [];
  for (const f of ordered) {
    const message = toMessage(f);
    await emitResultMessage(message, emit);
    messages.push(message);
  }
  return { messages, terminate: shouldTerminate(ordered) };
}
