/**
 * Pure POSIX path helpers for workspace paths, and the project-root confinement every tool uses.
 * No I/O here; symlink checks live in `lib/vfs/confine.ts`.
 */

import { PathEscapeError, VfsError } from "./errors";
import { checkPathLimits } from "./limits";

/** Unicode space variants pi normalises to a plain space (pi `utils/paths.ts` `UNICODE_SPACES`). */
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/**
 * Normalises an absolute POSIX path: collapses `//`, resolves `.` and `..` (never above `/`),
 * drops a trailing slash. `normalizePosix("/a/./b/../c/") === "/a/c"`. A relative input is treated
 * as relative to `/`.
 */
export function normalizePosix(path: string): string {
  if (isNormalized(path)) return path;
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

/** True when `path` is absolute and already normalised: one scan, no allocation (the common case). */
function isNormalized(path: string): boolean {
  const n = path.length;
  if (n === 0 || path.charCodeAt(0) !== 47) return false;
  if (n === 1) return true;
  if (path.charCodeAt(n - 1) === 47) return false;
  // Every component must be non-empty and neither "." nor "..".
  let start = 1;
  for (let i = 1; i <= n; i++) {
    if (i < n && path.charCodeAt(i) !== 47) continue;
    const len = i - start;
    if (len === 0) return false;
    if (path.charCodeAt(start) === 46 && (len === 1 || (len === 2 && path.charCodeAt(start + 1) === 46)))
      return false;
    start = i + 1;
  }
  return true;
}

/** Joins segments and normalises (`joinPosix("/a", "b/../c") === "/a/c"`); a later absolute segment restarts. */
export function joinPosix(...parts: string[]): string {
  let acc = "";
  for (const part of parts) {
    if (part.startsWith("/")) acc = part;
    else if (part) acc = acc ? `${acc}/${part}` : part;
  }
  return normalizePosix(acc);
}

/** Parent directory of an absolute path (`dirnamePosix("/a/b") === "/a"`, `dirnamePosix("/") === "/"`). */
export function dirnamePosix(path: string): string {
  const norm = normalizePosix(path);
  const idx = norm.lastIndexOf("/");
  return idx <= 0 ? "/" : norm.slice(0, idx);
}

/** Last segment of a path (`basenamePosix("/a/b.ts") === "b.ts"`, `"/"` gives `""`). */
export function basenamePosix(path: string): string {
  const norm = normalizePosix(path);
  return norm.slice(norm.lastIndexOf("/") + 1);
}

/** True when absolute `path` equals `root` or lies below it. Both are normalised first. */
export function isInsideRoot(root: string, path: string): boolean {
  const r = normalizePosix(root);
  const p = normalizePosix(path);
  if (r === "/") return true;
  return p === r || p.startsWith(`${r}/`);
}

/**
 * Whether a symlink at `rel` (relative to the project directory `root`) with `target` as written by a foreign
 * filesystem (an archive, the sandbox's /workspace) points outside the project: an empty or absolute target (it named
 * the other machine's root, not the workspace VFS), or a relative one that climbs out of `root`.
 */
export function symlinkTargetEscapes(root: string, rel: string, target: string): boolean {
  const path = joinPosix(root, rel);
  const resolved = normalizePosix(`${path.slice(0, path.lastIndexOf("/"))}/${target}`);
  return target === "" || target.startsWith("/") || !isInsideRoot(root, resolved);
}

/**
 * Relative path from absolute `from` to absolute `to`, like Node's `path.posix.relative`
 * (`""` when equal, `..` segments when `to` is not below `from`).
 */
export function relativePosix(from: string, to: string): string {
  const a = normalizePosix(from).split("/").filter(Boolean);
  const b = normalizePosix(to).split("/").filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => ".."), ...b.slice(i)].join("/");
}

/**
 * Applies pi's path-input normalisation (`normalizePath` with `normalizeUnicodeSpaces` and
 * `stripAtPrefix`, as used by pi's `resolveToCwd`): unicode spaces become " ", one leading `@` is
 * stripped, `~` / `~/x` expand to `home`, and a `file://` URL becomes its decoded path.
 */
export function normalizePathInput(input: string, home: string): string {
  let p = input.replace(UNICODE_SPACES, " ");
  if (p.startsWith("@")) p = p.slice(1);
  if (p === "~") return home;
  if (p.startsWith("~/")) return joinPosix(home, p.slice(2));
  if (/^file:\/\//.test(p)) {
    try {
      return decodeURIComponent(new URL(p).pathname);
    } catch {
      return p;
    }
  }
  return p;
}

/**
 * Resolves a tool's path argument to an absolute, normalised workspace path confined to the project.
 * Mirrors pi's `resolveToCwd(filePath, cwd)` (`core/tools/path-utils.ts`): the input is normalised
 * (see `normalizePathInput`; `~` means `projectRoot`, since Strata has no home directory), then an
 * absolute input is used as is and a relative one is resolved against `cwd`.
 *
 * @param projectRoot absolute project root, e.g. "/strata".
 * @param cwd absolute working directory (normally inside `projectRoot`).
 * @param input the raw path parameter from the model.
 * @returns the absolute normalised path, e.g. "/strata/src/a.ts".
 * @throws PathEscapeError (code `EACCES`) when the result lies outside `projectRoot`
 *   (`..` escapes or absolute paths elsewhere); VfsError `EINVAL` for a NUL byte; VfsError
 *   `ENAMETOOLONG` when the part below the root is over `MAX_PATH_DEPTH` (64) levels or `MAX_PATH_LENGTH`
 *   (4096) bytes (`Path is 1601 levels deep; the limit is 64. Use a shallower path.`). Symlinks are not inspected here.
 */
export function resolveProjectPath(projectRoot: string, cwd: string, input: string): string {
  if (input.includes("\0"))
    throw new VfsError("EINVAL", `Invalid path (contains a NUL byte): ${JSON.stringify(input)}`, input);
  const root = normalizePosix(projectRoot);
  const normalized = normalizePathInput(input, root);
  const resolved = normalized.startsWith("/") ? normalizePosix(normalized) : joinPosix(cwd, normalized);
  if (!isInsideRoot(root, resolved)) throw new PathEscapeError(input, root);
  checkPathBelowRoot(root, resolved);
  return resolved;
}

/**
 * Refuse an absolute, normalised `path` inside `root` whose part below `root` is deeper than
 * `MAX_PATH_DEPTH` components or longer than `MAX_PATH_LENGTH` UTF-8 bytes (lib/vfs/limits.ts).
 * One scan of the path. @throws VfsError ENAMETOOLONG naming the depth or length and the limit.
 */
export function checkPathBelowRoot(root: string, path: string): void {
  const r = normalizePosix(root);
  checkPathLimits(path === r ? "" : path.slice(r === "/" ? 1 : r.length + 1));
}
