/**
 * `loadResources`: pi's `DefaultResourceLoader.reload()` role over the VFS — context files, SYSTEM.md /
 * APPEND_SYSTEM.md with trust gating, skills, prompt templates, diagnostics, and a provenance list for the
 * IDE (which file is in effect, from which filesystem and scope, and whether project trust gated it).
 *
 * The project lives on `fs` (a workspace VFS); the user's agent dir (pi `~/.pi/agent`) on `agentFs`.
 * Strata adds one explicit input pi does not have: a team's rules root (`teamRulesDir` on `teamFs`), which
 * acts as the outermost ancestor of every project of the team — its context file comes after the agent
 * dir's and before the project ancestors', its `skills/` and `prompts/` rank after the project's and before
 * the agent dir's, and its SYSTEM.md / APPEND_SYSTEM.md apply only when the project is trusted (and count as
 * trust-requiring resources). Without `teamRulesDir` everything is exactly pi's.
 * Round trips: on a `Vfs` everything is warmed with a handful of bulk queries before the walk.
 * The option and result types are in ./resource-loader-types.ts, re-exported here.
 */
import { normalizePosix } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";
import {
  CONTEXT_FILE_CANDIDATES,
  type ContextFile,
  contextFileProbePaths,
  loadProjectContextFiles,
  type ResourceFilesystem,
} from "./context-files";
import {
  ancestorsUp,
  childPath,
  prefetchPaths,
  preloadTree,
  type ResourceDiagnostic,
  tryStat,
  withPathCache,
} from "./fs-util";
import {
  listTeamTrustRequiringResources,
  MemoryTrustStore,
  resolveProjectTrusted,
  TRUST_REQUIRING_PROJECT_ENTRIES,
  TRUST_REQUIRING_TEAM_ENTRIES,
} from "./project-trust";
import { discoverPromptFile, type PromptInput, readDiscovered, resolvePromptInput } from "./prompt-files";
import type { LoadedResources, LoadResourcesOptions, ResourceProvenance } from "./resource-loader-types";
import {
  agentHome,
  collectAncestorAgentsSkillDirs,
  loadSkillsInEffect,
  loadTemplatesInEffect,
  type SourceContext,
  scopeOf,
} from "./resource-sources";

export type {
  LoadedResources,
  LoadResourcesOptions,
  ResourceProvenance,
  ResourceScope,
} from "./resource-loader-types";
export type { ResourceFilesystem };
export { collectAncestorAgentsSkillDirs, discoverPromptFile, resolvePromptInput, scopeOf };

/**
 * Load every resource for `cwd` (pi `DefaultResourceLoader.reload()`, sections 1, 2, 4, 5):
 * - context files (1.x; not trust-gated, pi's `resource-loader.ts`): agent dir, team rules root, ancestors; `agentsFilesOverride`
 *   applied last;
 * - trust: `projectTrusted` or {@link resolveProjectTrusted} (the team's SYSTEM.md / APPEND_SYSTEM.md count as
 *   trust-requiring resources);
 * - system prompt: explicit option > trusted `<cwd>/.pi/SYSTEM.md` > trusted `<teamRulesDir>/SYSTEM.md` >
 *   `<agentDir>/SYSTEM.md`; append prompts likewise (an explicit list replaces discovery); file-or-literal
 *   rule; sources (pi's `resource-loader.ts`);
 * - skills (pi's `resource-loader.ts` and `skills.ts`): trusted `.pi/skills` → trusted `.agents/skills` up to the git root →
 *   `<teamRulesDir>/skills` → `<agentDir>/skills` → user `.agents/skills` → `skillPaths`; first name wins,
 *   collisions reported;
 * - templates (pi's `prompt-templates.ts`): trusted `.pi/prompts` → `<teamRulesDir>/prompts` → `<agentDir>/prompts` →
 *   `promptPaths`; first name wins.
 * @throws only what the filesystems throw for unexpected failures (missing files are not errors).
 */
export async function loadResources(options: LoadResourcesOptions): Promise<LoadedResources> {
  return withPathCache([options.fs, options.agentFs, options.teamFs], () => loadResourcesCached(options));
}

/** The filesystems and directories one load reads, normalised: the project's, the agent dir's, the team rules root's. */
interface LoadRoots {
  fs: FileSystem;
  root: string | undefined;
  cwd: string;
  agentFs: FileSystem | undefined;
  agentDir: string | undefined;
  teamFs: FileSystem | undefined;
  teamDir: string | undefined;
}

