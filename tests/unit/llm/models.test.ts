import { describe, expect, it } from "vitest";
import {
  defaultModel,
  getAvailableModels,
  MODEL_CATALOG,
  ModelConfigError,
  modelConfigHelp,
  modelRef,
  resolveModel,
  resolvePromptModel,
} from "@/lib/llm/models";
import { createLanguageModel } from "@/lib/llm/providers";

const refs = (env: Record<string, string | undefined>) => getAvailableModels(env).map(modelRef);

describe("model registry", () => {
  it("offers nothing without configuration", () => {
    expect(getAvailableModels({})).toEqual([]);
    expect(defaultModel({})).toBeUndefined();
    expect(getAvailableModels({ ANTHROPIC_API_KEY: "  ", OPENAI_COMPATIBLE_MODELS: "a,b" })).toEqual([]);
  });

  it("offers the catalog models of each provider whose key is set, in provider order", () => {
    expect(refs({ OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" })).toEqual([
      "anthropic/claude-sonnet-4-5",
      "anthropic/claude-opus-4-1",
      "anthropic/claude-haiku-4-5",
      "openai/gpt-5",
      "openai/gpt-5-mini",
      "openai/gpt-4.1",
    ]);
    expect(refs({ GOOGLE_GENERATIVE_AI_API_KEY: "k" })).toEqual([
      "google/gemini-2.5-pro",
      "google/gemini-2.5-flash",
      "google/gemini-3-pro-preview",
    ]);
    expect(refs({ MISTRAL_API_KEY: "k", GOOGLE_GENERATIVE_AI_API_KEY: " " })).toEqual([
      "mistral/mistral-large-2512",
      "mistral/mistral-medium-2508",
      "mistral/devstral-medium-2507",
    ]);
    expect(MODEL_CATALOG).toHaveLength(12);
  });

  it("returns the Mistral catalog figures and creates a Mistral chat model", () => {
    expect(resolveModel("mistral/devstral-medium-2507", { MISTRAL_API_KEY: "k" })).toEqual({
      id: "devstral-medium-2507",
      name: "Devstral Medium",
      provider: "mistral",
      api: "mistral-conversations",
      reasoning: false,
      input: ["text"],
      contextWindow: 131_072,
      maxTokens: 32_768,
      cost: { input: 0.4, output: 2, cacheRead: 0.4, cacheWrite: 0 },
    });
    const mistral = resolveModel("mistral/mistral-large-2512", { MISTRAL_API_KEY: "k" })!;
    expect(mistral.input).toEqual(["text", "image"]);
    expect(mistral.contextWindow).toBe(262_144);
    const instance = createLanguageModel(mistral, { MISTRAL_API_KEY: "k" });
    expect([instance.provider, instance.modelId]).toEqual(["mistral.chat", "mistral-large-2512"]);
    expect(() => createLanguageModel(mistral, {})).toThrow(
      "MISTRAL_API_KEY is not set; cannot call mistral/mistral-large-2512.",
    );
  });

  it("returns the catalog figures", () => {
    expect(resolveModel("anthropic/claude-sonnet-4-5", { ANTHROPIC_API_KEY: "k" })).toEqual({
      id: "claude-sonnet-4-5",
      name: "Claude Sonnet 4.5",
      provider: "anthropic",
      api: "anthropic-messages",
      reasoning: true,
      input: ["text", "image"],
      contextWindow: 200_000,
      maxTokens: 64_000,
      cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    });
    expect(resolveModel("openai/gpt-4.1", { OPENAI_API_KEY: "k" })).toEqual({
      id: "gpt-4.1",
      name: "GPT-4.1",
      provider: "openai",
      api: "openai-responses",
      reasoning: false,
      input: ["text", "image"],
      contextWindow: 1_047_576,
      maxTokens: 32_768,
      cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
    });
  });

  it("offers exactly the listed openai-compatible models when the base URL is set", () => {
    const env = {
      OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1",
      OPENAI_COMPATIBLE_MODELS: " llama3.3, qwen3 ,,llama3.3,meta/llama-4",
    };
    expect(getAvailableModels(env)).toEqual([
      {
        id: "llama3.3",
        name: "llama3.3",
        provider: "openai-compatible",
        api: "openai-completions",
        reasoning: false,
        input: ["text"],
        contextWindow: 128_000,
        maxTokens: 16_384,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      },
      expect.objectContaining({ id: "qwen3", provider: "openai-compatible" }),
      expect.objectContaining({ id: "meta/llama-4", provider: "openai-compatible" }),
    ]);
    expect(getAvailableModels({ OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1" })).toEqual([]);
    expect(resolveModel("openai-compatible/meta/llama-4", env)?.id).toBe("meta/llama-4");
  });

  it("applies STRATA_MODELS overrides and additions for configured providers only", () => {
    const env = {
      ANTHROPIC_API_KEY: "k",
      OPENAI_COMPATIBLE_BASE_URL: "http://h/v1",
      OPENAI_COMPATIBLE_MODELS: "qwen3",
      STRATA_MODELS: JSON.stringify([
        { provider: "anthropic", id: "claude-haiku-4-5", maxTokens: 8192, cost: { input: 0.9 } },
        {
          provider: "anthropic",
          id: "claude-sonnet-5",
          name: "Claude Sonnet 5",
          reasoning: true,
          contextWindow: 1_000_000,
        },
        { provider: "openai-compatible", id: "qwen3", contextWindow: 32_768, input: ["text", "image"] },
        { provider: "google", id: "gemini-4" },
      ]),
    };
    expect(refs(env)).toEqual([
      "anthropic/claude-sonnet-4-5",
      "anthropic/claude-opus-4-1",
      "anthropic/claude-haiku-4-5",
      "anthropic/claude-sonnet-5",
      "openai-compatible/qwen3",
    ]);
    expect(resolveModel("anthropic/claude-haiku-4-5", env)).toMatchObject({
      maxTokens: 8192,
      contextWindow: 200_000,
      cost: { input: 0.9, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
    });
    expect(resolveModel("anthropic/claude-sonnet-5", env)).toEqual({
      id: "claude-sonnet-5",
      name: "Claude Sonnet 5",
      provider: "anthropic",
      api: "anthropic-messages",
      reasoning: true,
      input: ["text"],
      contextWindow: 1_000_000,
      maxTokens: 16_384,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    });
    expect(resolveModel("openai-compatible/qwen3", env)).toMatchObject({
      contextWindow: 32_768,
      input: ["text", "image"],
    });
    // The catalog itself is never mutated.
    expect(MODEL_CATALOG.find((m) => m.id === "claude-haiku-4-5")?.maxTokens).toBe(64_000);
  });

  it("rejects a malformed STRATA_MODELS with a ModelConfigError", () => {
    expect(() => getAvailableModels({ STRATA_MODELS: "[{" })).toThrow(ModelConfigError);
    expect(() => getAvailableModels({ STRATA_MODELS: '[{"id":"x"}]' })).toThrow(
      /^STRATA_MODELS must be a JSON array of models with "provider" and "id": 0\.provider: /,
    );
  });

  it("resolves <provider>/<id> refs among available models only", () => {
    const env = { OPENAI_API_KEY: "k" };
    expect(resolveModel("openai/gpt-5-mini", env)?.name).toBe("GPT-5 mini");
    expect(resolveModel("anthropic/claude-sonnet-4-5", env)).toBeUndefined();
    expect(resolveModel("openai/gpt-9", env)).toBeUndefined();
    expect(resolveModel("gpt-5", env)).toBeUndefined();
    expect(resolveModel("openai/", env)).toBeUndefined();
    expect(resolveModel("/gpt-5", env)).toBeUndefined();
  });

  it("picks STRATA_DEFAULT_MODEL, else the first available model", () => {
    const env = { ANTHROPIC_API_KEY: "k", GOOGLE_GENERATIVE_AI_API_KEY: "k" };
    expect(defaultModel(env)?.id).toBe("claude-sonnet-4-5");
    expect(defaultModel({ ...env, STRATA_DEFAULT_MODEL: "google/gemini-2.5-flash" })?.id).toBe(
      "gemini-2.5-flash",
    );
    expect(defaultModel({ ...env, STRATA_DEFAULT_MODEL: "openai/gpt-5" })?.id).toBe("claude-sonnet-4-5");
  });

  it("explains how to configure a model without exposing keys to the browser", () => {
    const help = modelConfigHelp();
    for (const name of [
      "ANTHROPIC_API_KEY",
      "OPENAI_API_KEY",
      "GOOGLE_GENERATIVE_AI_API_KEY",
      "OPENAI_COMPATIBLE_BASE_URL",
      "OPENAI_COMPATIBLE_MODELS",
      "STRATA_DEFAULT_MODEL",
      "STRATA_MODELS",
      ".env.local",
    ]) {
      expect(help).toContain(name);
    }
    expect(help).toContain("never sent to the browser");
    expect(help.split("\n").length).toBeGreaterThan(5);
  });
});

describe("resolvePromptModel: the one rule for a session's model", () => {
  const env = { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k", STRATA_DEFAULT_MODEL: "openai/gpt-5" };
  const ref = (m: { provider: string; id: string } | undefined) => (m ? `${m.provider}/${m.id}` : undefined);

  it("takes the named model, and none when it is not available (no fallback)", () => {
    expect(ref(resolvePromptModel("anthropic/claude-sonnet-4-5", null, env))).toBe(
      "anthropic/claude-sonnet-4-5",
    );
    expect(resolvePromptModel("nope/none", { provider: "openai", modelId: "gpt-5" }, env)).toBeUndefined();
  });

  it("else the session's current model when available, else the default", () => {
    const session = { provider: "anthropic", modelId: "claude-sonnet-4-5" };
    expect(ref(resolvePromptModel(undefined, session, env))).toBe("anthropic/claude-sonnet-4-5");
    expect(ref(resolvePromptModel(undefined, { provider: "google", modelId: "gemini-2.5-pro" }, env))).toBe(
      "openai/gpt-5",
    );
    expect(ref(resolvePromptModel(undefined, null, env))).toBe("openai/gpt-5");
    expect(resolvePromptModel(undefined, session, {})).toBeUndefined();
  });
});
