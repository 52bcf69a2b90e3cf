/**
 * The VFS's size and shape limits, one module every entry point shares (the editor's file API, the agent's
 * write/edit/bash tools, `!commands`, archive and git import). They sit well below the point where one
 * request could crash the process (about 100 MB held in one flush made V8 fail with "invalid size") or
 * stall it (path handling on a 1,600-level path).
 *
 * Pure constants and checks: no I/O, edge-safe.
 */
import { VfsError } from "./errors";

const MiB = 1024 * 1024;

/** Largest regular file or symlink the VFS stores, bytes (10 MiB). Over it: `VfsError` `EFBIG` (HTTP 413). */
export const MAX_FILE_BYTES = 10 * MiB;

/**
 * Largest total of file/symlink content written by one `Vfs.flush()` (one transaction), bytes (64 MiB);
 * git object files (content-addressed, each at most this size) are not counted. Over it the flush writes
 * nothing and fails with `VfsError` `EFBIG` (HTTP 413).
 */
export const MAX_FLUSH_BYTES = 64 * MiB;

/**
 * Largest total of bytes one shell command (the `bash` tool, a `!command`) or one tool call may write, bytes
 * (64 MiB). Every write counts, overwrites included. Over it the write fails inside the shell (`EFBIG`,
 * non-zero exit status) and nothing more is written.
 */
export const MAX_COMMAND_WRITE_BYTES = 64 * MiB;

/**
 * Deepest path below a project root (or an import's target dir, or the agent dir), in path components
 * (`a/b/c` is 3 levels; 64). Checked before any other work on the path.
 */
export const MAX_PATH_DEPTH = 64;

/** Longest path below a project root (or an import's target dir, or the agent dir), in UTF-8 bytes (4096, like PATH_MAX). */
export const MAX_PATH_LENGTH = 4096;

/**
 * The VFS's own backstop for absolute workspace paths: the user-facing limits plus room for the root
 * (`/<project>` or `/.pi/agent`), so a path that passes `checkPathLimits` below any root also passes here.
 */
export const MAX_WORKSPACE_PATH_DEPTH = MAX_PATH_DEPTH + 8;
/** See `MAX_WORKSPACE_PATH_DEPTH`; absolute workspace path length in UTF-8 bytes (4096 + 256). */
export const MAX_WORKSPACE_PATH_LENGTH = MAX_PATH_LENGTH + 256;

/** Rows per statement when a flush writes (bounded SQL parameter lists). */
export const FLUSH_BATCH_ROWS = 500;
/** Content bytes per statement when a flush writes (the hex-encoded parameter is twice this; 4 MiB). */
export const FLUSH_BATCH_BYTES = 4 * MiB;

/**
 * Number of path components (`"a//b/./c/"` → 3, `"/"` → 0). `.` and empty components are not counted;
 * `..` is. One linear scan, no allocation.
 */
export function pathDepth(path: string): number {
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i === path.length || path.charCodeAt(i) === 47 /* "/" */) {
      const len = i - start;
      if (len > 1 || (len === 1 && path.charCodeAt(start) !== 46) /* "." */) depth++;
      start = i + 1;
    }
  }
  return depth;
}

/** UTF-8 byte length of `s` without encoding it (lone surrogates count 3 bytes, as TextEncoder writes U+FFFD). */
export function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** The error for a path over the depth limit: `Path is 1601 levels deep; the limit is 64. Use a shallower path.` */
export function pathTooDeep(path: string, depth: number, limit: number): VfsError {
  return new VfsError(
    "ENAMETOOLONG",
    `Path is ${depth} levels deep; the limit is ${limit}. Use a shallower path.`,
    path,
  );
}

/** The error for a path over the length limit: `Path is 5000 bytes long; the limit is 4096. Use a shorter path.` */
export function pathTooLong(path: string, bytes: number, limit: number): VfsError {
  return new VfsError(
    "ENAMETOOLONG",
    `Path is ${bytes} bytes long; the limit is ${limit}. Use a shorter path.`,
    path,
  );
}

/**
 * Refuse a path over the length or depth limit, before any other work on it (linear in its length).
 * Length is checked first (so a huge path costs one scan at most).
 * @param path a path as given (relative to a project root, an import dir or the agent dir; or absolute
 *   with the workspace limits).
 * @param limits defaults `MAX_PATH_DEPTH` / `MAX_PATH_LENGTH`.
 * @throws VfsError `ENAMETOOLONG` (HTTP 400) naming the size and the limit (see `pathTooDeep`, `pathTooLong`).
 */
export function checkPathLimits(path: string, limits: { maxDepth?: number; maxLength?: number } = {}): void {
  const maxLength = limits.maxLength ?? MAX_PATH_LENGTH;
  const maxDepth = limits.maxDepth ?? MAX_PATH_DEPTH;
  // A UTF-16 length within the limit/3 cannot exceed it in UTF-8 bytes; only longer strings are measured.
  if (path.length > maxLength / 3) {
    const bytes = utf8Length(path);
    if (bytes > maxLength) throw pathTooLong(path, bytes, maxLength);
  }
  const depth = pathDepth(path);
  if (depth > maxDepth) throw pathTooDeep(path, depth, maxDepth);
}

/** `checkPathLimits` for an absolute workspace path (the VFS's backstop limits). */
export function checkWorkspacePathLimits(path: string): void {
  checkPathLimits(path, { maxDepth: MAX_WORKSPACE_PATH_DEPTH, maxLength: MAX_WORKSPACE_PATH_LENGTH });
}
