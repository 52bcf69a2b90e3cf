/**
 * Capture the JSON body the AI SDK would send for a context, through `streamAssistant`'s `fetch` hook, answered by
 * a canned minimal streaming response: nothing reaches the network.
 */
import type { Model } from "@/lib/llm/models";
import { type StreamContext, streamAssistant } from "@/lib/llm/stream";
import type { ThinkingLevel } from "@/lib/llm/types";

const ENV = {
  ANTHROPIC_API_KEY: "k",
  OPENAI_API_KEY: "k",
  GOOGLE_GENERATIVE_AI_API_KEY: "k",
  OPENAI_COMPATIBLE_BASE_URL: "http://compat.invalid/v1",
};

const sse = (events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");

function canned(url: string): Response {
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

/** The captured request, or the error the stream ended with when nothing was sent. */
export type Capture = { url: string; body: Record<string, unknown> } | { error: string };

/** Run one request for `model` over `context` and capture its JSON body. */
export async function capturePayload(
  model: Model,
  context: StreamContext,
  thinkingLevel: ThinkingLevel = "off",
): Promise<Capture> {
  let captured: { url: string; body: Record<string, unknown> } | undefined;
  const fetchHook = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    captured = { url, body: JSON.parse(String(init?.body)) as Record<string, unknown> };
    return canned(url);
  }) as typeof fetch;
  let error = "";
  for await (const event of streamAssistant(model, context, { env: ENV, fetch: fetchHook, thinkingLevel })) {
    if (event.type === "error") error = event.error.errorMessage ?? "error";
  }
  return captured ?? { error };
}
