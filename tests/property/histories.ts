/**
 * The random session histories of the payload property test (provider-payload.test.ts), shared with the change
 * report's completeness property (transform-report.test.ts): mixed providers, aborted and errored turns, missing,
 * duplicate and orphan results, images, signed / unsigned / redacted thinking, odd and colliding ids,
 * mid-conversation system patches, null content, unpaired surrogates, images with empty data (in user messages and
 * tool results), Gemini parallel calls signed only on the first call. `historyArb` gives `{ messages, tokens }` (tokens: the signature strings each source model left).
 */
import fc from "fast-check";
import { MODEL_CATALOG, type Model } from "@/lib/llm/models";
import type { AssistantMessage, Message, ToolResultMessage } from "@/lib/llm/types";
import { emptyUsage } from "@/lib/llm/types";

export const model = (id: string): Model => MODEL_CATALOG.find((m) => m.id === id)!;
/** An OpenAI-compatible (Chat Completions) server model with vision and reasoning, as `STRATA_MODELS` adds it. */
export const compat: Model = {
  id: "qwen3-vl",
  name: "qwen3-vl",
  provider: "openai-compatible",
  api: "openai-completions",
  reasoning: true,
  input: ["text", "image"],
  contextWindow: 128_000,
  maxTokens: 16_384,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};
export const claude = model("claude-sonnet-4-5");
export const gpt = model("gpt-5");
export const gemini3 = model("gemini-3-pro-preview");
export const mistral = model("mistral-medium-2508");
export const SOURCES = [
  claude,
  model("claude-haiku-4-5"),
  gpt,
  model("gpt-4.1"),
  model("gemini-2.5-pro"),
  gemini3,
  mistral,
  model("devstral-medium-2507"),
  compat,
];

const ODD_IDS = [
  "toolu_01",
  "abcDEF123",
  "abc-DEF-123",
  `call_${"y".repeat(40)}`,
  "call_1|fc_1",
  "call_1|fc/+=x",
  "a/b",
  "a+b",
  "a_b",
  "",
  " ",
  "x".repeat(70),
  "dup",
  "dup",
  "é\uD800",
];
const TEXTS = [
  "hello",
  "",
  " ",
  "\n\t",
  "a\uD800b",
  "\uDC00",
  "😀",
  "(image omitted: model does not support images)",
  "x",
];

const textArb = fc.constantFrom(...TEXTS);
const image = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };
/** An image whose data is empty (a failed upload, an import): never sendable. */
const emptyImage = { type: "image" as const, data: "", mimeType: "image/png" };
const userBlock = fc.oneof(
  { weight: 4, arbitrary: textArb.map((text) => ({ type: "text" as const, text })) },
  { weight: 3, arbitrary: fc.constant(image) },
  { weight: 1, arbitrary: fc.constant(emptyImage) },
);

const userArb = fc.record({
  role: fc.constant("user" as const),
  content: fc.oneof(textArb, fc.array(userBlock, { maxLength: 4 }), fc.constant(null)),
  timestamp: fc.constant(1),
});

const systemArb = fc.record({
  role: fc.constant("system" as const),
  content: fc.oneof(textArb, fc.constant(null)),
  sections: fc.option(fc.dictionary(fc.constantFrom("tools", "cwd", "rules"), fc.option(textArb)), {
    nil: undefined,
  }),
  timestamp: fc.constant(0),
});

type Kind =
  | "thinking-signed"
  | "thinking-unsigned"
  | "thinking-redacted"
  | "thinking-blank"
  | "text"
  | "call";
const blockKind = fc.constantFrom<Kind>(
  "thinking-signed",
  "thinking-unsigned",
  "thinking-redacted",
  "thinking-blank",
  "text",
  "text",
  "call",
  "call",
);

const turnArb = fc
  .record({
    source: fc.constantFrom(...SOURCES),
    stopReason: fc.constantFrom<AssistantMessage["stopReason"]>(
      "stop",
      "toolUse",
      "toolUse",
      "error",
      "aborted",
      "length",
    ),
    blocks: fc.array(
      fc.record({
        kind: blockKind,
        text: textArb,
        id: fc.constantFrom(...ODD_IDS),
        enc: fc.boolean(),
        signature: fc.constantFrom("own", "own", "none", "invalid"),
      }),
      {
        maxLength: 5,
      },
    ),
    results: fc.array(
      fc.record({
        pick: fc.nat(6),
        orphan: fc.boolean(),
        images: fc.constantFrom("none", "none", "data", "empty"),
        nullContent: fc.boolean(),
        text: textArb,
      }),
      {
        maxLength: 5,
      },
    ),
    nullContent: fc.boolean(),
  })
  .map(({ source, stopReason, blocks, results, nullContent }) => ({
    source,
    stopReason,
    blocks,
    results,
    nullContent,
  }));

export type Turn = typeof turnArb extends fc.Arbitrary<infer T> ? T : never;
export type Item =
  | { kind: "user"; message: Message }
  | { kind: "system"; message: Message }
  | { kind: "turn"; turn: Turn };

