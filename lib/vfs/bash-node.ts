/**
 * What just-bash expects of a Node-like filesystem, for its adapter `ProjectBashFs` (lib/vfs/bash-fs.ts): VFS errors
 * labelled the way Node's `fs` labels them, and stats and directory entries in just-bash's shapes. Pure, edge-safe.
 */

import type { FsStat } from "just-bash/browser";
import { VfsError, type VfsErrorCode } from "./errors";
import { UnsafeNameError } from "./names";
import type { VfsStat } from "./types";

/** One entry of `readdirWithFileTypes`, as just-bash reads it. */
export type DirentEntry = { name: string; isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean };

const DESCRIPTIONS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EEXIST: "file already exists",
  ENOTDIR: "not a directory",
  EISDIR: "illegal operation on a directory",
  ENOTEMPTY: "directory not empty",
  EINVAL: "invalid argument",
  EACCES: "permission denied",
};

/** Codes whose message is Strata's own (it names the limit or the refusal) and is kept as is. */
const KEEP_MESSAGE = new Set<VfsErrorCode>(["EACCES", "EFBIG", "ENAMETOOLONG"]);

/** Re-labels a VFS error Node-style ("ENOENT: no such file or directory, open '/p'"), which just-bash parses. */
export function asNodeError(error: unknown, op: string, path: string): Error {
  // Refusals (outside the root, inside `.git`, a name the rule refuses) and limits (size, path depth/length) keep
  // their own message.
  if (error instanceof UnsafeNameError || (error instanceof VfsError && KEEP_MESSAGE.has(error.code)))
    return error;
  const code = (error instanceof VfsError ? error.code : (error as { code?: string })?.code) as
    | VfsErrorCode
    | undefined;
  if (!code) return error instanceof Error ? error : new Error(String(error));
  return new VfsError(code, `${code}: ${DESCRIPTIONS[code] ?? "operation failed"}, ${op} '${path}'`, path);
}

/** A VFS stat as just-bash's `FsStat` (permission bits only; a directory without them 0755, else 0644). */
export function toFsStat(stat: VfsStat): FsStat {
  return {
    isFile: stat.kind === "file",
    isDirectory: stat.kind === "dir",
    isSymbolicLink: stat.kind === "symlink",
    mode: stat.mode & 0o7777 || (stat.kind === "dir" ? 0o755 : 0o644),
    size: stat.size,
    mtime: new Date(stat.mtimeMs),
  };
}
