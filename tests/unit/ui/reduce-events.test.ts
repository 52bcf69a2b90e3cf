import { describe, expect, it } from "vitest";
import { toAgentEvent } from "@/components/chat/events";
import { parsePartialJsonObject } from "@/components/chat/partial-json";
import {
  type ChatAction,
  type ChatState,
  changedPathsOf,
  initialChatState,
  reduceChat,
  toProjectPath,
} from "@/components/chat/reduce-events";
import type { AgentMessage } from "@/lib/agent/messages";
import { type AssistantMessage, emptyUsage, type ToolResultMessage, type UserMessage } from "@/lib/llm/types";

const run = (actions: ChatAction[], start: ChatState = initialChatState()) =>
  actions.reduce(reduceChat, start);

function assistant(
  content: AssistantMessage["content"],
  extra: Partial<AssistantMessage> = {},
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-test",
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: 2,
    ...extra,
  };
}

const user: UserMessage = { role: "user", content: "list files", timestamp: 1 };

describe("reduceChat", () => {
  it("builds a streamed text reply and replaces it with the final message", () => {
    const final = assistant([{ type: "text", text: "Hello world" }]);
    const states: ChatState[] = [];
    let s = initialChatState();
    const actions: ChatAction[] = [
      { type: "local_prompt", text: "list files", timestamp: 0 },
      { type: "agent_start" },
      { type: "message_start", message: user },
      { type: "message_end", message: user },
      { type: "turn_start" },
      { type: "message_start", message: assistant([]) },
      { type: "message_update", assistantMessageEvent: { type: "text_start", contentIndex: 0 } },
      {
        type: "message_update",
        assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "Hello" },
      },
      {
        type: "message_update",
        assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: " wor" },
      },
      { type: "message_end", message: final },
      { type: "turn_end", message: final, toolResults: [] },
      { type: "agent_end", messages: [user, final] },
    ];
    for (const a of actions) {
      s = reduceChat(s, a);
      states.push(s);
    }
    // The optimistic user message is shown at once, then replaced by the server's copy.
    expect(states[0].messages).toEqual([{ role: "user", content: "list files", timestamp: 0 }]);
    expect(states[0].running).toBe(true);
    expect(states[2].messages).toEqual([user]);
    expect(states[3].messages).toEqual([user]);
    // Text appears as it arrives.
    expect(states[7].messages).toEqual([user, assistant([{ type: "text", text: "Hello" }])]);
    expect(states[8].messages).toEqual([user, assistant([{ type: "text", text: "Hello wor" }])]);
    expect(states[9].messages).toEqual([user, final]);
    expect(s.messages).toEqual([user, final]);
    expect(s.running).toBe(false);
    expect(s.openIndex).toBeNull();
    expect(s.errors).toEqual([]);
  });

  it("streams thinking and tool call arguments, tracks tool runs and pairs results", () => {
    const call = {
      type: "toolCall" as const,
      id: "call_1",
      name: "read",
      arguments: { path: "src/a.ts" },
    };
    const final = assistant([{ type: "thinking", thinking: "Let me look" }, call], { stopReason: "toolUse" });
    const result: ToolResultMessage = {
      role: "toolResult",
      toolCallId: "call_1",
      toolName: "read",
      content: [{ type: "text", text: "export const a = 1;" }],
      isError: false,
      timestamp: 3,
    };
    const u = (e: unknown) => ({ type: "message_update", assistantMessageEvent: e }) as ChatAction;
    const mid = run([
      { type: "message_start", message: user },
      { type: "message_end", message: user },
      { type: "message_start", message: assistant([]) },
      u({ type: "thinking_start", contentIndex: 0 }),
      u({ type: "thinking_delta", contentIndex: 0, delta: "Let me" }),
      u({ type: "thinking_delta", contentIndex: 0, delta: " look" }),
      u({ type: "toolcall_start", contentIndex: 1, id: "call_1", name: "read" }),
      u({ type: "toolcall_delta", contentIndex: 1, delta: '{"path": "src/' }),
    ]);
    expect(mid.messages).toEqual([
      user,
      assistant([
        { type: "thinking", thinking: "Let me look" },
        { type: "toolCall", id: "call_1", name: "read", arguments: { path: "src/" } },
      ]),
    ]);
    const end = run(
      [
        u({ type: "toolcall_delta", contentIndex: 1, delta: 'a.ts"}' }),
        { type: "message_end", message: final },
        { type: "tool_execution_start", toolCallId: "call_1", toolName: "read", args: { path: "src/a.ts" } },
      ],
      mid,
    );
    expect(end.tools).toEqual({
      call_1: { toolName: "read", args: { path: "src/a.ts" }, status: "running" },
    });
    const done = run(
      [
        {
          type: "tool_execution_end",
          toolCallId: "call_1",
          toolName: "read",
          result: { content: result.content },
          isError: false,
        },
        { type: "message_start", message: result },
        { type: "message_end", message: result },
      ],
      end,
    );
    expect(done.messages).toEqual([user, final, result]);
    expect(done.tools.call_1).toEqual({
      toolName: "read",
      args: { path: "src/a.ts" },
      status: "done",
      result: { content: result.content },
    });
  });

  it("ignores deltas with no open assistant message and fills holes in sparse content", () => {
    const s0 = run([
      { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "x" } },
    ]);
    expect(s0.messages).toEqual([]);
    const s1 = run([
      { type: "message_start", message: assistant([]) },
      { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 1, delta: "b" } },
    ]);
    expect(s1.messages).toEqual([
      assistant([
        { type: "text", text: "" },
        { type: "text", text: "b" },
      ]),
    ]);
  });

  it("keeps an aborted final message, records errors and interrupts running tools on close", () => {
    const aborted = assistant([{ type: "text", text: "partial" }], {
      stopReason: "aborted",
      errorMessage: "Request was aborted",
    });
    const s = run([
      { type: "local_prompt", text: "go", timestamp: 5 },
      { type: "message_start", message: { role: "user", content: "go", timestamp: 6 } },
      { type: "message_start", message: assistant([]) },
      { type: "message_end", message: aborted },
      { type: "tool_execution_start", toolCallId: "t", toolName: "bash", args: { command: "sleep 9" } },
      { type: "error", message: "boom" },
      { type: "stream_closed" },
    ]);
    expect(s.messages).toEqual([{ role: "user", content: "go", timestamp: 6 }, aborted]);
    expect(s.errors).toEqual(["boom"]);
    expect(s.running).toBe(false);
    expect(s.pendingUserIndex).toBeNull();
    expect(s.tools.t.status).toBe("interrupted");
  });

  it("keeps a running tool's last partial result (the bash tool's wait notice), and no update after its end", () => {
    const notice = {
      content: [
        { type: "text", text: "Waiting for a free execution worker: 2 commands of other users are running." },
      ],
    };
    const started = run([
      { type: "tool_execution_start", toolCallId: "t", toolName: "bash", args: { command: "ls" } },
      { type: "tool_execution_update", toolCallId: "t", toolName: "bash", partialResult: { content: [] } },
      { type: "tool_execution_update", toolCallId: "t", toolName: "bash", partialResult: notice },
    ]);
    expect(started.tools.t).toEqual({
      toolName: "bash",
      args: { command: "ls" },
      status: "running",
      partial: notice,
    });
    const result = { content: [{ type: "text", text: "a\n" }] };
    const ended = run(
      [
        { type: "tool_execution_end", toolCallId: "t", toolName: "bash", result, isError: false },
        { type: "tool_execution_update", toolCallId: "t", toolName: "bash", partialResult: notice },
        { type: "tool_execution_update", toolCallId: "unknown", toolName: "bash", partialResult: notice },
      ],
      started,
    );
    expect(ended.tools).toEqual({ t: { toolName: "bash", args: { command: "ls" }, status: "done", result } });
  });

  it("reset restores a conversation loaded from the server", () => {
    const msgs: AgentMessage[] = [user, assistant([{ type: "text", text: "hi" }])];
    const s = run([
      { type: "local_error", message: "x" },
      { type: "reset", messages: msgs },
    ]);
    expect(s).toEqual(initialChatState(msgs));
  });

  it("appends a message_end that had no message_start", () => {
    expect(run([{ type: "message_end", message: user }]).messages).toEqual([user]);
  });
});

