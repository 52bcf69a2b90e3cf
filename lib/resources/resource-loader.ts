/**
 * `loadResources`: pi's `DefaultResourceLoader.reload()` role over the VFS — context files, SYSTEM.md /
 * APPEND_SYSTEM.md with trust gating, skills, prompt templates, diagnostics, and a provenance list for the
 * IDE (which file is in effect, from which filesystem, and whether project trust gated it).
 *
 * The project lives on `fs` (a workspace VFS); the user's agent dir (pi `~/.pi/agent`) on `agentFs`.
 * Round trips: on a `Vfs` everything is warmed with a handful of bulk queries before the walk.
 */
import { joinPosix, normalizePosix } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";
import { type ContextFile, contextFileProbePaths, loadProjectContextFiles } from "./context-files";
import {
  ancestorsUp,
  childPath,
  escapeDiagnostic,
  prefetchPaths,
  preloadTree,
  type ResourceDiagnostic,
  readUtf8,
  statInWorkspace,
  stripBom,
  tryStat,
  withPathCache,
} from "./fs-util";
import {
  MemoryTrustStore,
  type ResolveProjectTrustedOptions,
  resolveProjectTrusted,
  TRUST_REQUIRING_PROJECT_ENTRIES,
} from "./project-trust";
import {
  dedupePromptTemplates,
  loadPromptTemplatesFromDir,
  loadTemplateFromFile,
  type PromptTemplate,
} from "./prompt-templates";
import { loadSkills, type Skill, type SkillSource } from "./skills";

/** Where a resource in effect came from (for the IDE's provenance panel). */
export interface ResourceProvenance {
  kind: "context" | "system" | "append" | "skill" | "template";
  /** Absolute VFS path. */
  path: string;
  /** `"project"` = the workspace VFS (`fs`), `"agent"` = the user's agent VFS (`agentFs`). */
  filesystem: "project" | "agent";
  /** Skill or template name. */
  name?: string;
  /** True when the location requires project trust (pi 2.9), i.e. it is in effect because the project is trusted. */
  trustGated: boolean;
}

/** Options of {@link loadResources} (pi `DefaultResourceLoaderOptions`, on the VFS). */
export interface LoadResourcesOptions {
  /** Project filesystem. */
  fs: FileSystem;
  /** Absolute working directory on `fs`. */
  cwd: string;
  /** Workspace root symlinks must stay inside (default `/`). */
  root?: string;
  /** The user's agent filesystem and agent dir (pi `~/.pi/agent`). */
  agentFs?: FileSystem;
  agentDir?: string;
  /** Directory on `agentFs` holding the user's `.agents/skills` (pi `~`); default: `agentDir` minus `/.pi/agent`. */
  agentHomeDir?: string;
  /** Decided trust; when absent it is resolved with `trust` (no store → untrusted unless nothing needs trust). */
  projectTrusted?: boolean;
  trust?: Omit<ResolveProjectTrustedOptions, "fs" | "cwd" | "trustStore"> & {
    trustStore?: ResolveProjectTrustedOptions["trustStore"];
  };
  noContextFiles?: boolean;
  noSkills?: boolean;
  noPromptTemplates?: boolean;
  /** Explicit system prompt (pi `--system-prompt`): a file path on `fs` if such a file exists, else literal text. */
  systemPrompt?: string;
  /** Explicit append prompts; replaces APPEND_SYSTEM.md discovery entirely. */
  appendSystemPrompt?: string[];
  /** Extra skill paths on `fs` (settings / CLI), loaded even with `noSkills`. */
  skillPaths?: string[];
  /** Extra prompt template paths on `fs` (files or directories). */
  promptPaths?: string[];
  agentsFilesOverride?: (base: { agentsFiles: ContextFile[] }) => { agentsFiles: ContextFile[] };
  systemPromptOverride?: (base: string | undefined) => string | undefined;
  appendSystemPromptOverride?: (base: string[]) => string[];
}

