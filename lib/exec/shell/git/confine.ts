/**
 * Where the shell's `git` may work: only inside the project root. git reaches the unconfined filesystem behind
 * the shell's adapter, so every directory it uses (the shell's working directory, each `-C`, `init <dir>`) is
 * checked here, component by component with `lstat` from the root down: a directory outside the root, a missing
 * one or one reached through a symlink does not exist for git (the project is all the shell can see).
 */
import type { FileSystem } from "@/lib/vfs/types";
import { fatal } from "./format";

/** `path` with `.`/`..`/empty components resolved lexically; always absolute ("/" for the top). */
export function normalize(path: string): string {
  const parts: string[] = [];
  for (const c of path.split("/")) {
    if (c === "" || c === ".") continue;
    if (c === "..") parts.pop();
    else parts.push(c);
  }
  return `/${parts.join("/")}`;
}

/** `target` (absolute, or relative to `from`) as an absolute normalised path. */
export function resolveFrom(from: string, target: string): string {
  return normalize(target.startsWith("/") ? target : `${from}/${target}`);
}

/** Whether absolute normalised `path` is `root` or below it. */
export function insideRoot(root: string, path: string): boolean {
  return root === "/" || path === root || path.startsWith(`${root}/`);
}

/**
 * What absolute normalised `path` is, seen from inside `root`: "dir" when it is `root` or a real directory below
 * it reached through real directories only; "file" when its last component is a non-directory (and everything
 * above it real directories); "missing" when it is outside `root`, absent, or reached through a symlink (a
 * symlink anywhere along it, the last component included, does not count).
 */
export async function confinedKind(
  fs: FileSystem,
  root: string,
  path: string,
): Promise<"dir" | "file" | "missing"> {
  if (!insideRoot(root, path)) return "missing";
  if (path === root) return "dir";
  let dir = root === "/" ? "" : root;
  for (const part of path.slice(dir.length + 1).split("/")) {
    dir = `${dir}/${part}`;
    const st = await fs.lstat(dir).catch(() => null);
    if (!st || st.kind === "symlink") return "missing";
    if (st.kind !== "dir") return dir === path ? "file" : "missing";
  }
  return "dir";
}

/**
 * git's `-C <target>` from `cwd`: the new working directory, inside `root`. The target is followed component by
 * component as `chdir` does: a `..` after a symlink is not taken back lexically, the symlink is refused first;
 * ancestors of `root` may be passed through (`../proj/sub`), any other directory outside is absent.
 * @throws GitExit (128) `fatal: cannot change to '<target>': No such file or directory` (outside the project,
 *   absent, or through a symlink) or `…: Not a directory`.
 */
export async function changeDir(fs: FileSystem, root: string, cwd: string, target: string): Promise<string> {
  const refuse = (why: string) => fatal(`cannot change to '${target}': ${why}`);
  const parts = target.startsWith("/") ? [] : normalize(cwd).split("/").filter(Boolean);
  for (const c of target.split("/")) {
    if (c === "" || c === ".") continue;
    if (c === "..") {
      parts.pop();
      continue;
    }
    parts.push(c);
    const path = `/${parts.join("/")}`;
    if (!insideRoot(root, path)) {
      if (!insideRoot(path, root)) throw refuse("No such file or directory");
      continue;
    }
    const kind = await confinedKind(fs, root, path);
    if (kind !== "dir") throw refuse(kind === "file" ? "Not a directory" : "No such file or directory");
  }
  const dir = `/${parts.join("/")}`;
  if (!insideRoot(root, dir)) throw refuse("No such file or directory");
  return dir;
}

/** Options and environment variables that point git at another repository or working tree: refused. */
const REPOSITORY_OPTIONS = ["--git-dir", "--work-tree", "--bare", "--namespace", "--exec-path"];
const REPOSITORY_VARIABLES = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_COMMON_DIR",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_NAMESPACE",
  "GIT_CONFIG",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
];

/** The refusal for a global option naming another repository, or null when `opt` is none of them. */
export function repositoryOptionRefusal(opt: string, root: string): string | null {
  const name = opt.split("=")[0];
  if (!REPOSITORY_OPTIONS.includes(name)) return null;
  return `fatal: ${name} is not available in Strata's shell: git works only on the project's own repository (${root === "/" ? "" : root}/.git); use -C <dir> for a directory inside the project.\n`;
}

/** The refusal for a set environment variable naming another repository, or null when none is set. */
export function repositoryVariableRefusal(env: Map<string, string>, root: string): string | null {
  const name = REPOSITORY_VARIABLES.find((v) => env.has(v));
  if (!name) return null;
  return `fatal: ${name} is not available in Strata's shell: git works only on the project's own repository (${root === "/" ? "" : root}/.git); unset ${name}.\n`;
}

/**
 * The directory `git init [<dir>]` may create its `.git` in: `dir` (relative to `cwd`) inside `root`, reached
 * through real directories (missing ones below the last existing one are created by init).
 * @throws GitExit (128) `fatal: cannot mkdir <dir>: Permission denied` outside the project or through a symlink;
 *   `fatal: cannot mkdir <dir>: Not a directory` through a file.
 */
export async function initDir(fs: FileSystem, root: string, cwd: string, dir: string): Promise<string> {
  const abs = resolveFrom(cwd, dir);
  if (!insideRoot(root, abs)) throw fatal(`cannot mkdir ${dir}: Permission denied`);
  let at = root === "/" ? "" : root;
  for (const part of abs
    .slice(at.length + 1)
    .split("/")
    .filter(Boolean)) {
    at = `${at}/${part}`;
    const st = await fs.lstat(at).catch(() => null);
    if (!st) break;
    if (st.kind === "symlink") throw fatal(`cannot mkdir ${dir}: Permission denied`);
    if (st.kind !== "dir") throw fatal(`cannot mkdir ${dir}: Not a directory`);
  }
  return abs;
}