const itemArb: fc.Arbitrary<Item> = fc.oneof(
  {
    weight: 3,
    arbitrary: userArb.map((message) => ({ kind: "user" as const, message: message as unknown as Message })),
  },
  {
    weight: 1,
    arbitrary: systemArb.map((message) => ({
      kind: "system" as const,
      message: message as unknown as Message,
    })),
  },
  { weight: 4, arbitrary: turnArb.map((turn) => ({ kind: "turn" as const, turn })) },
);

/** `token` as padded base64 (a valid Google thought signature). */
function base64Token(token: string): string {
  const sig = btoa(token).replace(/=+$/, "");
  return sig + "=".repeat((4 - (sig.length % 4)) % 4);
}

/** Turn the generated structure into messages with unique signature tokens (so leaks can be searched). */
export function build(items: Item[]): { messages: Message[]; tokens: { token: string; source: Model }[] } {
  const messages: Message[] = [];
  const tokens: { token: string; source: Model }[] = [];
  let n = 0;
  for (const item of items) {
    if (item.kind !== "turn") {
      messages.push(item.message);
      continue;
    }
    const { source, stopReason, blocks, results, nullContent } = item.turn;
    const content: AssistantMessage["content"] = [];
    const calls: { id: string; name: string }[] = [];
    for (const block of blocks) {
      n++;
      const token = `TOK${n}Z`;
      if (block.kind === "text") content.push({ type: "text", text: block.text });
      else if (block.kind === "call") {
        const call = {
          type: "toolCall" as const,
          id: block.id,
          name: "read",
          arguments: { path: block.text },
        };
        if (source.provider === "google" && block.signature !== "none") {
          // Gemini signs only the first call of a parallel batch ("none"); "invalid" is not base64.
          const sig = block.signature === "invalid" ? `${token}!` : base64Token(token);
          tokens.push({ token: sig, source });
          content.push({ ...call, thoughtSignature: sig });
        } else content.push(call);
        calls.push(call);
      } else if (block.kind === "thinking-unsigned") content.push({ type: "thinking", thinking: block.text });
      else if (block.kind === "thinking-blank") {
        const signature = source.provider === "google" ? base64Token(token) : token;
        tokens.push({ token: signature, source });
        content.push({ type: "thinking", thinking: " ", thinkingSignature: signature });
      } else if (block.kind === "thinking-redacted") {
        tokens.push({ token, source });
        content.push({
          type: "thinking",
          thinking: "[Reasoning redacted]",
          thinkingSignature: token,
          redacted: true,
        });
      } else {
        let signature = token;
        if (source.provider === "openai") {
          const item = {
            type: "reasoning",
            id: `rs_${token}`,
            summary: [],
            ...(block.enc ? { encrypted_content: `ENC${token}` } : {}),
          };
          signature = JSON.stringify(item);
          tokens.push({ token: `rs_${token}`, source });
        } else if (source.provider === "google") {
          signature = base64Token(`${token}xx`);
        } else if (source.api === "openai-completions") {
          signature = "reasoning_content";
        } else if (source.provider === "mistral") {
          signature = "";
        }
        if (signature === token || source.provider === "google") tokens.push({ token: signature, source });
        else if (source.provider === "openai") tokens.push({ token: `ENC${token}`, source });
        content.push(
          signature === ""
            ? { type: "thinking", thinking: block.text }
            : { type: "thinking", thinking: block.text, thinkingSignature: signature },
        );
      }
    }
    const assistant = {
      role: "assistant",
      content: nullContent ? null : content,
      api: source.api,
      provider: source.provider,
      model: source.id,
      usage: emptyUsage(),
      stopReason,
      timestamp: 2,
    } as unknown as AssistantMessage;
    messages.push(assistant);
    for (const r of results) {
      const call = calls.length > 0 && !r.orphan ? calls[r.pick % calls.length] : undefined;
      const result = {
        role: "toolResult",
        toolCallId: call?.id ?? ODD_IDS[r.pick % ODD_IDS.length],
        toolName: "read",
        content: r.nullContent
          ? null
          : [
              { type: "text", text: r.text },
              ...(r.images === "data" ? [image] : r.images === "empty" ? [emptyImage] : []),
            ],
        isError: false,
        timestamp: 3,
      } as unknown as ToolResultMessage;
      messages.push(result);
    }
  }
  return { messages, tokens };
}

/** The first user message of a history that opens with nothing to send: an image without data. */
const EMPTY_IMAGE_OPENER: Item = {
  kind: "user",
  message: { role: "user", content: [emptyImage], timestamp: 0 },
};

/**
 * Most histories (17 in 20) open with a real user prompt (as sessions do); 1 in 20 with a user message whose only
 * content is an image without data (dropped, so a following assistant turn must not open the request); the rest
 * (1 in 10) with any item, and may leave nothing to send.
 */
export const historyArb = fc
  .tuple(fc.nat(19), fc.array(itemArb, { minLength: 1, maxLength: 10 }))
  .map(([opener, items]) =>
    build(
      opener > 2
        ? [{ kind: "user", message: { role: "user", content: "start", timestamp: 0 } }, ...items]
        : opener === 2
          ? [EMPTY_IMAGE_OPENER, ...items]
          : items,
    ),
  );