/** Result of {@link loadResources}: pi's loader getters as one snapshot. */
export interface LoadedResources {
  agentsFiles: ContextFile[];
  systemPrompt: string | undefined;
  /** pi `getSystemPromptSource()`: `{ path }` only for a file-backed prompt. */
  systemPromptSource: { path: string } | undefined;
  appendSystemPrompt: string[];
  appendSystemPromptSources: { path: string }[];
  skills: Skill[];
  promptTemplates: PromptTemplate[];
  diagnostics: ResourceDiagnostic[];
  provenance: ResourceProvenance[];
  projectTrusted: boolean;
}

interface PromptInput {
  text: string;
  /** File it was read from, when file-backed. */
  file?: { path: string; filesystem: "project" | "agent" };
}

/**
 * pi `resolvePromptInput` on the VFS (2.5, 2.8): `input` is a file path when such a file exists (relative
 * paths against `cwd`; content read, BOM stripped), otherwise literal text. A file that exists but cannot
 * be read adds `Could not read <description> file <path>: <error>` and the path itself is the text.
 */
export async function resolvePromptInput(
  fs: FileSystem,
  cwd: string,
  input: string | undefined,
  description: string,
  diagnostics: ResourceDiagnostic[],
  root?: string,
): Promise<PromptInput | undefined> {
  if (!input) return undefined;
  if (input.includes("\n")) return { text: input };
  const path = input.startsWith("/") ? normalizePosix(input) : joinPosix(cwd, input);
  const found = await statInWorkspace(fs, path, root);
  if (!found || "escape" in found || found.stat.kind !== "file") return { text: input };
  try {
    return { text: stripBom(await readUtf8(fs, found.real)), file: { path, filesystem: "project" } };
  } catch (error) {
    diagnostics.push({
      type: "warning",
      message: `Could not read ${description} file ${path}: ${String(error)}`,
      path,
    });
    return { text: input, file: { path, filesystem: "project" } };
  }
}

async function readDiscovered(
  fs: FileSystem,
  path: string,
  filesystem: "project" | "agent",
  description: string,
  diagnostics: ResourceDiagnostic[],
): Promise<PromptInput> {
  try {
    return { text: stripBom(await readUtf8(fs, path)), file: { path, filesystem } };
  } catch (error) {
    diagnostics.push({
      type: "warning",
      message: `Could not read ${description} file ${path}: ${String(error)}`,
      path,
    });
    return { text: path, file: { path, filesystem } };
  }
}

/**
 * Discover SYSTEM.md or APPEND_SYSTEM.md (pi `discoverSystemPromptFile`, 2.1–2.3): `<cwd>/.pi/<name>`
 * when the project is trusted and it exists, else `<agentDir>/<name>` on `agentFs`, else none.
 */
