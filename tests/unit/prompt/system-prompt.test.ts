import { describe, expect, it } from "vitest";
import type { SystemMessage } from "@/lib/llm/types";
import {
  BUILTIN_TOOL_GUIDELINES,
  BUILTIN_TOOL_SNIPPETS,
  buildSystemPrompt,
  buildSystemPromptSections,
  buildSystemPromptState,
  DEFAULT_PREAMBLE,
  diffSystemPromptSections,
  parseDefaultTools,
  STRATA_DOCS,
} from "@/lib/prompt/sections";
import {
  collapseSystemMessages,
  getCurrentSystemMessage,
  getSystemMessageText,
  normalizeContext,
  renderSystemMessageUpdate,
} from "@/lib/prompt/system-message";
import type { Skill } from "@/lib/resources/skills";

const SNIPPETS = {
  read: "Read file contents",
  bash: "Execute bash commands",
  edit: "Edit files",
  write: "Write files",
};
const SUFFIX =
  "In addition to the tools above, you may have access to other custom tools depending on the project.";
const skill: Skill = {
  name: "pdf",
  description: "PDF tools",
  filePath: "/skills/pdf/SKILL.md",
  baseDir: "/skills/pdf",
  source: "user",
  disableModelInvocation: false,
};
const tool = (name: string) => ({ name, description: name, parameters: {} });

