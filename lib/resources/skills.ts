/**
 * Skills over the VFS (pi `core/skills.ts`, `package-manager.ts` `collectSkillEntries`,
 * `agent-session.ts` `_expandSkillCommand` / `parseSkillBlock`).
 */
import ignore from "ignore";
import { MAX_PATH_DEPTH } from "@/lib/vfs/limits";
import { basenamePosix, dirnamePosix, relativePosix } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";
import { parseFrontmatter } from "./frontmatter";
import {
  canonicalize,
  childPath,
  escapeDiagnostic,
  type ResourceDiagnostic,
  readUtf8,
  statInWorkspace,
} from "./fs-util";

const MAX_NAME_LENGTH = 64;
const MAX_DESCRIPTION_LENGTH = 1024;
const IGNORE_FILE_NAMES = [".gitignore", ".ignore", ".fdignore"];

type IgnoreMatcher = ReturnType<typeof ignore>;

/** A loaded skill (pi `Skill`, without `sourceInfo`; `source` names where it came from). */
export interface Skill {
  name: string;
  description: string;
  /** Absolute VFS path of the skill file. */
  filePath: string;
  /** Directory of the skill file. */
  baseDir: string;
  /** `"project"`, `"user"`, `"path"` or a caller label. */
  source: string;
  disableModelInvocation: boolean;
}

/** pi `LoadSkillsResult`. */
export interface LoadSkillsResult {
  skills: Skill[];
  diagnostics: ResourceDiagnostic[];
}

/** pi's discovery modes: `"pi"` (`.pi/skills`, agent dir) or `"agents"` (`.agents/skills`), 2.16. */
export type SkillDiscoveryMode = "pi" | "agents";

function prefixIgnorePattern(line: string, prefix: string): string | null {
  const trimmed = line.trim();
  if (!trimmed) return null;
  if (trimmed.startsWith("#") && !trimmed.startsWith("\\#")) return null;
  let pattern = line;
  let negated = false;
  if (pattern.startsWith("!")) {
    negated = true;
    pattern = pattern.slice(1);
  } else if (pattern.startsWith("\\!")) {
    pattern = pattern.slice(1);
  }
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  const prefixed = prefix ? `${prefix}${pattern}` : pattern;
  return negated ? `!${prefixed}` : prefixed;
}

async function addIgnoreRules(
  fs: FileSystem,
  ig: IgnoreMatcher,
  dir: string,
  rootDir: string,
  names: string[],
): Promise<void> {
  const rel = relativePosix(rootDir, dir);
  const prefix = rel ? `${rel}/` : "";
  for (const name of IGNORE_FILE_NAMES) {
    if (!names.includes(name)) continue;
    const path = childPath(dir, name);
    try {
      const patterns = (await readUtf8(fs, path))
        .split(/\r?\n/)
        .map((line) => prefixIgnorePattern(line, prefix))
        .filter((line): line is string => Boolean(line));
      if (patterns.length > 0) ig.add(patterns);
    } catch {}
  }
}

function validateName(name: string): string[] {
  const errors: string[] = [];
  if (name.length > MAX_NAME_LENGTH)
    errors.push(`name exceeds ${MAX_NAME_LENGTH} characters (${name.length})`);
  if (!/^[a-z0-9-]+$/.test(name))
    errors.push("name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)");
  if (name.startsWith("-") || name.endsWith("-")) errors.push("name must not start or end with a hyphen");
  if (name.includes("--")) errors.push("name must not contain consecutive hyphens");
  return errors;
}

function validateDescription(description: unknown): string[] {
  if (typeof description !== "string" || description.trim() === "") return ["description is required"];
  if (description.length > MAX_DESCRIPTION_LENGTH)
    return [`description exceeds ${MAX_DESCRIPTION_LENGTH} characters (${description.length})`];
  return [];
}

/**
 * Load one skill file (pi `loadSkillFromFile`, pi's `skills.ts`): name = frontmatter `name` (non-empty string)
 * else the parent directory's name; a non-empty `description` is required (`SKILL.md` without one warns
 * `description is required`; another `.md` without one is skipped silently); name problems only warn;
 * invalid YAML in a `SKILL.md` warns with the parser's message.
 */
