/**
 * pi's compat detection (`detectCompat`, lib/llm/model-compat.ts): the flags a Chat Completions model gets from its
 * provider's base URL, under the model's own `compat` (STRATA_MODELS), which wins flag by flag.
 */
import { describe, expect, it } from "vitest";
import { detectCompat, getAvailableModels, type Model, resolveModel } from "@/lib/llm/models";
import type { Message } from "@/lib/llm/types";
import { captureRequestBody } from "@/tests/property/request-body";

const chat = (id = "m") => ({ id, api: "openai-completions" as const });
const NON_STANDARD = {
  supportsStore: false,
  supportsDeveloperRole: false,
  maxTokensField: "max_tokens",
};

describe("detectCompat", () => {
  it("DeepSeek and Moonshot hosts: pi's non-standard flags and reasoning_content on assistant messages", () => {
    const replay = { ...NON_STANDARD, requiresReasoningContentOnAssistantMessages: true };
    expect(detectCompat(chat(), "https://api.deepseek.com/v1")).toEqual(replay);
    expect(detectCompat(chat(), "https://API.DeepSeek.com")).toEqual(replay);
    expect(detectCompat(chat("kimi-k2-thinking"), "https://api.moonshot.ai/v1")).toEqual(replay);
    expect(detectCompat(chat(), "https://api.moonshot.cn/v1")).toEqual(replay);
  });

  it("other hosts pi knows: store, role and output cap field as pi's detectCompat", () => {
    expect(detectCompat(chat(), "https://api.together.xyz/v1")).toEqual(NON_STANDARD);
    expect(detectCompat(chat(), "https://open.bigmodel.cn/api/paas/v4")).toEqual(NON_STANDARD);
    expect(detectCompat(chat(), "https://api.x.ai/v1")).toEqual({
      supportsStore: false,
      supportsDeveloperRole: false,
      maxTokensField: "max_completion_tokens",
    });
    expect(detectCompat(chat("meta-llama/llama-4"), "https://openrouter.ai/api/v1")).toEqual({
      supportsStore: true,
      supportsDeveloperRole: false,
      maxTokensField: "max_completion_tokens",
    });
    expect(detectCompat(chat("openai/gpt-5"), "https://openrouter.ai/api/v1")).toEqual({
      supportsStore: true,
      supportsDeveloperRole: true,
      maxTokensField: "max_completion_tokens",
    });
  });

  it("nothing for other hosts, another API, a host that only names one in its path, or no URL", () => {
    expect(detectCompat(chat(), "http://localhost:11434/v1")).toEqual({});
    expect(detectCompat(chat(), "https://deepseek.com.example.net/v1")).toEqual({});
    expect(detectCompat(chat(), "http://proxy.local/api.deepseek.com/v1")).toEqual({});
    expect(detectCompat({ id: "m", api: "openai-responses" }, "https://api.deepseek.com/v1")).toEqual({});
    expect(detectCompat(chat(), "not a url")).toEqual({});
    expect(detectCompat(chat(), undefined)).toEqual({});
  });
});

describe("getAvailableModels: detected flags under the model's own", () => {
  const deepseekEnv = {
    OPENAI_COMPATIBLE_BASE_URL: "https://api.deepseek.com/v1",
    OPENAI_COMPATIBLE_MODELS: "deepseek-reasoner",
  };

  it("an OpenAI-compatible model at DeepSeek gets them without STRATA_MODELS", () => {
    expect(resolveModel("openai-compatible/deepseek-reasoner", deepseekEnv)?.compat).toEqual({
      supportsStore: false,
      supportsDeveloperRole: false,
      maxTokensField: "max_tokens",
      requiresReasoningContentOnAssistantMessages: true,
    });
  });

  it("an explicit flag in STRATA_MODELS wins, the other detected flags stay", () => {
    const env = {
      ...deepseekEnv,
      STRATA_MODELS: JSON.stringify([
        {
          provider: "openai-compatible",
          id: "deepseek-reasoner",
          compat: {
            requiresReasoningContentOnAssistantMessages: false,
            maxTokensField: "max_completion_tokens",
          },
        },
      ]),
    };
    expect(resolveModel("openai-compatible/deepseek-reasoner", env)?.compat).toEqual({
      supportsStore: false,
      supportsDeveloperRole: false,
      maxTokensField: "max_completion_tokens",
      requiresReasoningContentOnAssistantMessages: false,
    });
  });

  it("OpenAI's provider at a DeepSeek base URL: only its Chat Completions models; a local server: none", () => {
    const env = {
      OPENAI_API_KEY: "k",
      OPENAI_BASE_URL: "https://api.deepseek.com/v1",
      STRATA_MODELS: JSON.stringify([{ provider: "openai", id: "gpt-4.1", api: "openai-completions" }]),
    };
    expect(resolveModel("openai/gpt-4.1", env)?.compat?.requiresReasoningContentOnAssistantMessages).toBe(
      true,
    );
    expect(resolveModel("openai/gpt-5", env)?.compat).toBeUndefined();
    const local = {
      OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1",
      OPENAI_COMPATIBLE_MODELS: "qwen3",
    };
    expect(getAvailableModels(local)[0]?.compat).toBeUndefined();
  });

  it("the detected flags shape OpenAI's Chat Completions body: no store, system role, max_tokens", async () => {
    const env = {
      OPENAI_API_KEY: "k",
      OPENAI_BASE_URL: "https://api.deepseek.com/v1",
      STRATA_MODELS: JSON.stringify([{ provider: "openai", id: "gpt-5-mini", api: "openai-completions" }]),
    };
    const target = resolveModel("openai/gpt-5-mini", env) as Model;
    const messages: Message[] = [{ role: "user", content: "hi", timestamp: 1 }];
    const capture = await captureRequestBody(target, { systemPrompt: "S", messages, tools: [] }, "medium");
    expect("body" in capture && capture.body).toEqual({
      model: "gpt-5-mini",
      max_tokens: 128_000,
      reasoning_effort: "medium",
      messages: [
        { role: "system", content: "S" },
        { role: "user", content: "hi" },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});