describe("system prompt sections (pi 3.x)", () => {
  it("3.1 default key order, optional sections, then custom sections", () => {
    const s = buildSystemPromptSections({
      cwd: "/proj",
      toolSnippets: SNIPPETS,
      appendSystemPrompt: "A",
      contextFiles: [{ path: "/proj/AGENTS.md", content: "x" }],
      skills: [skill],
      sections: { mcp_servers: "m" },
    });
    expect(Object.keys(s)).toEqual([
      "preamble",
      "tools",
      "rules",
      "docs",
      "addendum",
      "project_context",
      "skills",
      "cwd",
      "mcp_servers",
    ]);
  });

  it("3.2 preamble is plain; every other section is wrapped", () => {
    const s = buildSystemPromptSections({ cwd: "/proj", toolSnippets: SNIPPETS });
    expect(s.preamble).toBe(DEFAULT_PREAMBLE);
    for (const [k, v] of Object.entries(s))
      if (k !== "preamble") expect(v).toMatch(new RegExp(`^<${k}>\\n[\\s\\S]*\\n</${k}>$`));
  });

  it("3.3 default preamble, with the product name Strata", () => {
    expect(buildSystemPromptSections({ cwd: "/p" }).preamble).toBe(
      "You are an expert coding assistant operating inside Strata, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files.",
    );
  });

  it("3.4 tools lines in selectedTools order, then the suffix; (none) without visible tools", () => {
    expect(buildSystemPromptSections({ cwd: "/p", toolSnippets: SNIPPETS }).tools).toBe(
      `<tools>\n- read: Read file contents\n- bash: Execute bash commands\n- edit: Edit files\n- write: Write files\n\n${SUFFIX}\n</tools>`,
    );
    expect(buildSystemPromptSections({ cwd: "/p" }).tools).toBe(`<tools>\n(none)\n\n${SUFFIX}\n</tools>`);
  });

  it("3.5 a selected tool without snippet is not listed; a snippet of an unselected tool is ignored", () => {
    const s = buildSystemPromptSections({
      cwd: "/p",
      selectedTools: ["read", "custom"],
      toolSnippets: { read: "R", other: "O" },
    });
    expect(s.tools).toBe(`<tools>\n- read: R\n\n${SUFFIX}\n</tools>`);
  });

  it("3.6 selectedTools defaults to read, bash, edit, write; [] means none", () => {
    expect(buildSystemPromptSections({ cwd: "/p", toolSnippets: SNIPPETS }).tools).toContain(
      "- write: Write files",
    );
    const none = buildSystemPromptSections({ cwd: "/p", selectedTools: [], toolSnippets: SNIPPETS });
    expect(none.tools).toBe(`<tools>\n(none)\n\n${SUFFIX}\n</tools>`);
    expect(none.rules).toBe(
      "<rules>\n- Be concise in your responses\n- Show file paths clearly when working with files\n</rules>",
    );
  });

  it.each([
    [["bash"], "Use bash for file operations like ls, rg, find"],
    [["powershell"], "Use PowerShell for file operations like listing, searching, and finding files"],
    [
      ["bash", "powershell"],
      "Use bash or PowerShell for file operations like listing, searching, and finding files",
    ],
  ])("3.7 shell rule for %j", (tools, rule) => {
    expect(buildSystemPromptSections({ cwd: "/p", selectedTools: tools }).rules).toBe(
      `<rules>\n- ${rule}\n- Be concise in your responses\n- Show file paths clearly when working with files\n</rules>`,
    );
  });

  it("3.7 bash with grep: no shell rule", () => {
    expect(buildSystemPromptSections({ cwd: "/p", selectedTools: ["bash", "grep"] }).rules).toBe(
      "<rules>\n- Be concise in your responses\n- Show file paths clearly when working with files\n</rules>",
    );
  });

  it("3.8 rule order, trimming and dedupe", () => {
    const s = buildSystemPromptSections({
      cwd: "/p",
      selectedTools: ["read", "bash"],
      toolGuidelines: { read: ["Use read to examine files.", "Be concise in your responses"] },
      promptGuidelines: ["  Extra rule  ", "Extra rule", ""],
    });
    expect(s.rules).toBe(
      "<rules>\n- Use bash for file operations like ls, rg, find\n- Use read to examine files.\n- Be concise in your responses\n- Extra rule\n- Show file paths clearly when working with files\n</rules>",
    );
  });

  it("3.9 appendSystemPrompt becomes addendum", () => {
    expect(
      buildSystemPromptSections({ cwd: "/p", appendSystemPrompt: "Additional instructions." }).addendum,
    ).toBe("<addendum>\nAdditional instructions.\n</addendum>");
  });

  it("3.10 project_context: header, one block per file, no escaping", () => {
    const s = buildSystemPromptSections({
      cwd: "/p",
      contextFiles: [
        { path: "/home/u/.pi/agent/AGENTS.md", content: "global rules" },
        { path: "/srv/proj/AGENTS.md", content: "project rules" },
      ],
    });
    expect(s.project_context).toBe(
      '<project_context>\nProject-specific instructions and guidelines:\n\n<project_instructions path="/home/u/.pi/agent/AGENTS.md">\nglobal rules\n</project_instructions>\n\n<project_instructions path="/srv/proj/AGENTS.md">\nproject rules\n</project_instructions>\n</project_context>',
    );
  });

  it("3.11 skills with only bash use the bash wording, trimmed", () => {
    const s = buildSystemPromptSections({ cwd: "/p", selectedTools: ["bash"], skills: [skill] });
    expect(s.skills).toBe(
      "<skills>\nThe following skills provide specialized instructions for specific tasks.\nUse bash to load a skill's file when the task matches its description.\nWhen a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.\n\n<available_skills>\n  <skill>\n    <name>pdf</name>\n    <description>PDF tools</description>\n    <location>/skills/pdf/SKILL.md</location>\n  </skill>\n</available_skills>\n</skills>",
    );
  });

  it("3.12 no skills section without read or bash", () => {
    expect(
      buildSystemPromptSections({ cwd: "/p", selectedTools: ["write"], skills: [skill] }).skills,
    ).toBeUndefined();
  });

  it("3.13 cwd backslashes become slashes", () => {
    expect(buildSystemPromptSections({ cwd: "C:\\work\\proj" }).cwd).toBe("<cwd>\nC:/work/proj\n</cwd>");
  });

  it("3.14 a custom prompt replaces preamble, tools, rules, docs", () => {
    const s = buildSystemPromptSections({ customPrompt: "You are Exact.", cwd: "/proj", selectedTools: [] });
    expect(Object.keys(s)).toEqual(["preamble", "cwd"]);
    expect(
      buildSystemPrompt({ customPrompt: "You are Exact.", cwd: "/proj", selectedTools: [] }).startsWith(
        "You are Exact.\n\n<cwd>",
      ),
    ).toBe(true);
  });

  it("3.15 full render with custom prompt, append and one context file", () => {
    expect(
      buildSystemPrompt({
        customPrompt: "You are Exact.",
        appendSystemPrompt: "More.",
        contextFiles: [{ path: "/proj/AGENTS.md", content: "Project instructions." }],
        cwd: "/proj",
      }),
    ).toBe(
      'You are Exact.\n\n<addendum>\nMore.\n</addendum>\n\n<project_context>\nProject-specific instructions and guidelines:\n\n<project_instructions path="/proj/AGENTS.md">\nProject instructions.\n</project_instructions>\n</project_context>\n\n<cwd>\n/proj\n</cwd>',
    );
  });

  it("3.16 custom sections after cwd; empty values dropped", () => {
    const s = buildSystemPromptSections({
      cwd: "/p",
      sections: { mcp_servers: "- server a", empty_one: "" },
    });
    expect(s.mcp_servers).toBe("<mcp_servers>\n- server a\n</mcp_servers>");
    expect("empty_one" in s).toBe(false);
    expect(Object.keys(s).slice(-2)).toEqual(["cwd", "mcp_servers"]);
  });

  it("3.17 invalid custom names throw; a built-in name replaces in place", () => {
    for (const name of ["Bad", "preamble", "1x", "a b"])
      expect(() => buildSystemPromptSections({ cwd: "/p", sections: { [name]: "x" } })).toThrow(
        `Invalid system prompt section name: ${name}`,
      );
    const s = buildSystemPromptSections({
      customPrompt: "C",
      cwd: "/p",
      sections: { zeta: "z", cwd: "custom cwd" },
    });
    expect(Object.keys(s)).toEqual(["preamble", "cwd", "zeta"]);
    expect(s.cwd).toBe("<cwd>\ncustom cwd\n</cwd>");
  });

  it("3.18 forceSystemPrompt wins exactly, even when empty", () => {
    expect(buildSystemPrompt({ cwd: "/p", forceSystemPrompt: "exact" })).toBe("exact");
    expect(buildSystemPromptState({ cwd: "/p", forceSystemPrompt: "exact" })).toEqual({ content: "exact" });
    expect(buildSystemPromptState({ cwd: "/p", forceSystemPrompt: "" })).toEqual({ content: "" });
  });

  it("3.19 state without force: content empty plus sections; text = sections rendered", () => {
    const state = buildSystemPromptState({ cwd: "/p" });
    expect(state.content).toBe("");
    expect(state.sections).toEqual(buildSystemPromptSections({ cwd: "/p" }));
    expect(buildSystemPrompt({ cwd: "/p" })).toBe(Object.values(state.sections!).join("\n\n"));
  });

  it("3.20 docs section: pi's structure pointing at Strata's docs", () => {
    expect(buildSystemPromptSections({ cwd: "/p" }).docs).toBe(`<docs>\n${STRATA_DOCS}\n</docs>`);
    expect(STRATA_DOCS).toBe(
      "Strata documentation (read only when the user asks about Strata itself, its library, HTTP API, tools, skills, prompt templates, or IDE):\n- Main documentation: /strata/README.md\n- Additional docs: /strata/docs\n- When reading Strata docs, resolve docs/... under Additional docs, not the current working directory\n- When asked about: architecture (docs/architecture.md), the library surface, resources, skills and prompt templates (docs/library.md), the HTTP API (docs/http-api.md), built-in tools (docs/tools.md), differences from pi (docs/pi-differences.md)\n- When working on Strata topics, read the docs, and follow .md cross-references before implementing\n- Always read Strata .md files completely and follow links to related docs (e.g., library.md for the exported API)",
    );
  });

  it("3.21 getSystemMessageText: content then non-null non-empty sections", () => {
    expect(getSystemMessageText({ content: "base", sections: { a: "A", b: null, c: "" } })).toBe("base\n\nA");
    expect(
      getSystemMessageText({
        content: [
          { type: "text", text: "x" },
          { type: "text", text: "y" },
        ],
      }),
    ).toBe("x\ny");
  });

  it("3.22 diff: changed keys, null for removed, undefined when unchanged", () => {
    expect(
      diffSystemPromptSections(
        { preamble: "P", cwd: "a", skills: "S" },
        { preamble: "P", cwd: "b", addendum: "A" },
      ),
    ).toEqual({
      cwd: "b",
      addendum: "A",
      skills: null,
    });
    expect(
      Object.keys(
        diffSystemPromptSections(
          { preamble: "P", cwd: "a", skills: "S" },
          { preamble: "P", cwd: "b", addendum: "A" },
        )!,
      ),
    ).toEqual(["cwd", "addendum", "skills"]);
    expect(diffSystemPromptSections({ a: "1" }, { a: "1" })).toBeUndefined();
    expect(diffSystemPromptSections({}, { a: "1", b: "2" })).toEqual({ a: "1", b: "2" });
  });

  it("3.23 replay: re-set key keeps position, null deletes, new keys last, tools removed then added", () => {
    const head: SystemMessage = {
      role: "system",
      content: "",
      sections: { preamble: "P", tools: "<tools>\nT\n</tools>", cwd: "<cwd>\n/p\n</cwd>" },
      toolsAdded: [tool("read")],
      timestamp: 5,
    };
    const later: SystemMessage = {
      role: "system",
      content: "",
      sections: { tools: "<tools>\nT2\n</tools>", cwd: null },
      toolsAdded: [tool("bash")],
      toolsRemoved: [{ name: "read" }],
      timestamp: 9,
    };
    expect(getCurrentSystemMessage([head, { role: "user" }, later])).toEqual({
      role: "system",
      content: "",
      sections: { preamble: "P", tools: "<tools>\nT2\n</tools>" },
      toolsAdded: [tool("bash")],
      timestamp: 5,
    });
    const r = getCurrentSystemMessage([
      { role: "system", content: "", sections: { a: "A", b: "B", c: "C" }, timestamp: 1 },
      { role: "system", content: "extra", sections: { a: "A2", b: null, d: "D" }, timestamp: 2 },
      { role: "system", content: "", sections: { b: "B3" }, timestamp: 3 },
    ] as SystemMessage[]);
    expect(r?.content).toBe("extra");
    expect(Object.entries(r?.sections ?? {})).toEqual([
      ["a", "A2"],
      ["c", "C"],
      ["d", "D"],
      ["b", "B3"],
    ]);
    expect(r?.timestamp).toBe(1);
    expect(getCurrentSystemMessage([{ role: "user" }])).toBeUndefined();
  });

  it("3.24 renderSystemMessageUpdate", () => {
    expect(
      renderSystemMessageUpdate({ content: "", sections: { tools: "<tools>\nT2\n</tools>", cwd: null } }),
    ).toBe(
      'Updated system prompt section "tools":\n\n<tools>\nT2\n</tools>\n\nRemoved system prompt section "cwd".',
    );
  });

  it("3.25 collapseSystemMessages: one replayed head first, other system messages removed", () => {
    const msgs = [
      { role: "system", content: "", sections: { a: "A" }, timestamp: 1 } as SystemMessage,
      { role: "user", content: "hi", timestamp: 2 },
      { role: "system", content: "", sections: { a: "A2" }, timestamp: 3 } as SystemMessage,
    ];
    expect(collapseSystemMessages({ messages: msgs }).messages).toEqual([
      { role: "system", content: "", sections: { a: "A2" }, timestamp: 1 },
      { role: "user", content: "hi", timestamp: 2 },
    ]);
  });

  it("3.26 normalizeContext prepends a head unless prompt and tools are both empty", () => {
    const messages = [{ role: "user", content: "x", timestamp: 1 }];
    expect(normalizeContext({ systemPrompt: "S", tools: [tool("read")], messages }).messages[0]).toEqual({
      role: "system",
      content: "S",
      toolsAdded: [tool("read")],
      timestamp: 0,
    });
    expect(normalizeContext({ systemPrompt: "", tools: [], messages }).messages).toBe(messages);
  });

  it("3.27 the first patch is the full section set (diff against {})", () => {
    const sections = buildSystemPromptSections({
      cwd: "/p",
      toolSnippets: BUILTIN_TOOL_SNIPPETS,
      toolGuidelines: BUILTIN_TOOL_GUIDELINES,
    });
    expect(diffSystemPromptSections({}, sections)).toEqual(sections);
  });

  it("3.28 later patches carry only changed sections (setActiveTools read)", () => {
    const opts = { cwd: "/p", toolSnippets: BUILTIN_TOOL_SNIPPETS, toolGuidelines: BUILTIN_TOOL_GUIDELINES };
    const before = buildSystemPromptSections(opts);
    const after = buildSystemPromptSections({ ...opts, selectedTools: ["read"] });
    expect(diffSystemPromptSections(before, after)).toEqual({
      tools: `<tools>\n- read: Read file contents\n\n${SUFFIX}\n</tools>`,
      rules:
        "<rules>\n- Use read to examine files instead of cat or sed.\n- Be concise in your responses\n- Show file paths clearly when working with files\n</rules>",
    });
  });

  it("3.29 built-in snippets and guidelines at the reference", () => {
    expect(BUILTIN_TOOL_SNIPPETS.bash).toBe("Execute bash commands (ls, grep, find, etc.)");
    expect(BUILTIN_TOOL_GUIDELINES.edit).toHaveLength(4);
    expect(BUILTIN_TOOL_GUIDELINES.write).toEqual(["Use write only for new files or complete rewrites."]);
  });

  it("3.30 a forced prompt collapses to one head with the current tools", () => {
    const transcript = [
      {
        role: "system",
        content: "",
        sections: { preamble: "P" },
        toolsAdded: [tool("read")],
        timestamp: 4,
      } as SystemMessage,
      { role: "user", content: "x", timestamp: 5 },
    ];
    const current = getCurrentSystemMessage(transcript);
    const forced = buildSystemPromptState({ cwd: "/p", forceSystemPrompt: "FORCED" });
    const head = {
      role: "system",
      content: forced.content,
      toolsAdded: current?.toolsAdded,
      timestamp: current?.timestamp,
    };
    expect(head).toEqual({ role: "system", content: "FORCED", toolsAdded: [tool("read")], timestamp: 4 });
  });

  it("3.31 mcp_servers is an ordinary custom section, absent unless supplied", () => {
    expect("mcp_servers" in buildSystemPromptSections({ cwd: "/p" })).toBe(false);
    expect(buildSystemPromptSections({ cwd: "/p", sections: { mcp_servers: "- a" } }).mcp_servers).toBe(
      "<mcp_servers>\n- a\n</mcp_servers>",
    );
  });

  it("defaultTools setting: plain names or +name/-name against pi's defaults", () => {
    expect(parseDefaultTools(undefined)).toEqual(["read", "bash", "edit", "write"]);
    expect(parseDefaultTools(["+grep", "-bash"])).toEqual(["read", "edit", "write", "grep"]);
    expect(parseDefaultTools(["read", "grep", "+find", "-grep"])).toEqual(["read", "find"]);
    expect(parseDefaultTools("read, ls")).toEqual(["read", "ls"]);
  });
});
