/**
 * Error tool results keep their images and their error marker on every provider (pi 14.7, 14.13, 14.15, 14.17,
 * 14.18), checked on the exact body the AI SDK would send (after Strata's wire fix-ups, lib/llm/provider-wire.ts).
 */
import { describe, expect, it } from "vitest";
import { getAvailableModels, MODEL_CATALOG, type Model } from "@/lib/llm/models";
import { type AssistantMessage, emptyUsage, type Message } from "@/lib/llm/types";
import { captureRequestBody } from "@/tests/property/request-body";

const model = (id: string): Model => MODEL_CATALOG.find((m) => m.id === id) as Model;
const claude = model("claude-sonnet-4-5");
const PNG = "iVBORw0KGgo=";
const IMAGE = { type: "image" as const, data: PNG, mimeType: "image/png" };

const call: AssistantMessage = {
  role: "assistant",
  content: [{ type: "toolCall", id: "toolu_01", name: "shot", arguments: {} }],
  api: claude.api,
  provider: claude.provider,
  model: claude.id,
  usage: emptyUsage(),
  stopReason: "toolUse",
  timestamp: 2,
};

/** `go` → a call → its error result with an image (and the text `failed: partial` unless `text` is false). */
function history(text = true): Message[] {
  return [
    { role: "user", content: "go", timestamp: 1 },
    call,
    {
      role: "toolResult",
      toolCallId: "toolu_01",
      toolName: "shot",
      content: text ? [{ type: "text", text: "failed: partial" }, IMAGE] : [IMAGE],
      isError: true,
      timestamp: 3,
    },
  ];
}

async function body(target: Model, messages: Message[]): Promise<Record<string, unknown>> {
  const capture = await captureRequestBody(target, { systemPrompt: "S", messages, tools: [] });
  if ("error" in capture) throw new Error(capture.error);
  return capture.body;
}

const last = (list: unknown) => (list as unknown[]).slice(-2);

describe("error tool results with images", () => {
  it("Anthropic: is_error with the text and the image blocks", async () => {
    const sent = await body(claude, history());
    expect((sent.messages as unknown[]).at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01",
          content: [
            { type: "text", text: "failed: partial" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          ],
          is_error: true,
        },
      ],
    });
  });

  it("Anthropic: an image-only error starts with (see attached image)", async () => {
    const sent = await body(claude, history(false));
    const block = ((sent.messages as { content: Record<string, unknown>[] }[]).at(-1)?.content ?? [])[0];
    expect(block?.is_error).toBe(true);
    expect((block?.content as unknown[] | undefined)?.[0]).toEqual({
      type: "text",
      text: "(see attached image)",
    });
  });

  it("OpenAI Responses: the output has the text and the image (the API has no error field)", async () => {
    const sent = await body(model("gpt-5"), history());
    expect((sent.input as unknown[]).at(-1)).toEqual({
      type: "function_call_output",
      call_id: "toolu_01",
      output: [
        { type: "input_text", text: "failed: partial" },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
      ],
    });
  });

  it("Gemini 3: response.error and the image inside the function response", async () => {
    const sent = await body(model("gemini-3-pro-preview"), history());
    expect((sent.contents as unknown[]).at(-1)).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            id: "toolu_01",
            name: "shot",
            response: { name: "shot", error: "failed: partial" },
            parts: [{ inlineData: { mimeType: "image/png", data: PNG } }],
          },
        },
      ],
    });
  });

  it("Gemini 2.5: response.error, then pi's 'Tool result image:' user turn", async () => {
    const sent = await body(model("gemini-2.5-pro"), history(false));
    expect(last(sent.contents)).toEqual([
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              id: "toolu_01",
              name: "shot",
              response: { name: "shot", error: "(see attached image)" },
            },
          },
        ],
      },
      {
        role: "user",
        parts: [{ text: "Tool result image:" }, { inlineData: { mimeType: "image/png", data: PNG } }],
      },
    ]);
  });

  it("Gemini 2.5: each result's images follow it; the next result starts a new function-response turn", async () => {
    const gemini = model("gemini-2.5-flash");
    const sent = await body(gemini, [
      { role: "user", content: "go", timestamp: 1 },
      {
        ...call,
        content: [
          { type: "toolCall", id: "toolu_01", name: "shot", arguments: {} },
          { type: "toolCall", id: "toolu_02", name: "read", arguments: {} },
        ],
      },
      {
        role: "toolResult",
        toolCallId: "toolu_01",
        toolName: "shot",
        content: [IMAGE],
        isError: false,
        timestamp: 3,
      },
      {
        role: "toolResult",
        toolCallId: "toolu_02",
        toolName: "read",
        content: [{ type: "text", text: "r" }],
        isError: false,
        timestamp: 4,
      },
    ]);
    expect((sent.contents as unknown[]).slice(2)).toEqual([
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              id: "toolu_01",
              name: "shot",
              response: { name: "shot", content: "(see attached image)" },
            },
          },
        ],
      },
      {
        role: "user",
        parts: [{ text: "Tool result image:" }, { inlineData: { mimeType: "image/png", data: PNG } }],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { id: "toolu_02", name: "read", response: { name: "read", content: "r" } } },
        ],
      },
    ]);
  });

  it("Gemini: a text-only error also answers with response.error; a success with response.content", async () => {
    const messages = history();
    const result = messages[2] as Extract<Message, { role: "toolResult" }>;
    const gemini = model("gemini-2.5-flash");
    const responseOf = async (isError: boolean) => {
      const sent = await body(gemini, [
        ...messages.slice(0, 2),
        { ...result, isError, content: [{ type: "text", text: "r" }] },
      ]);
      const parts = (sent.contents as { parts: { functionResponse?: { response: unknown } }[] }[]).at(
        -1,
      )?.parts;
      return parts?.[0]?.functionResponse?.response;
    };
    expect(await responseOf(true)).toEqual({ name: "shot", error: "r" });
    expect(await responseOf(false)).toEqual({ name: "shot", content: "r" });
  });

  it("Chat Completions (OpenAI-compatible, vision): the text in the tool message, the image in pi's follow-up user message", async () => {
    const env = { OPENAI_COMPATIBLE_BASE_URL: "http://compat.invalid/v1", OPENAI_COMPATIBLE_MODELS: "vis" };
    const [base] = getAvailableModels({
      ...env,
      STRATA_MODELS: '[{"provider":"openai-compatible","id":"vis","input":["text","image"]}]',
    });
    const sent = await body(base as Model, history());
    expect(last(sent.messages)).toEqual([
      { role: "tool", tool_call_id: "toolu_01", content: "failed: partial" },
      {
        role: "user",
        content: [
          { type: "text", text: "Attached image(s) from tool result:" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
  });

  it("Mistral: pi's [tool error] marker and the text in the tool message, the image after the bridge", async () => {
    const sent = await body(model("mistral-medium-2508"), history(false));
    expect((sent.messages as unknown[]).slice(-3)).toEqual([
      { role: "tool", name: "shot", tool_call_id: "1y41xc31h", content: "[tool error] (see attached image)" },
      { role: "assistant", content: "I have processed the tool results." },
      {
        role: "user",
        content: [
          { type: "text", text: "Attached image(s) from tool result:" },
          { type: "image_url", image_url: `data:image/png;base64,${PNG}` },
        ],
      },
    ]);
  });
});
