/**
 * A failed turn's marker, from the stored message alone (components/chat/turn-error-view.ts and the chat's
 * rendering): a turn a later answer followed is one muted "retried" line; the failed last turn keeps the full
 * explanation with its hint and Retry — the same after a reload (a reset from the session's stored messages) as live.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { emptyChatText, MessageList } from "@/components/chat/message-list";
import { initialChatState } from "@/components/chat/reduce-events";
import { turnErrorView, turnPlaces } from "@/components/chat/turn-error-view";
import type { AgentMessage } from "@/lib/agent/messages";
import { outputCapMessage } from "@/lib/llm/stream-guards";
import { type AssistantMessage, emptyUsage } from "@/lib/llm/types";

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });
const assistant = (over: Partial<AssistantMessage>): AssistantMessage => ({
  role: "assistant",
  content: [],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: emptyUsage(),
  stopReason: "stop",
  timestamp: 2,
  ...over,
});
const failed = (errorMessage: string) => assistant({ stopReason: "error", errorMessage });
const answer = (text: string) => assistant({ content: [{ type: "text", text }] });
/** The chat as a reload shows it: the state reset from the stored messages (use-chat.ts). */
const renderReloaded = (messages: AgentMessage[], running = false) =>
  renderToStaticMarkup(
    createElement(MessageList, { state: { ...initialChatState(messages), running }, onRetry: () => {} }),
  );
/** Texts of the elements with `className` in `html`, in order. */
const texts = (html: string, className: string) =>
  [...html.matchAll(new RegExp(`class="[^"]*\\b${className}\\b[^"]*"[^>]*>([^<]*)<`, "g"))].map((m) => m[1]);

const KEY_HINT =
  "Set ANTHROPIC_API_KEY to a valid key in the server&#x27;s environment or in .env.local, then restart Strata.";

describe("turnErrorView", () => {
  it("a superseded error is one compact line quoting the provider's message", () => {
    expect(turnErrorView(failed("529 Overloaded"), { superseded: true, canRetry: false })).toEqual({
      variant: "compact",
      text: "Provider error (529 Overloaded), retried",
    });
    expect(turnErrorView(failed(""), { superseded: true, canRetry: false })).toEqual({
      variant: "compact",
      text: "Provider error, retried",
    });
    const long = turnErrorView(failed(`500 ${"x".repeat(300)}`), { superseded: true, canRetry: false });
    expect(long).toEqual({ variant: "compact", text: `Provider error (500 ${"x".repeat(155)}…), retried` });
  });

  it("the failed last turn: title, detail, and the hint only when it can be retried", () => {
    expect(turnErrorView(failed("401 invalid x-api-key"), { superseded: false, canRetry: true })).toEqual({
      variant: "full",
      kind: "auth",
      title: "The provider refused the API key (401)",
      detail: "401 invalid x-api-key",
      hint: "Set ANTHROPIC_API_KEY to a valid key in the server's environment or in .env.local, then restart Strata.",
      retry: true,
    });
    expect(turnErrorView(failed("529 Overloaded"), { superseded: false, canRetry: false })).toEqual({
      variant: "full",
      kind: "transient",
      title: "The provider is unavailable or rate-limited (529)",
      detail: "529 Overloaded",
      hint: undefined,
      retry: false,
    });
  });

  it("an aborted turn stays an Aborted line, superseded or not", () => {
    const aborted = assistant({ stopReason: "aborted", errorMessage: "Request was aborted" });
    expect(turnErrorView(aborted, { superseded: true, canRetry: false })).toEqual({
      variant: "full",
      kind: "aborted",
      title: "Aborted: Request was aborted",
      retry: false,
    });
  });
});

