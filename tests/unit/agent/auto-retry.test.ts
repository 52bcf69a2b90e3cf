import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRY_SETTINGS,
  isRetryableError,
  MAX_TIMER_MS,
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
    expect([1, 2, 3].map((n) => retryDelayMs(n, 100, 60000))).toEqual([100, 200, 400]);
  });
  it("caps each delay at maxDelayMs and at setTimeout's 2^31-1 ms", () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, 20000, 60000))).toEqual([
      20000, 40000, 60000, 60000, 60000,
    ]);
    expect(MAX_TIMER_MS).toBe(2147483647);
    expect(retryDelayMs(1, 3000000000)).toBe(2147483647);
    expect(retryDelayMs(40, 2000, 1e12)).toBe(2147483647);
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
    expect(retrySettingsFrom({ retry: { maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60000 } })).toEqual(
      DEFAULT_RETRY_SETTINGS,
    );
  });
  it("takes valid values and keeps defaults for the rest", () => {
    expect(retrySettingsFrom({ retry: { enabled: false, maxRetries: 5, baseDelayMs: 150 } })).toEqual({
      enabled: false,
      maxRetries: 5,
      baseDelayMs: 150,
      maxDelayMs: 60000,
    });
    expect(retrySettingsFrom({ retry: { enabled: "no" } }).enabled).toBe(true);
  });
  // [setting, given, read]: clamped into [0, 10] / [100, 60000] / [100, 600000]; NaN, negative, strings → default.
  const table: [string, unknown, number][] = [
    ["maxRetries", 4, 4],
    ["maxRetries", 0, 0],
    ["maxRetries", 2.7, 2],
    ["maxRetries", 10, 10],
    ["maxRetries", 11, 10],
    ["maxRetries", 1e9, 10],
    ["maxRetries", Number.POSITIVE_INFINITY, 3],
    ["maxRetries", Number.NaN, 3],
    ["maxRetries", -1, 3],
    ["maxRetries", "5", 3],
    ["baseDelayMs", 3000000000, 60000],
    ["baseDelayMs", 60001, 60000],
    ["baseDelayMs", 0, 100],
    ["baseDelayMs", 10, 100],
    ["baseDelayMs", 100, 100],
    ["baseDelayMs", Number.NaN, 2000],
    ["baseDelayMs", -5, 2000],
    ["baseDelayMs", "5", 2000],
    ["maxDelayMs", 0, 100],
    ["maxDelayMs", 5000, 5000],
    ["maxDelayMs", 1e12, 600000],
    ["maxDelayMs", -1, 60000],
    ["maxDelayMs", null, 60000],
  ];
  it.each(table)("%s %s → %s", (key, given, read) => {
    const settings = retrySettingsFrom({ retry: { [key]: given } });
    expect(settings[key as "maxRetries" | "baseDelayMs" | "maxDelayMs"]).toBe(read);
  });
  it("the hostile settings of the report: at most 10 retries, each wait at most 60 s", () => {
    const storm = retrySettingsFrom({ retry: { maxRetries: 4, baseDelayMs: 3000000000 } });
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, storm.baseDelayMs, storm.maxDelayMs))).toEqual([
      60000, 60000, 60000, 60000,
    ]);
    const flood = retrySettingsFrom({ retry: { maxRetries: 1e9, baseDelayMs: 0 } });
    expect(flood.maxRetries).toBe(10);
    expect([1, 2, 10].map((n) => retryDelayMs(n, flood.baseDelayMs, flood.maxDelayMs))).toEqual([
      100, 200, 51200,
    ]);
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
