import { describe, expect, it } from "vitest";
import { type ChatAction, initialChatState, reduceChat } from "@/components/chat/reduce-events";
import { parseShellCommand, shellStatusByIndex } from "@/components/chat/shell-state";
import type { BashExecutionMessage } from "@/lib/agent/messages";
import { type AssistantMessage, emptyUsage } from "@/lib/llm/types";

const run = (actions: ChatAction[]) => actions.reduce(reduceChat, initialChatState());

const done: BashExecutionMessage = {
  role: "bashExecution",
  command: "echo hi",
  output: "hi\n",
  exitCode: 0,
  cancelled: false,
  truncated: false,
  timestamp: 5,
};

describe("parseShellCommand", () => {
  it("splits !cmd and !!cmd", () => {
    expect(parseShellCommand("!echo hi")).toEqual({ command: "echo hi", excludeFromContext: false });
    expect(parseShellCommand("  !! ls -la ")).toEqual({ command: "ls -la", excludeFromContext: true });
    expect(parseShellCommand("echo !hi")).toBeNull();
    expect(parseShellCommand("!!")).toBeNull();
    expect(parseShellCommand("! ")).toBeNull();
  });
});

describe("shell commands in the chat state", () => {
  it("shows a running placeholder, replaced by the server's message", () => {
    const start: ChatAction = {
      type: "shell_start",
      id: "s1",
      command: "echo hi",
      excludeFromContext: false,
      timestamp: 1,
    };
    let s = run([start]);
    expect(s.messages).toHaveLength(1);
    expect(shellStatusByIndex(s.shells).get(0)).toBe("running");
    s = [
      { type: "shell_message", id: "s1", message: { ...done, output: "" }, final: false },
      { type: "shell_message", id: "s1", message: done, final: true },
      { type: "shell_closed", id: "s1" },
    ].reduce((acc, a) => reduceChat(acc, a as ChatAction), s);
    expect(s.messages).toEqual([done]);
    expect(shellStatusByIndex(s.shells).get(0)).toBe("done");
  });

  it("marks a command the server never answered as failed (hidden)", () => {
    const s = run([
      { type: "shell_start", id: "s1", command: "x", excludeFromContext: true, timestamp: 1 },
      { type: "shell_closed", id: "s1" },
    ]);
    expect(shellStatusByIndex(s.shells).get(0)).toBe("failed");
    expect(s.messages[0]).toMatchObject({ role: "bashExecution", excludeFromContext: true });
  });

  it("runs beside a streaming assistant message without taking its place", () => {
    const assistant: AssistantMessage = {
      role: "assistant",
      content: [],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "m",
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: 2,
    };
    const s = run([
      { type: "local_prompt", text: "go", timestamp: 1 },
      { type: "message_start", message: { role: "user", content: "go", timestamp: 1 } },
      { type: "message_end", message: { role: "user", content: "go", timestamp: 1 } },
      { type: "message_start", message: assistant },
      { type: "shell_start", id: "s1", command: "echo hi", excludeFromContext: false, timestamp: 3 },
      { type: "shell_message", id: "s1", message: done, final: true },
      { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "Hi" } },
    ]);
    expect(s.messages.map((m) => m.role)).toEqual(["user", "assistant", "bashExecution"]);
    expect((s.messages[1] as AssistantMessage).content).toEqual([{ type: "text", text: "Hi" }]);
    expect(s.openIndex).toBe(1);
  });
});
