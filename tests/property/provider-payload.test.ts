/**
 * Property: for random session histories (mixed providers, aborted and errored turns, missing, duplicate and orphan
 * results, images, signed / unsigned / redacted thinking, odd and colliding ids, mid-conversation system patches,
 * null content, unpaired surrogates), the payload the AI SDK actually builds is one the provider accepts.
 *
 * Runs: `STRATA_PROPERTY_RUNS` (default {@link DEFAULT_RUNS}, see the comment there). A failure prints the shrunk
 * history (fast-check `verbose`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MODEL_CATALOG, type Model } from "@/lib/llm/models";
import type { AssistantMessage, Message, ToolResultMessage } from "@/lib/llm/types";
import { emptyUsage } from "@/lib/llm/types";
import { type Capture, capturePayload } from "./payload";

/**
 * Default number of histories. Measured on the 2-core machine (Node 20, 4 targets, so 40,000 requests built by the
 * AI SDK, ~3 ms each): 10,000 runs take ~119 s, under the 3-minute budget, so the default stays at 10,000. Set
 * `STRATA_PROPERTY_RUNS` lower for quick local runs.
 */
const DEFAULT_RUNS = 10_000;
const RUNS = Number(process.env.STRATA_PROPERTY_RUNS ?? DEFAULT_RUNS);

const model = (id: string): Model => MODEL_CATALOG.find((m) => m.id === id)!;
const SOURCES = [
  model("claude-sonnet-4-5"),
  model("claude-haiku-4-5"),
  model("gpt-5"),
  model("gpt-4.1"),
  model("gemini-2.5-pro"),
];
const claude = model("claude-sonnet-4-5");
const gpt = model("gpt-5");
const TARGETS: { name: string; model: Model; thinking: "off" | "high" }[] = [
  { name: "anthropic", model: claude, thinking: "off" },
  { name: "anthropic+thinking", model: claude, thinking: "high" },
  { name: "anthropic text-only", model: { ...claude, id: "claude-text", input: ["text"] }, thinking: "off" },
  { name: "openai-responses", model: gpt, thinking: "high" },
];

const ODD_IDS = [
  "toolu_01",
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
const userBlock = fc.oneof(
  textArb.map((text) => ({ type: "text" as const, text })),
  fc.constant(image),
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
      fc.record({ kind: blockKind, text: textArb, id: fc.constantFrom(...ODD_IDS), enc: fc.boolean() }),
      {
        maxLength: 5,
      },
    ),
    results: fc.array(
      fc.record({
        pick: fc.nat(6),
        orphan: fc.boolean(),
        images: fc.boolean(),
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

type Turn = typeof turnArb extends fc.Arbitrary<infer T> ? T : never;
type Item =
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

/** Turn the generated structure into messages with unique signature tokens (so leaks can be searched). */
function build(items: Item[]): { messages: Message[]; tokens: { token: string; source: Model }[] } {
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
        if (source.provider === "google") {
          const sig = btoa(token).replace(/=+$/, "");
          const padded = sig + "=".repeat((4 - (sig.length % 4)) % 4);
          tokens.push({ token: padded, source });
          content.push({ ...call, thoughtSignature: padded });
        } else content.push(call);
        calls.push(call);
      } else if (block.kind === "thinking-unsigned") content.push({ type: "thinking", thinking: block.text });
      else if (block.kind === "thinking-blank")
        content.push({ type: "thinking", thinking: " ", thinkingSignature: token });
      else if (block.kind === "thinking-redacted") {
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
          signature = btoa(`${token}xx`).replace(/=+$/, "");
          signature += "=".repeat((4 - (signature.length % 4)) % 4);
        }
        tokens.push({
          token: signature === token ? token : source.provider === "google" ? signature : `ENC${token}`,
          source,
        });
        content.push({ type: "thinking", thinking: block.text, thinkingSignature: signature });
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
        content: r.nullContent ? null : [{ type: "text", text: r.text }, ...(r.images ? [image] : [])],
        isError: false,
        timestamp: 3,
      } as unknown as ToolResultMessage;
      messages.push(result);
    }
  }
  return { messages, tokens };
}