export async function loadSkillFromFile(
  fs: FileSystem,
  filePath: string,
  source: string,
): Promise<{ skill: Skill | null; diagnostics: ResourceDiagnostic[] }> {
  const diagnostics: ResourceDiagnostic[] = [];
  const isDeclaredSkill = basenamePosix(filePath) === "SKILL.md";
  let raw: string;
  try {
    raw = await readUtf8(fs, filePath);
  } catch (error) {
    const message = error instanceof Error ? error.message : "failed to read skill file";
    return { skill: null, diagnostics: [{ type: "warning", message, path: filePath }] };
  }
  let frontmatter: Record<string, unknown>;
  try {
    ({ frontmatter } = parseFrontmatter(raw));
  } catch (error) {
    if (isDeclaredSkill) {
      const message = error instanceof Error ? error.message : "failed to parse skill file";
      diagnostics.push({ type: "warning", message, path: filePath });
    }
    return { skill: null, diagnostics };
  }
  const description = frontmatter.description;
  const hasDescription = typeof description === "string" && description.trim() !== "";
  if (!isDeclaredSkill && !hasDescription) return { skill: null, diagnostics };
  const baseDir = dirnamePosix(filePath);
  for (const message of validateDescription(description))
    diagnostics.push({ type: "warning", message, path: filePath });
  const fmName = typeof frontmatter.name === "string" ? frontmatter.name : undefined;
  const name = fmName || basenamePosix(baseDir);
  for (const message of validateName(name)) diagnostics.push({ type: "warning", message, path: filePath });
  if (!hasDescription) return { skill: null, diagnostics };
  return {
    skill: {
      name,
      description: description as string,
      filePath,
      baseDir,
      source,
      disableModelInvocation: frontmatter["disable-model-invocation"] === true,
    },
    diagnostics,
  };
}

/** Options of {@link collectSkillEntries}. */
export interface CollectSkillEntriesOptions {
  /** Workspace root symlinks must stay inside (default `/`). */
  root?: string;
  diagnostics?: ResourceDiagnostic[];
}

/**
 * Skill files under `dir` (pi `collectSkillEntries`, pi's `skills.ts`, pi's `resource-loader.ts`): a directory with a `SKILL.md`
 * is a skill root (that file only, nothing below it); otherwise entries starting with `.` and
 * `node_modules` are skipped, `.gitignore`/`.ignore`/`.fdignore` (scoped to their directory) apply,
 * subdirectories are recursed, and `*.md` files count at the root in `"pi"` mode or below the root in
 * `"agents"` mode. Symlinks are followed inside the workspace; one leaving it is reported.
 * Strata bounds the walk (pi does not): folders more than `MAX_PATH_DEPTH` (64) levels below `dir` are not
 * searched, with one warning diagnostic, so a deep or self-linking tree cannot slow every session's load.
 * @param depth levels below the discovery root (internal, for the bound).
 * @returns absolute file paths in directory order.
 */
export async function collectSkillEntries(
  fs: FileSystem,
  dir: string,
  mode: SkillDiscoveryMode,
  options: CollectSkillEntriesOptions = {},
  ignoreMatcher?: IgnoreMatcher,
  rootDir?: string,
  depth = 0,
): Promise<string[]> {
  const entries: string[] = [];
  const top = await statInWorkspace(fs, dir, options.root);
  if (!top || "escape" in top || top.stat.kind !== "dir") return entries;
  const root = rootDir ?? dir;
  const ig = ignoreMatcher ?? ignore();
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return entries;
  }
  await addIgnoreRules(fs, ig, dir, root, names);
  if (names.includes("SKILL.md")) {
    const full = childPath(dir, "SKILL.md");
    const found = await statInWorkspace(fs, full, options.root);
    if (found && "escape" in found) options.diagnostics?.push(escapeDiagnostic(full, found.escape));
    else if (found && found.stat.kind === "file" && !ig.ignores(relativePosix(root, full))) {
      entries.push(full);
      return entries;
    }
  }
  for (const name of names) {
    if (name.startsWith(".") || name === "node_modules") continue;
    const full = childPath(dir, name);
    const found = await statInWorkspace(fs, full, options.root);
    if (!found) continue;
    if ("escape" in found) {
      options.diagnostics?.push(escapeDiagnostic(full, found.escape));
      continue;
    }
    const isDir = found.stat.kind === "dir";
    const isFile = found.stat.kind === "file";
    const rel = relativePosix(root, full);
    const includeMd =
      isFile &&
      name.endsWith(".md") &&
      !ig.ignores(rel) &&
      ((mode === "pi" && dir === root) || (mode === "agents" && dir !== root));
    if (includeMd) {
      entries.push(full);
      continue;
    }
    if (!isDir || ig.ignores(`${rel}/`)) continue;
    if (depth + 1 > MAX_PATH_DEPTH) {
      options.diagnostics?.push({
        type: "warning",
        message: `skill discovery stops ${MAX_PATH_DEPTH} levels below ${root}; deeper folders are not searched`,
        path: full,
      });
      continue;
    }
    entries.push(...(await collectSkillEntries(fs, full, mode, options, ig, root, depth + 1)));
  }
  return entries;
}

