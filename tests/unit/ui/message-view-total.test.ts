/**
 * The chat renders whatever a message holds without throwing: null parts, non-string text, a non-array content,
 * a tool call without an id (as an older server or a hand-edited row could send them).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { contentBlocks, contentText, indexToolResults } from "@/components/chat/message-utils";
import { MessageView } from "@/components/chat/message-view";
import type { AgentMessage } from "@/lib/agent/messages";

const ctx = { results: new Map(), tools: {}, chatRunning: false };
/** A message as it may arrive: any shape under a known role. */
const raw = (m: Record<string, unknown>) => m as unknown as AgentMessage;
/** Content as it may arrive: any array. */
type Blocks = Parameters<typeof contentText>[0] & Parameters<typeof contentBlocks>[0];
const anyContent = (v: unknown) => v as Blocks;
const render = (message: AgentMessage) =>
  renderToStaticMarkup(createElement(MessageView, { message, streaming: false, ctx }));

describe("total rendering", () => {
  it("user and custom messages with null parts, non-string text and non-array content", () => {
    expect(
      render(
        raw({
          role: "user",
          content: [null, { type: "text", text: 5 }, { type: "text", text: "hi" }],
          timestamp: 1,
        }),
      ),
    ).toBe(
      '<article class="message message-user" data-testid="message-user" aria-label="You"><div class="message-text">hi</div></article>',
    );
    expect(render(raw({ role: "user", content: 7, timestamp: 1 }))).toContain(
      '<div class="message-text"></div>',
    );
    expect(render(raw({ role: "user", content: null, timestamp: 1 }))).toContain(
      '<div class="message-text"></div>',
    );
    expect(
      render(
        raw({
          role: "custom",
          customType: "note",
          display: true,
          content: [null, { type: "image" }],
          timestamp: 1,
        }),
      ),
    ).toContain('<div class="message-text">[image ]</div>');
  });

  it("assistant messages with null parts, a non-array content and a tool call without an id", () => {
    const html = render(
      raw({
        role: "assistant",
        content: [
          null,
          { type: "text", text: null },
          { type: "toolCall", name: "read" },
          { type: "text", text: "shown" },
          { type: "thinking", thinking: 3 },
        ],
        stopReason: "stop",
        timestamp: 1,
      }),
    );
    expect(html).toContain("<p>shown</p>");
    expect(html).not.toContain('data-testid="tool-call"');
    expect(render(raw({ role: "assistant", content: "text", stopReason: "error", timestamp: 1 }))).toContain(
      'data-stop-reason="error"',
    );
  });

  it("helpers skip what they cannot use", () => {
    expect(
      contentText(
        anyContent([null, { type: "text", text: "a" }, 3, { type: "image", mimeType: "image/png" }]),
      ),
    ).toBe("a\n[image image/png]");
    expect(contentBlocks(anyContent([null, { type: "text", text: "a" }, { text: "no type" }]))).toEqual([
      { type: "text", text: "a" },
    ]);
    expect(contentBlocks(anyContent("text"))).toEqual([]);
    const { callIds } = indexToolResults([
      raw({ role: "assistant", content: [null, { type: "toolCall", id: "c1" }], timestamp: 1 }),
    ]);
    expect([...callIds]).toEqual(["c1"]);
  });
});
