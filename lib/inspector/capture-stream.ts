/**
 * The inspector's model call: a `StreamFn` for the real `AgentSession` that records the first request the agent
 * makes (its context after `convertToLlm` and `buildRequest`) and the provider payload `capturePayload` builds for
 * it (the AI SDK's body through `streamAssistant`, placeholder keys, a canned answer), then ends the turn with an
 * empty `stop` answer, so the agent stops before the network and runs no tool.
 */

import type { LlmRequestContext, StreamFn } from "@/lib/agent/types";
import { type Capture, capturePayload } from "@/lib/llm/capture-payload";
import { AssistantMessageEventStream } from "@/lib/llm/events";
import type { Env, Model } from "@/lib/llm/models";
import { emptyUsage, type ThinkingLevel } from "@/lib/llm/types";

/** The first request an agent made: what `buildRequest` gave the stream, its thinking level and the capture. */
export interface CapturedRequest {
  request: LlmRequestContext;
  thinkingLevel: ThinkingLevel;
  capture: Capture;
}

/**
 * A stream that captures: `stream` for the agent, `captured()` the first request (undefined until one was made).
 * `model` is the target when the agent passes none; `env` gives base URLs and `STRATA_MODELS` (keys are replaced).
 */
export function createCaptureStream(
  model: Model,
  env: Env,
): { stream: StreamFn; captured(): CapturedRequest | undefined } {
  let first: CapturedRequest | undefined;
  const stream: StreamFn = (context, _signal, options) => {
    const out = new AssistantMessageEventStream();
    const target = options?.model ?? model;
    const thinkingLevel = options?.thinkingLevel ?? "off";
    void (async () => {
      const capture = await capturePayload(target, context, { env, thinkingLevel }).catch(
        (error: unknown): Capture => ({ error: error instanceof Error ? error.message : String(error) }),
      );
      first ??= { request: context, thinkingLevel, capture };
      out.push({
        type: "done",
        reason: "stop",
        message: {
          role: "assistant",
          content: [],
          api: target.api,
          provider: target.provider,
          model: target.id,
          usage: emptyUsage(),
          stopReason: "stop",
          timestamp: Date.now(),
        },
      });
    })();
    return out;
  };
  return { stream, captured: () => first };
}