function loadRoots(options: LoadResourcesOptions): LoadRoots {
  const teamFs = options.teamRulesDir ? options.teamFs : undefined;
  return {
    fs: options.fs,
    root: options.root,
    cwd: normalizePosix(options.cwd),
    agentFs: options.agentFs,
    agentDir: options.agentDir ? normalizePosix(options.agentDir) : undefined,
    teamFs,
    teamDir: teamFs && options.teamRulesDir ? normalizePosix(options.teamRulesDir) : undefined,
  };
}

/** Warm the caches: one metadata+data prefetch of every probe, then whole subtrees (`.pi`, the agent dir, team skills and prompts). */
async function warmResourceCaches(r: LoadRoots, agentHomeDir: string | undefined): Promise<void> {
  const { fs, cwd, agentFs, agentDir, teamFs, teamDir } = r;
  const dotPi = childPath(cwd, ".pi");
  const probes = [
    ...contextFileProbePaths(cwd),
    ...TRUST_REQUIRING_PROJECT_ENTRIES.map((n) => childPath(dotPi, n)),
    ...ancestorsUp(cwd).map((d) => childPath(d, ".agents/skills")),
  ];
  await prefetchPaths(fs, probes);
  if (await tryStat(fs, dotPi)) await preloadTree(fs, dotPi);
  if (agentFs && agentDir) {
    const home = agentHome(agentHomeDir, agentDir);
    await prefetchPaths(
      agentFs,
      [agentDir, ...(home !== undefined ? [childPath(home, ".agents/skills")] : [])],
      false,
    );
    if (await tryStat(agentFs, agentDir)) await preloadTree(agentFs, agentDir);
  }
  if (teamFs && teamDir) {
    // The rules root holds its git repository (`.git`): warm only what is read, never the object store.
    const names = [...CONTEXT_FILE_CANDIDATES, ...TRUST_REQUIRING_TEAM_ENTRIES, "skills", "prompts"];
    await prefetchPaths(
      teamFs,
      names.map((n) => childPath(teamDir, n)),
    );
    for (const sub of ["skills", "prompts"]) {
      const dir = childPath(teamDir, sub);
      if ((await tryStat(teamFs, dir))?.kind === "dir") await preloadTree(teamFs, dir);
    }
  }
}

/** `options.projectTrusted` when given, else the trust store's answer (the team root's trust-requiring files count too). */
async function projectTrustOf(options: LoadResourcesOptions, r: LoadRoots): Promise<boolean> {
  if (options.projectTrusted !== undefined) return options.projectTrusted;
  return resolveProjectTrusted({
    ...(options.trust ?? {}),
    fs: r.fs,
    cwd: r.cwd,
    trustStore: options.trust?.trustStore ?? new MemoryTrustStore(),
    ...(r.teamFs && r.teamDir
      ? { otherTrustRequiring: await listTeamTrustRequiringResources(r.teamFs, r.teamDir) }
      : {}),
  });
}

/** The AGENTS.md / CLAUDE.md files in effect (not gated by trust), after `agentsFilesOverride`, with their provenance. */
async function contextFilesInEffect(
  options: LoadResourcesOptions,
  r: LoadRoots,
  diagnostics: ResourceDiagnostic[],
  provenance: ResourceProvenance[],
): Promise<ContextFile[]> {
  const origins = new Map<ContextFile, ResourceFilesystem>();
  const discovered = options.noContextFiles
    ? []
    : await loadProjectContextFiles(r.fs, r.cwd, {
        agentFs: r.agentFs,
        agentDir: r.agentDir,
        teamFs: r.teamFs,
        teamDir: r.teamDir,
        root: r.root,
        diagnostics,
        origins,
      });
  const agentsFiles = options.agentsFilesOverride
    ? options.agentsFilesOverride({ agentsFiles: discovered }).agentsFiles
    : discovered;
  for (const f of agentsFiles) {
    const filesystem = origins.get(f) ?? "project";
    provenance.push({
      kind: "context",
      path: f.path,
      filesystem,
      scope: scopeOf(filesystem),
      trustGated: false,
    });
  }
  return agentsFiles;
}

function filesystemOf(r: LoadRoots, filesystem: ResourceFilesystem): FileSystem {
  return filesystem === "agent" ? r.agentFs! : filesystem === "team" ? r.teamFs! : r.fs;
}

