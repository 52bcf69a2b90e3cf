/**
 * System prompt sections (pi `core/system-prompt.ts`: `normalizeBuildSystemPromptOptions`,
 * `buildSystemPromptSections`, `buildSystemPromptState`, `buildSystemPrompt`, `diffSystemPromptSections`).
 * Every string is pi's except the product name in the preamble and the `docs` section, which points at
 * Strata's documentation with the structure of pi's (pi's `system-prompt.ts`).
 */
import type { ContextFile } from "@/lib/resources/context-files";
import { formatSkillsForPrompt, type Skill } from "@/lib/resources/skills";
import { getSystemMessageText } from "./system-message";

/** Strata's default preamble (pi's `system-prompt.ts` with the product name). */
export const DEFAULT_PREAMBLE =
  "You are an expert coding assistant operating inside Strata, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files.";

/** The sentence closing the `tools` section (pi's `system-prompt.ts`). */
export const TOOLS_SUFFIX =
  "In addition to the tools above, you may have access to other custom tools depending on the project.";

/** pi's default selected tools (pi's `system-prompt.ts`). */
export const DEFAULT_SELECTED_TOOLS = ["read", "bash", "edit", "write"];

/** pi's built-in tool snippets at the reference (pi's `system-prompt.ts`). */
export const BUILTIN_TOOL_SNIPPETS: Record<string, string> = {
  read: "Read file contents",
  bash: "Execute bash commands (ls, grep, find, etc.)",
  edit: "Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
  write: "Create or overwrite files",
};

/** pi's built-in tool guidelines at the reference, in order (pi's `system-prompt.ts`). */
export const BUILTIN_TOOL_GUIDELINES: Record<string, string[]> = {
  read: ["Use read to examine files instead of cat or sed."],
  bash: ["You can inspect PI_* environment variables for current model and session details."],
  edit: [
    "Use edit for precise changes (edits[].oldText must match exactly)",
    "When changing multiple separate locations in one file, use one edit call with multiple entries in edits[] instead of multiple edit calls",
    "Each edits[].oldText is matched against the original file, not after earlier edits are applied. Do not emit overlapping or nested edits. Merge nearby changes into one edit.",
    "Keep edits[].oldText as small as possible while still being unique in the file. Do not pad with large unchanged regions.",
  ],
  write: ["Use write only for new files or complete rewrites."],
};

/** Where Strata's README.md and docs/ are readable by the agent (default for the `docs` section). */
export const STRATA_DOCS_ROOT = "/strata";

/**
 * Strata's `docs` section body, modelled line by line on pi's (pi's `system-prompt.ts`): README, docs folder, how to
 * resolve `docs/...`, a topic → file map of Strata's docs, and the two reading rules.
 * @param root absolute directory holding Strata's `README.md` and `docs/` (default {@link STRATA_DOCS_ROOT}).
 */
export function strataDocs(root = STRATA_DOCS_ROOT): string {
  const base = root.replace(/\/+$/, "");
  return [
    "Strata documentation (read only when the user asks about Strata itself, its library, HTTP API, tools, skills, prompt templates, or IDE):",
    `- Main documentation: ${base}/README.md`,
    `- Additional docs: ${base}/docs`,
    "- When reading Strata docs, resolve docs/... under Additional docs, not the current working directory",
    "- When asked about: architecture (docs/architecture.md), the library surface, resources, skills and prompt templates (docs/library.md), the HTTP API (docs/http-api.md), built-in tools (docs/tools.md), differences from pi (docs/pi-differences.md)",
    "- When working on Strata topics, read the docs, and follow .md cross-references before implementing",
    "- Always read Strata .md files completely and follow links to related docs (e.g., library.md for the exported API)",
  ].join("\n");
}

/** Strata's default `docs` section body (pi's `system-prompt.ts`'s structure). */
export const STRATA_DOCS = strataDocs();