export async function discoverPromptFile(
  name: "SYSTEM.md" | "APPEND_SYSTEM.md",
  options: {
    fs: FileSystem;
    cwd: string;
    agentFs?: FileSystem;
    agentDir?: string;
    projectTrusted: boolean;
    root?: string;
  },
): Promise<{ path: string; filesystem: "project" | "agent" } | undefined> {
  const projectPath = childPath(childPath(options.cwd, ".pi"), name);
  if (options.projectTrusted) {
    const found = await statInWorkspace(options.fs, projectPath, options.root);
    if (found && !("escape" in found)) return { path: projectPath, filesystem: "project" };
  }
  if (options.agentFs && options.agentDir) {
    const globalPath = childPath(normalizePosix(options.agentDir), name);
    if (await tryStat(options.agentFs, globalPath)) return { path: globalPath, filesystem: "agent" };
  }
  return undefined;
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
 * Load every resource for `cwd` (pi `DefaultResourceLoader.reload()`, sections 1, 2, 4, 5):
 * - context files (1.x; not trust-gated, 1.19), `agentsFilesOverride` applied last;
 * - trust: `projectTrusted` or {@link resolveProjectTrusted};
 * - system prompt: explicit option > trusted `<cwd>/.pi/SYSTEM.md` > `<agentDir>/SYSTEM.md`; append
 *   prompts likewise (an explicit list replaces discovery); file-or-literal rule; sources (2.1–2.8);
 * - skills (2.14–2.16, 4.x): trusted `.pi/skills` → trusted `.agents/skills` up to the git root →
 *   `<agentDir>/skills` → user `.agents/skills` → `skillPaths`; first name wins, collisions reported;
 * - templates (5.19): trusted `.pi/prompts` → `<agentDir>/prompts` → `promptPaths`; first name wins.
 * @throws only what the filesystems throw for unexpected failures (missing files are not errors).
 */
export async function loadResources(options: LoadResourcesOptions): Promise<LoadedResources> {
  return withPathCache([options.fs, options.agentFs], () => loadResourcesCached(options));
}

async function loadResourcesCached(options: LoadResourcesOptions): Promise<LoadedResources> {
  const { fs, root } = options;
  const cwd = normalizePosix(options.cwd);
  const agentFs = options.agentFs;
  const agentDir = options.agentDir ? normalizePosix(options.agentDir) : undefined;
  const diagnostics: ResourceDiagnostic[] = [];
  const provenance: ResourceProvenance[] = [];
  const dotPi = childPath(cwd, ".pi");

  // Warm the caches: one metadata+data prefetch of every probe, then whole subtrees.
  const probes = [
    ...contextFileProbePaths(cwd),
    ...TRUST_REQUIRING_PROJECT_ENTRIES.map((n) => childPath(dotPi, n)),
    ...ancestorsUp(cwd).map((d) => childPath(d, ".agents/skills")),
  ];
  await prefetchPaths(fs, probes);
  if (await tryStat(fs, dotPi)) await preloadTree(fs, dotPi);
  if (agentFs && agentDir) {
    const home = agentHome(options.agentHomeDir, agentDir);
    await prefetchPaths(
      agentFs,
      [agentDir, ...(home !== undefined ? [childPath(home, ".agents/skills")] : [])],
      false,
    );
    if (await tryStat(agentFs, agentDir)) await preloadTree(agentFs, agentDir);
  }

  const projectTrusted =
    options.projectTrusted ??
    (await resolveProjectTrusted({
      ...(options.trust ?? {}),
      fs,
      cwd,
      trustStore: options.trust?.trustStore ?? new MemoryTrustStore(),
    }));

  // Context files (not gated by trust).
  const origins = new Map<ContextFile, "project" | "agent">();
  const discovered = options.noContextFiles
    ? []
    : await loadProjectContextFiles(fs, cwd, { agentFs, agentDir, root, diagnostics, origins });
  const agentsFiles = options.agentsFilesOverride
    ? options.agentsFilesOverride({ agentsFiles: discovered }).agentsFiles
    : discovered;
  for (const f of agentsFiles)
    provenance.push({
      kind: "context",
      path: f.path,
      filesystem: origins.get(f) ?? "project",
      trustGated: false,
    });

  // SYSTEM.md
  const discoverOpts = { fs, cwd, agentFs, agentDir, projectTrusted, root };
  let systemInput: PromptInput | undefined;
  if (options.systemPrompt !== undefined) {
    systemInput = await resolvePromptInput(fs, cwd, options.systemPrompt, "system prompt", diagnostics, root);
  } else {
    const found = await discoverPromptFile("SYSTEM.md", discoverOpts);
    if (found)
      systemInput = await readDiscovered(
        found.filesystem === "agent" ? agentFs! : fs,
        found.path,
        found.filesystem,
        "system prompt",
        diagnostics,
      );
  }
  const systemPrompt = options.systemPromptOverride
    ? options.systemPromptOverride(systemInput?.text)
    : systemInput?.text;
  const systemPromptSource = systemInput?.file ? { path: systemInput.file.path } : undefined;
  if (systemInput?.file)
    provenance.push({
      kind: "system",
      path: systemInput.file.path,
      filesystem: systemInput.file.filesystem,
      trustGated: systemInput.file.filesystem === "project" && options.systemPrompt === undefined,
    });

  // APPEND_SYSTEM.md
  const appendInputs: PromptInput[] = [];
  if (options.appendSystemPrompt) {
    for (const source of options.appendSystemPrompt) {
      const r = await resolvePromptInput(fs, cwd, source, "append system prompt", diagnostics, root);
      if (r) appendInputs.push(r);
    }
  } else {
    const found = await discoverPromptFile("APPEND_SYSTEM.md", discoverOpts);
    if (found)
      appendInputs.push(
        await readDiscovered(
          found.filesystem === "agent" ? agentFs! : fs,
          found.path,
          found.filesystem,
          "append system prompt",
          diagnostics,
        ),
      );
  }
  const baseAppend = appendInputs.map((a) => a.text);
  const appendSystemPrompt = options.appendSystemPromptOverride
    ? options.appendSystemPromptOverride(baseAppend)
    : baseAppend;
  const appendSystemPromptSources = appendInputs.filter((a) => a.file).map((a) => ({ path: a.file!.path }));
  for (const a of appendInputs)
    if (a.file)
      provenance.push({
        kind: "append",
        path: a.file.path,
        filesystem: a.file.filesystem,
        trustGated: a.file.filesystem === "project" && !options.appendSystemPrompt,
      });

  // Skills
  const skillSources: (SkillSource & { filesystem: "project" | "agent"; trustGated: boolean })[] = [];
  if (!options.noSkills) {
    if (projectTrusted) {
      skillSources.push({
        fs,
        path: childPath(dotPi, "skills"),
        source: "project",
        mode: "pi",
        root,
        filesystem: "project",
        trustGated: true,
      });
      for (const dir of await collectAncestorAgentsSkillDirs(fs, cwd)) {
        const st = await tryStat(fs, dir);
        if (st?.kind !== "dir") continue;
        await preloadTree(fs, dir);
        skillSources.push({
          fs,
          path: dir,
          source: "project",
          mode: "agents",
          root,
          filesystem: "project",
          trustGated: true,
        });
      }
    }
    if (agentFs && agentDir) {
      skillSources.push({
        fs: agentFs,
        path: childPath(agentDir, "skills"),
        source: "user",
        mode: "pi",
        filesystem: "agent",
        trustGated: false,
      });
      const home =
        options.agentHomeDir ??
        (agentDir.endsWith("/.pi/agent") ? agentDir.slice(0, -"/.pi/agent".length) || "/" : undefined);
      if (home !== undefined) {
        const userAgents = childPath(home, ".agents/skills");
        if (!userAgents.startsWith(`${agentDir}/`) && (await tryStat(agentFs, userAgents)))
          await preloadTree(agentFs, userAgents);
        skillSources.push({
          fs: agentFs,
          path: userAgents,
          source: "user",
          mode: "agents",
          filesystem: "agent",
          trustGated: false,
        });
      }
    }
  }
  for (const p of options.skillPaths ?? []) {
    const path = p.startsWith("/") ? normalizePosix(p) : joinPosix(cwd, p);
    skillSources.push({
      fs,
      path,
      source: "path",
      mode: "pi",
      explicit: true,
      root,
      filesystem: "project",
      trustGated: false,
    });
  }
  const skillsResult = await loadSkills(skillSources);
  diagnostics.push(...skillsResult.diagnostics);
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
      trustGated: src?.trustGated ?? false,
    });
  }

  // Prompt templates
  const templates: { t: PromptTemplate; filesystem: "project" | "agent"; trustGated: boolean }[] = [];
  if (!options.noPromptTemplates) {
    if (projectTrusted)
      for (const t of await loadPromptTemplatesFromDir(fs, childPath(dotPi, "prompts"), {
        source: "project",
        root,
        diagnostics,
      }))
        templates.push({ t, filesystem: "project", trustGated: true });
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
      trustGated: x.trustGated,
    });
  }

  return {
    agentsFiles,
    systemPrompt,
    systemPromptSource,
    appendSystemPrompt,
    appendSystemPromptSources,
    skills: skillsResult.skills,
    promptTemplates: deduped.prompts,
    diagnostics,
    provenance,
    projectTrusted,
  };
}

/** The user's home on the agent filesystem: explicit, else `agentDir` minus a trailing `/.pi/agent`. */
function agentHome(explicit: string | undefined, agentDir: string): string | undefined {
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
