import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRY_SETTINGS,
  isRetryableError,
  NOTHING_TO_RETRY,
  retryDelayMs,
  retrySettingsFrom,
  withoutFailedTurn,
} from "@/lib/agent/auto-retry";
import type { AgentMessage } from "@/lib/agent/messages";
import { type AssistantMessage, emptyUsage } from "@/lib/llm/types";

const failed = (
  errorMessage: string,
  stopReason: "error" | "aborted" | "stop" = "error",
): AssistantMessage => ({
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

describe("retryDelayMs (pi's backoff)", () => {
  it("doubles from the base for attempts 1..4", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 2000))).toEqual([2000, 4000, 8000, 16000]);
    expect([1, 2, 3].map((n) => retryDelayMs(n, 30))).toEqual([30, 60, 120]);
  });
});

describe("retrySettingsFrom", () => {
  it("has pi's defaults", () => {
    expect(retrySettingsFrom({})).toEqual({
      enabled: true,
      maxRetries: 3,
      baseDelayMs: 2000,
      maxDelayMs: 60000,
    });
    expect(DEFAULT_RETRY_SETTINGS).toEqual(retrySettingsFrom({ retry: null }));
  });
  it("takes valid values and keeps defaults for the rest", () => {
    expect(retrySettingsFrom({ retry: { enabled: false, maxRetries: 5, baseDelayMs: 10 } })).toEqual({
      enabled: false,
      maxRetries: 5,
      baseDelayMs: 10,
      maxDelayMs: 60000,
    });
    expect(
      retrySettingsFrom({ retry: { enabled: "no", maxRetries: -1, baseDelayMs: "5", maxDelayMs: 0 } }),
    ).toEqual({
      enabled: true,
      maxRetries: 3,
      baseDelayMs: 2000,
      maxDelayMs: 0,
    });
  });
});

describe("isRetryableError", () => {
  it("retries transient errors only, never an overflow or a non-error", () => {
    expect(isRetryableError(failed("529 Overloaded"), 200000)).toBe(true);
    expect(isRetryableError(failed("401 invalid x-api-key"), 200000)).toBe(false);
    expect(isRetryableError(failed("400 prompt is too long: 9 tokens > 8 maximum"), 200000)).toBe(false);
    expect(isRetryableError(failed("529 Overloaded", "aborted"), 200000)).toBe(false);
    expect(isRetryableError(failed("", "error"), 200000)).toBe(false);
  });
});

describe("withoutFailedTurn", () => {
  const user: AgentMessage = { role: "user", content: "hi", timestamp: 0 };
  it("drops a failed or aborted last answer", () => {
    expect(withoutFailedTurn([user, failed("529 x")])).toEqual([user]);
    expect(withoutFailedTurn([user, failed("Request was aborted", "aborted")])).toEqual([user]);
  });
  it("refuses anything else", () => {
    expect(() => withoutFailedTurn([user, failed("", "stop")])).toThrow(NOTHING_TO_RETRY);
    expect(() => withoutFailedTurn([user])).toThrow(NOTHING_TO_RETRY);
    expect(() => withoutFailedTurn([])).toThrow(NOTHING_TO_RETRY);
  });
});