describe("turnPlaces", () => {
  it("marks failed turns followed by an assistant message as superseded; only the idle last one can retry", () => {
    const messages = [
      user("a"),
      failed("529 Overloaded"),
      failed("529 Overloaded"),
      answer("ok"),
      failed("503 x"),
    ];
    expect([...turnPlaces(messages, false)]).toEqual([
      [4, { superseded: false, canRetry: true }],
      [2, { superseded: true, canRetry: false }],
      [1, { superseded: true, canRetry: false }],
    ]);
    expect(turnPlaces(messages, true).get(4)).toEqual({ superseded: false, canRetry: false });
    // A failed turn followed only by a new user prompt is not superseded.
    expect(turnPlaces([failed("529 Overloaded"), user("b")], false).get(0)).toEqual({
      superseded: false,
      canRetry: false,
    });
  });
});

describe("the chat after a reload", () => {
  it("a stored 401 as the last turn keeps its hint and Retry button", () => {
    const html = renderReloaded([user("Say hello."), failed("401 invalid x-api-key")]);
    expect(texts(html, "stop-title")).toEqual(["The provider refused the API key (401)"]);
    expect(texts(html, "stop-detail")).toEqual(["401 invalid x-api-key"]);
    expect(texts(html, "stop-hint")).toEqual([KEY_HINT]);
    expect(texts(html, "stop-retry")).toEqual(["Retry"]);
  });

  it("a stored 529 as the last turn keeps its hint and Retry button", () => {
    const html = renderReloaded([user("Say hello."), failed("529 Overloaded")]);
    expect(texts(html, "stop-title")).toEqual(["The provider is unavailable or rate-limited (529)"]);
    expect(texts(html, "stop-hint")).toEqual(["This is usually temporary: press Retry in a moment."]);
    expect(texts(html, "stop-retry")).toEqual(["Retry"]);
  });

  it("a recovered 529 is a muted line, with no red box, hint or Retry", () => {
    const html = renderReloaded([user("Say hello."), failed("529 Overloaded"), answer("Recovered answer.")]);
    expect(texts(html, "stop-marker")).toEqual(["Provider error (529 Overloaded), retried"]);
    expect(html).toContain('class="message message-assistant stop-retried"');
    expect(html).not.toContain("stop-error");
    expect(html).not.toContain("stop-hint");
    expect(html).not.toContain("Retry</button>");
  });

  it("while a run goes on (auto-retry waiting), the failed turn shows no hint and no Retry", () => {
    const html = renderReloaded([user("Say hello."), failed("529 Overloaded")], true);
    expect(texts(html, "stop-title")).toEqual(["The provider is unavailable or rate-limited (529)"]);
    expect(html).not.toContain("stop-hint");
    expect(html).not.toContain("stop-retry");
  });
});

describe("a turn cut at the output cap", () => {
  it("keeps its text and shows why it ended and what to do, as a warning (not a failed turn)", () => {
    const cut = assistant({
      content: [{ type: "text", text: "xxxx" }],
      stopReason: "length",
      errorMessage: outputCapMessage(4),
    });
    const html = renderReloaded([user("Write it all."), cut]);
    expect(texts(html, "stop-length")).toEqual([
      "The answer was cut off after 4 bytes, the most one turn may stream (text, thinking and tool-call arguments; " +
        "STRATA_MAX_TURN_OUTPUT_BYTES). What arrived up to the cut is kept. Ask for a shorter answer, or for the " +
        "work in smaller steps (for example one file per turn).",
    ]);
    expect(html).toContain("xxxx");
    expect(html).not.toContain("stop-error");
    expect(html).not.toContain("stop-retry");
    // A provider's own max_tokens stop carries no errorMessage: nothing is added.
    expect(renderReloaded([user("Hi."), assistant({ stopReason: "length" })])).not.toContain("stop-length");
  });
});

describe("the empty chat", () => {
  it("says what a prompt does, or what works without a model", () => {
    expect(emptyChatText(true)).toBe("Ask the agent to do something.");
    expect(emptyChatText(false)).toBe(
      "No model is configured: !commands run in the project shell; see the note below the chat to configure one.",
    );
    const html = renderToStaticMarkup(
      createElement(MessageList, { state: initialChatState([]), hasModel: false }),
    );
    expect(html).toContain(
      '<p class="muted chat-empty">No model is configured: !commands run in the project shell; see the note below the chat to configure one.</p>',
    );
  });
});
