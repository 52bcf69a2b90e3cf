/** pi 6.1–6.10 and 3.30: the input pipeline with injected dependencies and a real ExtensionRunner. */
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "@/lib/agent/messages";
import {
  applyForcedSystemPrompt,
  createInputState,
  type InputDeps,
  messageToEntry,
  processPrompt,
  queueInput,
  sendCustomMessage,
  sendUserMessage,
} from "@/lib/agent-session/input-pipeline";
import { ExtensionRunner } from "@/lib/extensions";
import type { SystemMessage } from "@/lib/llm/types";
import { textOf } from "./loop-helpers";

function setup(overrides: Partial<InputDeps> = {}) {
  const log: string[] = [];
  const runs: { messages: AgentMessage[]; forceSystemPrompt?: string }[] = [];
  const queued: { steer: AgentMessage[]; followUp: AgentMessage[] } = { steer: [], followUp: [] };
  const appended: AgentMessage[] = [];
  const extensions = new ExtensionRunner();
  const deps: InputDeps = {
    state: createInputState(),
    extensions,
    isStreaming: () => false,
    expandSkill: (text) => {
      log.push(`skill:${text}`);
      return { text: text.startsWith("/skill:demo") ? `<skill demo>${text.slice(11)}` : text };
    },
    expandTemplate: (text) => {
      log.push(`template:${text}`);
      return text.startsWith("/review") ? `Review ${text.slice(8)}` : text;
    },
    steer: (m) => void queued.steer.push(m),
    followUp: (m) => void queued.followUp.push(m),
    appendMessage: (m) => {
      log.push(`append:${m.role}`);
      appended.push(m);
    },
    checkModel: () => void log.push("checkModel"),
    checkCompaction: () => void log.push("checkCompaction"),
    systemPromptOptions: () => ({ selectedTools: ["read"] }),
    renderSystemPrompt: (o) => `PROMPT(${(o.selectedTools ?? []).join(",")})`,
    buildSystemPatch: (o) => ({
      role: "system",
      content: "",
      sections: { tools: (o.selectedTools ?? []).join(",") },
      timestamp: 1,
    }),
    run: (messages, options) => {
      log.push("run");
      runs.push({ messages, ...options });
    },
    now: () => 7,
    ...overrides,
  };
  return { deps, log, runs, queued, appended, extensions };
}

const roles = (messages: AgentMessage[]) =>
  messages.map((m) => (m.role === "custom" ? `custom:${m.customType}` : `${m.role}:${textOf(m)}`));

