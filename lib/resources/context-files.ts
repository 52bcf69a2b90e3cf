/**
 * AGENTS.md / CLAUDE.md discovery over the VFS (pi `resource-loader.ts`: `loadContextFileFromDir`,
 * `findShadowedContextFile`, `loadProjectContextFiles`; `footer-data-provider.ts` `findGitPaths`).
 *
 * Strata differences: the agent dir lives on its own `FileSystem` (the user's VFS); symlinks are
 * resolved only inside the workspace root (a link that leaves it is reported, not followed); two paths
 * to the same file load once; read errors become diagnostics instead of stderr lines.
 */
import { basenamePosix, dirnamePosix, joinPosix, normalizePosix } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";
import {
  ancestorsUp,
  canonicalize,
  childPath,
  escapeDiagnostic,
  prefetchPaths,
  type ResourceDiagnostic,
  readUtf8,
  statInWorkspace,
  stripBom,
  tryStat,
} from "./fs-util";

/** Candidate names in precedence order (pi 1.1). */
export const CONTEXT_FILE_CANDIDATES = [
  "AGENTS.override.md",
  "AGENTS.md",
  "AGENTS.MD",
  "CLAUDE.md",
  "CLAUDE.MD",
];

/** One loaded context file: absolute VFS path and BOM-stripped content (pi `{ path, content }`). */
export interface ContextFile {
  path: string;
  content: string;
}

/** Options shared by the context-file functions. */
export interface ContextFileOptions {
  /** Workspace root symlinks must stay inside (default `/`). */
  root?: string;
  /** Receives read failures and escaping links. */
  diagnostics?: ResourceDiagnostic[];
}

/**
 * The first candidate in `dir` that is a regular file (following in-workspace symlinks), pi
 * `loadContextFileFromDir`. Directories are skipped silently (1.2); a read error adds the diagnostic
 * `Could not read <path>: <error>` and tries the next candidate (1.4); a link out of the workspace adds
 * a diagnostic and is skipped.
 * @returns `{ path, content }` with `path` as found (not canonicalised), or `null`.
 */
export async function loadContextFileFromDir(
  fs: FileSystem,
  dir: string,
  options: ContextFileOptions = {},
): Promise<ContextFile | null> {
  for (const name of CONTEXT_FILE_CANDIDATES) {
    const path = childPath(dir, name);
    const found = await statInWorkspace(fs, path, options.root);
    if (!found) continue;
    if ("escape" in found) {
      options.diagnostics?.push(escapeDiagnostic(path, found.escape));
      continue;
    }
    if (found.stat.kind !== "file") continue;
    try {
      return { path, content: stripBom(await readUtf8(fs, found.real)) };
    } catch (error) {
      options.diagnostics?.push({
        type: "warning",
        message: `Could not read ${path}: ${String(error)}`,
        path,
      });
    }
  }
  return null;
}

/** Git metadata paths of the repository containing a directory (pi `GitPaths`). */
export interface GitPaths {
  /** Directory holding `.git` (the worktree root). */
  repoDir: string;
  /** Shared git dir (the main repo's `.git` for a linked worktree, `.git` itself otherwise). */
  commonGitDir: string;
  headPath: string;
}

/**
 * Walk up from `cwd` to the first `.git` (pi `findGitPaths`): a directory with `HEAD`; or a file
 * `gitdir: <dir>` whose target has `HEAD` (its `commondir`, resolved against the gitdir, is the common
 * dir; without one the gitdir itself is). A `.git` whose `HEAD` is missing (broken gitdir) gives `null`;
 * a `.git` file without `gitdir: ` is passed over.
 */
export async function findGitPaths(fs: FileSystem, cwd: string): Promise<GitPaths | null> {
  for (const dir of ancestorsUp(cwd)) {
    const gitPath = childPath(dir, ".git");
    const st = await tryStat(fs, gitPath);
    if (!st) continue;
    try {
      if (st.kind === "file") {
        const content = (await readUtf8(fs, gitPath)).trim();
        if (content.startsWith("gitdir: ")) {
          const gitDir = joinPosix(dir, content.slice(8).trim());
          const headPath = childPath(gitDir, "HEAD");
          if (!(await fs.exists(headPath))) return null;
          const commonDirPath = childPath(gitDir, "commondir");
          const commonGitDir = (await fs.exists(commonDirPath))
            ? joinPosix(gitDir, (await readUtf8(fs, commonDirPath)).trim())
            : gitDir;
          return { repoDir: dir, commonGitDir, headPath };
        }
      } else if (st.kind === "dir") {
        const headPath = childPath(gitPath, "HEAD");
        if (!(await fs.exists(headPath))) return null;
        return { repoDir: dir, commonGitDir: gitPath, headPath };
      }
    } catch {
      return null;
    }
  }
  return null;
}

async function canonicalPath(fs: FileSystem, path: string, root?: string): Promise<string> {
  const c = await canonicalize(fs, path, root);
  return c.path ?? normalizePosix(path);
}

/**
 * The main repo's context file that a nested linked worktree's own file shadows (pi
 * `findShadowedContextFile`, 1.8–1.17): only when the worktree root lies strictly below the main repo
 * root (`dirname(commonGitDir)`), that root's `.git` is the common dir (not a bare layout or a
 * submodule), and the worktree root has a context file. Compared in canonical form.
 * @returns the canonical path `<mainRepoRoot>/<same file name>`, or `undefined`.
 */
