/**
 * AGENTS.md / CLAUDE.md discovery over the VFS (pi `resource-loader.ts`: `loadContextFileFromDir`,
 * `findShadowedContextFile`, `loadProjectContextFiles`; `footer-data-provider.ts` `findGitPaths`).
 *
 * Strata differences: the agent dir lives on its own `FileSystem` (the user's VFS); symlinks are
 * resolved only inside the workspace root (a link that leaves it — also to a host path such as `/etc/passwd`, a
 * top-level folder the workspace does not hold: ./fs-util.ts `canonicalize` — is reported, not followed, and no sibling
 * candidate is loaded in its place); a broken link is reported; two paths to the same file load once (an `info`
 * `duplicate` diagnostic); read errors become diagnostics instead of stderr lines; oversized files are cut with a
 * marker (./context-budget.ts).
 */
import { basenamePosix, dirnamePosix, joinPosix, normalizePosix } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";
import { applyContextFileBudget, type ContextFileLimits } from "./context-budget";
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
  tryLstat,
  tryStat,
} from "./fs-util";

/** Candidate names in precedence order (pi's `resource-loader.ts`). */
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
 * `loadContextFileFromDir`. Directories are skipped silently (pi's `resource-loader.ts`); a read error adds the diagnostic
 * `Could not read <path>: <error>` and tries the next candidate (pi's `resource-loader.ts`).
 * Strata: a candidate that is a link out of the workspace ends the search for `dir` — pi would have followed
 * it and loaded its target, so no sibling (`CLAUDE.md` for an `AGENTS.md` link) is loaded in its place — with the
 * `symlink_escape` warning
 * `symlink <link> -> <target> leaves the workspace; not followed, and no other context file of <dir> is loaded in its place`.
 * A broken link (its target does not exist) is skipped as in pi, with the `symlink_broken` warning
 * `symlink <path> -> <target> points to nothing; skipped` (a loop of links:
 * `symlink <path> -> <target> is a loop (too many levels of symbolic links); skipped`).
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
    if (!found) {
      if ((await tryLstat(fs, path))?.kind === "symlink")
        options.diagnostics?.push(await brokenLink(fs, path));
      continue;
    }
    if ("escape" in found) {
      // A symlinked folder that leaves is named itself (every candidate below it would leave the same way).
      const d = escapeDiagnostic(found.escape.link === path ? path : found.escape.link, found.escape);
      d.message = `${d.message}, and no other context file of ${dir} is loaded in its place`;
      options.diagnostics?.push(d);
      return null;
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

async function brokenLink(fs: FileSystem, path: string): Promise<ResourceDiagnostic> {
  const target = await fs.readlink(path).catch(() => "?");
  const loop = await fs.stat(path).then(
    () => false,
    (error: unknown) => (error as { code?: unknown })?.code === "ELOOP",
  );
  return {
    type: "warning",
    message: loop
      ? `symlink ${path} -> ${target} is a loop (too many levels of symbolic links); skipped`
      : `symlink ${path} -> ${target} points to nothing; skipped`,
    path,
    code: "symlink_broken",
    target,
  };
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
 * `findShadowedContextFile`, pi's `resource-loader.ts`): only when the worktree root lies strictly below the main repo
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
  /** Size caps (./context-budget.ts); default 64 KiB per file, 128 KiB together. */
  limits?: ContextFileLimits;
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
 * Context files for `cwd` (pi `loadProjectContextFiles`, pi's `resource-loader.ts`): the agent dir's file first (on
 * `agentFs`), then (Strata) the team rules root's file (on `teamFs`), then one file per ancestor of `cwd`,
 * root-most first and `cwd` last, walking to `/` (not stopping at a git root). A file is loaded once: the
 * same canonical file reached twice (the same path, or two paths through symlinks — also between the agent dir
 * or the team root and the project when they share its filesystem) keeps its first sighting (the agent and team
 * files, then pi's cwd-upward walk, so the nearest path), and each later path adds the `info` diagnostic
 * `<path> is the same file as <kept path> (<canonical>); loaded once` (code `duplicate`). The main repo's file
 * shadowed by a nested linked worktree's own file is dropped (pi, silently). Links on a filesystem shared with the
 * project must stay inside `root`; on the agent's own filesystem, inside its `/`. Last, the size caps of
 * `applyContextFileBudget` (./context-budget.ts) apply, nearest file first.
 * @returns `{ path, content }[]` in prompt order.
 */
export async function loadProjectContextFiles(
  fs: FileSystem,
  cwd: string,
  options: LoadProjectContextFilesOptions = {},
): Promise<ContextFile[]> {
  const root = options.root;
  // Collected here, then added once each (the agent dir on the project's filesystem may also be an ancestor of cwd).
  const diagnostics: ResourceDiagnostic[] = [];
  const files: ContextFile[] = [];
  const { rootOf, canonicalOf, admit } = contextFileDeduper(fs, options, diagnostics);
  if (options.agentFs && options.agentDir) {
    const global = await loadContextFileFromDir(options.agentFs, normalizePosix(options.agentDir), {
      root: rootOf(options.agentFs),
      diagnostics,
    });
    if (global && (await admit(options.agentFs, global))) {
      options.origins?.set(global, "agent");
      files.push(global);
    }
  }
  if (options.teamFs && options.teamDir) {
    const teamFs = options.teamFs;
    const team = await loadContextFileFromDir(teamFs, normalizePosix(options.teamDir), {
      root: rootOf(teamFs),
      diagnostics,
    });
    if (team && (await admit(teamFs, team))) {
      options.origins?.set(team, "team");
      files.push(team);
    }
  }
  await prefetchPaths(fs, contextFileProbePaths(cwd));
  const shadowed = await findShadowedContextFile(fs, cwd, { root });
  const ancestors: ContextFile[] = [];
  for (const dir of ancestorsUp(cwd)) {
    const file = await loadContextFileFromDir(fs, dir, { root, diagnostics });
    if (!file) continue;
    if (shadowed !== undefined && (await canonicalOf(fs, file.path)) === shadowed) continue;
    if (!(await admit(fs, file))) continue;
    options.origins?.set(file, "project");
    ancestors.unshift(file);
  }
  files.push(...ancestors);
  const capped = applyContextFileBudget(files, diagnostics, options.limits);
  if (options.origins) carryOrigins(files, capped, options.origins);
  if (options.diagnostics) addEachOnce(diagnostics, options.diagnostics);
  return capped;
}

/**
 * The dedupe of one {@link loadProjectContextFiles} call: links resolve inside `root` on the project's filesystem
 * only (`rootOf`), and `admit` keeps a file the first time its canonical path is seen on its filesystem, adding the
 * `duplicate` info diagnostic to `diagnostics` for a later path to the same file.
 */
function contextFileDeduper(
  fs: FileSystem,
  options: LoadProjectContextFilesOptions,
  diagnostics: ResourceDiagnostic[],
) {
  /** Dedupe key (filesystem + canonical path) → the path the file was loaded under. */
  const seen = new Map<string, string>();
  const root = options.root;
  const rootOf = (f: FileSystem) => (f === fs ? root : undefined);
  const canonicalOf = (f: FileSystem, path: string) => canonicalPath(f, path, rootOf(f));
  const namespace = (f: FileSystem) => (f === fs ? "" : f === options.teamFs ? "team:" : "agent:");
  /** True when `file` is new (then remembered); otherwise the `duplicate` diagnostic is added. */
  const admit = async (f: FileSystem, file: ContextFile): Promise<boolean> => {
    const canonical = await canonicalOf(f, file.path);
    const k = `${namespace(f)}${canonical}`;
    const kept = seen.get(k);
    if (kept === undefined) {
      seen.set(k, file.path);
      return true;
    }
    if (kept !== file.path)
      diagnostics?.push({
        type: "info",
        message: `${file.path} is the same file as ${kept} (${canonical}); loaded once`,
        path: file.path,
        code: "duplicate",
        canonical,
        duplicateOf: kept,
      });
    return false;
  };
  return { rootOf, canonicalOf, admit };
}

/** Give each file the budget replaced (`capped[i]` a new object for a cut `files[i]`) the origin of the one it replaced. */
function carryOrigins(
  files: readonly ContextFile[],
  capped: readonly ContextFile[],
  origins: Map<ContextFile, ResourceFilesystem>,
): void {
  for (let i = 0; i < files.length; i++) {
    const origin = origins.get(files[i]);
    if (capped[i] !== files[i] && origin) origins.set(capped[i], origin);
  }
}

/** Push each diagnostic of `diagnostics` to `out`, skipping a repeat of one already pushed (same path and message). */
function addEachOnce(diagnostics: readonly ResourceDiagnostic[], out: ResourceDiagnostic[]): void {
  const reported = new Set<string>();
  for (const d of diagnostics) {
    const k = `${d.path}\0${d.message}`;
    if (reported.has(k)) continue;
    reported.add(k);
    out.push(d);
  }
}

/** Every ancestor of `cwd`, root first (`/a/b` → `["/", "/a", "/a/b"]`). */
export function ancestorsRootFirst(cwd: string): string[] {
  return ancestorsUp(cwd).reverse();
}
