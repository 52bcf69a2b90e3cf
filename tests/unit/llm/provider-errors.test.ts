import { describe, expect, it } from "vitest";
import {
  describeProviderError,
  errorStatus,
  isContextOverflowError,
  isTransientError,
} from "@/lib/llm/provider-errors";

describe("isTransientError", () => {
  it.each([
    ["529 Overloaded", true],
    ["529 Server busy", true], // Strata: the status alone
    ["429 Rate limited", true],
    ["500 Internal server error", true],
    ["502 Bad gateway", true],
    ["503 Service Unavailable", true],
    ["504 Gateway Timeout", true],
    ["overloaded_error", true],
    ["Cannot connect to API: fetch failed", true],
    ["Cannot connect to API: connect ECONNREFUSED 127.0.0.1:3639", true], // Strata: the AI SDK's text
    ["Connection error.", true], // pi-ai's SDKs' text
    ["read ECONNRESET", true],
    ["other side closed", true],
    ["terminated", true],
    // Strata's idle timeout of a silent provider (lib/llm/stream-guards.ts), and timeouts as later pi versions match
    [
      "The provider sent nothing for 120 s, so the response timed out (STRATA_STREAM_IDLE_MS). What arrived before is kept.",
      true,
    ],
    ["Request timeout", true],
    ["401 invalid x-api-key", false],
    ["403 Forbidden", false],
    ["404 model: claude-nope", false],
    ["400 Some message", false],
    ["400 prompt is too long: 250000 tokens > 200000 maximum", false], // overflow: compaction, not retry
    ["413 too many tokens", false],
    ["", false],
  ])("%j → %s", (message, expected) => expect(isTransientError(message)).toBe(expected));
  it("is false for undefined and null", () => {
    expect(isTransientError(undefined)).toBe(false);
    expect(isTransientError(null)).toBe(false);
  });
});

describe("errorStatus", () => {
  it.each([
    ["529 Overloaded", 529],
    ["401 x", 401],
    ["4010 x", undefined],
    ["fetch failed", undefined],
  ])("%j → %s", (message, expected) => expect(errorStatus(message)).toBe(expected));
});

describe("isContextOverflowError", () => {
  it("recognises Anthropic's and OpenAI's overflow texts", () => {
    expect(isContextOverflowError("400 prompt is too long: 250000 tokens > 200000 maximum")).toBe(true);
    expect(isContextOverflowError("400 context_length_exceeded")).toBe(true);
    expect(isContextOverflowError("429 Rate limited")).toBe(false);
  });
});

describe("describeProviderError", () => {
  const anthropic = { provider: "anthropic", model: "claude-sonnet-4-5" };
  it.each([
    [
      "401 invalid x-api-key",
      anthropic,
      {
        kind: "auth",
        status: 401,
        title: "The provider refused the API key (401)",
        hint: "Set ANTHROPIC_API_KEY to a valid key in the server's environment or in .env.local, then restart Strata.",
      },
    ],
    [
      "403 Forbidden",
      { provider: "openai", model: "gpt-5" },
      {
        kind: "auth",
        status: 403,
        title: "The provider refused the API key (403)",
        hint: "Set OPENAI_API_KEY to a valid key in the server's environment or in .env.local, then restart Strata.",
      },
    ],
    [
      "404 model: claude-nope",
      { provider: "anthropic", model: "claude-nope" },
      {
        kind: "model",
        status: 404,
        title: "The provider does not know anthropic/claude-nope (404)",
        hint: "Pick another model in the model picker, or fix STRATA_DEFAULT_MODEL / STRATA_MODELS and restart Strata.",
      },
    ],
    [
      "400 prompt is too long: 250000 tokens > 200000 maximum",
      anthropic,
      {
        kind: "overflow",
        status: 400,
        title: "The conversation is too long for the model's context window",
        hint: "Run /compact to summarise older messages, or continue on a new branch from an earlier message (History).",
      },
    ],
    [
      "529 Overloaded",
      anthropic,
      {
        kind: "transient",
        status: 529,
        title: "The provider is unavailable or rate-limited (529)",
        hint: "This is usually temporary: press Retry in a moment.",
      },
    ],
    [
      "400 messages: text content blocks must be non-empty",
      anthropic,
      {
        kind: "other",
        status: 400,
        title: "The provider reported an error (400)",
        hint: "Press Retry to run the turn again, or change the prompt or the model.",
      },
    ],
    [
      "The response stream ended before the model finished",
      anthropic,
      {
        kind: "other",
        status: undefined,
        title: "The turn failed",
        hint: "Press Retry to run the turn again, or change the prompt or the model.",
      },
    ],
  ])("%j", (message, context, expected) =>
    expect(describeProviderError(message, context)).toEqual({ ...expected, detail: message }),
  );
  it("names no variable for an unknown provider", () => {
    expect(describeProviderError("401 no", { provider: "acme", model: "x" }).hint).toBe(
      "Set the provider's API key variable to a valid key in the server's environment or in .env.local, then restart Strata.",
    );
  });
});
