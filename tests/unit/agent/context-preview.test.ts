/**
 * `buildContextPreview` on the shared fixture (tests/fixtures/preview): a workspace with AGENTS.md, a project
 * skill and template, an agent dir with APPEND_SYSTEM.md, and a pi session where Anthropic read a file about an
 * image. Exact sections, patch, agent / LLM / transformed messages and provider payload; the key never shows.
 */
import { describe, expect, it } from "vitest";
import { declareToolsForPrompt } from "@/lib/agent-session/system-state";
import {
  buildContextPreview,
  type ContextPreviewInput,
  envSecrets,
  redactUrl,
} from "@/lib/inspector/context-preview";
import { CAPTURE_API_KEY, captureEnv } from "@/lib/llm/capture-payload";
import { type Model, resolveModel } from "@/lib/llm/models";
import type { Message, SystemMessage } from "@/lib/llm/types";
import type { SessionEntry } from "@/lib/session/entries";
import { parseSessionJsonl } from "@/lib/session/jsonl";
import { createAllTools } from "@/lib/tools";
import { MemoryVfsStore } from "@/lib/vfs/memory-store";
import { Vfs } from "@/lib/vfs/vfs";
import {
  AGENT_DIR_FILES,
  PNG,
  SESSION_JSONL,
  TARGET_ENV,
  WORKSPACE_FILES,
} from "../../fixtures/preview/fixture";

const NOW = 1767225700000;
const SECRET = "sk-ant-secret-value-123";
const ENV = { ...TARGET_ENV, ANTHROPIC_API_KEY: SECRET };

function vfsOf(root: string, files: Record<string, string>): Vfs {
  return new Vfs(
    new MemoryVfsStore(
      Object.entries(files).map(([p, data]) => ({ path: `${root}/${p}`, data })),
      { now: () => 1 },
    ),
  );
}

function model(ref: string): Model {
  const found = resolveModel(ref, captureEnv(ENV));
  if (!found) throw new Error(`no model ${ref}`);
  return found;
}

function input(overrides: Partial<ContextPreviewInput> = {}): ContextPreviewInput {
  return {
    fs: vfsOf("/workspace", WORKSPACE_FILES),
    agentFs: vfsOf("/.pi/agent", AGENT_DIR_FILES),
    cwd: "/workspace",
    projectRoot: "/workspace",
    entries: parseSessionJsonl(SESSION_JSONL).entries,
    model: model("openai-compatible/local-llm"),
    trust: true,
    text: "/skill:greet Ada",
    env: ENV,
    now: NOW,
    ...overrides,
  };
}

const SECTIONS = {
  preamble:
    "You are an expert coding assistant operating inside Strata, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files.",
  tools:
    "<tools>\n- read: Read file contents\n- bash: Execute bash commands (ls, grep, find, etc.)\n- edit: Make precise file edits with exact text replacement, including multiple disjoint edits in one call\n- write: Create or overwrite files\n\nIn addition to the tools above, you may have access to other custom tools depending on the project.\n</tools>",
  rules:
    "<rules>\n- Use bash for file operations like ls, rg, find\n- Use read to examine files instead of cat or sed.\n- You can inspect PI_* environment variables for current model and session details.\n- Use edit for precise changes (edits[].oldText must match exactly)\n- When changing multiple separate locations in one file, use one edit call with multiple entries in edits[] instead of multiple edit calls\n- Each edits[].oldText is matched against the original file, not after earlier edits are applied. Do not emit overlapping or nested edits. Merge nearby changes into one edit.\n- Keep edits[].oldText as small as possible while still being unique in the file. Do not pad with large unchanged regions.\n- Use write only for new files or complete rewrites.\n- Be concise in your responses\n- Show file paths clearly when working with files\n</rules>",
  docs: "<docs>\nStrata documentation (read only when the user asks about Strata itself, its library, HTTP API, tools, skills, prompt templates, or IDE):\n- Main documentation: /strata/README.md\n- Additional docs: /strata/docs\n- When reading Strata docs, resolve docs/... under Additional docs, not the current working directory\n- When asked about: architecture (docs/architecture.md), the library surface, resources, skills and prompt templates (docs/library.md), the HTTP API (docs/http-api.md), built-in tools (docs/tools.md), differences from pi (docs/pi-differences.md)\n- When working on Strata topics, read the docs, and follow .md cross-references before implementing\n- Always read Strata .md files completely and follow links to related docs (e.g., library.md for the exported API)\n</docs>",
  addendum: "<addendum>\nAnswer in English.\n</addendum>",
  project_context:
    '<project_context>\nProject-specific instructions and guidelines:\n\n<project_instructions path="/workspace/AGENTS.md">\n# Rules\nUse tabs.\n\n</project_instructions>\n</project_context>',
  skills:
    "<skills>\nThe following skills provide specialized instructions for specific tasks.\nUse the read tool to load a skill's file when the task matches its description.\nWhen a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.\n\n<available_skills>\n  <skill>\n    <name>greet</name>\n    <description>Greet someone by name.</description>\n    <location>/workspace/.pi/skills/greet/SKILL.md</location>\n  </skill>\n</available_skills>\n</skills>",
  cwd: "<cwd>\n/workspace\n</cwd>",
};

