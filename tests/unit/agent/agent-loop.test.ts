/** pi 9.1–9.23: the agent loop with a scripted StreamFn (exact event timing). */
import { describe, expect, it } from "vitest";
import { toolDeclaration } from "@/lib/agent/declare-tools";
import { agentLoopContinue, runAgentLoop } from "@/lib/agent/loop";
import type { AgentMessage } from "@/lib/agent/messages";
import { lengthTruncatedToolCallText } from "@/lib/agent/tool-execution";
import type { AgentEvent, AgentLoopConfig } from "@/lib/agent/types";
import type { SystemMessage, ToolResultMessage } from "@/lib/llm/types";
import { label, type ScriptedTurn, scriptedStream, textOf, tool, user } from "./loop-helpers";

const twoCalls: ScriptedTurn = {
  toolCalls: [
    { id: "tc1", name: "slow", arguments: { value: "a" } },
    { id: "tc2", name: "fast", arguments: { value: "b" } },
  ],
};

async function run(
  turns: ScriptedTurn[],
  config: Partial<AgentLoopConfig> = {},
  context: AgentMessage[] = [],
  prompts: AgentMessage[] = [user("go")],
) {
  const stream = scriptedStream(turns);
  const events: AgentEvent[] = [];
  const added = await runAgentLoop(
    prompts,
    context,
    { tools: [tool("slow", { delayMs: 30 }), tool("fast")], stream, ...config },
    async (e) => {
      events.push(e);
    },
  );
  return { events, labels: events.map(label), added, requests: stream.requests, options: stream.options };
}

const resultTexts = (added: AgentMessage[]) =>
  added
    .filter((m): m is ToolResultMessage => m.role === "toolResult")
    .map((m) => `${m.toolCallId}:${textOf(m)}`);

