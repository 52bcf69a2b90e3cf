/** The chat's reducer for pi's auto-retry events and the Retry button's run. */
import { describe, expect, it } from "vitest";
import { initialChatState, reduceChat } from "@/components/chat/reduce-events";
import { retryingText } from "@/components/chat/retry-notice";
import type { AgentMessage } from "@/lib/agent/messages";
import { emptyUsage } from "@/lib/llm/types";

const failed = (stopReason: "error" | "aborted", errorMessage: string): AgentMessage => ({
  role: "assistant",
  content: [],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: emptyUsage(),
  stopReason,
  errorMessage,
  timestamp: 1,
});
const start = {
  type: "auto_retry_start",
  attempt: 1,
  maxAttempts: 3,
  delayMs: 2000,
  errorMessage: "529 Overloaded",
} as const;

describe("auto-retry in the chat state", () => {
  it("shows the wait from auto_retry_start until the retried run starts", () => {
    let s = reduceChat(initialChatState(), { type: "agent_start" });
    s = reduceChat(s, { type: "agent_end", messages: [] });
    expect(s.running).toBe(false);
    s = reduceChat(s, start);
    expect(s.running).toBe(true);
    expect(s.retry).toEqual({ attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "529 Overloaded" });
    expect(retryingText(s.retry!)).toBe("Retrying (1/3) in 2s...");
    s = reduceChat(s, { type: "agent_start" });
    expect(s.retry).toBeNull();
    expect(s.retryAttempt).toBe(1);
    s = reduceChat(s, { type: "auto_retry_end", success: true, attempt: 1 });
    expect(s.retryAttempt).toBe(0);
    expect(s.errors).toEqual([]);
  });

  it("says pi's text when the retries end without success", () => {
    let s = reduceChat(initialChatState(), start);
    s = reduceChat(s, { type: "auto_retry_end", success: false, attempt: 1, finalError: "Retry cancelled" });
    expect(s.retry).toBeNull();
    expect(s.errors).toEqual(["Retry failed after 1 attempts: Retry cancelled"]);
  });

  it("marks an abort during a retry series as pi does", () => {
    let s = reduceChat(initialChatState(), { ...start, attempt: 2 });
    s = reduceChat(s, { type: "agent_start" });
    s = reduceChat(s, { type: "message_start", message: failed("aborted", "Request was aborted") });
    s = reduceChat(s, { type: "message_end", message: failed("aborted", "Request was aborted") });
    expect((s.messages[0] as { errorMessage?: string }).errorMessage).toBe("Aborted after 2 retry attempts");
  });

  it("starts the Retry button's run without a user message and clears old errors", () => {
    let s = reduceChat(initialChatState([failed("error", "401 invalid x-api-key")]), {
      type: "local_error",
      message: "old",
    });
    s = reduceChat(s, { type: "local_retry" });
    expect(s.running).toBe(true);
    expect(s.errors).toEqual([]);
    expect(s.messages).toHaveLength(1);
    expect(s.pendingUserIndex).toBeNull();
  });

  it("rounds the delay as pi does", () => {
    expect(retryingText({ attempt: 2, maxAttempts: 3, delayMs: 4000 })).toBe("Retrying (2/3) in 4s...");
    expect(retryingText({ attempt: 1, maxAttempts: 5, delayMs: 1500 })).toBe("Retrying (1/5) in 2s...");
    expect(retryingText({ attempt: 1, maxAttempts: 3, delayMs: 400 })).toBe("Retrying (1/3) in 0s...");
  });
});
