/** The IDE's view of a project's files: a tree listing and text reads/writes, confined to the project. */
import { assertNoSymlinkEscape } from "@/lib/vfs/confine";
import { fsErrors, PathEscapeError } from "@/lib/vfs/errors";
import { resolveProjectPath } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";

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

/** Write UTF-8 text to a project file (parents created). Returns the absolute path and byte size. */
export async function writeProjectFile(
  fs: FileSystem,
  root: string,
  relPath: string,
  content: string,
): Promise<{ path: string; size: number }> {
  const abs = await assertNoSymlinkEscape(fs, root, resolveProjectPath(root, root, relPath));
  if (abs === root || abs === `${root}/.git` || abs.startsWith(`${root}/.git/`)) {
    throw new PathEscapeError(relPath, root, "the repository's .git directory is not editable");
  }
  const bytes = new TextEncoder().encode(content);
  await fs.writeFile(abs, bytes);
  return { path: abs, size: bytes.byteLength };
}
