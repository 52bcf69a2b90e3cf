/**
 * Symlink-aware confinement: checks that following the symlinks along a workspace path never leaves
 * the project root. Uses only `FileSystem.lstat` / `readlink`.
 */

import { fsErrors, PathEscapeError } from "./errors";
import { checkPathBelowRoot, dirnamePosix, isInsideRoot, joinPosix, normalizePosix } from "./paths";
import type { FileSystem } from "./types";

/** Maximum symlink hops before giving up, like Linux's `MAXSYMLINKS` (40). */
const MAX_SYMLINK_HOPS = 40;

/**
 * Walks `path` component by component; whenever a component is a symlink, its target is resolved
 * (relative targets against the link's directory) and must stay inside `projectRoot`.
 * Components that do not exist yet end the walk (a file about to be created is fine).
 *
 * @param fs the workspace filesystem.
 * @param projectRoot absolute project root.
 * @param path absolute, normalised path already inside `projectRoot` (see `resolveProjectPath`).
 * @returns the fully resolved (symlink-free) path, or the path as far as it exists plus the rest.
 * @throws PathEscapeError when a symlink along the path points outside the root;
 *   VfsError `ELOOP` after more than 40 symlink hops.
 */
export async function assertNoSymlinkEscape(
  fs: FileSystem,
  projectRoot: string,
  path: string,
): Promise<string> {
  const root = normalizePosix(projectRoot);
  // Components are consumed by index (no re-slicing) and joined by concatenation (no re-normalising), so
  // the walk is linear in the number of components; `Vfs.lstat` on a resolved parent is O(1) lookups.
  let parts = normalizePosix(path).split("/");
  let i = 1;
  let current = "/";
  let hops = 0;
  while (i < parts.length && parts[i] !== "") {
    const next = current === "/" ? `/${parts[i]}` : `${current}/${parts[i]}`;
    i++;
    let kind: string;
    try {
      kind = (await fs.lstat(next)).kind;
    } catch {
      return [next, ...parts.slice(i)].join("/");
    }
    if (kind !== "symlink") {
      current = next;
      continue;
    }
    if (++hops > MAX_SYMLINK_HOPS) {
      throw fsErrors.loop(path);
    }
    const target = await fs.readlink(next);
    const resolved = target.startsWith("/") ? normalizePosix(target) : joinPosix(dirnamePosix(next), target);
    if (!isInsideRoot(root, resolved)) {
      throw new PathEscapeError(path, root, `symlink ${next} points to ${resolved}`);
    }
    parts = ["", ...resolved.split("/").filter(Boolean), ...parts.slice(i)];
    i = 1;
    current = "/";
  }
  return current;
}

/**
 * `assertNoSymlinkEscape` for a write target: the fully resolved path (where the write lands) must also be
 * within the path limits below `projectRoot` (`MAX_PATH_DEPTH` 64 levels, `MAX_PATH_LENGTH` 4096 bytes), so a
 * symlinked parent cannot take a write deeper than the path as typed. Linear in the path's length.
 * @param path absolute, normalised path inside `projectRoot`, already checked as typed (`resolveProjectPath`).
 * @returns the fully resolved path, as `assertNoSymlinkEscape`.
 * @throws as `assertNoSymlinkEscape`; VfsError ENAMETOOLONG (HTTP 400) for a resolved path over the limits
 *   (`Path is 71 levels deep; the limit is 64. Use a shallower path.`).
 */
export async function resolveWriteTarget(fs: FileSystem, projectRoot: string, path: string): Promise<string> {
  const resolved = await assertNoSymlinkEscape(fs, projectRoot, path);
  if (resolved !== path) checkPathBelowRoot(projectRoot, resolved);
  return resolved;
}