/**
 * Load every skill under `dir` (pi `loadSkillsFromDir`): {@link collectSkillEntries} then
 * {@link loadSkillFromFile} per file, in order. Root-level `*.md` skills without a frontmatter name are
 * named after the root directory (pi's `skills.ts`).
 */
export async function loadSkillsFromDir(
  fs: FileSystem,
  options: { dir: string; source: string; mode?: SkillDiscoveryMode; root?: string },
): Promise<LoadSkillsResult> {
  const diagnostics: ResourceDiagnostic[] = [];
  const files = await collectSkillEntries(fs, options.dir, options.mode ?? "pi", {
    root: options.root,
    diagnostics,
  });
  const skills: Skill[] = [];
  for (const file of files) {
    const r = await loadSkillFromFile(fs, file, options.source);
    if (r.skill) skills.push(r.skill);
    diagnostics.push(...r.diagnostics);
  }
  return { skills, diagnostics };
}

/** One source of skills for {@link loadSkills}: a directory (scanned in `mode`) or a single file. */
export interface SkillSource {
  fs: FileSystem;
  path: string;
  source: string;
  mode?: SkillDiscoveryMode;
  /** Explicit paths warn when missing (`skill path does not exist`); auto-discovered dirs do not. */
  explicit?: boolean;
  /** Workspace root for symlinks on this filesystem. */
  root?: string;
}

/**
 * Load skills from several sources in order (pi `loadSkills`, pi's `skills.ts`): the first skill of a name
 * wins and later ones add a `collision` diagnostic `name "<n>" collision`; the same canonical file
 * reached again (e.g. through a symlink) is skipped silently. An explicit path that does not exist warns
 * `skill path does not exist`; an explicit non-`.md` file warns `skill path is not a markdown file`.
 */
export async function loadSkills(sources: SkillSource[]): Promise<LoadSkillsResult> {
  const byName = new Map<string, Skill>();
  const realPaths = new Set<string>();
  const all: ResourceDiagnostic[] = [];
  const collisions: ResourceDiagnostic[] = [];
  const fsIds = new Map<FileSystem, number>();
  const add = async (src: SkillSource, result: LoadSkillsResult) => {
    all.push(...result.diagnostics);
    if (!fsIds.has(src.fs)) fsIds.set(src.fs, fsIds.size);
    for (const skill of result.skills) {
      const canon = await canonicalize(src.fs, skill.filePath, src.root);
      const real = `${fsIds.get(src.fs)}:${canon.path ?? skill.filePath}`;
      if (realPaths.has(real)) continue;
      const existing = byName.get(skill.name);
      if (existing) {
        collisions.push({
          type: "collision",
          message: `name "${skill.name}" collision`,
          path: skill.filePath,
          collision: {
            resourceType: "skill",
            name: skill.name,
            winnerPath: existing.filePath,
            loserPath: skill.filePath,
          },
        });
      } else {
        byName.set(skill.name, skill);
        realPaths.add(real);
      }
    }
  };
  for (const src of sources) {
    const found = await statInWorkspace(src.fs, src.path, src.root);
    if (!found) {
      if (src.explicit) all.push({ type: "warning", message: "skill path does not exist", path: src.path });
      continue;
    }
    if ("escape" in found) {
      all.push(escapeDiagnostic(src.path, found.escape));
      continue;
    }
    if (found.stat.kind === "dir") {
      await add(
        src,
        await loadSkillsFromDir(src.fs, {
          dir: src.path,
          source: src.source,
          mode: src.mode,
          root: src.root,
        }),
      );
    } else if (found.stat.kind === "file" && src.path.endsWith(".md")) {
      const r = await loadSkillFromFile(src.fs, src.path, src.source);
      if (r.skill) await add(src, { skills: [r.skill], diagnostics: r.diagnostics });
      else all.push(...r.diagnostics);
    } else {
      all.push({ type: "warning", message: "skill path is not a markdown file", path: src.path });
    }
  }
  return { skills: [...byName.values()], diagnostics: [...all, ...collisions] };
}

export {
  type ExpandSkillCommandResult,
  expandSkillCommand,
  formatSkillsForPrompt,
  type ParsedSkillBlock,
  parseSkillBlock,
} from "./skill-prompt";
