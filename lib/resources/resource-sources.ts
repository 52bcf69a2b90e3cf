/**
 * The skill and prompt-template sources of `loadResources` in pi's order (pi's `resource-loader.ts` and `prompt-templates.ts`), with Strata's team rules
 * root ranked as the outermost ancestor of the project: after the project's own (trust-gated) locations and
 * before the user's agent dir. Split from resource-loader.ts; see its module comment.
 */
import { joinPosix, normalizePosix } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";
import type { ResourceFilesystem } from "./context-files";
import {
  ancestorsUp,
  childPath,
  escapeDiagnostic,
  preloadTree,
  type ResourceDiagnostic,
  statInWorkspace,
  tryStat,
} from "./fs-util";
import {
  dedupePromptTemplates,
  loadPromptTemplatesFromDir,
  loadTemplateFromFile,
  type PromptTemplate,
} from "./prompt-templates";
import type { ResourceProvenance } from "./resource-loader";
import { type LoadSkillsResult, loadSkills, type Skill, type SkillSource } from "./skills";

/** What the source collectors need of a `loadResources` call (paths normalised, trust decided). */
export interface SourceContext {
  fs: FileSystem;
  cwd: string;
  root?: string;
  agentFs?: FileSystem;
  agentDir?: string;
  agentHomeDir?: string;
  teamFs?: FileSystem;
  teamDir?: string;
  projectTrusted: boolean;
  noSkills?: boolean;
  noPromptTemplates?: boolean;
  skillPaths?: string[];
  promptPaths?: string[];
  /** Receives every loading problem. */
  diagnostics: ResourceDiagnostic[];
}

/** The scope of a resource read from `filesystem` (`team` → team, `agent` → personal, `project` → project). */
export function scopeOf(filesystem: ResourceFilesystem): "team" | "project" | "personal" {
  return filesystem === "agent" ? "personal" : filesystem;
}

/** The git repo root above `dir` (first ancestor containing `.git`), or `/` (pi `findGitRepoRoot`). */
async function gitRepoRoot(fs: FileSystem, dir: string): Promise<string | null> {
  for (const d of ancestorsUp(dir)) if (await tryStat(fs, childPath(d, ".git"))) return d;
  return null;
}

/** `.agents/skills` dirs from `cwd` up to the git repo root, nearest first (pi `collectAncestorAgentsSkillDirs`). */
export async function collectAncestorAgentsSkillDirs(fs: FileSystem, cwd: string): Promise<string[]> {
  const repo = await gitRepoRoot(fs, cwd);
  const out: string[] = [];
  for (const d of ancestorsUp(cwd)) {
    out.push(childPath(d, ".agents/skills"));
    if (repo !== null && d === repo) break;
  }
  return out;
}

/**
 * Skills in effect (pi's `resource-loader.ts` and `skills.ts`): trusted `.pi/skills` → trusted `.agents/skills` up to the git root →
 * `<teamDir>/skills` → `<agentDir>/skills` → user `.agents/skills` → `skillPaths`; first name wins, collisions
 * reported in `ctx.diagnostics`; one provenance entry per skill is pushed onto `provenance`.
 */
export async function loadSkillsInEffect(
  ctx: SourceContext,
  provenance: ResourceProvenance[],
): Promise<LoadSkillsResult> {
  const skillSources: ProvenancedSkillSource[] = ctx.noSkills
    ? []
    : [...(await projectSkillSources(ctx)), ...teamSkillSources(ctx), ...(await userSkillSources(ctx))];
  for (const p of ctx.skillPaths ?? []) {
    const path = p.startsWith("/") ? normalizePosix(p) : joinPosix(ctx.cwd, p);
    skillSources.push({
      fs: ctx.fs,
      path,
      source: "path",
      mode: "pi",
      explicit: true,
      root: ctx.root,
      filesystem: "project",
      trustGated: false,
    });
  }
  const skillsResult = await loadSkills(skillSources);
  ctx.diagnostics.push(...skillsResult.diagnostics);
  for (const s of skillsResult.skills) {
    const src = skillSources.find(
      (x) =>
        x.fs === fsFor(s, skillSources) && (s.filePath === x.path || s.filePath.startsWith(`${x.path}/`)),
    );
    provenance.push({
      kind: "skill",
      path: s.filePath,
      name: s.name,
      filesystem: src?.filesystem ?? "project",
      scope: scopeOf(src?.filesystem ?? "project"),
      trustGated: src?.trustGated ?? false,
    });
  }
  return skillsResult;
}

/** A skill source with what the inspector shows of it: which filesystem it reads and whether trust gates it. */
type ProvenancedSkillSource = SkillSource & { filesystem: ResourceFilesystem; trustGated: boolean };

/** A trusted project's skills: `.pi/skills`, then every `.agents/skills` from `cwd` up to the git root. */
async function projectSkillSources(ctx: SourceContext): Promise<ProvenancedSkillSource[]> {
  const { fs, cwd, root } = ctx;
  if (!ctx.projectTrusted) return [];
  const out: ProvenancedSkillSource[] = [
    {
      fs,
      path: childPath(childPath(cwd, ".pi"), "skills"),
      source: "project",
      mode: "pi",
      root,
      filesystem: "project",
      trustGated: true,
    },
  ];
  for (const dir of await collectAncestorAgentsSkillDirs(fs, cwd)) {
    const st = await tryStat(fs, dir);
    if (st?.kind !== "dir") continue;
    await preloadTree(fs, dir);
    out.push({
      fs,
      path: dir,
      source: "project",
      mode: "agents",
      root,
      filesystem: "project",
      trustGated: true,
    });
  }
  return out;
}