const SKILL_TEXT =
  '<skill name="greet" location="/workspace/.pi/skills/greet/SKILL.md">\nReferences are relative to /workspace/.pi/skills/greet.\n\nSay hello to the person named below.\n</skill>\n\nAda';

const USAGE = {
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 15,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const ANTHROPIC = {
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: USAGE,
};

/** The session's messages on the default leaf (e6). */
const HISTORY: Message[] = [
  {
    role: "user",
    content: [
      { type: "text", text: "What does this show?" },
      { type: "image", data: PNG, mimeType: "image/png" },
    ],
    timestamp: 1767225603000,
  },
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "", thinkingSignature: "opaque-redacted", redacted: true },
      { type: "thinking", thinking: "The rules are in AGENTS.md.", thinkingSignature: "sig-1" },
      { type: "toolCall", id: "toolu_01", name: "read", arguments: { path: "AGENTS.md" } },
    ],
    ...ANTHROPIC,
    stopReason: "toolUse",
    timestamp: 1767225604000,
  },
  {
    role: "toolResult",
    toolCallId: "toolu_01",
    toolName: "read",
    content: [{ type: "text", text: "# Rules\nUse tabs.\n" }],
    isError: false,
    timestamp: 1767225605000,
  },
  {
    role: "assistant",
    content: [{ type: "text", text: "A single pixel; the project uses tabs." }],
    ...ANTHROPIC,
    stopReason: "stop",
    timestamp: 1767225606000,
  },
];

function declarations(names: string[]) {
  const all = createAllTools({ fs: vfsOf("/workspace", {}), cwd: "/workspace", projectRoot: "/workspace" });
  return declareToolsForPrompt(names.map((n) => all[n as keyof typeof all]));
}

