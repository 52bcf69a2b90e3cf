/**
 * Prompt templates over the VFS (pi `core/prompt-templates.ts`): argument parsing, placeholder
 * substitution, `/name args` expansion and directory loading.
 *
 * Deliberate differences in argument parsing (docs/pi-differences.md, {@link parseCommandArgs}): an empty quoted
 * argument is kept, an unclosed quote is literal, and an apostrophe between two letters or digits (`don't`,
 * `user's`) is a literal character, not an opening quote (pi turns `it's` into `its`).
 */
import { basenamePosix } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";
import { parseFrontmatter } from "./frontmatter";
import { childPath, escapeDiagnostic, type ResourceDiagnostic, readUtf8, statInWorkspace } from "./fs-util";

/** A prompt template loaded from a markdown file (pi `PromptTemplate`, without `sourceInfo`). */
export interface PromptTemplate {
  /** File name without `.md`. */
  name: string;
  description: string;
  argumentHint?: string;
  /** Body (trimmed when there is frontmatter). */
  content: string;
  /** `"project"`, `"user"`, `"path"` or a caller label. */
  source: string;
  /** Absolute VFS path of the template file. */
  filePath: string;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Split command arguments like a shell, without escapes (pi `parseCommandArgs`, pi's `prompt-templates.ts`): unquoted
 * whitespace separates (runs collapse); `"..."` and `'...'` group and are removed (the other quote kind
 * inside is literal); backslash is an ordinary character. Three Strata fixes (docs/pi-differences.md):
 * - an empty quoted string is an empty argument: `"" " "` → `["", " "]`, `a '' b` → `["a", "", "b"]`
 *   (pi drops it: `[" "]`); quotes next to text join it as before (`a""b` → `["ab"]`);
 * - a quote that is never closed is a literal character and the text after it splits as usual:
 *   `unterminated "quote here` → `["unterminated", "\"quote", "here"]` (pi runs the quote to the end:
 *   `["unterminated", "quote here"]`);
 * - an apostrophe between two letters/digits outside quotes is literal (`it's` → `["it's"]`, pi `["its"]`).
 * @returns the arguments in order (`[]` for blank input).
 */
export function parseCommandArgs(argsString: string): string[] {
  const args: string[] = [];
  const chars = [...argsString];
  // A quote opens only when the same character comes again later (it then closes at the next one).
  const lastIndex = { '"': chars.lastIndexOf('"'), "'": chars.lastIndexOf("'") };
  let current = "";
  /** Whether an argument has started (a quoted empty string starts one without adding characters). */
  let started = false;
  let inQuote: '"' | "'" | null = null;
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    if (inQuote) {
      if (char === inQuote) inQuote = null;
      else current += char;
    } else if (
      char === "'" &&
      i > 0 &&
      i + 1 < chars.length &&
      WORD_CHAR.test(chars[i - 1]) &&
      WORD_CHAR.test(chars[i + 1])
    ) {
      current += char;
      started = true;
    } else if ((char === '"' || char === "'") && lastIndex[char] > i) {
      inQuote = char;
      started = true;
    } else if (/\s/.test(char)) {
      if (started) {
        args.push(current);
        current = "";
        started = false;
      }
    } else {
      current += char;
      started = true;
    }
  }
  if (started) args.push(current);
  return args;
}

const PLACEHOLDER = /\$\{(\d+|ARGUMENTS|@):-([^}]*)\}|\$\{@:(\d+)(?::(\d+))?\}|\$(ARGUMENTS|@|\d+)/g;

/**
 * Replace placeholders in one regex pass (pi `substituteArgs`, pi's `prompt-templates.ts`); values are never re-scanned.
 * `$N` (1-based, any digits; `$0` and out of range → `""`), `$@`/`$ARGUMENTS` (all joined by a space),
 * `${N:-default}` (arg N if non-empty else default), `${@:-x}`/`${ARGUMENTS:-x}`, `${@:N}` and `${@:N:L}`
 * (slices; N=0 behaves as 1). Anything else (`$arguments`, `$A`, `$$`, a lone `$`) stays literal.
 */
export function substituteArgs(content: string, args: string[]): string {
  const all = args.join(" ");
  return content.replace(
    PLACEHOLDER,
    (
      _m,
      defaultTarget: string | undefined,
      defaultValue: string | undefined,
      sliceStart: string | undefined,
      sliceLength: string | undefined,
      simple: string | undefined,
    ) => {
      if (defaultTarget !== undefined) {
        const value =
          defaultTarget === "@" || defaultTarget === "ARGUMENTS" ? all : args[Number(defaultTarget) - 1];
        return value || (defaultValue ?? "");
      }
      if (sliceStart !== undefined) {
        const start = Math.max(0, Number.parseInt(sliceStart, 10) - 1);
        const end = sliceLength !== undefined ? start + Number.parseInt(sliceLength, 10) : undefined;
        return args.slice(start, end).join(" ");
      }
      if (simple === "ARGUMENTS" || simple === "@") return all;
      return args[Number.parseInt(simple ?? "0", 10) - 1] ?? "";
    },
  );
}

