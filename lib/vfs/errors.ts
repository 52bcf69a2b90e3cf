/** Errors of the VFS layer. `code` follows POSIX names so isomorphic-git and just-bash understand them. */

export type VfsErrorCode =
  | "ENOENT"
  | "EEXIST"
  | "ENOTDIR"
  | "EISDIR"
  | "ENOTEMPTY"
  | "EINVAL"
  | "EACCES"
  | "ELOOP"
  | "EFBIG"
  | "ENAMETOOLONG"
  | "ECONFLICT";

/** A filesystem error with a POSIX-like `code`; the message names the path. */
export class VfsError extends Error {
  readonly code: VfsErrorCode;
  readonly path?: string;
  constructor(code: VfsErrorCode, message: string, path?: string) {
    super(message);
    this.name = "VfsError";
    this.code = code;
    this.path = path;
  }
}

/**
 * How a user is answered for a VFS error. Its `code` is a POSIX name (isomorphic-git and just-bash read it), so it
 * does not extend `StrataError`; this is its part of `errorResponse`: a path outside the project 400 `path_escape`,
 * a concurrent writer 409 `conflict`, a missing path 404, a file too big 413, else 400, with the code in lower case.
 */
export function vfsErrorAnswer(error: VfsError): { status: number; code: string } {
  if (error instanceof PathEscapeError) return { status: 400, code: "path_escape" };
  if (error instanceof VfsConflictError) return { status: 409, code: "conflict" };
  const status = error.code === "ENOENT" ? 404 : error.code === "EFBIG" ? 413 : 400;
  return { status, code: error.code.toLowerCase() };
}

/** A path (via `..`, an absolute path or a symlink) that leaves the project root. */
export class PathEscapeError extends VfsError {
  readonly root: string;
  /** @param path the path as given; @param root the project root; @param detail e.g. which symlink escaped. */
  constructor(path: string, root: string, detail?: string) {
    super(
      "EACCES",
      `Path "${path}" is outside the project root ${root}${detail ? ` (${detail})` : ""}`,
      path,
    );
    this.name = "PathEscapeError";
    this.root = root;
  }
}

/** A concurrent writer changed a node this VFS had read; nothing of this flush was written. */
export class VfsConflictError extends VfsError {
  readonly paths: string[];
  constructor(paths: string[]) {
    super(
      "ECONFLICT",
      `Concurrent modification: ${paths.slice(0, 5).join(", ")}${paths.length > 5 ? ` and ${paths.length - 5} more` : ""} changed since read; nothing was written`,
      paths[0],
    );
    this.name = "VfsConflictError";
    this.paths = paths;
  }
}

/** `n` bytes as `67108864 bytes (64 MiB)` (whole MiB) or `1000 bytes`. */
export function formatBytesLimit(n: number): string {
  const mib = n / (1024 * 1024);
  return Number.isInteger(mib) ? `${n} bytes (${mib} MiB)` : `${n} bytes`;
}

/** Shorthand constructors with Node-style messages (`ENOENT: no such file or directory, open '/a'`). */
export const fsErrors = {
  notFound: (path: string, op = "open") =>
    new VfsError("ENOENT", `ENOENT: no such file or directory, ${op} '${path}'`, path),
  exists: (path: string, op = "mkdir") =>
    new VfsError("EEXIST", `EEXIST: file already exists, ${op} '${path}'`, path),
  notDir: (path: string, op = "scandir") =>
    new VfsError("ENOTDIR", `ENOTDIR: not a directory, ${op} '${path}'`, path),
  isDir: (path: string, op = "open") =>
    new VfsError("EISDIR", `EISDIR: illegal operation on a directory, ${op} '${path}'`, path),
  notEmpty: (path: string) =>
    new VfsError("ENOTEMPTY", `ENOTEMPTY: directory not empty, rmdir '${path}'`, path),
  loop: (path: string) =>
    new VfsError("ELOOP", `ELOOP: too many symbolic links encountered, stat '${path}'`, path),
  tooBig: (path: string, size: number, max: number) =>
    new VfsError(
      "EFBIG",
      `EFBIG: file too large, '${path}' is ${size} bytes; the limit is ${formatBytesLimit(max)}. Write a smaller file.`,
      path,
    ),
};

/** True when `path` is the project's `.git` directory or inside it. Both absolute and normalised. */
export function isInsideGitDir(projectRoot: string, path: string): boolean {
  const git = `${projectRoot === "/" ? "" : projectRoot}/.git`;
  return path === git || path.startsWith(`${git}/`);
}

/**
 * Refuse a write into the project's `.git` directory (Strata manages the repository: checkpoints, refs).
 * @throws VfsError EACCES naming the path.
 */
export function refuseGitWrite(projectRoot: string, path: string): void {
  if (isInsideGitDir(projectRoot, path)) {
    throw new VfsError(
      "EACCES",
      `EACCES: permission denied, '${path}' (the repository's .git directory is managed by Strata)`,
      path,
    );
  }
}
