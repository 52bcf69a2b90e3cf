/**
 * Where the shell may read and write, for the just-bash adapter `ProjectBashFs` (lib/vfs/bash-fs.ts): a path the
 * shell touches must resolve (symlinks included) inside the project root, and a write must not land in the
 * project's `.git` or beyond the path limits.
 */

import { assertNoSymlinkEscape } from "./confine";
import { PathEscapeError, refuseGitWrite } from "./errors";
import {
  basenamePosix,
  checkPathBelowRoot,
  dirnamePosix,
  isInsideRoot,
  joinPosix,
  normalizePosix,
} from "./paths";
import type { FileSystem } from "./types";

/**
 * Normalises `path` and refuses it unless it (and any symlink along it) stays inside `projectRoot`.
 * @throws PathEscapeError (EACCES) outside the root.
 */
export async function confineShellPath(fs: FileSystem, projectRoot: string, path: string): Promise<string> {
  const abs = normalizePosix(path);
  if (!isInsideRoot(projectRoot, abs)) throw new PathEscapeError(abs, normalizePosix(projectRoot));
  await assertNoSymlinkEscape(fs, projectRoot, abs);
  return abs;
}

/**
 * `confineShellPath` for a write: the project's `.git` directory is managed by Strata, not the shell, and the path
 * limits (`MAX_PATH_DEPTH` 64 levels, `MAX_PATH_LENGTH` 4096 bytes below the root) hold for where the write
 * lands, not only for the path as typed (a symlinked parent cannot make a 70-level folder).
 * Refused when the path, its entry with the directory's symlinks resolved, or (with `followLast`, for
 * operations that write through a final symlink) its fully resolved target lies in `.git` or is over the
 * limits. One walk of the path when no symlink lies along it (the usual case), two otherwise. Without
 * `followLast` the final component is never resolved (only its directory is), so a looping or escaping link
 * can be removed or replaced.
 * @throws PathEscapeError (EACCES) outside the root; VfsError EACCES for `.git`; VfsError ENAMETOOLONG
 *   (`Path is 70 levels deep; the limit is 64. Use a shallower path.`).
 */
export async function confineShellWrite(
  fs: FileSystem,
  projectRoot: string,
  path: string,
  followLast: boolean,
): Promise<string> {
  const abs = normalizePosix(path);
  const root = normalizePosix(projectRoot);
  if (!isInsideRoot(root, abs)) throw new PathEscapeError(abs, root);
  checkPathBelowRoot(root, abs);
  refuseGitWrite(root, abs);
  if (abs === root) return abs;
  if (!followLast) {
    // The entry itself (rm, mkdir, a new link): only its directory is resolved, so a link whose target cannot
    // be (a loop: ELOOP; a link out of the project) can still be removed or replaced, as with GNU's rm and ln.
    const entry = joinPosix(await assertNoSymlinkEscape(fs, root, dirnamePosix(abs)), basenamePosix(abs));
    checkPathBelowRoot(root, entry);
    refuseGitWrite(root, entry);
    return abs;
  }
  const full = await assertNoSymlinkEscape(fs, root, abs);
  const entry =
    full === abs
      ? abs
      : joinPosix(await assertNoSymlinkEscape(fs, root, dirnamePosix(abs)), basenamePosix(abs));
  checkPathBelowRoot(root, entry);
  refuseGitWrite(root, entry);
  checkPathBelowRoot(root, full);
  refuseGitWrite(root, full);
  return abs;
}