/** SYSTEM.md: `options.systemPrompt` when given, else the discovered file (trust-gated unless the agent dir's). */
async function systemPromptInEffect(
  options: LoadResourcesOptions,
  r: LoadRoots,
  projectTrusted: boolean,
  diagnostics: ResourceDiagnostic[],
  provenance: ResourceProvenance[],
): Promise<Pick<LoadedResources, "systemPrompt" | "systemPromptSource">> {
  let systemInput: PromptInput | undefined;
  if (options.systemPrompt !== undefined) {
    systemInput = await resolvePromptInput(
      r.fs,
      r.cwd,
      options.systemPrompt,
      "system prompt",
      diagnostics,
      r.root,
    );
  } else {
    const found = await discoverPromptFile("SYSTEM.md", discoverOptions(r, projectTrusted));
    if (found)
      systemInput = await readDiscovered(
        filesystemOf(r, found.filesystem),
        found.path,
        found.filesystem,
        "system prompt",
        diagnostics,
      );
  }
  if (systemInput?.file)
    provenance.push({
      kind: "system",
      path: systemInput.file.path,
      filesystem: systemInput.file.filesystem,
      scope: scopeOf(systemInput.file.filesystem),
      trustGated: systemInput.file.filesystem !== "agent" && options.systemPrompt === undefined,
    });
  return {
    systemPrompt: options.systemPromptOverride
      ? options.systemPromptOverride(systemInput?.text)
      : systemInput?.text,
    systemPromptSource: systemInput?.file ? { path: systemInput.file.path } : undefined,
  };
}

function discoverOptions(r: LoadRoots, projectTrusted: boolean) {
  const { fs, cwd, agentFs, agentDir, teamFs, teamDir, root } = r;
  return { fs, cwd, agentFs, agentDir, teamFs, teamRulesDir: teamDir, projectTrusted, root };
}

/** APPEND_SYSTEM.md: `options.appendSystemPrompt` when given, else the discovered file, after the override. */
async function appendSystemInEffect(
  options: LoadResourcesOptions,
  r: LoadRoots,
  projectTrusted: boolean,
  diagnostics: ResourceDiagnostic[],
  provenance: ResourceProvenance[],
): Promise<Pick<LoadedResources, "appendSystemPrompt" | "appendSystemPromptSources">> {
  const appendInputs: PromptInput[] = [];
  if (options.appendSystemPrompt) {
    for (const source of options.appendSystemPrompt) {
      const found = await resolvePromptInput(
        r.fs,
        r.cwd,
        source,
        "append system prompt",
        diagnostics,
        r.root,
      );
      if (found) appendInputs.push(found);
    }
  } else {
    const found = await discoverPromptFile("APPEND_SYSTEM.md", discoverOptions(r, projectTrusted));
    if (found)
      appendInputs.push(
        await readDiscovered(
          filesystemOf(r, found.filesystem),
          found.path,
          found.filesystem,
          "append system prompt",
          diagnostics,
        ),
      );
  }
  for (const a of appendInputs)
    if (a.file)
      provenance.push({
        kind: "append",
        path: a.file.path,
        filesystem: a.file.filesystem,
        scope: scopeOf(a.file.filesystem),
        trustGated: a.file.filesystem !== "agent" && !options.appendSystemPrompt,
      });
  const baseAppend = appendInputs.map((a) => a.text);
  return {
    appendSystemPrompt: options.appendSystemPromptOverride
      ? options.appendSystemPromptOverride(baseAppend)
      : baseAppend,
    appendSystemPromptSources: appendInputs.filter((a) => a.file).map((a) => ({ path: a.file!.path })),
  };
}

async function loadResourcesCached(options: LoadResourcesOptions): Promise<LoadedResources> {
  const r = loadRoots(options);
  const diagnostics: ResourceDiagnostic[] = [];
  const provenance: ResourceProvenance[] = [];
  await warmResourceCaches(r, options.agentHomeDir);
  const projectTrusted = await projectTrustOf(options, r);
  const agentsFiles = await contextFilesInEffect(options, r, diagnostics, provenance);
  const system = await systemPromptInEffect(options, r, projectTrusted, diagnostics, provenance);
  const append = await appendSystemInEffect(options, r, projectTrusted, diagnostics, provenance);

  // Skills, then prompt templates (./resource-sources.ts).
  const ctx: SourceContext = {
    ...options,
    fs: r.fs,
    cwd: r.cwd,
    agentFs: r.agentFs,
    agentDir: r.agentDir,
    teamFs: r.teamFs,
    teamDir: r.teamDir,
    projectTrusted,
    diagnostics,
  };
  const skillsResult = await loadSkillsInEffect(ctx, provenance);
  const promptTemplates = await loadTemplatesInEffect(ctx, provenance);

  return {
    agentsFiles,
    ...system,
    ...append,
    skills: skillsResult.skills,
    promptTemplates,
    diagnostics,
    provenance,
    projectTrusted,
  };
}
