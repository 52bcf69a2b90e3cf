/**
 * The IDE's view of a project's files (and of the agent dir): a tree listing, text reads/writes and deletion,
 * confined to the root. Paths deeper than `MAX_PATH_DEPTH` (64) or longer than `MAX_PATH_LENGTH` (4096 bytes)
 * below the root are refused before any other work (lib/vfs/limits.ts, via `resolveProjectPath`).
 */
import { assertNoSymlinkEscape, resolveWriteTarget } from "@/lib/vfs/confine";
import { fsErrors, isInsideGitDir, PathEscapeError, VfsError } from "@/lib/vfs/errors";
import { basenamePosix, dirnamePosix, joinPosix, resolveProjectPath } from "@/lib/vfs/paths";
import type { FileSystem, VfsNodeKind } from "@/lib/vfs/types";
import { NEW_ENTRY_ERRORS } from "./new-entry-path";

export interface TreeEntry {
  /** Project-relative POSIX path. */
  path: string;
  kind: "file" | "dir" | "symlink";
  size: number;
}

/** Files larger than this are not sent to the editor (bytes). */
export const MAX_EDITOR_BYTES = 2 * 1024 * 1024;

/** Every node of the project except `.git`, in path order. */
export async function listProjectTree(fs: FileSystem, root: string): Promise<TreeEntry[]> {
  const entries = await fs.walk(root, { skip: (p) => p === `${root}/.git` });
  return entries.map((e) => ({ path: e.path.slice(root.length + 1), kind: e.stat.kind, size: e.stat.size }));
}

/** True when the bytes are not valid UTF-8 text (a NUL byte in the first 8 KiB, or invalid UTF-8). */
export function isBinary(bytes: Uint8Array): boolean {
  if (bytes.subarray(0, 8192).includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

export interface FileView {
  path: string;
  content: string | null;
  binary: boolean;
  size: number;
  tooLarge: boolean;
}

/**
 * A project file for the editor. Binary or oversized files come back without content.
 * @throws PathEscapeError for a path leaving the project; VfsError ENOENT/EISDIR.
 */
export async function readProjectFile(fs: FileSystem, root: string, relPath: string): Promise<FileView> {
  const abs = await assertNoSymlinkEscape(fs, root, resolveProjectPath(root, root, relPath));
  const stat = await fs.stat(abs);
  if (stat.kind === "dir") throw fsErrors.isDir(relPath, "read");
  if (stat.size > MAX_EDITOR_BYTES)
    return { path: relPath, content: null, binary: false, size: stat.size, tooLarge: true };
  const bytes = await fs.readFile(abs);
  if (isBinary(bytes))
    return { path: relPath, content: null, binary: true, size: bytes.byteLength, tooLarge: false };
  return {
    path: relPath,
    content: new TextDecoder().decode(bytes),
    binary: false,
    size: bytes.byteLength,
    tooLarge: false,
  };
}

/**
 * Write UTF-8 text to a project file (parents created). Returns the absolute path and byte size.
 * The path limits hold for the path as given and for where it lands with symlinks resolved
 * (`resolveWriteTarget`): @throws VfsError ENAMETOOLONG (HTTP 400) over them. Names follow the one rule (the VFS
 * refuses the rest: `UnsafeNameError`, EINVAL, 400) and, as in the tree's New file form, no part may be `.git` (any
 * case; VfsError EINVAL `NEW_ENTRY_ERRORS.nestedGit`); the project's own `.git`: PathEscapeError (400).
 */
export async function writeProjectFile(
  fs: FileSystem,
  root: string,
  relPath: string,
  content: string,
): Promise<{ path: string; size: number }> {
  const abs = await resolveWriteTarget(fs, root, resolveProjectPath(root, root, relPath));
  if (abs === root || abs === `${root}/.git` || abs.startsWith(`${root}/.git/`)) {
    throw new PathEscapeError(relPath, root, "the repository's .git directory is not editable");
  }
  if (
    abs
      .slice(root.length + 1)
      .split("/")
      .some((p) => p.toLowerCase() === ".git")
  )
    throw new VfsError("EINVAL", NEW_ENTRY_ERRORS.nestedGit, relPath);
  const bytes = new TextEncoder().encode(content);
  await fs.writeFile(abs, bytes);
  return { path: abs, size: bytes.byteLength };
}

/** What {@link deleteProjectPath} removed. */
export interface DeleteResult {
  /** The path as given (relative to the root). */
  path: string;
  kind: VfsNodeKind;
  /** Nodes deleted: 1 for a file or symlink, the folder plus everything below it for a folder. */
  deleted: number;
}

/**
 * Delete a file, a symlink (the link itself, never its target) or a folder with everything below it, in one
 * statement (`Vfs.removeTree`), immediately (no flush needed).
 * @param relPath path relative to `root` (e.g. `src/old`), limits as for reads and writes.
 * @returns what was deleted.
 * @throws VfsError ENOENT (HTTP 404) for a missing path; VfsError EACCES (400) for the root itself or the
 *   repository's `.git` (or anything in it, also when reached through a symlinked folder); PathEscapeError
 *   (400) for a path leaving the root; VfsError ENAMETOOLONG (400) over the path limits.
 */
export async function deleteProjectPath(
  fs: FileSystem & { removeTree(path: string): Promise<number> },
  root: string,
  relPath: string,
): Promise<DeleteResult> {
  const abs = resolveProjectPath(root, root, relPath);
  if (abs === root) {
    throw new VfsError(
      "EACCES",
      `EACCES: refusing to delete '${relPath}': it is the root folder itself. Delete the files or folders inside it instead.`,
      relPath,
    );
  }
  // The folder's symlinks are resolved (they must stay inside the root); the entry itself is not followed.
  const entry = joinPosix(await assertNoSymlinkEscape(fs, root, dirnamePosix(abs)), basenamePosix(abs));
  if (isInsideGitDir(root, abs) || isInsideGitDir(root, entry)) {
    throw new VfsError(
      "EACCES",
      `EACCES: refusing to delete '${relPath}': the repository's .git directory is managed by Strata.`,
      relPath,
    );
  }
  let kind: VfsNodeKind;
  try {
    kind = (await fs.lstat(entry)).kind;
  } catch (error) {
    if (error instanceof VfsError && (error.code === "ENOENT" || error.code === "ENOTDIR"))
      throw new VfsError("ENOENT", `No such file or folder: '${relPath}'`, relPath);
    throw error;
  }
  const deleted = await fs.removeTree(entry);
  return { path: relPath, kind, deleted };
}
