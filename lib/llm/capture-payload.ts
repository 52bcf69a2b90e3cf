/**
 * Capture the JSON body the AI SDK would send for a context, without reaching the network: the request goes
 * through `streamAssistant` (so through `prepareRequest`, `transformMessages` and the provider's SDK exactly as
 * in a live run) with a `fetch` that records the body and answers with a canned minimal streaming response.
 * Used by the context preview (`lib/inspector/context-preview.ts`) and the payload property tests.
 */

import type { Model } from "./models";
import { type Env, PROVIDER_ENV, PROVIDERS } from "./models";
import { type StreamContext, streamAssistant } from "./stream";
import type { ThinkingLevel } from "./types";

/** The API key every provider gets during a capture; real keys are never used (nothing is sent). */
export const CAPTURE_API_KEY = "strata-capture-placeholder";

/** The openai-compatible base URL of a capture when the environment sets none. */
export const CAPTURE_COMPATIBLE_BASE_URL = "http://openai-compatible.invalid/v1";

/**
 * The environment a capture runs with: `env` with every provider's API key replaced by
 * {@link CAPTURE_API_KEY} (so no real key reaches the SDK, its headers or an error text) and
 * `OPENAI_COMPATIBLE_BASE_URL` defaulted to {@link CAPTURE_COMPATIBLE_BASE_URL}. Base URLs, `STRATA_MODELS`
 * and the rest are kept. Returns a new object.
 */
export function captureEnv(env: Env = {}): Env {
  const out: Env = { ...env };
  for (const provider of PROVIDERS) out[PROVIDER_ENV[provider].apiKey] = CAPTURE_API_KEY;
  if (!out.OPENAI_COMPATIBLE_BASE_URL?.trim()) out.OPENAI_COMPATIBLE_BASE_URL = CAPTURE_COMPATIBLE_BASE_URL;
  return out;
}

const sse = (events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");

/**
 * A minimal successful streaming answer for the provider API behind `url` (Anthropic `/messages`, OpenAI
 * `/responses`, Google `generateContent`, otherwise OpenAI chat completions), so the SDK finishes cleanly.
 */
export function cannedResponse(url: string): Response {
  let body: string;
  if (url.includes("/messages")) {
    body = sse([
      {
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          content: [],
          model: "m",
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
      { type: "message_stop" },
    ]);
  } else if (url.includes("/responses")) {
    body = sse([
      {
        type: "response.completed",
        sequence_number: 1,
        response: { id: "resp_1", status: "completed", usage: { input_tokens: 1, output_tokens: 1 } },
      },
    ]);
  } else if (url.includes("generateContent")) {
    body = sse([
      { candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP" }] },
    ]);
  } else {
    body = `${sse([{ id: "c", choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] }])}data: [DONE]\n\n`;
  }
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
}

/** A captured request: the URL and the parsed JSON body (headers are never recorded). */
export interface CapturedPayload {
  url: string;
  body: Record<string, unknown>;
}

/** The captured request, or the error the stream ended with when nothing was sent. */
export type Capture = CapturedPayload | { error: string };

/** Options of {@link capturePayload}. */
export interface CapturePayloadOptions {
  /** Environment for base URLs and `STRATA_MODELS`; its API keys are replaced (see {@link captureEnv}). */
  env?: Env;
  /** Thinking level of the request (default `"off"`). */
  thinkingLevel?: ThinkingLevel;
  /** Output token cap (default: the model's). */
  maxTokens?: number;
}

/**
 * Run one `streamAssistant` request for `model` over `context` and capture its JSON body and URL; the canned
 * answer ({@link cannedResponse}) is consumed and discarded. The URL loses any user info (`user:pass@`).
 * Never throws: a request that fails before it is sent (e.g. nothing left to send after the replay rules)
 * yields `{ error }` with the stream's error message.
 */
export async function capturePayload(
  model: Model,
  context: StreamContext,
  options: CapturePayloadOptions = {},
): Promise<Capture> {
  let captured: CapturedPayload | undefined;
  const fetchHook = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    captured = { url: withoutUserInfo(url), body: JSON.parse(String(init?.body)) as Record<string, unknown> };
    return cannedResponse(url);
  }) as typeof fetch;
  let error = "";
  const stream = streamAssistant(model, context, {
    env: captureEnv(options.env),
    fetch: fetchHook,
    thinkingLevel: options.thinkingLevel ?? "off",
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
  });
  for await (const event of stream) {
    if (event.type === "error") error = event.error.errorMessage ?? "error";
  }
  return captured ?? { error };
}

function withoutUserInfo(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    return url;
  }
}
