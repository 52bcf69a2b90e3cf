/**
 * System prompt sections (pi's `buildSystemPromptSections` / `buildSystemPrompt` in
 * packages/coding-agent/src/core/system-prompt.ts), with the product name Strata where pi names itself.
 */
import type { ContextFile } from "@/lib/resources/context-files";

/** Strata's default preamble (pi 3.3 with the product name). */
export const DEFAULT_PREAMBLE =
  "You are an expert coding assistant operating inside Strata, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files.";

export const TOOLS_SUFFIX =
  "In addition to the tools above, you may have access to other custom tools depending on the project.";

/** Strata's `docs` section body (pi 3.20's structure, pointing at Strata's documentation). */
export const STRATA_DOCS =
  "Strata documentation (read only when the user asks about Strata itself, its library surface, extensions, skills, prompt templates or the IDE):\n- Main documentation: the Strata README\n- Additional docs: Strata's docs/ folder (architecture, http-api, tools, pi-differences)";

export interface BuildSystemPromptOptions {
  /** SYSTEM.md or an explicit prompt; replaces preamble, tools, rules and docs. */
  customPrompt?: string;
  /** Tool names in order; default `["read","bash","edit","write"]`. */
  selectedTools?: string[];
  toolSnippets?: Record<string, string>;
  toolGuidelines?: Record<string, string[]>;
  promptGuidelines?: string[];
  appendSystemPrompt?: string;
  contextFiles?: ContextFile[];
  /** Formatted skills index (already produced by formatSkillsForPrompt) — empty for none. */
  skillsText?: string;
  cwd: string;
  /** Custom sections appended after cwd (names `^[a-z][a-z0-9_-]*$`, not "preamble"). */
  sections?: Record<string, string>;
  docs?: string;
}

const wrap = (name: string, content: string) => `<${name}>\n${content}\n</${name}>`;
const SECTION_NAME = /^[a-z][a-z0-9_-]*$/;

function shellRule(selected: string[]): string | undefined {
  if (selected.some((t) => t === "grep" || t === "find" || t === "ls")) return undefined;
  const bash = selected.includes("bash");
  const ps = selected.includes("powershell");
  if (bash && ps)
    return "Use bash or PowerShell for file operations like listing, searching, and finding files";
  if (bash) return "Use bash for file operations like ls, rg, find";
  if (ps) return "Use PowerShell for file operations like listing, searching, and finding files";
  return undefined;
}

/**
 * Ordered sections: preamble, tools, rules, docs, [addendum], [project_context], [skills], cwd, custom.
 * `preamble` is plain; every other value is wrapped `<name>\n…\n</name>`.
 * @throws Error `Invalid system prompt section name: <name>` for a bad custom section name.
 */
export function buildSystemPromptSections(options: BuildSystemPromptOptions): Record<string, string> {
  const selected = options.selectedTools ?? ["read", "bash", "edit", "write"];
  const out: Record<string, string> = {};
  if (options.customPrompt !== undefined) {
    out.preamble = options.customPrompt;
  } else {
    out.preamble = DEFAULT_PREAMBLE;
    const lines = selected
      .filter((t) => options.toolSnippets?.[t])
      .map((t) => `- ${t}: ${options.toolSnippets![t]}`);
    out.tools = wrap("tools", `${lines.length > 0 ? lines.join("\n") : "(none)"}\n\n${TOOLS_SUFFIX}`);
    const rules: string[] = [];
    const seen = new Set<string>();
    const add = (rule: string | undefined) => {
      const r = rule?.trim();
      if (!r || seen.has(r)) return;
      seen.add(r);
      rules.push(r);
    };
    add(shellRule(selected));
    for (const t of selected) for (const g of options.toolGuidelines?.[t] ?? []) add(g);
    for (const g of options.promptGuidelines ?? []) add(g);
    add("Be concise in your responses");
    add("Show file paths clearly when working with files");
    out.rules = wrap("rules", rules.map((r) => `- ${r}`).join("\n"));
    out.docs = wrap("docs", options.docs ?? STRATA_DOCS);
  }
  if (options.appendSystemPrompt) out.addendum = wrap("addendum", options.appendSystemPrompt);
  if (options.contextFiles && options.contextFiles.length > 0) {
    const blocks = options.contextFiles.map(
      (f) => `<project_instructions path="${f.path}">\n${f.content}\n</project_instructions>`,
    );
    out.project_context = wrap(
      "project_context",
      `Project-specific instructions and guidelines:\n\n${blocks.join("\n\n")}`,
    );
  }
  if (options.skillsText?.trim() && (selected.includes("read") || selected.includes("bash"))) {
    out.skills = wrap("skills", options.skillsText.trim());
  }
  out.cwd = wrap("cwd", options.cwd.replace(/\\/g, "/"));
  for (const [name, value] of Object.entries(options.sections ?? {})) {
    if (!SECTION_NAME.test(name) || name === "preamble")
      throw new Error(`Invalid system prompt section name: ${name}`);
    if (!value) continue;
    out[name] = wrap(name, value);
  }
  return out;
}

/** The rendered prompt: non-empty section values joined with a blank line (pi 3.21 rendering). */
export function buildSystemPrompt(
  options: BuildSystemPromptOptions & { forceSystemPrompt?: string },
): string {
  if (options.forceSystemPrompt !== undefined) return options.forceSystemPrompt;
  return Object.values(buildSystemPromptSections(options))
    .filter((v) => v.length > 0)
    .join("\n\n");
}
