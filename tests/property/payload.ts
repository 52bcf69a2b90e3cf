/**
 * Capture the JSON body the AI SDK would send for a context (see `lib/llm/capture-payload.ts`): nothing reaches
 * the network. Every provider is configured, openai-compatible at `http://compat.invalid/v1`.
 */
import { type Capture, capturePayload as captureWith } from "@/lib/llm/capture-payload";
import type { Model } from "@/lib/llm/models";
import type { StreamContext } from "@/lib/llm/stream";
import type { ThinkingLevel } from "@/lib/llm/types";

export type { Capture };

const ENV = { OPENAI_COMPATIBLE_BASE_URL: "http://compat.invalid/v1" };

/** Run one request for `model` over `context` and capture its JSON body. */
export function capturePayload(
  model: Model,
  context: StreamContext,
  thinkingLevel: ThinkingLevel = "off",
): Promise<Capture> {
  return captureWith(model, context, { env: ENV, thinkingLevel });
}
