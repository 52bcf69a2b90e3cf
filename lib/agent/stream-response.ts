/**
 * One assistant response inside the loop (pi's `streamAssistantResponse`, pi's `agent-loop.ts`, pi's `agent-loop.ts`, pi's `agent-loop.ts`): `transformContext`,
 * `convertToLlm`, the request, then the stream mapped to `message_start` / `message_update` / `message_end`.
 */
import type { AssistantMessage, Message } from "@/lib/llm/types";
import { onlyLlmMessages } from "@/lib/prompt/system-message";
import type { AgentContext, AgentEvent, AgentLoopConfig, LlmRequestContext } from "./types";

/** pi's request context without a `systemPrompt` (normalizeContext with none): the transcript carries it (pi's `agent-loop.ts`). */
export function defaultBuildRequest(messages: Message[]): LlmRequestContext {
  return { systemPrompt: "", messages, tools: [] };
}

function stamp(message: AssistantMessage, config: AgentLoopConfig): AssistantMessage {
  if ("thinkingLevel" in config) message.thinkingLevel = config.thinkingLevel ?? "off";
  return message;
}

/**
 * Stream one response. On `start` the partial is pushed into `context.messages` and a shallow copy is emitted
 * as `message_start`; each content event → `message_update` (copy + the provider event); `done`/`error` → the
 * final message replaces the partial and `message_end` is emitted. A stream without `start` emits
 * `message_start` and `message_end` with the final message.
 * @throws Error when the stream ends without `done`/`error` (the `Agent` turns it into an error message, pi's `agent-loop.ts`).
 */
export async function streamAssistantResponse(
  context: AgentContext,
  config: AgentLoopConfig,
  emit: (event: AgentEvent) => Promise<void>,
  signal?: AbortSignal,
): Promise<AssistantMessage> {
  let messages = context.messages;
  if (config.transformContext) messages = await config.transformContext(messages, signal);
  const llmMessages = await (config.convertToLlm ?? onlyLlmMessages)(messages);
  const request = (config.buildRequest ?? defaultBuildRequest)(llmMessages);
  await config.beforeRequest?.();
  const stream = config.stream(request, signal, { model: config.model, thinkingLevel: config.thinkingLevel });
  let partial: AssistantMessage | undefined;
  for await (const event of stream) {
    switch (event.type) {
      case "start":
        partial = stamp(event.partial, config);
        context.messages.push(partial);
        await emit({ type: "message_start", message: { ...partial } });
        break;
      case "done":
      case "error": {
        const final = stamp(event.type === "done" ? event.message : event.error, config);
        if (partial) context.messages[context.messages.length - 1] = final;
        else {
          context.messages.push(final);
          await emit({ type: "message_start", message: { ...final } });
        }
        await emit({ type: "message_end", message: final });
        return final;
      }
      default:
        if (partial) {
          partial = stamp(event.partial, config);
          context.messages[context.messages.length - 1] = partial;
          await emit({ type: "message_update", message: { ...partial }, assistantMessageEvent: event });
        }
        break;
    }
  }
  throw new Error("Model stream ended without a final message");
}