/** Most histories open with a real user prompt (as sessions do); the rest may leave nothing to send. */
const historyArb = fc
  .tuple(fc.nat(9), fc.array(itemArb, { minLength: 1, maxLength: 10 }))
  .map(([opener, items]) =>
    build(
      opener > 0
        ? [{ kind: "user", message: { role: "user", content: "start", timestamp: 0 } }, ...items]
        : items,
    ),
  );

const UNPAIRED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const blank = (text: unknown) => typeof text !== "string" || text.trim() === "";

function walkStrings(value: unknown, visit: (text: string) => void): void {
  if (typeof value === "string") visit(value);
  else if (Array.isArray(value)) for (const item of value) walkStrings(item, visit);
  else if (value && typeof value === "object")
    for (const item of Object.values(value)) walkStrings(item, visit);
}

function sameModel(source: Model, target: Model) {
  return source.provider === target.provider && source.api === target.api && source.id === target.id;
}

type Block = Record<string, unknown> & { type: string };

function checkAnthropic(body: Record<string, unknown>, target: Model) {
  const messages = body.messages as { role: string; content: string | Block[] }[];
  expect(messages.length).toBeGreaterThan(0);
  expect(messages[0]?.role).toBe("user");
  const used = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (index > 0) expect(message.role).not.toBe(messages[index - 1]?.role);
    expect(message.content.length).toBeGreaterThan(0);
    const blocks =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    for (const block of blocks) {
      if (block.type === "text") expect(blank(block.text)).toBe(false);
      if (block.type === "image") expect(target.input).toContain("image");
      if (block.type === "tool_result") {
        const content = block.content as string | Block[];
        expect(content.length).toBeGreaterThan(0);
        if (typeof content === "string") expect(blank(content)).toBe(false);
        else
          for (const inner of content) {
            if (inner.type === "text") expect(blank(inner.text)).toBe(false);
            if (inner.type === "image") expect(target.input).toContain("image");
          }
      }
      if (block.type === "tool_use") {
        expect(message.role).toBe("assistant");
        expect(String(block.id)).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
        expect(used.has(String(block.id))).toBe(false);
        used.add(String(block.id));
        const next = messages[index + 1];
        expect(next?.role).toBe("user");
        const nextBlocks = (typeof next?.content === "string" ? [] : (next?.content ?? [])) as Block[];
        const answers = nextBlocks.filter((b) => b.type === "tool_result" && b.tool_use_id === block.id);
        expect(answers).toHaveLength(1);
      }
    }
    if (typeof message.content !== "string") {
      const results = message.content.filter((b) => b.type === "tool_result");
      if (results.length > 0) {
        expect(message.content.slice(0, results.length).every((b) => b.type === "tool_result")).toBe(true);
        const previous = messages[index - 1];
        const calls = new Set(
          (typeof previous?.content === "string" ? [] : (previous?.content ?? []))
            .filter((b) => b.type === "tool_use")
            .map((b) => b.id),
        );
        const seen = new Set<unknown>();
        for (const result of results) {
          expect(calls.has(result.tool_use_id)).toBe(true);
          expect(seen.has(result.tool_use_id)).toBe(false);
          seen.add(result.tool_use_id);
        }
      }
    }
  }
  for (const block of (body.system as Block[] | undefined) ?? []) expect(blank(block.text)).toBe(false);
  const thinking = (body.thinking as { type?: string } | undefined)?.type === "enabled";
  const last = messages.at(-1);
  if (thinking && typeof last?.content !== "string" && last?.content.some((b) => b.type === "tool_result")) {
    const before = messages.at(-2);
    const first = typeof before?.content === "string" ? undefined : before?.content[0];
    expect(["thinking", "redacted_thinking"]).toContain(first?.type);
  }
}