/**
 * Expand `/name args` with a template (pi `expandPromptTemplate`, pi's `prompt-templates.ts`): only text starting with
 * `/`; the name runs to the first whitespace; the rest after that whitespace run is parsed by
 * {@link parseCommandArgs} and substituted into the template's content. Unknown names, `/` alone and
 * text not starting with `/` are returned unchanged.
 */
export function expandPromptTemplate(text: string, templates: PromptTemplate[]): string {
  if (!text.startsWith("/")) return text;
  const match = text.match(/^\/([^\s]+)(?:\s+([\s\S]*))?$/);
  if (!match) return text;
  const template = templates.find((t) => t.name === match[1]);
  if (!template) return text;
  return substituteArgs(template.content, parseCommandArgs(match[2] ?? ""));
}

/**
 * Load one template file (pi `loadTemplateFromFile`, pi's `prompt-templates.ts`): `name` = file name without `.md`;
 * `content` = body; `description` = frontmatter `description`, else the first non-empty body line cut to
 * 60 characters plus `...` when longer; `argumentHint` only for a non-empty `argument-hint`.
 * @returns `null` when the file cannot be read or its YAML is invalid (pi skips it silently).
 */
export async function loadTemplateFromFile(
  fs: FileSystem,
  filePath: string,
  source: string,
): Promise<PromptTemplate | null> {
  try {
    const { frontmatter, body } = parseFrontmatter<Record<string, unknown>>(await readUtf8(fs, filePath));
    const name = basenamePosix(filePath).replace(/\.md$/, "");
    let description = typeof frontmatter.description === "string" ? frontmatter.description : "";
    if (!description) {
      const firstLine = body.split("\n").find((line) => line.trim());
      if (firstLine) {
        description = firstLine.slice(0, 60);
        if (firstLine.length > 60) description += "...";
      }
    }
    const hint = frontmatter["argument-hint"];
    return {
      name,
      description,
      ...(typeof hint === "string" && hint ? { argumentHint: hint } : {}),
      content: body,
      source,
      filePath,
    };
  } catch {
    return null;
  }
}

/**
 * Every `*.md` directly in `dir` (not recursive; symlinks followed inside the workspace, a link leaving
 * it is reported), as templates (pi `loadTemplatesFromDir`). A missing directory gives `[]`.
 */
export async function loadPromptTemplatesFromDir(
  fs: FileSystem,
  dir: string,
  options: { source?: string; root?: string; diagnostics?: ResourceDiagnostic[] } = {},
): Promise<PromptTemplate[]> {
  const templates: PromptTemplate[] = [];
  const top = await statInWorkspace(fs, dir, options.root);
  if (!top || "escape" in top || top.stat.kind !== "dir") return templates;
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return templates;
  }
  for (const name of names) {
    if (!name.endsWith(".md")) continue;
    const full = childPath(dir, name);
    const found = await statInWorkspace(fs, full, options.root);
    if (!found) continue;
    if ("escape" in found) {
      options.diagnostics?.push(escapeDiagnostic(full, found.escape));
      continue;
    }
    if (found.stat.kind !== "file") continue;
    const t = await loadTemplateFromFile(fs, full, options.source ?? "path");
    if (t) templates.push(t);
  }
  return templates;
}

/**
 * Dedupe templates by name, first wins (pi `DefaultResourceLoader.dedupePrompts`, pi's `prompt-templates.ts`): later ones add
 * a `collision` diagnostic `name "/<name>" collision`.
 */
export function dedupePromptTemplates(templates: PromptTemplate[]): {
  prompts: PromptTemplate[];
  diagnostics: ResourceDiagnostic[];
} {
  const seen = new Map<string, PromptTemplate>();
  const diagnostics: ResourceDiagnostic[] = [];
  for (const t of templates) {
    const existing = seen.get(t.name);
    if (existing) {
      diagnostics.push({
        type: "collision",
        message: `name "/${t.name}" collision`,
        path: t.filePath,
        collision: {
          resourceType: "prompt",
          name: t.name,
          winnerPath: existing.filePath,
          loserPath: t.filePath,
        },
      });
    } else seen.set(t.name, t);
  }
  return { prompts: [...seen.values()], diagnostics };
}
