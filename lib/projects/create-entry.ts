/**
 * Creating an empty file or a folder in a project from the IDE's tree ("New file" / "New folder").
 * A folder is a VFS directory (it shows in the tree and the shell at once); git records it only once it holds
 * a file, as on a local disk (no `.gitkeep` is written).
 */
import { resolveWriteTarget } from "@/lib/vfs/confine";
import { isInsideGitDir, VfsError } from "@/lib/vfs/errors";
import { dirnamePosix, resolveProjectPath } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";
import { checkNewEntryPath, NEW_ENTRY_ERRORS } from "./new-entry-path";

/** What {@link createProjectEntry} made. */
export interface CreatedEntry {
  /** The path as checked (trimmed, relative to the root). */
  path: string;
  kind: "file" | "dir";
}

/**
 * Create an empty file or a folder (missing parent folders are created too) at `relPath` below `root`.
 * Nothing is overwritten. The caller flushes the VFS.
 * @throws VfsError EINVAL (HTTP 400) for a path {@link checkNewEntryPath} refuses (empty, control or bidi characters, a backslash, `..`, `.git`);
 *   EEXIST (the route answers 409) when something exists there: `"a.txt" already exists. Choose another name.`;
 *   ENOTDIR (400) when a parent is a file; PathEscapeError (400) for a symlink leading out of the root.
 */
export async function createProjectEntry(
  fs: FileSystem,
  root: string,
  relPath: string,
  kind: "file" | "dir",
): Promise<CreatedEntry> {
  const checked = checkNewEntryPath(relPath);
  if ("error" in checked) throw new VfsError("EINVAL", checked.error, relPath);
  const { path } = checked;
  const abs = await resolveWriteTarget(fs, root, resolveProjectPath(root, root, path));
  if (isInsideGitDir(root, abs)) throw new VfsError("EINVAL", NEW_ENTRY_ERRORS.git, path);
  if (await exists(fs, abs)) throw new VfsError("EEXIST", NEW_ENTRY_ERRORS.exists(path), path);
  const parent = await firstFileAncestor(fs, root, dirnamePosix(abs));
  if (parent) throw new VfsError("ENOTDIR", NEW_ENTRY_ERRORS.parentIsFile(parent), path);
  if (kind === "dir") await fs.mkdir(abs, { recursive: true });
  else await fs.writeFile(abs, new Uint8Array());
  return { path, kind };
}

async function exists(fs: FileSystem, abs: string): Promise<boolean> {
  try {
    await fs.lstat(abs);
    return true;
  } catch {
    return false;
  }
}

/** The nearest existing ancestor of `dir` (up to the root) if it is not a folder, as a root-relative path. */
async function firstFileAncestor(fs: FileSystem, root: string, dir: string): Promise<string | undefined> {
  // A plain while loop: Turbopack's build left the imported name unbound in a `for` update clause reached
  // through `continue` (ReferenceError: dirnamePosix is not defined in the production build).
  let current = dir;
  while (current.length > root.length) {
    const stat = await fs.stat(current).catch(() => null);
    if (stat) return stat.kind === "dir" ? undefined : current.slice(root.length + 1);
    current = dirnamePosix(current);
  }
  return undefined;
}
