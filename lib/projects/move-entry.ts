/**
 * Renaming and moving a file or folder of a project from the IDE's tree (F2, drag and drop, "Move to…").
 * A folder moves with everything below it; nothing is ever overwritten.
 */
import { assertNoSymlinkEscape, resolveWriteTarget } from "@/lib/vfs/confine";
import { isInsideGitDir, VfsError } from "@/lib/vfs/errors";
import { basenamePosix, dirnamePosix, joinPosix, resolveProjectPath } from "@/lib/vfs/paths";
import type { Vfs } from "@/lib/vfs/vfs";
import { checkNewEntryPath, NEW_ENTRY_ERRORS } from "./new-entry-path";

/** The words of {@link moveProjectEntry}'s refusals (also shown by the tree before it asks the server). */
export const MOVE_ERRORS = {
  missing: (path: string) =>
    `"${path}" does not exist (it may have been moved or deleted elsewhere). Refresh the tree.`,
  root: "The project folder itself cannot be moved. Move the files or folders inside it instead.",
  git: "The .git folder is managed by Strata and cannot be moved.",
  intoItself: (from: string, to: string) =>
    `Cannot move "${from}" into itself ("${to}" is inside it). Choose a folder outside it.`,
  same: (path: string) => `"${path}" is already there.`,
} as const;

/** What {@link moveProjectEntry} did. */
export interface MovedEntry {
  /** Both as checked (trimmed, relative to the project root). */
  from: string;
  to: string;
  kind: "file" | "dir" | "symlink";
  /** Nodes moved: 1 for a file or a symlink, the folder plus everything below it for a folder. */
  moved: number;
}

/**
 * Move (or rename) `from` to `to`, both relative to `root` (`src/a.ts` → `lib/b.ts`); missing parent folders
 * of `to` are created. A folder moves with its whole subtree (one bulk load, one flush by the caller); a
 * symlink moves as the link itself. Nothing is written until the caller flushes the VFS.
 * @returns what moved.
 * @throws VfsError EINVAL (HTTP 400) for a `to` that {@link checkNewEntryPath} refuses (traversal, `.git`,
 *   control or bidi characters, a backslash), for `from` = `to`, or for a folder moved into itself;
 *   EEXIST (the route answers 409 `exists`) when `to` is taken: `"b.ts" already exists. Choose another name.`;
 *   ENOENT (404) for a missing `from`; EACCES (400) for the root or `.git`; ENOTDIR (400) when a parent of
 *   `to` is a file; PathEscapeError (400) for a path leaving the root (also through a symlink).
 */
export async function moveProjectEntry(
  vfs: Vfs,
  root: string,
  from: string,
  to: string,
): Promise<MovedEntry> {
  const source = from.trim().replace(/\/+$/, "");
  const checked = checkNewEntryPath(to);
  if ("error" in checked) throw new VfsError("EINVAL", checked.error, to);
  const target = checked.path;
  const srcAbs = resolveProjectPath(root, root, source);
  if (srcAbs === root) throw new VfsError("EACCES", MOVE_ERRORS.root, source);
  // The source's folder may go through symlinks (inside the root); the entry itself is not followed.
  const src = joinPosix(await assertNoSymlinkEscape(vfs, root, dirnamePosix(srcAbs)), basenamePosix(srcAbs));
  if (isInsideGitDir(root, srcAbs) || isInsideGitDir(root, src))
    throw new VfsError("EACCES", MOVE_ERRORS.git, source);
  const kind = await lstatKind(vfs, src);
  if (!kind) throw new VfsError("ENOENT", MOVE_ERRORS.missing(source), source);
  const dst = await resolveWriteTarget(vfs, root, resolveProjectPath(root, root, target));
  if (isInsideGitDir(root, dst)) throw new VfsError("EINVAL", NEW_ENTRY_ERRORS.git, target);
  if (dst === src) throw new VfsError("EINVAL", MOVE_ERRORS.same(target), target);
  if (dst.startsWith(`${src}/`)) throw new VfsError("EINVAL", MOVE_ERRORS.intoItself(source, target), target);
  if (await lstatKind(vfs, dst)) throw new VfsError("EEXIST", NEW_ENTRY_ERRORS.exists(target), target);
  const fileParent = await firstFileAncestor(vfs, root, dirnamePosix(dst));
  if (fileParent) throw new VfsError("ENOTDIR", NEW_ENTRY_ERRORS.parentIsFile(fileParent), target);
  let moved = 1;
  if (kind === "dir") {
    moved += (await vfs.walk(src)).length;
    // One query for the subtree's contents, instead of one per file while renaming.
    await vfs.preload(src, { withData: true });
  }
  await vfs.rename(src, dst);
  return { from: source, to: target, kind, moved };
}

async function lstatKind(vfs: Vfs, abs: string): Promise<MovedEntry["kind"] | null> {
  try {
    return (await vfs.lstat(abs)).kind;
  } catch (error) {
    if (error instanceof VfsError && (error.code === "ENOENT" || error.code === "ENOTDIR")) return null;
    throw error;
  }
}

/** The nearest existing ancestor of `dir` (up to the root) if it is not a folder, as a root-relative path. */
async function firstFileAncestor(vfs: Vfs, root: string, dir: string): Promise<string | undefined> {
  let current = dir;
  while (current.length > root.length) {
    const stat = await vfs.stat(current).catch(() => null);
    if (stat) return stat.kind === "dir" ? undefined : current.slice(root.length + 1);
    current = dirnamePosix(current);
  }
  return undefined;
}