describe("buildContextPreview", () => {
  it("builds sections, patch, messages and the openai-compatible payload for a text-only model", async () => {
    const preview = await buildContextPreview(input());
    const tools = declarations(["read", "bash", "edit", "write"]);
    const systemPrompt = Object.values(SECTIONS).join("\n\n");
    const patch: SystemMessage = {
      role: "system",
      content: "",
      sections: SECTIONS,
      toolsAdded: tools,
      timestamp: NOW,
    };
    const user: Message = { role: "user", content: [{ type: "text", text: SKILL_TEXT }], timestamp: NOW };

    expect(preview.sections).toEqual(SECTIONS);
    expect(Object.keys(preview.sections)).toEqual(Object.keys(SECTIONS));
    expect(preview.systemPrompt).toBe(systemPrompt);
    expect(preview.systemPatch).toEqual(patch);
    expect(preview.expandedText).toBe(SKILL_TEXT);
    expect(preview.thinkingLevel).toBe("low");
    expect(preview.trusted).toBe(true);
    expect(preview.cwd).toBe("/workspace");
    expect(preview.tools).toEqual(["read", "bash", "edit", "write"]);
    expect(preview.model).toMatchObject({
      ref: "openai-compatible/local-llm",
      api: "openai-completions",
      input: ["text"],
    });
    expect(preview.provenance).toEqual([
      {
        kind: "context",
        path: "/workspace/AGENTS.md",
        filesystem: "project",
        scope: "project",
        trustGated: false,
      },
      {
        kind: "append",
        path: "/.pi/agent/APPEND_SYSTEM.md",
        filesystem: "agent",
        scope: "personal",
        trustGated: false,
      },
      {
        kind: "skill",
        path: "/workspace/.pi/skills/greet/SKILL.md",
        name: "greet",
        filesystem: "project",
        scope: "project",
        trustGated: true,
      },
      {
        kind: "template",
        path: "/workspace/.pi/prompts/fix.md",
        name: "fix",
        filesystem: "project",
        scope: "project",
        trustGated: true,
      },
    ]);
    expect(preview.agentMessages).toEqual([...HISTORY, patch, user]);
    expect(preview.llmMessages).toEqual([...HISTORY, patch, user]);
    // Image → placeholder (no image input); another model's thinking: redacted dropped, signed → plain text.
    expect(preview.transformedMessages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What does this show?" },
          { type: "text", text: "(image omitted: model does not support images)" },
        ],
        timestamp: 1767225603000,
      },
      {
        ...HISTORY[1],
        content: [
          { type: "text", text: "The rules are in AGENTS.md." },
          { type: "toolCall", id: "toolu_01", name: "read", arguments: { path: "AGENTS.md" } },
        ],
      },
      HISTORY[2],
      HISTORY[3],
      user,
    ]);
    expect(preview.payload).toEqual({
      url: "http://llm.invalid/v1/chat/completions",
      body: {
        model: "local-llm",
        max_tokens: 16384,
        messages: [
          { role: "system", content: systemPrompt },
          {
            role: "user",
            content: [
              { type: "text", text: "What does this show?" },
              { type: "text", text: "(image omitted: model does not support images)" },
            ],
          },
          {
            role: "assistant",
            content: "The rules are in AGENTS.md.",
            tool_calls: [
              {
                id: "toolu_01",
                type: "function",
                function: { name: "read", arguments: '{"path":"AGENTS.md"}' },
              },
            ],
          },
          { role: "tool", tool_call_id: "toolu_01", content: "# Rules\nUse tabs.\n" },
          { role: "assistant", content: "A single pixel; the project uses tabs." },
          { role: "user", content: SKILL_TEXT },
        ],
        tools: tools.map((t) => ({
          type: "function",
          function: { name: t.name, description: t.description, parameters: t.parameters },
        })),
        tool_choice: "auto",
        stream: true,
        stream_options: { include_usage: true },
      },
    });
    expect(preview.diagnostics).toEqual([
      {
        source: "session",
        type: "info",
        message:
          "Model switch: the session's model is anthropic/claude-sonnet-4-5; a run on openai-compatible/local-llm appends a model_change entry",
      },
    ]);
    const json = JSON.stringify(preview);
    expect(json).not.toContain(SECRET);
    expect(json).not.toContain(CAPTURE_API_KEY);
  });

  it("expands a prompt template when trusted; untrusted, project skills and templates are not loaded", async () => {
    const trusted = await buildContextPreview(input({ text: "/fix src/main.ts" }));
    expect(trusted.expandedText).toBe("Fix src/main.ts carefully.");

    const untrusted = await buildContextPreview(input({ trust: false }));
    expect(untrusted.trusted).toBe(false);
    expect(untrusted.expandedText).toBe("/skill:greet Ada");
    expect(Object.keys(untrusted.sections)).toEqual([
      "preamble",
      "tools",
      "rules",
      "docs",
      "addendum",
      "project_context",
      "cwd",
    ]);
    expect(untrusted.provenance.map((p) => p.kind)).toEqual(["context", "append"]);
  });

  it("projects the chosen leaf, activates the chosen tools and keeps images and thinking for the session's model", async () => {
    const preview = await buildContextPreview(
      input({
        leafId: "e3",
        tools: ["read", "grep"],
        model: model("anthropic/claude-sonnet-4-5"),
        text: "hi",
      }),
    );
    expect(preview.diagnostics).toEqual([]);
    expect(preview.tools).toEqual(["read", "grep"]);
    expect(preview.sections.tools).toBe(
      "<tools>\n- read: Read file contents\n- grep: Search file contents for patterns (respects .gitignore)\n\nIn addition to the tools above, you may have access to other custom tools depending on the project.\n</tools>",
    );
    expect(preview.sections.rules).toBe(
      "<rules>\n- Use read to examine files instead of cat or sed.\n- Be concise in your responses\n- Show file paths clearly when working with files\n</rules>",
    );
    expect(preview.systemPatch?.toolsAdded).toEqual(declarations(["read", "grep"]));
    expect(preview.agentMessages.map((m) => m.role)).toEqual(["user", "system", "user"]);
    expect(preview.transformedMessages).toEqual([
      HISTORY[0],
      { role: "user", content: [{ type: "text", text: "hi" }], timestamp: NOW },
    ]);
    expect(preview.payload?.url).toBe("https://api.anthropic.com/v1/messages");
    const body = preview.payload?.body ?? {};
    expect({ ...body, system: undefined, tools: undefined }).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 64000,
      thinking: { type: "enabled", budget_tokens: 2048 },
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What does this show?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
            { type: "text", text: "hi" },
          ],
        },
      ],
      tool_choice: { type: "auto" },
      stream: true,
    });
    expect((body.tools as { name: string }[]).map((t) => t.name)).toEqual(["read", "grep"]);
    expect(JSON.stringify(preview)).not.toContain(SECRET);
  });

  it("sends no patch when the transcript already carries the current system state", async () => {
    const first = await buildContextPreview(input());
    const entries: SessionEntry[] = [
      ...parseSessionJsonl(SESSION_JSONL).entries,
      {
        type: "message",
        id: "e7",
        parentId: "e6",
        timestamp: "2026-01-01T00:01:00.000Z",
        message: first.systemPatch as SystemMessage,
      },
    ];
    const again = await buildContextPreview(input({ entries, text: "next" }));
    expect(again.systemPatch).toBeNull();
    expect(again.systemPrompt).toBe(first.systemPrompt);
    expect(again.agentMessages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
      "system",
      "user",
    ]);
    expect(again.transformedMessages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
      "user",
    ]);
  });

  it("starts a new session without entries: the patch carries every section, thinking is off", async () => {
    const preview = await buildContextPreview(input({ entries: [], text: "hello" }));
    expect(preview.thinkingLevel).toBe("off");
    expect(preview.systemPatch?.sections).toEqual(SECTIONS);
    expect(preview.transformedMessages).toEqual([
      { role: "user", content: [{ type: "text", text: "hello" }], timestamp: NOW },
    ]);
    expect(preview.diagnostics).toEqual([]);
  });

  it("refuses an unknown leaf, an unknown tool and a cwd that is not a directory", async () => {
    await expect(buildContextPreview(input({ leafId: "nope" }))).rejects.toThrow(
      "Unknown leaf entry id: nope",
    );
    await expect(buildContextPreview(input({ tools: ["read", "rm"] }))).rejects.toThrow(
      "Unknown tool: rm (known: read, bash, edit, write, grep, find, ls)",
    );
    await expect(buildContextPreview(input({ cwd: "/workspace/AGENTS.md" }))).rejects.toThrow(
      "Working directory /workspace/AGENTS.md is not a directory of the workspace",
    );
    await expect(buildContextPreview(input({ cwd: "/elsewhere" }))).rejects.toThrow(
      "Working directory /elsewhere is not a directory of the workspace",
    );
  });

  it("redacts the query and user info of payload.url and every secret-looking env value anywhere", async () => {
    const env = {
      ...ENV,
      OPENAI_BASE_URL: "https://ada:pw-9876@x.invalid/v1?key=SECRET-Q%2B1&v=2",
      MY_SERVICE_TOKEN: "tok-123456",
      OTHER_SECRET: "hush-hush",
      SIGNING_KEY: "sig-key-value",
    };
    const text =
      "SECRET-Q+1 SECRET-Q%2B1 key=SECRET-Q%2B1&v=2 pw-9876 ada:pw-9876 tok-123456 hush-hush sig-key-value sk-ant-secret-value-123";
    const preview = await buildContextPreview(
      input({ model: resolveModel("openai/gpt-5", captureEnv(env)) as Model, env, text, entries: [] }),
    );
    // The AI SDK appends its path after the query of such a base URL (docs/cli.md: no query strings).
    expect(preview.payload?.url).toBe("https://x.invalid/v1?[redacted]");
    expect(preview.expandedText).toBe(
      "[redacted] [redacted] [redacted] [redacted] [redacted] [redacted] [redacted] [redacted] [redacted]",
    );
    const json = JSON.stringify(preview);
    for (const secret of ["SECRET-Q", "pw-9876", "tok-123456", "hush-hush", "sig-key-value", SECRET])
      expect(json).not.toContain(secret);
  });

  it("redactUrl drops user info, query and fragment; envSecrets skips short values", () => {
    expect(redactUrl("https://u:p@h.invalid/v1/responses")).toBe("https://h.invalid/v1/responses");
    expect(redactUrl("https://h.invalid/v1?key=S/responses")).toBe("https://h.invalid/v1?[redacted]");
    expect(redactUrl("http://h.invalid/a#frag")).toBe("http://h.invalid/a");
    expect(redactUrl("http://h.invalid/a")).toBe("http://h.invalid/a");
    expect(
      envSecrets({
        A_KEY: "abc",
        B_TOKEN: "test",
        C_SECRET: "abcd1234",
        X_BASE_URL: "http://h/?k=1234&z=1",
        PATH: "/usr/bin",
      }),
    ).toEqual(["k=1234&z=1", "abcd1234"]);
  });
});