/** Input of the builders (pi `BuildSystemPromptOptions`, with Strata's `docs` override). */
export interface BuildSystemPromptOptions {
  /** Custom prompt (SYSTEM.md or explicit): when non-empty it replaces preamble, tools, rules and docs. */
  customPrompt?: string;
  /** Exact full prompt set by a `before_agent_start` handler (pi's `system-prompt.ts`). */
  forceSystemPrompt?: string;
  /** Tool names in order; default `["read","bash","edit","write"]`; `[]` means none. */
  selectedTools?: string[];
  /** One-line snippet per tool name. */
  toolSnippets?: Record<string, string>;
  /** Guideline bullets per tool name. */
  toolGuidelines?: Record<string, string[]>;
  /** Extra rules after the tool guidelines. */
  promptGuidelines?: string[];
  /** APPEND_SYSTEM.md text(s), already joined with "\n\n". */
  appendSystemPrompt?: string;
  /** Extra sections after `cwd` (names `^[a-z][a-z0-9_-]*$`, not `preamble`); empty values dropped. */
  sections?: Record<string, string>;
  /** Working directory (backslashes become `/`). */
  cwd: string;
  contextFiles?: ContextFile[];
  skills?: Skill[];
  /** Strata: the `docs` section body (default {@link STRATA_DOCS}). */
  docs?: string;
}

/** pi `NormalizedBuildSystemPromptOptions`: every collection present and copied. */
export type NormalizedBuildSystemPromptOptions = BuildSystemPromptOptions & {
  selectedTools: string[];
  toolSnippets: Record<string, string>;
  toolGuidelines: Record<string, string[]>;
  promptGuidelines: string[];
  appendSystemPrompt: string;
  sections: Record<string, string>;
  contextFiles: ContextFile[];
  skills: Skill[];
};

/** Ordered sections keyed by name (pi `SystemPromptSections`). */
export type SystemPromptSections = Record<string, string>;

const SECTION_NAME = /^[a-z][a-z0-9_-]*$/;

/** Copy `input` into the complete, mutable shape handed to extensions (pi `normalizeBuildSystemPromptOptions`). */
export function normalizeBuildSystemPromptOptions(
  input: BuildSystemPromptOptions,
): NormalizedBuildSystemPromptOptions {
  return {
    customPrompt: input.customPrompt,
    forceSystemPrompt: input.forceSystemPrompt,
    selectedTools: [...(input.selectedTools ?? DEFAULT_SELECTED_TOOLS)],
    toolSnippets: { ...(input.toolSnippets ?? {}) },
    toolGuidelines: Object.fromEntries(
      Object.entries(input.toolGuidelines ?? {}).map(([n, g]) => [n, [...g]]),
    ),
    promptGuidelines: [...(input.promptGuidelines ?? [])],
    appendSystemPrompt: input.appendSystemPrompt ?? "",
    sections: { ...(input.sections ?? {}) },
    cwd: input.cwd,
    contextFiles: (input.contextFiles ?? []).map((f) => ({ ...f })),
    skills: (input.skills ?? []).map((s) => ({ ...s })),
    ...(input.docs !== undefined ? { docs: input.docs } : {}),
  };
}

function buildRules(
  selected: string[],
  toolGuidelines: Record<string, string[]>,
  promptGuidelines: string[],
): string {
  const rules: string[] = [];
  const seen = new Set<string>();
  const add = (rule: string) => {
    const r = rule.trim();
    if (!r || seen.has(r)) return;
    seen.add(r);
    rules.push(r);
  };
  const bash = selected.includes("bash");
  const ps = selected.includes("powershell");
  if ((bash || ps) && !selected.includes("grep") && !selected.includes("find") && !selected.includes("ls")) {
    if (bash && ps)
      add("Use bash or PowerShell for file operations like listing, searching, and finding files");
    else if (ps) add("Use PowerShell for file operations like listing, searching, and finding files");
    else add("Use bash for file operations like ls, rg, find");
  }
  for (const name of selected) for (const rule of toolGuidelines[name] ?? []) add(rule);
  for (const rule of promptGuidelines) add(rule);
  add("Be concise in your responses");
  add("Show file paths clearly when working with files");
  return rules.map((r) => `- ${r}`).join("\n");
}

/**
 * The ordered sections (pi `buildSystemPromptSections`, pi's `system-prompt.ts`): `preamble` (plain text), then — without
 * a non-empty `customPrompt` — `tools`, `rules`, `docs`; then `addendum` (non-empty append),
 * `project_context` (≥1 context file), `skills` (read or bash selected, read preferred, non-empty index),
 * `cwd`, then custom sections in insertion order (a built-in name replaces that section in place; empty
 * values are dropped). Every section but `preamble` is wrapped `<name>\n<content>\n</name>`.
 * @throws Error `Invalid system prompt section name: <name>` for a custom name not matching
 *   `^[a-z][a-z0-9_-]*$` or equal to `preamble` (checked before anything is built).
 */
