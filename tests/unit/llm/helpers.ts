/** Shared helpers of the lib/llm tests: a mock-provider environment and event collection. */
import type { AssistantMessageEvent } from "@/lib/llm/events";
import type { Env } from "@/lib/llm/models";
import type { UserMessage } from "@/lib/llm/types";
import type { MockProvider } from "@/tests/mock-provider";

/** Server environment pointing Anthropic and OpenAI at the mock provider. */
export function mockEnv(mock: MockProvider): Env {
  return {
    ANTHROPIC_API_KEY: "test-anthropic",
    ANTHROPIC_BASE_URL: `${mock.url}/v1`,
    OPENAI_API_KEY: "test-openai",
    OPENAI_BASE_URL: `${mock.url}/v1`,
  };
}

/** All events of a stream, in order. */
export async function collect(
  stream: AsyncIterable<AssistantMessageEvent>,
): Promise<AssistantMessageEvent[]> {
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** Events without the live `partial` (which is the final message by the time a test looks at it). */
export function shape(events: AssistantMessageEvent[]): Record<string, unknown>[] {
  return events.map((event) => {
    const { partial: _p, message: _m, error: _e, ...rest } = event as Record<string, unknown>;
    return rest;
  });
}

export const user = (text: string, timestamp = 1): UserMessage => ({
  role: "user",
  content: text,
  timestamp,
});
