/**
 * The filesystem contract every layer above `lib/vfs` uses. Paths are absolute, POSIX,
 * workspace-rooted VFS paths ("/strata/src/a.ts"); nothing here ever touches host disk.
 */

export type VfsNodeKind = "file" | "dir" | "symlink";

export interface VfsStat {
  kind: VfsNodeKind;
  /** Git-style mode: 0o100644 / 0o100755 files, 0o040000 dirs, 0o120000 symlinks. */
  mode: number;
  /** Bytes of content (for a symlink, of its target string). */
  size: number;
  /** Modification time, epoch milliseconds. */
  mtimeMs: number;
}

export interface WalkEntry {
  /** Absolute VFS path. */
  path: string;
  stat: VfsStat;
}

/**
 * A workspace filesystem. Every method throws a `VfsError` (lib/vfs/errors.ts) with a POSIX-like
 * `code` (`ENOENT`, `EEXIST`, `ENOTDIR`, `EISDIR`, `ENOTEMPTY`, `EINVAL`, `EFBIG`) on failure.
 */
export interface FileSystem {
  readFile(path: string): Promise<Uint8Array>;
  /** Decodes UTF-8 (BOM kept; callers strip where pi strips). */
  readText(path: string): Promise<string>;
  /** Creates parent directories as needed. Throws `EISDIR` on a directory. */
  writeFile(path: string, data: Uint8Array | string, options?: { mode?: number }): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  /** Entry names (not paths), sorted by code unit. */
  readdir(path: string): Promise<string[]>;
  /** Follows symlinks (within the workspace). */
  stat(path: string): Promise<VfsStat>;
  lstat(path: string): Promise<VfsStat>;
  exists(path: string): Promise<boolean>;
  unlink(path: string): Promise<void>;
  rmdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  symlink(target: string, path: string): Promise<void>;
  readlink(path: string): Promise<string>;
  /**
   * Every node below `dir` (not `dir` itself), depth-first in path order, in one bulk load.
   * `skip(path, stat)` returning true prunes a directory (or drops a file).
   */
  walk(dir: string, options?: { skip?: (path: string, stat: VfsStat) => boolean }): Promise<WalkEntry[]>;
  /** Bulk read; missing paths are absent from the result. */
  readFiles(paths: string[]): Promise<Map<string, Uint8Array>>;
}