export function buildSystemPromptSections(input: BuildSystemPromptOptions): SystemPromptSections {
  const o = normalizeBuildSystemPromptOptions(input);
  for (const name of Object.keys(o.sections)) {
    if (!SECTION_NAME.test(name) || name === "preamble")
      throw new Error(`Invalid system prompt section name: ${name}`);
  }
  const body: Record<string, string> = {};
  if (o.customPrompt) {
    body.preamble = o.customPrompt;
  } else {
    body.preamble = DEFAULT_PREAMBLE;
    const visible = o.selectedTools.filter((name) => !!o.toolSnippets[name]);
    const tools =
      visible.length > 0 ? visible.map((n) => `- ${n}: ${o.toolSnippets[n]}`).join("\n") : "(none)";
    body.tools = `${tools}\n\n${TOOLS_SUFFIX}`;
    body.rules = buildRules(o.selectedTools, o.toolGuidelines, o.promptGuidelines);
    body.docs = o.docs ?? STRATA_DOCS;
  }
  if (o.appendSystemPrompt) body.addendum = o.appendSystemPrompt;
  if (o.contextFiles.length > 0) {
    body.project_context = [
      "Project-specific instructions and guidelines:",
      ...o.contextFiles.map(
        (f) => `<project_instructions path="${f.path}">\n${f.content}\n</project_instructions>`,
      ),
    ].join("\n\n");
  }
  const readTool = (["read", "bash"] as const).find((t) => o.selectedTools.includes(t));
  if (readTool && o.skills.length > 0) {
    const text = formatSkillsForPrompt(o.skills, readTool).trim();
    if (text) body.skills = text;
  }
  body.cwd = o.cwd.replace(/\\/g, "/");
  for (const [name, content] of Object.entries(o.sections)) if (content) body[name] = content;
  const out: SystemPromptSections = { preamble: body.preamble };
  for (const [name, content] of Object.entries(body)) {
    if (name !== "preamble") out[name] = `<${name}>\n${content}\n</${name}>`;
  }
  return out;
}

/**
 * The complete prompt state (pi `buildSystemPromptState`, pi's `system-prompt.ts`): `{ content: forced }` (no sections)
 * when `forceSystemPrompt` is set, even to `""`; else `{ content: "", sections }`.
 */
export function buildSystemPromptState(input: BuildSystemPromptOptions): {
  content: string;
  sections?: SystemPromptSections;
} {
  if (input.forceSystemPrompt !== undefined) return { content: input.forceSystemPrompt };
  return { content: "", sections: buildSystemPromptSections(input) };
}

/** The prompt text, rendered as the transcript replays it (pi `buildSystemPrompt`, pi's `system-prompt.ts`, pi's `system-prompt.ts`, pi's `system-prompt.ts`). */
export function buildSystemPrompt(input: BuildSystemPromptOptions): string {
  return getSystemMessageText(buildSystemPromptState(input));
}

/**
 * Patch from the sections the model has to the desired ones (pi `diffSystemPromptSections`, pi's `system-prompt.ts`): every
 * key of `current` whose value differs (in `current`'s order), then `null` for each key of `previous`
 * missing from `current`; `undefined` when nothing changed.
 */
export function diffSystemPromptSections(
  previous: Record<string, string | null>,
  current: SystemPromptSections,
): Record<string, string | null> | undefined {
  const patch: Record<string, string | null> = {};
  for (const [name, text] of Object.entries(current)) if (previous[name] !== text) patch[name] = text;
  for (const name of Object.keys(previous)) if (current[name] === undefined) patch[name] = null;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/**
 * Resolve the `defaultTools` setting against pi's defaults (`read, bash, edit, write`): plain names give
 * the base list in their order (none → pi's defaults); then `+name` appends a tool not yet present and
 * `-name` removes one, in the order written. Blank entries are ignored; duplicates are kept once.
 * `parseDefaultTools(["+grep", "-bash"])` → `["read", "edit", "write", "grep"]`.
 */
export function parseDefaultTools(setting: string[] | string | undefined): string[] {
  const entries = (typeof setting === "string" ? setting.split(",") : (setting ?? []))
    .map((s) => s.trim())
    .filter(Boolean);
  const plain = entries.filter((e) => !e.startsWith("+") && !e.startsWith("-"));
  const tools = [...new Set(plain.length > 0 ? plain : DEFAULT_SELECTED_TOOLS)];
  for (const e of entries) {
    const name = e.slice(1).trim();
    if (!name) continue;
    if (e.startsWith("+") && !tools.includes(name)) tools.push(name);
    else if (e.startsWith("-")) {
      const i = tools.indexOf(name);
      if (i !== -1) tools.splice(i, 1);
    }
  }
  return tools;
}
