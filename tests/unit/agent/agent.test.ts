/** pi 9.24–9.27 and Strata's abort: the `Agent` class; one run against the mock provider through streamAssistant. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "@/lib/agent/agent";
import type { AgentEvent } from "@/lib/agent/types";
import { ExtensionRunner } from "@/lib/extensions";
import { createInspectorCapture } from "@/lib/extensions/builtin/inspector-capture";
import { type Model, resolveModel } from "@/lib/llm/models";
import { streamAssistant } from "@/lib/llm/stream";
import type { SystemMessage } from "@/lib/llm/types";
import { type MockProvider, startMockProvider } from "@/tests/mock-provider";
import { mockEnv } from "../llm/helpers";
import { label, type ScriptedTurn, scriptedStream, textOf, tool, user } from "./loop-helpers";

const agentWith = (turns: ScriptedTurn[], extra: Partial<ConstructorParameters<typeof Agent>[0]> = {}) => {
  const stream = scriptedStream(turns);
  const agent = new Agent({ stream, initialState: { tools: [tool("slow", { delayMs: 20 })] }, ...extra });
  return { agent, stream };
};

/** A turn's gate: `reached` resolves when the stream waits at it (mid-request), `release` lets it go on. */
function heldTurn() {
  let release!: () => void;
  let arrive!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  const reached = new Promise<void>((r) => {
    arrive = r;
  });
  const gate = () => {
    arrive();
    return held;
  };
  return { gate, reached, release };
}

describe("Agent", () => {
  it("9.24 continue after an assistant message: steering (one), else follow-ups, else pi's error; only system → no messages", async () => {
    const { agent, stream } = agentWith([{ text: "a1" }, { text: "a2" }, { text: "a3" }, { text: "a4" }]);
    await agent.prompt("go");
    agent.steer(user("s1"));
    agent.steer(user("s2"));
    await agent.continue();
    // s1 ran as a prompt without a second steering poll at loop start; s2 came with the poll after the turn
    expect(stream.requests[1].messages.filter((m) => m.role === "user").map(textOf)).toEqual(["go", "s1"]);
    expect(stream.requests[2].messages.filter((m) => m.role === "user").map(textOf)).toEqual([
      "go",
      "s1",
      "s2",
    ]);
    agent.followUp(user("f1"));
    await agent.continue();
    expect(stream.requests[3].messages.filter((m) => m.role === "user").map(textOf)).toEqual([
      "go",
      "s1",
      "s2",
      "f1",
    ]);
    await expect(agent.continue()).rejects.toThrow("Cannot continue from message role: assistant");
    const empty = new Agent({ stream, initialState: { systemPrompt: "You are X." } });
    await expect(empty.continue()).rejects.toThrow("No messages to continue from");
  });

  it("9.25 prompt while running throws pi's text", async () => {
    const { gate, reached, release } = heldTurn();
    const { agent } = agentWith([{ text: "a", gate }]);
    const first = agent.prompt("go");
    await reached;
    await expect(agent.prompt("again")).rejects.toThrow(
      "Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.",
    );
    await expect(agent.continue()).rejects.toThrow(
      "Agent is already processing. Wait for completion before continuing.",
    );
    release();
    await first;
  });

  it("9.26 a thrown error becomes an error assistant message with message_start/end, turn_end, agent_end", async () => {
    const agent = new Agent({
      stream: scriptedStream([{ text: "x" }]),
      transformContext: () => {
        throw new Error("transform failed");
      },
    });
    const events: AgentEvent[] = [];
    agent.subscribe((e) => {
      events.push(e);
    });
    await agent.prompt("go");
    expect(events.map(label).slice(-4)).toEqual([
      "message_start(assistant)",
      "message_end(assistant)",
      "turn_end",
      "agent_end",
    ]);
    expect(agent.state.messages.at(-1)).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "" }],
      stopReason: "error",
      errorMessage: "transform failed",
    });
    expect(agent.state.error).toBe("transform failed");
    expect(agent.state.isStreaming).toBe(false);
  });

  it("9.27 reset keeps only the replayed system message and clears the queues", async () => {
    const { agent } = agentWith([{ text: "a" }], {
      initialState: { systemPrompt: "You are X.", tools: [tool("slow")] },
    });
    await agent.prompt("go");
    agent.followUp(user("later"));
    agent.reset();
    expect(agent.state.messages).toHaveLength(1);
    const head = agent.state.messages[0] as SystemMessage;
    expect(head).toMatchObject({ role: "system", content: "You are X.", toolsAdded: [{ name: "slow" }] });
    expect(agent.state.systemPrompt).toBe("You are X.");
    expect(agent.hasQueuedMessages()).toBe(false);
  });

  it("abort returns the queued-but-undelivered messages (Strata) and the run ends aborted", async () => {
    const { gate, reached, release } = heldTurn();
    const { agent } = agentWith([{ text: "a", gate }]);
    const run = agent.prompt("go");
    await reached;
    agent.steer(user("s1"));
    agent.followUp(user("f1"));
    const { undelivered } = agent.abort();
    release();
    await run;
    expect(undelivered.map(textOf)).toEqual(["s1", "f1"]);
    expect(agent.hasQueuedMessages()).toBe(false);
    expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
  });

  it("6.10 queue mode all drains every steering message at once", async () => {
    const { agent, stream } = agentWith([{ text: "a1" }, { text: "a2" }], { steeringMode: "all" });
    await agent.prompt("go");
    agent.steer(user("s1"));
    agent.steer(user("s2"));
    await agent.continue();
    expect(stream.requests[1].messages.filter((m) => m.role === "user").map(textOf)).toEqual([
      "go",
      "s1",
      "s2",
    ]);
  });

  it("subscribe: listeners see events after the state update, in order; context snapshots are copies", async () => {
    const { agent } = agentWith([{ text: "a" }]);
    const counts: number[] = [];
    const off = agent.subscribe((e) => {
      if (e.type === "message_end") counts.push(agent.state.messages.length);
    });
    await agent.prompt("go");
    off();
    expect(counts).toEqual([2, 3]); // initial system message with the tools, then user, assistant
    const snapshot = agent.createContextSnapshot();
    snapshot.messages.pop();
    expect(agent.state.messages).toHaveLength(3);
  });

  it("9.2 createInitialSystemMessage: prompt and tools on one leading system message; no declaration-only message is emitted or sent", async () => {
    const { agent, stream } = agentWith([{ text: "a" }], {
      initialState: { systemPrompt: "You are X.", tools: [tool("slow")] },
    });
    const slow = {
      name: "slow",
      description: "slow tool",
      parameters: {
        type: "object",
        properties: { value: { type: "string" } },
        required: ["value"],
        additionalProperties: false,
      },
    };
    expect(agent.state.messages).toEqual([
      { role: "system", content: "You are X.", toolsAdded: [slow], timestamp: 0 },
    ]);
    const events: string[] = [];
    agent.subscribe((e) => {
      if (e.type === "message_end") events.push(label(e));
    });
    await agent.prompt("go");
    expect(events).toEqual(["message_end(user)", "message_end(assistant)"]);
    expect(stream.requests[0].messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(stream.requests[0].messages[0]).toEqual({
      role: "system",
      content: "You are X.",
      toolsAdded: [slow],
      timestamp: 0,
    });
    // Tools alone still make the head (content ""); a transcript that starts with a system message keeps its own.
    expect(new Agent({ stream, initialState: { tools: [tool("slow")] } }).state.messages).toEqual([
      { role: "system", content: "", toolsAdded: [slow], timestamp: 0 },
    ]);
    const own = { role: "system" as const, content: "Own.", timestamp: 5 };
    expect(
      new Agent({
        stream,
        initialState: { systemPrompt: "You are X.", tools: [tool("slow")], messages: [own] },
      }).state.messages,
    ).toEqual([own]);
    expect(new Agent({ stream, initialState: { systemPrompt: "" } }).state.messages).toEqual([]);
  });
});

