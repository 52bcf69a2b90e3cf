import { describe, expect, it } from "vitest";
import { resolveModelChoice } from "@/components/chat/model-resolution";

const available = ["anthropic/claude-sonnet-4-5", "openai/gpt-5", "openai/gpt-5-mini"];

describe("resolveModelChoice", () => {
  it("an existing session's model wins over the browser's last choice and the default", () => {
    expect(
      resolveModelChoice({
        available,
        sessionModel: "openai/gpt-5-mini",
        remembered: "openai/gpt-5",
        defaultModel: "anthropic/claude-sonnet-4-5",
      }),
    ).toBe("openai/gpt-5-mini");
  });

  it("a session without a model gets the browser's last choice, else the default, else the first", () => {
    const base = { available, sessionModel: null };
    expect(
      resolveModelChoice({
        ...base,
        remembered: "openai/gpt-5",
        defaultModel: "anthropic/claude-sonnet-4-5",
      }),
    ).toBe("openai/gpt-5");
    expect(resolveModelChoice({ ...base, remembered: null, defaultModel: "openai/gpt-5-mini" })).toBe(
      "openai/gpt-5-mini",
    );
    expect(resolveModelChoice({ ...base, remembered: null, defaultModel: null })).toBe(
      "anthropic/claude-sonnet-4-5",
    );
  });

  it("skips models the server does not offer (a key removed since)", () => {
    expect(
      resolveModelChoice({
        available,
        sessionModel: "mistral/mistral-large-latest",
        remembered: "google/gemini-2.5-pro",
        defaultModel: "openai/gpt-5",
      }),
    ).toBe("openai/gpt-5");
  });

  it("is empty when no model is configured", () => {
    expect(
      resolveModelChoice({
        available: [],
        sessionModel: "openai/gpt-5",
        remembered: "openai/gpt-5",
        defaultModel: null,
      }),
    ).toBe("");
  });
});
