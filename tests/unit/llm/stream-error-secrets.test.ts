/**
 * A failed model call's `errorMessage` (stored in the session, shown in every member's chat) never carries the
 * server's secrets: a base URL's user info and query string, a key of the environment. The fetch error for a base
 * URL with credentials quoted the whole URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveModel } from "@/lib/llm/models";
import { streamAssistant } from "@/lib/llm/stream";
import { type MockProvider, startMockProvider } from "@/tests/mock-provider";
import { collect, user } from "./helpers";

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
});

describe("streamAssistant: secrets in a failure's errorMessage", () => {
  it("masks a base URL's credentials and query", async () => {
    const host = mock.url.replace(/^http:\/\//, "");
    const env = {
      OPENAI_COMPATIBLE_BASE_URL: `http://op:pw-secret-99@${host}/v1?api-version=qs-secret-777`,
      OPENAI_COMPATIBLE_API_KEY: "compat-plain-key-4242",
      OPENAI_COMPATIBLE_MODELS: "m1",
    };
    const model = resolveModel("openai-compatible/m1", env)!;
    const events = await collect(
      streamAssistant(model, { systemPrompt: "S", messages: [user("hi")], tools: [] }, { env }),
    );
    const last = events.at(-1)!;
    expect(last.type).toBe("error");
    const message = last.type === "error" ? last.error.errorMessage : "";
    expect(message).toBe(
      `Request cannot be constructed from a URL that includes credentials: http://[redacted]@${host}/v1?[redacted]/chat/completions`,
    );
  });
});
