/**
 * Executing one assistant message's tool calls (pi's `executeToolCalls` in agent-loop.ts): prepared in
 * call order, run in parallel (or sequentially when a tool asks), `tool_execution_end` in completion
 * order, results returned in call order.
 */
import type { AssistantMessage, ToolCall, ToolResultMessage } from "@/lib/llm/types";
import type { AgentTool, AgentToolResult } from "@/lib/tools/types";
import type { AgentEvent, AgentLoopConfig } from "./types";

/** pi 9.7: the text of a tool call cut off by the output limit. */
export function lengthTruncatedToolCallText(name: string): string {
  return `Tool call "${name}" was not executed: the response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.`;
}

function errorResult(call: ToolCall, text: string): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text }],
    details: {},
    isError: true,
    timestamp: Date.now(),
  };
}

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

type Prepared = { call: ToolCall; tool: AgentTool; params: unknown } | { call: ToolCall; error: string };

function prepare(call: ToolCall, tools: AgentTool[]): Prepared {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return { call, error: `Tool ${call.name} not found` };
  const raw = tool.prepareArguments ? tool.prepareArguments(call.arguments) : call.arguments;
  const parsed = tool.parameters.safeParse(raw);
  if (!parsed.success) return { call, error: validationMessage(tool, raw, parsed.error.issues) };
  return { call, tool, params: parsed.data };
}

async function run(p: Prepared, signal?: AbortSignal): Promise<ToolResultMessage> {
  if ("error" in p) return errorResult(p.call, p.error);
  if (signal?.aborted) return errorResult(p.call, "Operation aborted");
  try {
    const result: AgentToolResult = await p.tool.execute(p.call.id, p.params, signal);
    return {
      role: "toolResult",
      toolCallId: p.call.id,
      toolName: p.call.name,
      content: result.content ?? [],
      details: result.details,
      isError: false,
      timestamp: Date.now(),
    };
  } catch (error) {
    if (signal?.aborted) return errorResult(p.call, "Operation aborted");
    return errorResult(p.call, error instanceof Error ? error.message : String(error));
  }
}

/**
 * Run the tool calls of `assistant`, emitting `tool_execution_start`/`_end`; returns the results in call order.
 * A `length` stop executes nothing and answers each call with pi's truncation error.
 */
export async function executeToolCalls(
  assistant: AssistantMessage,
  config: Pick<AgentLoopConfig, "tools" | "afterToolExecution">,
  emit: (event: AgentEvent) => Promise<void>,
  signal?: AbortSignal,
): Promise<ToolResultMessage[]> {
  const calls = assistant.content.filter((c): c is ToolCall => c.type === "toolCall");
  if (assistant.stopReason === "length")
    return calls.map((c) => errorResult(c, lengthTruncatedToolCallText(c.name)));
  const prepared = calls.map((c) => prepare(c, config.tools));
  const finish = async (p: Prepared, result: ToolResultMessage) => {
    if (!("error" in p)) await config.afterToolExecution?.(p.call.name);
    await emit({
      type: "tool_execution_end",
      toolCallId: p.call.id,
      toolName: p.call.name,
      result,
      isError: result.isError,
    });
    return result;
  };
  const sequential = prepared.some((p) => "tool" in p && p.tool.executionMode === "sequential");
  if (sequential) {
    const results: ToolResultMessage[] = [];
    for (const p of prepared) {
      await emit({
        type: "tool_execution_start",
        toolCallId: p.call.id,
        toolName: p.call.name,
        args: p.call.arguments,
      });
      results.push(await finish(p, await run(p, signal)));
    }
    return results;
  }
  for (const p of prepared) {
    await emit({
      type: "tool_execution_start",
      toolCallId: p.call.id,
      toolName: p.call.name,
      args: p.call.arguments,
    });
  }
  return Promise.all(prepared.map(async (p) => finish(p, await run(p, signal))));
}