export async function findShadowedContextFile(
  fs: FileSystem,
  cwd: string,
  options: ContextFileOptions = {},
): Promise<string | undefined> {
  const gitPaths = await findGitPaths(fs, cwd);
  if (!gitPaths) return undefined;
  const commonGitDir = await canonicalPath(fs, gitPaths.commonGitDir, options.root);
  const worktreeRoot = await canonicalPath(fs, gitPaths.repoDir, options.root);
  const mainRepoRoot = dirnamePosix(commonGitDir);
  if (!worktreeRoot.startsWith(`${mainRepoRoot}/`)) return undefined;
  if ((await canonicalPath(fs, childPath(mainRepoRoot, ".git"), options.root)) !== commonGitDir)
    return undefined;
  const own = await loadContextFileFromDir(fs, worktreeRoot, { root: options.root });
  return own ? childPath(mainRepoRoot, basenamePosix(own.path)) : undefined;
}

/** Which filesystem a resource was read from: the project's, the user's agent dir's, or a team's rules root's. */
export type ResourceFilesystem = "project" | "agent" | "team";

/** Options of {@link loadProjectContextFiles}. */
export interface LoadProjectContextFilesOptions extends ContextFileOptions {
  /** The user's agent filesystem (a second VFS); with `agentDir`, its context file comes first. */
  agentFs?: FileSystem;
  /** Absolute agent dir on `agentFs` (pi `~/.pi/agent`). */
  agentDir?: string;
  /**
   * Strata: a team's rules root (`teamDir` on `teamFs`, which may be `fs` itself). With both, its context file
   * comes after the agent dir's and before the ancestors' — the outermost ancestor of every team project.
   */
  teamFs?: FileSystem;
  teamDir?: string;
  /** Receives the filesystem each returned file came from (for provenance). */
  origins?: Map<ContextFile, ResourceFilesystem>;
}

/** Paths `loadProjectContextFiles` will look at: for one bulk prefetch. */
export function contextFileProbePaths(cwd: string): string[] {
  const out: string[] = [];
  for (const dir of ancestorsUp(cwd)) {
    for (const name of CONTEXT_FILE_CANDIDATES) out.push(childPath(dir, name));
    out.push(childPath(dir, ".git"), childPath(dir, ".git/HEAD"), childPath(dir, ".git/commondir"));
  }
  return out;
}

/**
 * Context files for `cwd` (pi `loadProjectContextFiles`, 1.5–1.17): the agent dir's file first (on
 * `agentFs`), then (Strata) the team rules root's file (on `teamFs`), then one file per ancestor of `cwd`,
 * root-most first and `cwd` last, walking to `/` (not stopping at a git root). A file is loaded once: the
 * same canonical file reached twice (the same path, or two paths through symlinks) keeps its first
 * sighting (the agent and team files, then pi's cwd-upward walk). The main repo's file shadowed by a
 * nested linked worktree's own file is dropped.
 * @returns `{ path, content }[]` in prompt order.
 */
export async function loadProjectContextFiles(
  fs: FileSystem,
  cwd: string,
  options: LoadProjectContextFilesOptions = {},
): Promise<ContextFile[]> {
  const root = options.root;
  const diagnostics = options.diagnostics;
  const files: ContextFile[] = [];
  const seen = new Set<string>();
  const key = async (f: FileSystem, path: string) =>
    `${f === fs ? "" : f === options.teamFs ? "team:" : "agent:"}${await canonicalPath(f, path, f === fs ? root : undefined)}`;
  if (options.agentFs && options.agentDir) {
    const global = await loadContextFileFromDir(options.agentFs, normalizePosix(options.agentDir), {
      diagnostics,
    });
    if (global) {
      options.origins?.set(global, "agent");
      files.push(global);
      seen.add(await key(options.agentFs, global.path));
    }
  }
  if (options.teamFs && options.teamDir) {
    const teamFs = options.teamFs;
    const team = await loadContextFileFromDir(teamFs, normalizePosix(options.teamDir), {
      root: teamFs === fs ? root : undefined,
      diagnostics,
    });
    const k = team ? await key(teamFs, team.path) : "";
    if (team && !seen.has(k)) {
      options.origins?.set(team, "team");
      files.push(team);
      seen.add(k);
    }
  }
  await prefetchPaths(fs, contextFileProbePaths(cwd));
  const shadowed = await findShadowedContextFile(fs, cwd, { root });
  const ancestors: ContextFile[] = [];
  for (const dir of ancestorsUp(cwd)) {
    const file = await loadContextFileFromDir(fs, dir, { root, diagnostics });
    if (!file) continue;
    const canonical = await canonicalPath(fs, file.path, root);
    if (shadowed !== undefined && canonical === shadowed) continue;
    const k = await key(fs, file.path);
    if (seen.has(k)) continue;
    seen.add(k);
    options.origins?.set(file, "project");
    ancestors.unshift(file);
  }
  files.push(...ancestors);
  return files;
}

/** Every ancestor of `cwd`, root first (`/a/b` → `["/", "/a", "/a/b"]`). */
export function ancestorsRootFirst(cwd: string): string[] {
  return ancestorsUp(cwd).reverse();
}