/** The team rules root's `skills` (not gated by trust: the team's rules are reviewed). */
function teamSkillSources(ctx: SourceContext): ProvenancedSkillSource[] {
  const { fs, root, teamFs, teamDir } = ctx;
  if (!teamFs || !teamDir) return [];
  return [
    {
      fs: teamFs,
      path: childPath(teamDir, "skills"),
      source: "team",
      mode: "pi",
      ...(teamFs === fs ? { root } : {}),
      filesystem: "team",
      trustGated: false,
    },
  ];
}

/** The user's skills: `<agentDir>/skills`, then `~/.agents/skills` when the agent dir has a home. */
async function userSkillSources(ctx: SourceContext): Promise<ProvenancedSkillSource[]> {
  const { agentFs, agentDir } = ctx;
  if (!agentFs || !agentDir) return [];
  const out: ProvenancedSkillSource[] = [
    {
      fs: agentFs,
      path: childPath(agentDir, "skills"),
      source: "user",
      mode: "pi",
      filesystem: "agent",
      trustGated: false,
    },
  ];
  const home =
    ctx.agentHomeDir ??
    (agentDir.endsWith("/.pi/agent") ? agentDir.slice(0, -"/.pi/agent".length) || "/" : undefined);
  if (home === undefined) return out;
  const userAgents = childPath(home, ".agents/skills");
  if (!userAgents.startsWith(`${agentDir}/`) && (await tryStat(agentFs, userAgents)))
    await preloadTree(agentFs, userAgents);
  out.push({
    fs: agentFs,
    path: userAgents,
    source: "user",
    mode: "agents",
    filesystem: "agent",
    trustGated: false,
  });
  return out;
}

/**
 * Prompt templates in effect (pi's `prompt-templates.ts`): trusted `.pi/prompts` → `<teamDir>/prompts` → `<agentDir>/prompts` →
 * `promptPaths`; first name wins (collisions reported in `ctx.diagnostics`); provenance pushed onto `provenance`.
 */
export async function loadTemplatesInEffect(
  ctx: SourceContext,
  provenance: ResourceProvenance[],
): Promise<PromptTemplate[]> {
  const { fs, cwd, root, agentFs, agentDir, teamFs, teamDir, projectTrusted, diagnostics } = ctx;
  const options = ctx;
  const dotPi = childPath(cwd, ".pi");
  const templates: { t: PromptTemplate; filesystem: ResourceFilesystem; trustGated: boolean }[] = [];
  if (!options.noPromptTemplates) {
    if (projectTrusted)
      for (const t of await loadPromptTemplatesFromDir(fs, childPath(dotPi, "prompts"), {
        source: "project",
        root,
        diagnostics,
      }))
        templates.push({ t, filesystem: "project", trustGated: true });
    if (teamFs && teamDir)
      for (const t of await loadPromptTemplatesFromDir(teamFs, childPath(teamDir, "prompts"), {
        source: "team",
        ...(teamFs === fs ? { root } : {}),
        diagnostics,
      }))
        templates.push({ t, filesystem: "team", trustGated: false });
    if (agentFs && agentDir)
      for (const t of await loadPromptTemplatesFromDir(agentFs, childPath(agentDir, "prompts"), {
        source: "user",
        diagnostics,
      }))
        templates.push({ t, filesystem: "agent", trustGated: false });
  }
  for (const p of options.promptPaths ?? []) {
    const path = p.startsWith("/") ? normalizePosix(p) : joinPosix(cwd, p);
    const found = await statInWorkspace(fs, path, root);
    if (!found) {
      diagnostics.push({ type: "error", message: "Prompt template path does not exist", path });
      continue;
    }
    if ("escape" in found) {
      diagnostics.push(escapeDiagnostic(path, found.escape));
      continue;
    }
    if (found.stat.kind === "dir") {
      for (const t of await loadPromptTemplatesFromDir(fs, path, { source: "path", root, diagnostics }))
        templates.push({ t, filesystem: "project", trustGated: false });
    } else if (path.endsWith(".md")) {
      const t = await loadTemplateFromFile(fs, path, "path");
      if (t) templates.push({ t, filesystem: "project", trustGated: false });
    }
  }
  const deduped = dedupePromptTemplates(templates.map((x) => x.t));
  diagnostics.push(...deduped.diagnostics);
  for (const t of deduped.prompts) {
    const x = templates.find((y) => y.t === t)!;
    provenance.push({
      kind: "template",
      path: t.filePath,
      name: t.name,
      filesystem: x.filesystem,
      scope: scopeOf(x.filesystem),
      trustGated: x.trustGated,
    });
  }

  return deduped.prompts;
}

/** The user's home on the agent filesystem: explicit, else `agentDir` minus a trailing `/.pi/agent`. */
export function agentHome(explicit: string | undefined, agentDir: string): string | undefined {
  if (explicit !== undefined) return normalizePosix(explicit);
  return agentDir.endsWith("/.pi/agent") ? agentDir.slice(0, -"/.pi/agent".length) || "/" : undefined;
}

/** The filesystem a loaded skill came from (skills carry no fs; match by source label). */
function fsFor(skill: Skill, sources: SkillSource[]): FileSystem | undefined {
  return sources.find(
    (s) =>
      s.source === skill.source && (skill.filePath === s.path || skill.filePath.startsWith(`${s.path}/`)),
  )?.fs;
}