describe("changedPathsOf", () => {
  it("reports files_changed paths and successful write/edit paths", () => {
    const s = run([
      {
        type: "tool_execution_start",
        toolCallId: "w",
        toolName: "write",
        args: { path: "/p/src/b.ts", content: "" },
      },
      { type: "tool_execution_start", toolCallId: "e", toolName: "edit", args: { path: "c.ts" } },
      { type: "tool_execution_start", toolCallId: "r", toolName: "read", args: { path: "d.ts" } },
    ]);
    const end = (toolCallId: string, toolName: string, isError = false): ChatAction => ({
      type: "tool_execution_end",
      toolCallId,
      toolName,
      result: {},
      isError,
    });
    expect(changedPathsOf(s, end("w", "write"))).toEqual(["/p/src/b.ts"]);
    expect(changedPathsOf(s, end("e", "edit", true))).toEqual([]);
    expect(changedPathsOf(s, end("r", "read"))).toEqual([]);
    expect(changedPathsOf(s, { type: "files_changed", paths: ["a", "b"], commit: "abc" })).toEqual([
      "a",
      "b",
    ]);
    expect(changedPathsOf(s, { type: "agent_start" })).toEqual([]);
  });

  it("maps paths to project-relative ones", () => {
    expect(toProjectPath("/p/src/b.ts", "/p")).toBe("src/b.ts");
    expect(toProjectPath("./src/b.ts", "/p")).toBe("src/b.ts");
    expect(toProjectPath("src/b.ts", "/p/")).toBe("src/b.ts");
    expect(toProjectPath("/px/b.ts", "/p")).toBe("px/b.ts");
  });
});

