/**
 * The inspector's layers of `buildContextPreview` on one fixed session: a compaction (keeping from u2), two
 * context edits (one inside the context, one on a compacted entry), an Anthropic turn with signed thinking, a
 * Responses-style tool-call id and an image, six priced assistant turns; previewed for a text-only
 * OpenAI-compatible model (a model switch). Exact entries, hook changes, blocked images, transform report, token
 * estimate, costs, section sources and masking.
 */
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "@/lib/agent/messages";
import { IMAGE_READING_DISABLED } from "@/lib/context/block-images";
import type { ExtensionModule } from "@/lib/extensions/types";
import { buildContextPreview, type ContextPreviewInput } from "@/lib/inspector/context-preview";
import { summarizeEntry } from "@/lib/inspector/context-preview-entries";
import {
  buildSectionSources,
  diffContextMessages,
  estimateRequestTokens,
  MAX_LCS_CELLS,
} from "@/lib/inspector/context-preview-layers";
import { captureEnv } from "@/lib/llm/capture-payload";
import { type Model, resolveModel } from "@/lib/llm/models";
import { prepareRequest } from "@/lib/llm/prepare-request";
import { maskKeyLikeStrings, redactSecrets } from "@/lib/llm/redact";
import { createTransformReport } from "@/lib/llm/transform-report";
import type { SessionEntry } from "@/lib/session/entries";
import { MemoryVfsStore } from "@/lib/vfs/memory-store";
import { Vfs } from "@/lib/vfs/vfs";
import { PNG, TARGET_ENV, WORKSPACE_FILES } from "../../fixtures/preview/fixture";
import { applyTransformReport } from "../../helpers/transform-report-apply";

const NOW = 1767225700000;

function vfsOf(root: string, files: Record<string, string>): Vfs {
  return new Vfs(
    new MemoryVfsStore(
      Object.entries(files).map(([p, data]) => ({ path: `${root}/${p}`, data })),
      { now: () => 1 },
    ),
  );
}

const model = (ref: string) => resolveModel(ref, captureEnv(TARGET_ENV)) as Model;

const usage = (costTotal: number, cacheRead = 0) => ({
  input: 100,
  output: 20,
  cacheRead,
  cacheWrite: 0,
  totalTokens: 120 + cacheRead,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: costTotal },
});
const anthropic = { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" };

let n = 0;
const at = () => `2026-01-01T00:00:${String(++n).padStart(2, "0")}.000Z`;
const chain: SessionEntry[] = [];
function add(entry: Record<string, unknown> & { id: string; type: string }): void {
  chain.push({ parentId: chain.at(-1)?.id ?? null, timestamp: at(), ...entry } as SessionEntry);
}
const user = (id: string, content: unknown) =>
  add({ type: "message", id, message: { role: "user", content, timestamp: 1 } });
const answer = (id: string, content: unknown[], cost: number, stopReason = "stop", cacheRead = 0) =>
  add({
    type: "message",
    id,
    message: {
      role: "assistant",
      content,
      ...anthropic,
      usage: usage(cost, cacheRead),
      stopReason,
      timestamp: 2,
    },
  });
const text = (t: string) => [{ type: "text", text: t }];

add({ type: "model_change", id: "h1", provider: "anthropic", modelId: "claude-sonnet-4-5" });
user("u1", text("first question"));
answer("a1", text("first answer"), 0.25);
user("u2", text("old question"));
answer("a2", text("old answer"), 0.5);
add({
  type: "compaction",
  id: "c1",
  summary: "Earlier: two questions.",
  firstKeptEntryId: "u2",
  tokensBefore: 500,
});
user("u3", [
  { type: "text", text: "look" },
  { type: "image", data: PNG, mimeType: "image/png" },
]);
answer(
  "a3",
  [
    { type: "thinking", thinking: "Check the file.", thinkingSignature: "sig-a3" },
    { type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "AGENTS.md" } },
  ],
  0.125,
  "toolUse",
);
add({
  type: "message",
  id: "t3",
  message: {
    role: "toolResult",
    toolCallId: "call_1|fc_1",
    toolName: "read",
    content: text("Use tabs."),
    isError: false,
    timestamp: 3,
  },
});
answer("a4", text("Tabs it is."), 1, "stop", 50);
add({ type: "context_edit", id: "ce1", targetId: "u2", replacement: { content: "old question (edited)" } });
add({ type: "context_edit", id: "ce2", targetId: "a1", replacement: null });
user("u5", text("more"));
answer("a5", text("more answer"), 2);
user("u6", text("again"));
answer("a6", text("again answer"), 4);
const ENTRIES = chain;

