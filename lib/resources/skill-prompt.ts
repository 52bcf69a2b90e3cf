/**
 * Skills as the model sees them: the index the system prompt lists (pi `formatSkillsForPrompt`, pi's `skills.ts`),
 * the `/skill:<name>` expansion of the input pipeline (pi `AgentSession._expandSkillCommand`) and its parse back
 * (pi `parseSkillBlock`). Loading skills from the filesystems is skills.ts's job.
 */
import type { FileSystem } from "@/lib/vfs/types";
import { stripFrontmatter } from "./frontmatter";
import { readUtf8 } from "./fs-util";
import type { Skill } from "./skills";

function escapeXml(str: string): string {
  return str
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * The skills index for the system prompt (pi `formatSkillsForPrompt`, pi's `skills.ts`): skills with
 * `disableModelInvocation` are left out; `""` when none remain. Starts with `"\n\n"`; no trailing newline.
 * @param fileReadTool `"read"` (default), `"bash"` or `"indirect"`: picks the second intro line.
 */
export function formatSkillsForPrompt(
  skills: Skill[],
  fileReadTool: "read" | "bash" | "indirect" = "read",
): string {
  const visible = skills.filter((s) => !s.disableModelInvocation);
  if (visible.length === 0) return "";
  const lines = [
    "\n\nThe following skills provide specialized instructions for specific tasks.",
    fileReadTool === "read"
      ? "Use the read tool to load a skill's file when the task matches its description."
      : fileReadTool === "bash"
        ? "Use bash to load a skill's file when the task matches its description."
        : "Load a skill's file when the task matches its description.",
    "When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.",
    "",
    "<available_skills>",
  ];
  for (const skill of visible) {
    lines.push("  <skill>");
    lines.push(`    <name>${escapeXml(skill.name)}</name>`);
    lines.push(`    <description>${escapeXml(skill.description)}</description>`);
    lines.push(`    <location>${escapeXml(skill.filePath)}</location>`);
    lines.push("  </skill>");
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}

/** Result of {@link expandSkillCommand}: the text and, on a read failure, pi's extension error shape. */
export interface ExpandSkillCommandResult {
  text: string;
  error?: { extensionPath: string; event: "skill_expansion"; error: string };
}

/**
 * Expand `/skill:<name> <args>` (pi `AgentSession._expandSkillCommand`, pi's `skills.ts`): the name ends at the
 * first space; an unknown name leaves the text unchanged; otherwise the skill file is read (on `fs`),
 * its frontmatter removed and body trimmed, and the text becomes
 * `<skill name="N" location="P">\nReferences are relative to D.\n\n<body>\n</skill>` plus `\n\n<args>` when
 * the trimmed args are non-empty. Names and paths are not escaped. A read failure leaves the text
 * unchanged and returns `error` (`{ extensionPath: <file>, event: "skill_expansion", error }`).
 */
export async function expandSkillCommand(
  text: string,
  skills: Skill[],
  fs: FileSystem | ((skill: Skill) => FileSystem),
): Promise<ExpandSkillCommandResult> {
  if (!text.startsWith("/skill:")) return { text };
  const space = text.indexOf(" ");
  const skillName = space === -1 ? text.slice(7) : text.slice(7, space);
  const args = space === -1 ? "" : text.slice(space + 1).trim();
  const skill = skills.find((s) => s.name === skillName);
  if (!skill) return { text };
  try {
    const fsOf = typeof fs === "function" ? fs(skill) : fs;
    const body = stripFrontmatter(await readUtf8(fsOf, skill.filePath)).trim();
    const block = `<skill name="${skill.name}" location="${skill.filePath}">\nReferences are relative to ${skill.baseDir}.\n\n${body}\n</skill>`;
    return { text: args ? `${block}\n\n${args}` : block };
  } catch (err) {
    return {
      text,
      error: {
        extensionPath: skill.filePath,
        event: "skill_expansion",
        error: err instanceof Error ? err.message : String(err),
      },
    };
  }
}

/** pi `ParsedSkillBlock`. */
export interface ParsedSkillBlock {
  name: string;
  location: string;
  content: string;
  userMessage: string | undefined;
}

/**
 * Recognise an expanded skill block (pi `parseSkillBlock`, pi's `skills.ts`): `{ name, location, content (between
 * the header line and the closing tag), userMessage (trailing text trimmed, or undefined) }`, else `null`.
 */
export function parseSkillBlock(text: string): ParsedSkillBlock | null {
  const match = text.match(
    /^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n<\/skill>(?:\n\n([\s\S]+))?$/,
  );
  if (!match) return null;
  return {
    name: match[1],
    location: match[2],
    content: match[3],
    userMessage: match[4]?.trim() || undefined,
  };
}