describe("toAgentEvent", () => {
  it("uses the SSE event name and JSON data", () => {
    expect(toAgentEvent("files_changed", '{"paths":["a"]}')).toEqual({ type: "files_changed", paths: ["a"] });
    expect(toAgentEvent("message", '{"type":"agent_end","messages":[]}')).toEqual({
      type: "agent_end",
      messages: [],
    });
    expect(
      toAgentEvent("tool_execution_update", '{"toolCallId":"t","toolName":"bash","partialResult":1}'),
    ).toEqual({
      type: "tool_execution_update",
      toolCallId: "t",
      toolName: "bash",
      partialResult: 1,
    });
    expect(toAgentEvent("nope", "{}")).toBeNull();
    expect(toAgentEvent("error", '{"message":"boom"}')).toEqual({ type: "error", message: "boom" });
    expect(toAgentEvent("error", '{"error":{"code":"x","message":"nested"}}')).toEqual({
      type: "error",
      message: "nested",
    });
    expect(toAgentEvent("error", "{bad")).toBeNull();
  });
});

describe("parsePartialJsonObject", () => {
  it("closes open strings and brackets", () => {
    expect(parsePartialJsonObject('{"a": [1, {"b": "x')).toEqual({ a: [1, { b: "x" }] });
    expect(parsePartialJsonObject('{"a": 1,')).toEqual({ a: 1 });
    expect(parsePartialJsonObject('{"a":')).toEqual({ a: null });
    expect(parsePartialJsonObject("[1]")).toBeNull();
    expect(parsePartialJsonObject("")).toBeNull();
  });
});