describe("input pipeline", () => {
  it("6.1 order: command first; then input hook, skill, template, flush, model, compaction, before_agent_start, run", async () => {
    const { deps, log, extensions, runs } = setup();
    const commands: string[] = [];
    await extensions.registerExtension({
      path: "ext:a",
      setup(api) {
        api.registerCommand("deploy", { handler: (args) => void commands.push(args) });
        api.on("input", (e) => void log.push(`input:${e.text}`));
        api.on("before_agent_start", () => void log.push("before_agent_start"));
      },
    });
    expect(await processPrompt("/deploy prod now", {}, deps)).toEqual({ action: "command" });
    expect(commands).toEqual(["prod now"]);
    expect(log).toEqual([]);
    deps.state.pendingAppend.push({
      role: "custom",
      customType: "late",
      content: "x",
      display: true,
      timestamp: 1,
    });
    await processPrompt("/skill:demo go", {}, deps);
    expect(log).toEqual([
      "input:/skill:demo go",
      "skill:/skill:demo go",
      "template:<skill demo> go",
      "append:custom",
      "checkModel",
      "checkCompaction",
      "before_agent_start",
      "run",
    ]);
    expect(roles(runs[0].messages)).toEqual(["system:", "user:<skill demo> go"]);
  });

  it("6.1 step 2 refuses while compaction runs (exact text)", async () => {
    const { deps } = setup({ isCompacting: () => true });
    await expect(processPrompt("hi", {}, deps)).rejects.toThrow(
      "Cannot submit a prompt while compaction is in progress. Wait for compaction to finish and retry.",
    );
  });

  it("6.2 input transforms apply before expansion", async () => {
    const { deps, extensions, runs } = setup();
    await extensions.registerExtension({
      path: "ext:upper",
      setup(api) {
        api.on("input", (e) =>
          e.text.startsWith("!up ")
            ? { action: "transform", text: e.text.slice(4).toUpperCase() }
            : undefined,
        );
      },
    });
    await processPrompt("!up hello", {}, deps);
    expect(roles(runs[0].messages).at(-1)).toBe("user:HELLO");
  });

  it("6.3 while streaming without streamingBehavior: pi's error; with it the message is queued", async () => {
    const { deps, queued } = setup({ isStreaming: () => true });
    await expect(processPrompt("hi", {}, deps)).rejects.toThrow(
      "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.",
    );
    const out = await processPrompt("/review a.ts", { streamingBehavior: "followUp" }, deps);
    expect(out).toMatchObject({ action: "queued", as: "followUp" });
    expect(queued.followUp).toEqual([
      { role: "user", content: [{ type: "text", text: "Review a.ts" }], timestamp: 7 },
    ]);
  });

  it("6.4 messages: system patch, user, pending nextTurn custom messages, before_agent_start messages", async () => {
    const { deps, extensions, runs } = setup();
    await extensions.registerExtension({
      path: "ext:b",
      setup(api) {
        api.on("before_agent_start", () => ({
          message: { customType: "from before_agent_start", content: "hi", display: true },
        }));
      },
    });
    await sendCustomMessage(
      { customType: "next-turn note", content: "n", display: false },
      { deliverAs: "nextTurn" },
      deps,
    );
    await processPrompt("Fix a.ts then b c", {}, deps);
    expect(roles(runs[0].messages)).toEqual([
      "system:",
      "user:Fix a.ts then b c",
      "custom:next-turn note",
      "custom:from before_agent_start",
    ]);
    expect(deps.state.nextTurn).toEqual([]);
  });

  it("6.5 user content is text then images; normalisation notes are appended to the text", async () => {
    const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
    const { deps, runs } = setup({
      normalizeImages: (images) => ({ images, notes: ["[image 2 rejected]", "[resized]"] }),
    });
    await processPrompt("look", { images: [image] }, deps);
    expect(runs[0].messages[1]).toEqual({
      role: "user",
      content: [{ type: "text", text: "look\n\n[image 2 rejected]\n[resized]" }, image],
      timestamp: 7,
    });
  });

  it("6.6 steer/followUp refuse extension commands, run input handlers, expand and report queue_update", async () => {
    const updates: unknown[] = [];
    const { deps, queued, extensions } = setup({
      isStreaming: () => true,
      onQueueUpdate: (q) => void updates.push(q),
    });
    await extensions.registerExtension({
      path: "ext:c",
      setup(api) {
        api.registerCommand("deploy", { handler: () => {} });
      },
    });
    await expect(queueInput("steer", "/deploy x", undefined, deps)).rejects.toThrow(
      'Extension command "/deploy" cannot be queued. Use prompt() or execute the command when not streaming.',
    );
    await queueInput("steer", "/review b.ts", undefined, deps);
    await queueInput("followUp", "then c", undefined, deps);
    expect(queued.steer.map(textOf)).toEqual(["Review b.ts"]);
    expect(updates).toEqual([
      { steering: ["Review b.ts"], followUp: [] },
      { steering: ["Review b.ts"], followUp: ["then c"] },
    ]);
  });

  it("6.7 sendUserMessage: no expansion, source extension, text parts joined with newline, images kept", async () => {
    const sources: string[] = [];
    const { deps, runs, extensions } = setup();
    await extensions.registerExtension({
      path: "ext:d",
      setup(api) {
        api.on("input", (e) => void sources.push(e.source));
      },
    });
    const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
    await sendUserMessage(
      [{ type: "text", text: "/review a" }, image, { type: "text", text: "b" }],
      {},
      deps,
    );
    expect(sources).toEqual(["extension"]);
    expect(runs[0].messages[1]).toEqual({
      role: "user",
      content: [{ type: "text", text: "/review a\nb" }, image],
      timestamp: 7,
    });
  });

  it("6.8 sendCustomMessage deliveries", async () => {
    const msg = { customType: "note", content: null, display: true };
    const idle = setup();
    expect((await sendCustomMessage(msg, {}, idle.deps)).delivery).toBe("appended");
    expect(idle.appended).toEqual([
      { role: "custom", customType: "note", content: [], display: true, timestamp: 7 },
    ]);
    expect((await sendCustomMessage(msg, { triggerTurn: true }, idle.deps)).delivery).toBe("run");
    expect(roles(idle.runs[0].messages)).toEqual(["custom:note"]);
    const busy = setup({ isStreaming: () => true });
    expect((await sendCustomMessage(msg, {}, busy.deps)).delivery).toBe("steer");
    expect((await sendCustomMessage(msg, { deliverAs: "followUp" }, busy.deps)).delivery).toBe("followUp");
    expect((await sendCustomMessage(msg, { triggerTurn: false }, busy.deps)).delivery).toBe("afterTurn");
    expect(busy.deps.state.pendingAppend).toHaveLength(1);
    expect((await sendCustomMessage(msg, { deliverAs: "nextTurn" }, busy.deps)).delivery).toBe("nextTurn");
  });

  it("6.9 persistence mapping", () => {
    const custom: AgentMessage = {
      role: "custom",
      customType: "x",
      content: "c",
      display: false,
      details: { k: 1 },
      timestamp: 1,
    };
    expect(messageToEntry(custom)).toEqual({
      type: "custom_message",
      customType: "x",
      content: "c",
      display: false,
      details: { k: 1 },
    });
    const sys: SystemMessage = { role: "system", content: "", timestamp: 1 };
    expect(messageToEntry(sys)).toEqual({ type: "message", message: sys });
    const bash: AgentMessage = {
      role: "bashExecution",
      command: "ls",
      output: "",
      cancelled: false,
      truncated: false,
      timestamp: 1,
    };
    expect(messageToEntry(bash)).toEqual({ type: "message", message: bash });
    expect(
      messageToEntry({ role: "compactionSummary", summary: "s", tokensBefore: 1, timestamp: 1 }),
    ).toBeNull();
  });

  it("3.30 forceSystemPrompt is used for the request only: collapsed head with the current tools", async () => {
    const { deps, extensions, runs } = setup();
    await extensions.registerExtension({
      path: "ext:f",
      setup(api) {
        api.on("before_agent_start", () => ({ systemPrompt: "FORCED" }));
      },
    });
    await processPrompt("hi", {}, deps);
    expect(runs[0].forceSystemPrompt).toBe("FORCED");
    expect(runs[0].messages[0]).toMatchObject({ role: "system", sections: { tools: "read" } });
    const read = { name: "read", description: "r", parameters: {} };
    const transcript: AgentMessage[] = [
      { role: "system", content: "", sections: { a: "A" }, toolsAdded: [read], timestamp: 3 },
      { role: "user", content: "q", timestamp: 4 },
      { role: "system", content: "", sections: { a: "B" }, timestamp: 5 },
    ];
    expect(applyForcedSystemPrompt(transcript, "FORCED")).toEqual([
      { role: "system", content: "FORCED", toolsAdded: [read], timestamp: 3 },
      { role: "user", content: "q", timestamp: 4 },
    ]);
    expect(applyForcedSystemPrompt(transcript, undefined)).toBe(transcript);
  });
});