describe("Agent with streamAssistant against the mock provider", () => {
  let mock: MockProvider;
  let model: Model;
  beforeAll(async () => {
    mock = await startMockProvider();
    model = resolveModel("anthropic/claude-sonnet-4-5", mockEnv(mock))!;
  });
  afterAll(async () => {
    await mock.close();
  });

  it("9.1/10.10 a tool round through the real provider path; the inspector records the final payload", async () => {
    mock.enqueue({ toolCalls: [{ id: "toolu_01", name: "slow", input: { value: "a" } }] }, { text: "Done." });
    const runner = new ExtensionRunner();
    const capture = createInspectorCapture();
    await runner.registerExtension({
      path: "test:rewrite",
      setup(api) {
        api.on("before_provider_request", (event) => ({
          ...(event.payload as object),
          metadata: { user_id: "u1" },
        }));
      },
    });
    await runner.registerExtension(capture.extension);
    const agent = new Agent({
      stream: (context, signal, options) =>
        streamAssistant(options?.model ?? model, context, {
          env: mockEnv(mock),
          signal,
          onPayload: runner.createOnPayload(),
        }),
      initialState: { systemPrompt: "You are X.", model, tools: [tool("slow")] },
    });
    const events: string[] = [];
    agent.subscribe((e) => {
      if (e.type !== "message_update") events.push(label(e));
    });
    await agent.prompt("go");
    expect(events).toEqual([
      "agent_start",
      "turn_start",
      "message_start(user)",
      "message_end(user)",
      "message_start(assistant)",
      "message_end(assistant)",
      "tool_execution_start(toolu_01)",
      "tool_execution_end(toolu_01)",
      "message_start(toolResult)",
      "message_end(toolResult)",
      "turn_end",
      "turn_start",
      "message_start(assistant)",
      "message_end(assistant)",
      "turn_end",
      "agent_end",
    ]);
    expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", thinkingLevel: "off" });
    const bodies = mock.requests.map(
      (r) => r.body as { system?: unknown; metadata?: unknown; tools?: unknown[] },
    );
    expect(bodies[0].metadata).toEqual({ user_id: "u1" });
    expect(JSON.stringify(bodies[0].system)).toContain("You are X.");
    expect(bodies[0].tools).toHaveLength(1);
    expect(capture.captures.map((c) => c.payload)).toEqual(bodies);
  });
});