function checkResponses(body: Record<string, unknown>, target: Model) {
  expect(body.store).toBe(false);
  const input = body.input as Block[];
  expect(input.length).toBeGreaterThan(0);
  const callIds = new Set<string>();
  const answered = new Set<string>();
  const itemIds = new Set<string>();
  for (const [index, item] of input.entries()) {
    if (typeof item.id === "string") {
      expect(itemIds.has(item.id)).toBe(false);
      itemIds.add(item.id);
      expect(item.id).toMatch(/^(rs|msg|fc)_[A-Za-z0-9_-]+$/);
      expect(item.id.length).toBeLessThanOrEqual(64);
    }
    if (item.type === "function_call") {
      const id = String(item.call_id);
      expect(id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(callIds.has(id)).toBe(false);
      callIds.add(id);
      const later = input.slice(index + 1);
      expect(later.filter((o) => o.type === "function_call_output" && o.call_id === id)).toHaveLength(1);
      const nextTurn = later.findIndex(
        (o) => "role" in o && (o.role === "user" || o.role === "developer" || o.role === "system"),
      );
      const out = later.findIndex((o) => o.type === "function_call_output" && o.call_id === id);
      if (nextTurn >= 0) expect(out).toBeLessThan(nextTurn);
    } else if (item.type === "function_call_output") {
      const id = String(item.call_id);
      expect(callIds.has(id)).toBe(true);
      expect(answered.has(id)).toBe(false);
      answered.add(id);
      const output = item.output as string | Block[];
      if (typeof output === "string") expect(blank(output)).toBe(false);
      else
        for (const part of output) {
          if (part.type === "input_text") expect(blank(part.text)).toBe(false);
          if (part.type === "input_image") expect(target.input).toContain("image");
        }
    } else if (item.type === "reasoning") {
      expect(typeof item.encrypted_content).toBe("string");
      expect(["message", "function_call"]).toContain(
        input[index + 1]?.type ?? ("role" in (input[index + 1] ?? {}) ? "message" : "none"),
      );
    } else if ("role" in item) {
      const content = item.content as string | Block[];
      expect(content.length).toBeGreaterThan(0);
      if (typeof content === "string") expect(blank(content)).toBe(false);
      else
        for (const part of content) {
          if (part.type === "input_text" || part.type === "output_text") expect(blank(part.text)).toBe(false);
          if (part.type === "input_image") expect(target.input).toContain("image");
        }
    }
  }
}

const stats = { bodies: 0, refused: 0, toolCalls: 0 };

function check(capture: Capture, target: Model, tokens: { token: string; source: Model }[]) {
  if ("error" in capture) {
    stats.refused++;
    // Only an empty context may refuse to send.
    expect(capture.error).toMatch(/Nothing to send/);
    return;
  }
  stats.bodies++;
  walkStrings(capture.body, (text) => expect(UNPAIRED.test(text)).toBe(false));
  const json = JSON.stringify(capture.body);
  if (json.includes('"tool_use"') || json.includes('"function_call"')) stats.toolCalls++;
  for (const { token, source } of tokens) if (!sameModel(source, target)) expect(json).not.toContain(token);
  if (target.api === "anthropic-messages") checkAnthropic(capture.body, target);
  else checkResponses(capture.body, target);
}

describe("provider payload property", () => {
  it(`every generated history gives an accepted payload for every target (${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, async ({ messages, tokens }) => {
        const before = JSON.stringify(messages);
        for (const target of TARGETS) {
          const capture = await capturePayload(
            target.model,
            { systemPrompt: "You are X.", messages, tools: [] },
            target.thinking,
          );
          check(capture, target.model, tokens);
        }
        expect(JSON.stringify(messages)).toBe(before);
      }),
      { numRuns: RUNS, verbose: true },
    );
    // The generator must exercise the interesting paths: most requests are sent, many with tool calls.
    expect(stats.bodies).toBeGreaterThan(RUNS);
    expect(stats.toolCalls).toBeGreaterThan(RUNS / 4);
    console.info(`provider-payload: ${JSON.stringify(stats)}`);
  }, 600_000);
});
