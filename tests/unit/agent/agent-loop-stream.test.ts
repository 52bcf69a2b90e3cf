import { describe, expect, it } from "vitest";
import { agentLoop, agentLoopContinueStream } from "@/lib/agent/agent-loop";
import type { AssistantStreamEvent, StreamFn } from "@/lib/agent/types";
import { type AssistantMessage, emptyUsage } from "@/lib/llm/types";

const answer = (text: string): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "m",
  usage: emptyUsage(),
  stopReason: "stop",
  timestamp: 2,
});

const stream: StreamFn = async function* (): AsyncGenerator<AssistantStreamEvent> {
  const message = answer("hi");
  yield { type: "start", partial: message };
  yield { type: "done", reason: "stop", message };
};

describe("agentLoop (pull form)", () => {
  it("yields pi's event order and resolves result() with the added messages", async () => {
    const prompt = { role: "user" as const, content: "hello", timestamp: 1 };
    const run = agentLoop([prompt], { messages: [], tools: [] }, { stream });
    const types: string[] = [];
    for await (const event of run) types.push(event.type);
    expect(types).toEqual([
      "agent_start",
      "turn_start",
      "message_start",
      "message_end",
      "message_start",
      "message_end",
      "turn_end",
      "agent_end",
    ]);
    const added = await run.result();
    expect(added.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(added[1]).toMatchObject({ content: [{ type: "text", text: "hi" }], stopReason: "stop" });
  });

  it("agentLoopContinueStream rejects after an assistant message with pi's text and yields nothing", async () => {
    const run = agentLoopContinueStream({ messages: [answer("done")], tools: [] }, { stream });
    const events: unknown[] = [];
    for await (const event of run) events.push(event);
    expect(events).toEqual([]);
    await expect(run.result()).rejects.toThrow("Cannot continue from message role: assistant");
  });
});
