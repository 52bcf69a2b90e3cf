/**
 * The cheap capture of the property tests: the JSON body `streamAssistant` hands to its `fetch` hook, through the
 * whole request path (`prepareRequest`, `transformMessages`, the AI SDK's prompt validation and the provider's
 * converter), after which the hook throws instead of answering, so no response is parsed. About twice as fast as
 * answering with a canned stream (`payload.ts`), which the property test needs for its 10,000 histories per target.
 * Nothing reaches the network.
 */
import { type Env, type Model, PROVIDER_ENV, PROVIDERS } from "@/lib/llm/models";
import { type StreamContext, streamAssistant } from "@/lib/llm/stream";
import type { ThinkingLevel } from "@/lib/llm/types";

/** Every provider configured with a placeholder key; openai-compatible at `http://compat.invalid/v1`. */
const ENV: Env = Object.fromEntries([
  ...PROVIDERS.map((provider) => [PROVIDER_ENV[provider].apiKey, "k"]),
  ["OPENAI_COMPATIBLE_BASE_URL", "http://compat.invalid/v1"],
]);

/**
 * Thrown by the hook once the body is recorded. One instance whose stack is already rendered: the SDK reads
 * `error.stack` for its telemetry span, and rendering a fresh stack through source maps costs more than the rest.
 */
const CAPTURED = new Error("request body captured");
void CAPTURED.stack;

/** The request the SDK built, or the error the stream ended with when nothing was sent. */
export type BodyCapture = { url: string; body: Record<string, unknown> } | { error: string };

/**
 * Run one `streamAssistant` request for `model` over `context` and return the URL and parsed JSON body it was
 * about to send. Never throws: a request refused before it is sent (e.g. `Nothing to send: …`) gives
 * `{ error }` with the stream's error message.
 */
export async function captureRequestBody(
  model: Model,
  context: StreamContext,
  thinkingLevel: ThinkingLevel = "off",
): Promise<BodyCapture> {
  let captured: { url: string; body: Record<string, unknown> } | undefined;
  const fetchHook = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    captured = { url, body: JSON.parse(String(init?.body)) as Record<string, unknown> };
    throw CAPTURED;
  }) as typeof fetch;
  let error = "";
  for await (const event of streamAssistant(model, context, { env: ENV, fetch: fetchHook, thinkingLevel })) {
    if (event.type === "error") error = event.error.errorMessage ?? "error";
  }
  return captured ?? { error };
}
