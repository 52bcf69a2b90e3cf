/**
 * The option and result types of `loadResources` (./resource-loader.ts): pi's `DefaultResourceLoaderOptions` on the
 * VFS (pi's `resource-loader.ts`), with Strata's team rules root, and the snapshot of pi's loader getters, with the
 * provenance list the IDE shows (which file is in effect, from which filesystem and scope, whether trust gated it).
 */
import type { FileSystem } from "@/lib/vfs/types";
import type { ContextFile, ResourceFilesystem } from "./context-files";
import type { ResourceDiagnostic } from "./fs-util";
import type { ResolveProjectTrustedOptions } from "./project-trust";
import type { PromptTemplate } from "./prompt-templates";
import type { Skill } from "./skills";

/** Whose rules a resource is: the team's rules root, the project's files, or the user's own agent dir. */
export type ResourceScope = "team" | "project" | "personal";

/** Where a resource in effect came from (for the IDE's provenance panel). */
export interface ResourceProvenance {
  kind: "context" | "system" | "append" | "skill" | "template";
  /** Absolute VFS path (on the filesystem `filesystem` names). */
  path: string;
  /**
   * `"project"` = the workspace VFS (`fs`), `"agent"` = the user's agent VFS (`agentFs`), `"team"` = the team
   * rules root's filesystem (`teamFs`).
   */
  filesystem: ResourceFilesystem;
  /** `scopeOf(filesystem)` (./resource-sources.ts). */
  scope: ResourceScope;
  /** Skill or template name. */
  name?: string;
  /** True when the location requires project trust (pi's `resource-loader.ts`), i.e. it is in effect because the project is trusted. */
  trustGated: boolean;
}

/** Options of `loadResources` (pi `DefaultResourceLoaderOptions`, on the VFS). */
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
  /**
   * Strata: the team rules root of a team project (absolute dir on `teamFs`, e.g. `/.team`), or absent for a
   * personal project. `teamFs` may be `fs` itself (the team workspace's VFS) or a separate filesystem (a
   * proposal's files in memory); see the module comment for where its resources rank.
   */
  teamFs?: FileSystem;
  teamRulesDir?: string;
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

/** Result of `loadResources`: pi's loader getters as one snapshot. */
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
