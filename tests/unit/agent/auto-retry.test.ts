import { afterEach, describe, expect, it, vi } from "vitest";
import { Agent } from "@/lib/agent/agent";
import type { AgentMessage } from "@/lib/agent/messages";
import {
  AutoRetry,
  type AutoRetryEvent,
  DEFAULT_RETRY_SETTINGS,
  isRetryableError,
  MAX_TIMER_MS,
  NOTHING_TO_RETRY,
  RETRY_CANCELLED,
  type RetrySettings,
  retryDelayMs,
  retrySettingsFrom,
  withoutFailedTurn,
} from "@/lib/agent-session/auto-retry";
import { type AssistantMessage, emptyUsage } from "@/lib/llm/types";
import { type ScriptedTurn, scriptedStream } from "./loop-helpers";

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
  it("keeps a last user message or tool results that have no stored answer", () => {
    const call: AssistantMessage = { ...failed(""), stopReason: "toolUse", errorMessage: undefined };
    const result: AgentMessage = {
      role: "toolResult",
      toolCallId: "t1",
      toolName: "read",
      content: [{ type: "text", text: "x" }],
      isError: false,
      timestamp: 0,
    };
    expect(withoutFailedTurn([user])).toEqual([user]);
    expect(withoutFailedTurn([user, call, result])).toEqual([user, call, result]);
  });
  it("refuses anything else", () => {
    expect(() => withoutFailedTurn([user, failed("", "stop")])).toThrow(NOTHING_TO_RETRY);
    expect(() => withoutFailedTurn([])).toThrow(NOTHING_TO_RETRY);
    expect(() =>
      withoutFailedTurn([
        user,
        { role: "custom", customType: "x", content: "y", display: true, timestamp: 0 },
      ]),
    ).toThrow(NOTHING_TO_RETRY);
  });
});

describe("AutoRetry waits the announced delay before each retry (fake timers: the schedule in virtual time)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * An agent answering `turns` in order, under an AutoRetry with `settings`; `announced()` resolves at the next
   * retry event (the loop gets there without timers; only the waits are timers).
   */
  function retrying(turns: ScriptedTurn[], settings: RetrySettings, signal?: AbortSignal) {
    vi.useFakeTimers();
    const stream = scriptedStream(turns);
    const agent = new Agent({ stream });
    const events: AutoRetryEvent[] = [];
    let onEvent: (() => void) | undefined;
    const retry = new AutoRetry({
      settings,
      emit: async (event) => {
        events.push(event);
        onEvent?.();
      },
      contextWindow: () => 200_000,
      signal,
    });
    agent.subscribe((event) => retry.observe(event));
    const announced = () =>
      new Promise<void>((resolve) => {
        onEvent = resolve;
      });
    const first = announced();
    const done = retry.run(agent, () => agent.prompt("hello"));
    return { stream, events, announced, first, done };
  }

  it("a 529 then a 429 with a 100 ms base: the retries start exactly 100 ms and then 200 ms after the failures", async () => {
    const settings = { enabled: true, maxRetries: 3, baseDelayMs: 100, maxDelayMs: 60_000 };
    const { stream, events, announced, first, done } = retrying(
      [
        { stopReason: "error", errorMessage: "529 Overloaded" },
        { stopReason: "error", errorMessage: "429 Rate limited" },
        { text: "Answer." },
      ],
      settings,
    );
    await first;
    expect(stream.requests).toHaveLength(1);
    const second = announced();
    await vi.advanceTimersByTimeAsync(99);
    expect(stream.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await second;
    expect(stream.requests).toHaveLength(2);
    const end = announced();
    await vi.advanceTimersByTimeAsync(199);
    expect(stream.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await end;
    await done;
    expect(stream.requests).toHaveLength(3);
    expect(events).toEqual([
      { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 100, errorMessage: "529 Overloaded" },
      {
        type: "auto_retry_start",
        attempt: 2,
        maxAttempts: 3,
        delayMs: 200,
        errorMessage: "429 Rate limited",
      },
      { type: "auto_retry_end", success: true, attempt: 2 },
    ]);
  });

  it("hostile settings: the announced 60 s is the real wait, not an overflowed timer that fires at once", async () => {
    const settings = retrySettingsFrom({ retry: { maxRetries: 4, baseDelayMs: 3000000000 } });
    const { stream, events, announced, first, done } = retrying(
      [{ stopReason: "error", errorMessage: "529 Overloaded" }, { text: "Answer." }],
      settings,
    );
    await first;
    const end = announced();
    await vi.advanceTimersByTimeAsync(59_999);
    expect(stream.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await end;
    await done;
    expect(stream.requests).toHaveLength(2);
    expect(events).toEqual([
      {
        type: "auto_retry_start",
        attempt: 1,
        maxAttempts: 4,
        delayMs: 60_000,
        errorMessage: "529 Overloaded",
      },
      { type: "auto_retry_end", success: true, attempt: 1 },
    ]);
  });

  it("an abort during the wait ends the series as cancelled, and no retry follows", async () => {
    const abort = new AbortController();
    const { stream, events, first, done } = retrying(
      [{ stopReason: "error", errorMessage: "529 Overloaded" }, { text: "never asked for" }],
      { enabled: true, maxRetries: 3, baseDelayMs: 10_000, maxDelayMs: 60_000 },
      abort.signal,
    );
    await first;
    await vi.advanceTimersByTimeAsync(5_000);
    abort.abort();
    await done;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(stream.requests).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    expect(events).toEqual([
      {
        type: "auto_retry_start",
        attempt: 1,
        maxAttempts: 3,
        delayMs: 10_000,
        errorMessage: "529 Overloaded",
      },
      { type: "auto_retry_end", success: false, attempt: 1, finalError: RETRY_CANCELLED },
    ]);
  });
});
