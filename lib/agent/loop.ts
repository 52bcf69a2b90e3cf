/**
 * The agent loop (pi's `runAgentLoop` in packages/agent/src/agent-loop.ts), first cut: turns until the
 * model stops calling tools, pi's event order, abort. Steering, follow-ups and hooks join with the
 * input-pipeline work.
 */
import type { AssistantMessage, ToolResultMessage } from "@/lib/llm/types";
import type { AgentMessage } from "./messages";
import { executeToolCalls } from "./tool-execution";
import type { AgentEvent, AgentLoopConfig } from "./types";

/**
 * Run from `context` (the transcript so far) plus `prompts` (new messages, emitted first) until an
 * assistant message has no tool calls, or ends in error/abort. `emit` is awaited per event.
 * @returns the messages the run added (prompts included), in order.
 */
export async function runAgentLoop(
  prompts: AgentMessage[],
  context: AgentMessage[],
  config: AgentLoopConfig,
  emit: (event: AgentEvent) => Promise<void>,
  signal?: AbortSignal,
): Promise<AgentMessage[]> {
  const transcript = [...context];
  const added: AgentMessage[] = [];
  const push = async (m: AgentMessage) => {
    transcript.push(m);
    added.push(m);
    await emit({ type: "message_start", message: m });
    await emit({ type: "message_end", message: m });
  };
  await emit({ type: "agent_start" });
  await emit({ type: "turn_start" });
  for (const p of prompts) await push(p);
  for (;;) {
    const assistant = await streamAssistantMessage(transcript, config, emit, signal);
    transcript.push(assistant);
    added.push(assistant);
    if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
      await emit({ type: "turn_end", message: assistant, toolResults: [] });
      break;
    }
    const hasCalls = assistant.content.some((c) => c.type === "toolCall");
    let results: ToolResultMessage[] = [];
    if (hasCalls) {
      results = await executeToolCalls(assistant, config, emit, signal);
      for (const r of results) {
        transcript.push(r);
        added.push(r);
        await emit({ type: "message_start", message: r });
        await emit({ type: "message_end", message: r });
      }
      await config.afterToolResults?.(results);
    }
    await emit({ type: "turn_end", message: assistant, toolResults: results });
    if (!hasCalls) break;
    if (signal?.aborted) break;
    await emit({ type: "turn_start" });
  }
  await emit({ type: "agent_end", messages: added });
  return added;
}

async function streamAssistantMessage(
  transcript: AgentMessage[],
  config: AgentLoopConfig,
  emit: (event: AgentEvent) => Promise<void>,
  signal?: AbortSignal,
): Promise<AssistantMessage> {
  const request = config.buildRequest(config.convertToLlm(transcript));
  await config.beforeRequest?.();
  let started = false;
  let final: AssistantMessage | undefined;
  for await (const event of config.stream(request, signal)) {
    if (event.type === "start") {
      started = true;
      await emit({ type: "message_start", message: structuredClone(event.partial) });
    } else if (event.type === "done" || event.type === "error") {
      final = event.type === "done" ? event.message : event.error;
    } else {
      await emit({ type: "message_update", message: event.partial, assistantMessageEvent: event });
    }
  }
  if (!final) throw new Error("Model stream ended without a final message");
  if (!started) await emit({ type: "message_start", message: final });
  await emit({ type: "message_end", message: final });
  return final;
}
