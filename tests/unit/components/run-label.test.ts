import { describe, expect, it } from "vitest";
import { isAgentRun, runLabel, runNotice } from "@/components/chat/run-label";

describe("runLabel", () => {
  it("names the run by its kind and mode", () => {
    expect(runLabel({ kind: "bash", mode: "bash" })).toBe("Shell command running");
    expect(runLabel({ kind: "prompt", mode: "bash" })).toBe("Shell command running");
    expect(runLabel({ kind: "compaction", mode: "prompt" })).toBe("Compacting…");
    expect(runLabel({ kind: "branch_summary", mode: null })).toBe("Summarising branch…");
    expect(runLabel({ kind: "prompt", mode: "prompt" })).toBe("Agent is running");
    expect(runLabel({ kind: "prompt", mode: "retry" })).toBe("Agent is running");
    expect(runLabel(null)).toBe("Agent is running");
  });

  it("tells agent runs from shell commands and session operations", () => {
    expect(isAgentRun({ kind: "prompt", mode: "retry" })).toBe(true);
    expect(isAgentRun(null)).toBe(true);
    expect(isAgentRun({ kind: "bash", mode: "bash" })).toBe(false);
    expect(isAgentRun({ kind: "compaction", mode: "prompt" })).toBe(false);
  });
});

describe("runNotice", () => {
  const bash = { kind: "bash", mode: "bash" as const };
  const prompt = { kind: "prompt", mode: "prompt" as const };
  it("says a followed !command is a shell command, this tab's after a reload", () => {
    expect(runNotice("reload", bash)).toBe(
      "The shell command this tab started before it was reloaded is still running. Abort stops it.",
    );
    expect(runNotice("elsewhere", bash)).toBe(
      "A shell command started in another tab is running on this session. Abort stops it.",
    );
  });

  it("keeps the agent's wording (and how prompts reach it) for agent runs", () => {
    expect(runNotice("reload", prompt)).toBe(
      "The agent is still working on what this tab sent before it was reloaded. Enter steers it, Alt+Enter queues a follow-up.",
    );
    expect(runNotice("elsewhere", prompt)).toBe(
      "The agent is working on this session in another tab. Enter steers it, Alt+Enter queues a follow-up.",
    );
    expect(runNotice("elsewhere", { kind: "compaction", mode: "prompt" })).toBe(
      "This session is being compacted from another tab.",
    );
  });

  it("shows nothing for the tab's own stream", () => {
    expect(runNotice("resumed", prompt)).toBeNull();
    expect(runNotice(null, bash)).toBeNull();
  });
});