describe("agent loop", () => {
  it("9.1 event order of a run with one tool round (tc2 ends first, results in call order)", async () => {
    const { labels, added } = await run([twoCalls, { text: "done" }]);
    expect(labels.filter((l) => l !== "message_update(assistant)")).toEqual([
      "agent_start",
      "turn_start",
      "message_start(system)",
      "message_end(system)",
      "message_start(user)",
      "message_end(user)",
      "message_start(assistant)",
      "message_end(assistant)",
      "tool_execution_start(tc1)",
      "tool_execution_start(tc2)",
      "tool_execution_end(tc2)",
      "tool_execution_end(tc1)",
      "message_start(toolResult)",
      "message_end(toolResult)",
      "message_start(toolResult)",
      "message_end(toolResult)",
      "turn_end",
      "turn_start",
      "message_start(assistant)",
      "message_end(assistant)",
      "turn_end",
      "agent_end",
    ]);
    expect(resultTexts(added)).toEqual(["tc1:slow ok", "tc2:fast ok"]);
  });

  it("9.2 the request has no systemPrompt field of its own: the prompt is a leading system message", async () => {
    const system: SystemMessage = { role: "system", content: "You are X.", timestamp: 0 };
    const { requests } = await run([{ text: "hi" }], {}, [system]);
    expect(requests[0].systemPrompt).toBe("");
    expect(requests[0].messages[0]).toEqual(system);
  });

  it("9.3 tool declarations: inserted before the first non-system prompt, merged into a pending system patch, re-declared on change", async () => {
    const slow = tool("slow");
    const first = await run([{ text: "hi" }], { tools: [slow] });
    expect(first.added[0]).toMatchObject({
      role: "system",
      content: "",
      toolsAdded: [toolDeclaration(slow)],
    });
    expect(first.added[0]).not.toHaveProperty("toolsRemoved");

    const patch: SystemMessage = { role: "system", content: "", sections: { a: "A" }, timestamp: 5 };
    const merged = await run([{ text: "hi" }], { tools: [slow] }, [], [patch, user("go")]);
    expect(merged.added.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(merged.added[0]).toEqual({ ...patch, toolsAdded: [toolDeclaration(slow)], timestamp: 5 });

    const changed = { ...slow, description: "new" };
    const again = await run([{ text: "hi" }], { tools: [changed, tool("fast")] }, first.added);
    expect(again.added[0]).toMatchObject({
      role: "system",
      toolsAdded: [toolDeclaration(changed), toolDeclaration(tool("fast"))],
      toolsRemoved: [{ name: "slow" }],
    });
    const none = await run([{ text: "hi" }], { tools: [slow] }, first.added);
    expect(none.added.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("9.4 streaming: start → message_start (copy), deltas → message_update, final → message_end; no start → both with the final", async () => {
    const { events } = await run([{ text: "hey" }], { tools: [] });
    const assistantEvents = events.filter(
      (e) => "message" in e && e.message.role === "assistant" && e.type !== "turn_end",
    );
    expect(
      assistantEvents.map((e) => (e.type === "message_update" ? e.assistantMessageEvent.type : e.type)),
    ).toEqual(["message_start", "text_start", "text_delta", "text_end", "message_end"]);
    const noStart = await run([{ text: "x", noStart: true }], { tools: [] });
    expect(noStart.labels.slice(-5)).toEqual([
      "message_end(user)",
      "message_start(assistant)",
      "message_end(assistant)",
      "turn_end",
      "agent_end",
    ]);
  });

  it("9.5 the assistant message is stamped with the requested thinking level (off when none)", async () => {
    const high = await run([{ text: "a" }], { tools: [], thinkingLevel: "high" });
    expect(high.added.at(-1)).toMatchObject({ role: "assistant", thinkingLevel: "high" });
    expect(high.options[0]).toEqual({ model: undefined, thinkingLevel: "high" });
    const off = await run([{ text: "a" }], { tools: [], thinkingLevel: undefined });
    expect(off.added.at(-1)).toMatchObject({ thinkingLevel: "off" });
  });

  it("9.6 error / aborted stop: finishTurn, turn_end without tool results, agent_end", async () => {
    const seen: string[] = [];
    const { labels, events } = await run(
      [{ stopReason: "error", errorMessage: "529 Overloaded", text: "" }],
      {
        tools: [],
        finishTurn: () => {
          seen.push("finishTurn");
          return { action: "continue" };
        },
      },
    );
    expect(seen).toEqual(["finishTurn"]);
    expect(labels.slice(-3)).toEqual(["message_end(assistant)", "turn_end", "agent_end"]);
    expect(events.find((e) => e.type === "turn_end")).toMatchObject({ toolResults: [] });
  });

  it("9.7 a length-truncated message runs no tool and the loop continues", async () => {
    let executed = 0;
    const counted = tool("slow", {
      execute: async () => {
        executed++;
        return { content: [] };
      },
    });
    const { added } = await run(
      [
        { toolCalls: [{ id: "tc1", name: "slow", arguments: { value: "a" } }], stopReason: "length" },
        { text: "ok" },
      ],
      { tools: [counted] },
    );
    expect(executed).toBe(0);
    expect(resultTexts(added)).toEqual([
      'tc1:Tool call "slow" was not executed: the response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.',
    ]);
    expect(lengthTruncatedToolCallText("slow")).toBe(resultTexts(added)[0].slice(4));
    expect(added.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
  });

  it("9.8 parallel: executions overlap, tool_execution_end in completion order, results in call order", async () => {
    const order: string[] = [];
    // "slow" ends only after "fast" has ended: run one after the other, they would never end (the test's timeout).
    let fastEnded!: () => void;
    const afterFast = new Promise<void>((r) => {
      fastEnded = r;
    });
    const mk = (name: string, waitFor: () => Promise<void>, ended: () => void) =>
      tool(name, {
        execute: async () => {
          order.push(`start:${name}`);
          await waitFor();
          order.push(`end:${name}`);
          ended();
          return { content: [{ type: "text", text: name }] };
        },
      });
    const { events, added } = await run([twoCalls, { text: "done" }], {
      tools: [
        mk(
          "slow",
          () => afterFast,
          () => {},
        ),
        mk("fast", () => new Promise((r) => setImmediate(r)), fastEnded),
      ],
    });
    expect(order).toEqual(["start:slow", "start:fast", "end:fast", "end:slow"]);
    expect(events.filter((e) => e.type === "tool_execution_end").map(label)).toEqual([
      "tool_execution_end(tc2)",
      "tool_execution_end(tc1)",
    ]);
    expect(resultTexts(added)).toEqual(["tc1:slow", "tc2:fast"]);
  });

  it("9.9 sequential mode (config or one sequential tool): each call ends and emits its result before the next", async () => {
    const expected = [
      "tool_execution_start(tc1)",
      "tool_execution_end(tc1)",
      "message_start(toolResult)",
      "message_end(toolResult)",
      "tool_execution_start(tc2)",
      "tool_execution_end(tc2)",
      "message_start(toolResult)",
      "message_end(toolResult)",
    ];
    const pick = (labels: string[]) =>
      labels.filter((l) => l.startsWith("tool_") || l.includes("toolResult"));
    const a = await run([twoCalls, { text: "done" }], { toolExecution: "sequential" });
    expect(pick(a.labels)).toEqual(expected);
    const b = await run([twoCalls, { text: "done" }], {
      tools: [tool("slow", { delayMs: 30 }), tool("fast", { executionMode: "sequential" })],
    });
    expect(pick(b.labels)).toEqual(expected);
  });

  it("9.10 tool error texts: not found, blocked, thrown, validation, aborted", async () => {
    const throwing = tool("boom", {
      execute: async () => {
        throw new Error("disk full");
      },
    });
    const { added } = await run(
      [
        {
          toolCalls: [
            { id: "t1", name: "nope", arguments: {} },
            { id: "t2", name: "slow", arguments: { value: "x" } },
            { id: "t3", name: "boom", arguments: { value: "x" } },
            { id: "t4", name: "fast", arguments: { value: 3 } },
          ],
        },
        { text: "done" },
      ],
      {
        tools: [tool("slow"), tool("fast"), throwing],
        beforeToolCall: ({ toolCall }) => (toolCall.name === "slow" ? { block: true } : undefined),
      },
    );
    const results = added.filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results.map((r) => textOf(r))).toEqual([
      "Tool nope not found",
      "Tool execution was blocked",
      "disk full",
      'Validation failed for tool "fast":\n  - value: Invalid input: expected string, received number\n\nReceived arguments:\n{\n  "value": 3\n}',
    ]);
    expect(results.every((r) => r.isError)).toBe(true);
    expect(results[0]).toMatchObject({
      content: [{ type: "text", text: "Tool nope not found" }],
      details: {},
    });

    const controller = new AbortController();
    const stream = scriptedStream([{ toolCalls: [{ id: "t1", name: "slow", arguments: { value: "x" } }] }]);
    const aborted = await runAgentLoop(
      [user("go")],
      [],
      {
        tools: [tool("slow")],
        stream,
        beforeToolCall: () => {
          controller.abort();
          return undefined;
        },
      },
      async () => {},
      controller.signal,
    );
    expect(aborted.filter((m) => m.role === "toolResult").map(textOf)).toEqual(["Operation aborted"]);
  });

  it("9.11 arguments mutated by beforeToolCall are executed without re-validation; a block reason is the text", async () => {
    let got: unknown;
    const echo = tool("slow", {
      execute: async (_id, params) => {
        got = params;
        return { content: [] };
      },
    });
    const { added } = await run(
      [
        {
          toolCalls: [
            { id: "t1", name: "slow", arguments: { value: "a" } },
            { id: "t2", name: "fast", arguments: { value: "b" } },
          ],
        },
        { text: "done" },
      ],
      {
        tools: [echo, tool("fast")],
        beforeToolCall: ({ args, toolCall }) => {
          if (toolCall.name === "fast") return { block: true, reason: "not now" };
          (args as Record<string, unknown>).value = 42;
          return undefined;
        },
      },
    );
    expect(got).toEqual({ value: 42 });
    expect(resultTexts(added)).toEqual(["t1:", "t2:not now"]);
  });

  it("9.12 afterToolCall overrides field by field; a throw turns the result into an error", async () => {
    const { added } = await run(
      [
        {
          toolCalls: [
            { id: "t1", name: "slow", arguments: { value: "a" } },
            { id: "t2", name: "fast", arguments: { value: "b" } },
          ],
        },
        { text: "done" },
      ],
      {
        tools: [tool("slow"), tool("fast")],
        afterToolCall: ({ toolCall }) => {
          if (toolCall.name === "fast") throw new Error("after failed");
          return { isError: true, details: { replaced: true } };
        },
      },
    );
    const results = added.filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results[0]).toMatchObject({
      content: [{ type: "text", text: "slow ok" }],
      details: { replaced: true },
      isError: true,
    });
    expect(results[1]).toMatchObject({
      content: [{ type: "text", text: "after failed" }],
      details: {},
      isError: true,
    });
  });

  it("9.13 terminate only when every result of the batch sets it", async () => {
    const term = (name: string) =>
      tool(name, { execute: async () => ({ content: [], terminate: true }) as never });
    const all = await run([twoCalls, { text: "never" }], { tools: [term("slow"), term("fast")] });
    expect(all.requests).toHaveLength(1);
    expect(all.labels.slice(-2)).toEqual(["turn_end", "agent_end"]);
    const mixed = await run([twoCalls, { text: "next" }], {
      tools: [term("slow"), term("fast")],
      beforeToolCall: ({ toolCall }) => (toolCall.name === "fast" ? { block: true } : undefined),
    });
    expect(mixed.requests).toHaveLength(2);
  });

  it("9.14 steering is injected after all tool results, before the next request", async () => {
    const queue: AgentMessage[] = [];
    let polls = 0;
    const { requests } = await run([twoCalls, { text: "done" }], {
      tools: [
        tool("slow", {
          execute: async () => {
            queue.push(user("steer"));
            await new Promise((r) => setTimeout(r, 5));
            return { content: [{ type: "text", text: "s" }] };
          },
        }),
        tool("fast"),
      ],
      getSteeringMessages: () => {
        polls++;
        return queue.splice(0);
      },
    });
    expect(requests[1].messages.map((m) => `${m.role}:${textOf(m)}`).slice(-4)).toEqual([
      "assistant:",
      "toolResult:s",
      "toolResult:fast ok",
      "user:steer",
    ]);
    expect(polls).toBeGreaterThanOrEqual(2);
  });

  it("9.15 one-at-a-time steering: one message per turn; follow-up last", async () => {
    const steering = [user("steer-1"), user("steer-2")];
    const followUps = [user("follow-1")];
    let delivered = false;
    const { requests } = await run(
      [
        { toolCalls: [{ id: "t1", name: "slow", arguments: { value: "a" } }] },
        { text: "a1" },
        { text: "a2" },
        { text: "a3" },
      ],
      {
        getSteeringMessages: () => (delivered ? steering.splice(0, 1) : []),
        getFollowUpMessages: () => followUps.splice(0, 1),
        afterToolResults: async () => {
          delivered = true;
        },
      },
    );
    const tail = (i: number) =>
      requests[i].messages
        .filter((m) => m.role !== "system")
        .slice(-2)
        .map((m) => `${m.role}:${textOf(m)}`);
    expect(requests).toHaveLength(4);
    expect(tail(0)).toEqual(["user:go"]);
    expect(tail(1)).toEqual(["toolResult:slow ok", "user:steer-1"]);
    expect(tail(2)).toEqual(["assistant:a1", "user:steer-2"]);
    expect(tail(3)).toEqual(["assistant:a2", "user:follow-1"]);
  });

  it("9.16 follow-ups are taken only when the loop would stop", async () => {
    const calls: string[] = [];
    const followUps = [user("later")];
    const { requests } = await run([twoCalls, { text: "a" }, { text: "b" }], {
      getSteeringMessages: () => {
        calls.push("steer");
        return [];
      },
      getFollowUpMessages: () => {
        calls.push("follow");
        return followUps.splice(0);
      },
    });
    expect(requests).toHaveLength(3);
    // start, after turn 1, before turn 2 (nothing pending), after turn 2, follow-ups, after turn 3, follow-ups
    expect(calls).toEqual(["steer", "steer", "steer", "steer", "follow", "steer", "follow"]);
  });

  it("9.17 steering polled at loop start joins the first turn; after prepareNextTurn only when nothing is pending", async () => {
    const polls: string[] = [];
    const early = [user("typed while waiting")];
    const { requests } = await run([twoCalls, { text: "done" }], {
      getSteeringMessages: () => {
        polls.push("poll");
        return early.splice(0);
      },
      prepareNextTurn: () => {
        polls.push("prepareNextTurn");
        return undefined;
      },
    });
    expect(requests[0].messages.slice(-2).map(textOf)).toEqual(["go", "typed while waiting"]);
    expect(polls).toEqual(["poll", "poll", "prepareNextTurn", "poll", "poll"]);
  });

  it("9.18 prepareNextTurn replaces thinking level and adds messages before pending steering", async () => {
    const { labels, added, options } = await run([twoCalls, { text: "done" }], {
      thinkingLevel: "high",
      getSteeringMessages: (() => {
        let n = 0;
        return () => (n++ === 1 ? [user("steer")] : []);
      })(),
      prepareNextTurn: () => ({ thinkingLevel: "off", messages: [user("prepared")] }),
    });
    expect(options.map((o) => (o as { thinkingLevel?: string }).thinkingLevel)).toEqual(["high", undefined]);
    expect(added.at(-1)).toMatchObject({ thinkingLevel: "off" });
    expect(added.slice(-3, -1).map(textOf)).toEqual(["prepared", "steer"]);
    expect(labels.indexOf("turn_start", 2)).toBeLessThan(labels.lastIndexOf("message_start(user)"));
  });

  it("9.19 prepareRequest runs before every request after pending messages were appended and may replace the context", async () => {
    const seen: string[] = [];
    const { requests } = await run([twoCalls, { text: "done" }], {
      prepareRequest: ({ context }) => {
        seen.push(context.messages.at(-1)?.role ?? "");
        return { context: { ...context, messages: [...context.messages, user("injected")] } };
      },
    });
    expect(seen).toEqual(["user", "toolResult"]);
    expect(textOf(requests[0].messages.at(-1)!)).toBe("injected");
    expect(requests[1].messages.filter((m) => textOf(m) === "injected")).toHaveLength(2);
  });

  it("9.20 finishTurn: end stops after turn_end; continue guarantees one more request", async () => {
    const ended = await run([twoCalls, { text: "never" }], { finishTurn: () => ({ action: "end" }) });
    expect(ended.requests).toHaveLength(1);
    expect(ended.labels.slice(-3)).toEqual(["message_end(toolResult)", "turn_end", "agent_end"]);
    let n = 0;
    const continued = await run([{ text: "a" }, { text: "b" }], {
      tools: [],
      finishTurn: () => (n++ === 0 ? { action: "continue" } : undefined),
    });
    expect(continued.requests).toHaveLength(2);
    expect(continued.labels.filter((l) => l === "turn_start")).toHaveLength(2);
  });

  it("9.21 transformContext runs before convertToLlm on every request", async () => {
    const order: string[] = [];
    const { requests } = await run([{ text: "a" }], {
      tools: [],
      transformContext: (messages) => {
        order.push("transform");
        return [...messages, user("extra")];
      },
      convertToLlm: (messages) => {
        order.push(`convert:${messages.length}`);
        return messages.filter((m) => m.role !== "system") as never;
      },
    });
    expect(order).toEqual(["transform", "convert:2"]);
    expect(requests[0].messages.map(textOf)).toEqual(["go", "extra"]);
  });

  it("9.22 the default convertToLlm keeps only provider roles", async () => {
    const { requests } = await run([{ text: "a" }], { tools: [] }, [
      { role: "custom", customType: "x", content: "c", display: true, timestamp: 1 },
      { role: "bashExecution", command: "ls", output: "", cancelled: false, truncated: false, timestamp: 1 },
    ]);
    expect(requests[0].messages.map((m) => m.role)).toEqual(["user"]);
  });

  it("9.23 agentLoopContinue errors and no events for existing messages", async () => {
    const config = { tools: [], stream: scriptedStream([{ text: "again" }]) };
    await expect(agentLoopContinue([], config, async () => {})).rejects.toThrow(
      "Cannot continue: no messages in context",
    );
    const last = (await run([{ text: "a" }], { tools: [] })).added.at(-1)!;
    await expect(agentLoopContinue([last], config, async () => {})).rejects.toThrow(
      "Cannot continue from message role: assistant",
    );
    const events: AgentEvent[] = [];
    const added = await agentLoopContinue([user("retry")], config, async (e) => {
      events.push(e);
    });
    expect(events.map(label).filter((l) => l !== "message_update(assistant)")).toEqual([
      "agent_start",
      "turn_start",
      "message_start(assistant)",
      "message_end(assistant)",
      "turn_end",
      "agent_end",
    ]);
    expect(added.map(textOf)).toEqual(["again"]);
  });
});