function input(overrides: Partial<ContextPreviewInput> = {}): ContextPreviewInput {
  return {
    fs: vfsOf("/workspace", WORKSPACE_FILES),
    agentFs: vfsOf("/.pi/agent", {}),
    cwd: "/workspace",
    entries: ENTRIES,
    model: model("openai-compatible/local-llm"),
    trust: true,
    tools: ["read"],
    text: "hi",
    env: TARGET_ENV,
    now: NOW,
    ...overrides,
  };
}

describe("buildContextPreview: the inspector's layers", () => {
  it("layer 1: every path entry with its boundary and the agent messages it produces", async () => {
    const preview = await buildContextPreview(input());
    const rows = preview.entries.map((e) => [
      e.id,
      e.summary,
      e.producesMessageIndexes,
      e.inContext,
      e.boundary ?? null,
      e.editedBy ?? null,
      e.target ?? null,
    ]);
    expect(rows).toEqual([
      ["h1", "model_change: anthropic/claude-sonnet-4-5", [], false, null, null, null],
      ["u1", "user: first question", [], false, null, null, null],
      ["a1", "assistant anthropic/claude-sonnet-4-5 (stop): first answer", [], false, null, null, null],
      ["u2", "user: old question", [1], true, null, "ce1", null],
      ["a2", "assistant anthropic/claude-sonnet-4-5 (stop): old answer", [2], true, null, null, null],
      [
        "c1",
        "compaction: keeps from u2, 500 tokens before: Earlier: two questions.",
        [0],
        true,
        "compaction",
        null,
        null,
      ],
      ["u3", "user: look [1 image]", [3], true, null, null, null],
      [
        "a3",
        "assistant anthropic/claude-sonnet-4-5 (toolUse): [1 thinking] [calls read]",
        [4],
        true,
        null,
        null,
        null,
      ],
      ["t3", "toolResult read: Use tabs.", [5], true, null, null, null],
      ["a4", "assistant anthropic/claude-sonnet-4-5 (stop): Tabs it is.", [6], true, null, null, null],
      ["ce1", "context_edit of u2: replace", [], true, "context_edit", null, { id: "u2", action: "replace" }],
      ["ce2", "context_edit of a1: omit", [], true, "context_edit", null, { id: "a1", action: "omit" }],
      ["u5", "user: more", [7], true, null, null, null],
      ["a5", "assistant anthropic/claude-sonnet-4-5 (stop): more answer", [8], true, null, null, null],
      ["u6", "user: again", [9], true, null, null, null],
      ["a6", "assistant anthropic/claude-sonnet-4-5 (stop): again answer", [10], true, null, null, null],
    ]);
    expect(preview.entries.find((e) => e.id === "u3")).toEqual({
      id: "u3",
      parentId: "c1",
      type: "message",
      role: "user",
      summary: "user: look [1 image]",
      producesMessageIndexes: [3],
      inContext: true,
    });
    // The edited message is what index 1 holds; then the system patch and the prompt follow the history.
    expect(preview.agentMessages[1]).toMatchObject({ role: "user", content: "old question (edited)" });
    expect(preview.agentMessages.slice(11).map((m) => m.role)).toEqual(["system", "user"]);
  });

  it("summarizeEntry: one line, cut at 160 characters; a message without model fields names them '?'", () => {
    const long = summarizeEntry({
      type: "message",
      id: "x",
      parentId: null,
      timestamp: "2026-01-01T00:00:00.000Z",
      message: { role: "user", content: `a\n${"b".repeat(300)}`, timestamp: 0 },
    } as SessionEntry);
    expect(long).toBe(`user: a ${"b".repeat(159 - "user: a ".length)}…`);
    expect(long.length).toBe(160);
    expect(
      summarizeEntry({
        type: "message",
        id: "y",
        parentId: null,
        timestamp: "2026-01-01T00:00:00.000Z",
        message: { role: "assistant", content: [{ type: "text", text: "hi" }] },
      } as unknown as SessionEntry),
    ).toBe("assistant ?/? (?): hi");
    expect(
      summarizeEntry({ type: "future_kind", id: "z", parentId: null, timestamp: "" } as SessionEntry),
    ).toBe("future_kind (not interpreted)");
  });

  it("layer 3: no extension → nothing changed; a context hook's removal, edit and addition are counted", async () => {
    expect((await buildContextPreview(input())).contextHookChanges).toEqual({
      added: 0,
      removed: 0,
      edited: 0,
      details: [],
      hooks: [],
    });
    const quiet: ExtensionModule = { path: "ext:quiet", setup: (api) => api.on("agent_start", () => {}) };
    const hook: ExtensionModule = {
      path: "ext:trim",
      setup(api) {
        api.on("context", (event) => {
          const kept = event.messages.filter(
            (m) => !(m.role === "user" && m.content === "old question (edited)"),
          );
          const last = kept[kept.length - 1];
          if (last.role === "user") last.content = [{ type: "text", text: "hi (hooked)" }];
          const note: AgentMessage = {
            role: "custom",
            customType: "note",
            content: "remember tabs",
            display: false,
            timestamp: NOW,
          };
          return { messages: [...kept, note] };
        });
      },
    };
    const preview = await buildContextPreview(input({ extensions: [quiet, hook] }));
    const changes = preview.contextHookChanges;
    // pi 10.2: a changed conversation is sent behind the replayed system head (the patch moves to the front).
    expect({ ...changes, messages: undefined }).toEqual({
      added: 2,
      removed: 2,
      edited: 1,
      details: [
        { kind: "added", index: 0, role: "system" },
        { kind: "removed", index: 1, role: "user" },
        { kind: "removed", index: 11, role: "system" },
        { kind: "edited", index: 11, role: "user" },
        { kind: "added", index: 12, role: "custom" },
      ],
      hooks: ["ext:trim"],
      messages: undefined,
    });
    expect(changes.messages?.map((m) => m.role)).toEqual([
      "system",
      "compactionSummary",
      "assistant",
      "user",
      "assistant",
      "toolResult",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "custom",
    ]);
    // What the hooks return is what convertToLlm got: the hooked prompt and the note are sent.
    expect(preview.llmMessages.slice(-2)).toEqual([
      { role: "user", content: [{ type: "text", text: "hi (hooked)" }], timestamp: NOW },
      { role: "user", content: [{ type: "text", text: "remember tabs" }], timestamp: NOW },
    ]);
    expect(preview.diagnostics.filter((d) => d.source === "extensions")).toEqual([]);
  });

  it("layer 3: a failing hook is a diagnostic and changes nothing", async () => {
    const broken: ExtensionModule = {
      path: "ext:broken",
      setup: (api) =>
        api.on("context", () => {
          throw new Error("boom");
        }),
    };
    const preview = await buildContextPreview(input({ extensions: [broken] }));
    expect(preview.contextHookChanges).toEqual({
      added: 0,
      removed: 0,
      edited: 0,
      details: [],
      hooks: ["ext:broken"],
    });
    expect(preview.diagnostics.filter((d) => d.source === "extensions")).toEqual([
      {
        source: "extensions",
        type: "error",
        message: 'Extension "ext:broken" context error: boom',
        path: "ext:broken",
      },
    ]);
  });

  it("layer 4: images.blockImages from the user's settings.json replaces the image before the transform", async () => {
    const open = await buildContextPreview(input());
    expect(open.blockImages).toBe(false);
    expect(open.llmMessages[3]).toMatchObject({
      content: [
        { type: "text", text: "look" },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
    });
    const blocked = await buildContextPreview(
      input({ agentFs: vfsOf("/.pi/agent", { "settings.json": '{"images":{"blockImages":true}}' }) }),
    );
    expect(blocked.blockImages).toBe(true);
    expect(blocked.llmMessages[3]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "text", text: IMAGE_READING_DISABLED },
      ],
      timestamp: 1,
    });
    expect(blocked.transformReport.changes.filter((c) => c.kind === "image_replaced")).toEqual([]);
    expect(JSON.stringify(blocked.payload)).not.toContain(PNG);
    // The explicit input wins; an untrusted project's settings.json is not read (pi 2.9).
    const settingsOn = vfsOf("/.pi/agent", { "settings.json": '{"images":{"blockImages":true}}' });
    expect((await buildContextPreview(input({ blockImages: false, agentFs: settingsOn }))).blockImages).toBe(
      false,
    );
    const projectSetting = {
      ...WORKSPACE_FILES,
      ".pi/settings.json": '{"images":{"blockImages":true}}',
    };
    expect((await buildContextPreview(input({ fs: vfsOf("/workspace", projectSetting) }))).blockImages).toBe(
      true,
    );
    expect(
      (await buildContextPreview(input({ fs: vfsOf("/workspace", projectSetting), trust: false })))
        .blockImages,
    ).toBe(false);
  });

  it("layer 5: the transform report lists each change made for the new model", async () => {
    const preview = await buildContextPreview(input());
    const changes = preview.transformReport.changes.map(({ detail: _, ...c }) => c);
    // Request messages: [0] summary, [1] u2, [2] a2, [3] u3 (image), [4] a3, [5] t3, … (system patch removed).
    expect(changes).toEqual([
      {
        kind: "image_replaced",
        reason: "this model has no image input",
        messageIndex: 3,
        blockIndex: 1,
        count: 1,
      },
      {
        kind: "signature_dropped",
        reason: "from another model (anthropic/claude-sonnet-4-5)",
        messageIndex: 4,
        blockIndex: 0,
      },
      {
        kind: "thinking_to_text",
        reason: "from another model (anthropic/claude-sonnet-4-5)",
        messageIndex: 4,
        blockIndex: 0,
      },
      {
        kind: "tool_call_id_rewritten",
        reason: "from another model (anthropic/claude-sonnet-4-5): normalized for openai-completions",
        messageIndex: 4,
        blockIndex: 1,
        from: "call_1|fc_1",
        to: "call_1_fc_1",
      },
      {
        kind: "tool_call_id_rewritten",
        reason: "renamed with its call",
        messageIndex: 5,
        from: "call_1|fc_1",
        to: "call_1_fc_1",
      },
    ]);
    expect(preview.transformReport.origins).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // The request drops the system patch (llmMessages[11]): request index 11 is the prompt at llmMessages[12].
    expect(preview.requestMessageIndexes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12]);
    expect(preview.transformedMessages[5]).toMatchObject({ role: "toolResult", toolCallId: "call_1_fc_1" });
    // The same report as the request a run sends (prepareRequest's), and complete: it rebuilds the output.
    const requestMessages = preview.llmMessages.filter((m) => m.role !== "system");
    const sent = createTransformReport();
    prepareRequest(
      preview.model,
      { systemPrompt: preview.systemPrompt, messages: requestMessages, tools: preview.toolDeclarations },
      { report: sent },
    );
    expect(sent).toEqual(preview.transformReport);
    expect(applyTransformReport(requestMessages, preview.transformReport)).toEqual(
      preview.transformedMessages,
    );
  });

  it("tool declarations, token estimate and the cost of the last 5 turns", async () => {
    const preview = await buildContextPreview(input());
    expect(preview.toolDeclarations.map((t) => t.name)).toEqual(["read"]);
    expect(preview.toolDeclarations).toEqual(preview.systemPatch?.toolsAdded);
    const est = preview.tokenEstimate;
    expect(est).toEqual({
      system: Math.ceil(preview.systemPrompt.length / 4),
      // ceil(chars / 4) per message sent: summary (96 + 23 + 11 chars) 33, "old question (edited)" 6, "old answer" 3,
      // "look" + the 46-character image placeholder 13, thinking as text 15 + "read" 4 + {"path":"AGENTS.md"} 20 → 10,
      // "Use tabs." 3, "Tabs it is." 3, "more" 1, "more answer" 3, "again" 2, "again answer" 3, "hi" 1.
      messages: 33 + 6 + 3 + 13 + 10 + 3 + 3 + 1 + 3 + 2 + 3 + 1,
      tools: Math.ceil(JSON.stringify(preview.toolDeclarations).length / 4),
      total: est.system + 81 + est.tools,
      contextWindow: 128000,
    });
    expect(preview.recentCost).toEqual({
      turns: [
        {
          entryId: "a2",
          model: "anthropic/claude-sonnet-4-5",
          input: 100,
          output: 20,
          cacheRead: 0,
          cacheWrite: 0,
          costUsd: 0.5,
        },
        {
          entryId: "a3",
          model: "anthropic/claude-sonnet-4-5",
          input: 100,
          output: 20,
          cacheRead: 0,
          cacheWrite: 0,
          costUsd: 0.125,
        },
        {
          entryId: "a4",
          model: "anthropic/claude-sonnet-4-5",
          input: 100,
          output: 20,
          cacheRead: 50,
          cacheWrite: 0,
          costUsd: 1,
        },
        {
          entryId: "a5",
          model: "anthropic/claude-sonnet-4-5",
          input: 100,
          output: 20,
          cacheRead: 0,
          cacheWrite: 0,
          costUsd: 2,
        },
        {
          entryId: "a6",
          model: "anthropic/claude-sonnet-4-5",
          input: 100,
          output: 20,
          cacheRead: 0,
          cacheWrite: 0,
          costUsd: 4,
        },
      ],
      totalUsd: 7.625,
    });
    // The leaf a3 sees only its own path: two turns.
    expect((await buildContextPreview(input({ leafId: "a3" }))).recentCost).toMatchObject({
      turns: [{ entryId: "a1" }, { entryId: "a2" }, { entryId: "a3" }],
      totalUsd: 0.875,
    });
  });

  it("default tools as a run: the set the branch's transcript declares (the IDE's toggles), else pi's four", async () => {
    expect((await buildContextPreview(input({ tools: undefined }))).tools).toEqual([
      "read",
      "bash",
      "edit",
      "write",
    ]);
    const chosen = await buildContextPreview(input({ tools: ["grep", "read"] }));
    const entries: SessionEntry[] = [
      ...ENTRIES,
      {
        type: "message",
        id: "s7",
        parentId: "a6",
        timestamp: "2026-01-01T00:01:00.000Z",
        message: chosen.systemPatch as AgentMessage,
      } as SessionEntry,
    ];
    const again = await buildContextPreview(input({ entries, tools: undefined }));
    expect(again.tools).toEqual(["grep", "read"]);
    expect(again.systemPatch).toBeNull();
    expect(again.toolDeclarations.map((t) => t.name)).toEqual(["grep", "read"]);
  });

  it("estimateRequestTokens is pi's ceil(chars / 4) per part", () => {
    expect(
      estimateRequestTokens(
        "abcdefghi",
        [
          { role: "user", content: [{ type: "text", text: "hello" }], timestamp: 0 },
          { role: "user", content: [{ type: "image", data: "x", mimeType: "image/png" }], timestamp: 0 },
          {
            role: "assistant",
            content: [
              { type: "text", text: "abcd" },
              { type: "toolCall", id: "c", name: "read", arguments: { path: "a" } },
            ],
            ...anthropic,
            usage: usage(0),
            stopReason: "toolUse",
            timestamp: 0,
          },
        ],
        [{ name: "x", description: "y", parameters: {} }],
        1000,
      ),
    ).toEqual({ system: 3, messages: 2 + 1200 + 5, tools: 12, total: 3 + 1207 + 12, contextWindow: 1000 });
  });

  it("section sources: each section's file and trust gate; an untrusted project's SYSTEM.md is withheld", async () => {
    const files = { ...WORKSPACE_FILES, ".pi/SYSTEM.md": "You are terse." };
    const trusted = await buildContextPreview(input({ fs: vfsOf("/workspace", files) }));
    expect(trusted.sectionSources).toEqual([
      {
        section: "preamble",
        path: "/workspace/.pi/SYSTEM.md",
        filesystem: "project",
        trustGated: true,
        trusted: true,
      },
      {
        section: "project_context",
        path: "/workspace/AGENTS.md",
        filesystem: "project",
        trustGated: false,
        trusted: true,
      },
      {
        section: "skills",
        path: "/workspace/.pi/skills/greet/SKILL.md",
        filesystem: "project",
        trustGated: true,
        trusted: true,
      },
      { section: "cwd", trustGated: false, trusted: true },
    ]);
    const untrusted = await buildContextPreview(input({ fs: vfsOf("/workspace", files), trust: false }));
    expect(untrusted.sectionSources).toEqual([
      { section: "preamble", trustGated: false, trusted: false },
      { section: "tools", trustGated: false, trusted: false },
      { section: "rules", trustGated: false, trusted: false },
      { section: "docs", trustGated: false, trusted: false },
      {
        section: "project_context",
        path: "/workspace/AGENTS.md",
        filesystem: "project",
        trustGated: false,
        trusted: false,
      },
      { section: "cwd", trustGated: false, trusted: false },
      {
        section: "skills",
        path: "/workspace/.pi/skills",
        filesystem: "project",
        trustGated: true,
        trusted: false,
      },
      {
        section: "preamble",
        path: "/workspace/.pi/SYSTEM.md",
        filesystem: "project",
        trustGated: true,
        trusted: false,
      },
    ]);
    expect(buildSectionSources({ preamble: "p" }, [], true)).toEqual([
      { section: "preamble", trustGated: false, trusted: true },
    ]);
  });

  it("a team rules root: its files feed the sections, its skills expand from it, its SYSTEM.md is trust-gated", async () => {
    const team = {
      fs: vfsOf("/.team", {
        "AGENTS.md": "Team rule.",
        "SYSTEM.md": "You are the team's agent.",
        "skills/deploy.md": "---\nname: deploy\ndescription: Deploy it.\n---\nShip carefully.\n",
      }),
      dir: "/.team",
    };
    const trusted = await buildContextPreview(input({ entries: [], team, text: "/skill:deploy now" }));
    expect(trusted.sections.preamble).toBe("You are the team's agent.");
    expect(trusted.expandedText).toBe(
      '<skill name="deploy" location="/.team/skills/deploy.md">\nReferences are relative to /.team/skills.\n\nShip carefully.\n</skill>\n\nnow',
    );
    expect(trusted.sectionSources.filter((r) => r.filesystem === "team")).toEqual([
      { section: "preamble", path: "/.team/SYSTEM.md", filesystem: "team", trustGated: true, trusted: true },
      {
        section: "project_context",
        path: "/.team/AGENTS.md",
        filesystem: "team",
        trustGated: false,
        trusted: true,
      },
      {
        section: "skills",
        path: "/.team/skills/deploy.md",
        filesystem: "team",
        trustGated: false,
        trusted: true,
      },
    ]);
    const untrusted = await buildContextPreview(input({ entries: [], team, trust: false }));
    expect(untrusted.sectionSources.filter((r) => r.filesystem === "team")).toEqual([
      {
        section: "project_context",
        path: "/.team/AGENTS.md",
        filesystem: "team",
        trustGated: false,
        trusted: false,
      },
      {
        section: "skills",
        path: "/.team/skills/deploy.md",
        filesystem: "team",
        trustGated: false,
        trusted: false,
      },
      { section: "preamble", path: "/.team/SYSTEM.md", filesystem: "team", trustGated: true, trusted: false },
    ]);
  });

  it("key-shaped strings are masked in the payload body and everywhere else", async () => {
    const keys =
      "sk-proj-abcdefghijklmnopqrstuvwx AKIAABCDEFGHIJKLMNOP ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    const preview = await buildContextPreview(input({ entries: [], text: `use ${keys} now` }));
    expect(preview.expandedText).toBe("use [redacted] [redacted] [redacted] now");
    const body = JSON.stringify(preview.payload?.body);
    expect(body).toContain("use [redacted] [redacted] [redacted] now");
    for (const key of keys.split(" ")) expect(JSON.stringify(preview)).not.toContain(key);
    // Ordinary words, short sk- strings and tool-call ids stay.
    expect(maskKeyLikeStrings("task-list sk-short call_1_fc_1 toolu_01")).toBe(
      "task-list sk-short call_1_fc_1 toolu_01",
    );
    // The same masking applies to a body received elsewhere, so the two compare byte for byte.
    const received = { messages: [{ content: `use ${keys} now` }] };
    expect(JSON.stringify(redactSecrets(received, {}))).toBe(
      '{"messages":[{"content":"use [redacted] [redacted] [redacted] now"}]}',
    );
  });

  it("diffContextMessages: unchanged lists report nothing; an in-place edit is one edited message", () => {
    const m = (t: string): AgentMessage => ({ role: "user", content: t, timestamp: 0 });
    expect(diffContextMessages([m("a"), m("b")], [m("a"), m("b")])).toEqual({
      added: 0,
      removed: 0,
      edited: 0,
      details: [],
    });
    expect(diffContextMessages([m("a"), m("b"), m("c")], [m("a"), m("B"), m("c"), m("d")])).toEqual({
      added: 1,
      removed: 0,
      edited: 1,
      details: [
        { kind: "edited", index: 1, role: "user" },
        { kind: "added", index: 3, role: "user" },
      ],
    });
  });

  it("diffContextMessages: a middle too large to align is compared as one gap (every message paired by role)", () => {
    const m = (t: string): AgentMessage => ({ role: "user", content: t, timestamp: 0 });
    const small = [m("b0"), m("b1"), m("x")];
    // Aligned: x moved from the end to the front.
    expect(diffContextMessages(small, [m("x"), m("b0"), m("b1")])).toMatchObject({
      added: 1,
      removed: 1,
      edited: 0,
    });
    const size = 2100;
    expect((size + 2) * (size + 2)).toBeGreaterThan(MAX_LCS_CELLS);
    const bs = Array.from({ length: size }, (_, k) => m(`b${k}`));
    const diff = diffContextMessages([...bs, m("x")], [m("x"), ...bs]);
    expect([diff.added, diff.removed, diff.edited]).toEqual([0, 0, size + 1]);
    expect(diff.details[0]).toEqual({ kind: "edited", index: 0, role: "user" });
  });
});
