/**
 * The `fs` shape isomorphic-git accepts (`{ promises: { readFile, writeFile, … } }`), over a `FileSystem`.
 * Errors keep their POSIX `code` (isomorphic-git tests `err.code === "ENOENT"`), stats expose the
 * methods and fields it reads, and file contents are returned as `Buffer`s. Outside `.git`, a name git cannot
 * hold (lib/vfs/names.ts `gitNameProblem`, old data) is not listed: isomorphic-git would take `a\b.txt` for
 * `a/b.txt` (its `join` turns backslashes into slashes) or refuse the tree it commits; the commits Strata makes
 * record such names as left out (lib/vfs/git-holdable.ts).
 */
import { Buffer } from "buffer";
import { VfsError } from "./errors";
import { gitNameProblem } from "./names";
import type { FileSystem, VfsStat } from "./types";

if (typeof (globalThis as { Buffer?: unknown }).Buffer === "undefined") {
  (globalThis as { Buffer?: unknown }).Buffer = Buffer;
}

/** A Node-like `Stats` for isomorphic-git. `ino` is a stable hash of the path. */
export class GitStats {
  readonly mode: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly uid = 1;
  readonly gid = 1;
  readonly dev = 1;
  constructor(
    private readonly s: VfsStat,
    path: string,
  ) {
    this.mode = s.mode;
    this.size = s.size;
    this.mtimeMs = s.mtimeMs;
    this.ctimeMs = s.mtimeMs;
    let h = 0;
    for (let i = 0; i < path.length; i++) h = (Math.imul(h, 31) + path.charCodeAt(i)) >>> 0;
    this.ino = h;
  }
  isFile(): boolean {
    return this.s.kind === "file";
  }
  isDirectory(): boolean {
    return this.s.kind === "dir";
  }
  isSymbolicLink(): boolean {
    return this.s.kind === "symlink";
  }
}

type Encoding = string | { encoding?: string | null } | undefined;

function encodingOf(options: Encoding): string | undefined {
  if (typeof options === "string") return options;
  return options?.encoding ?? undefined;
}

/** Rethrow anything that is not a `VfsError` as one with a `code`, parsed from a `CODE: …` message. */
function coded(error: unknown): unknown {
  if (error instanceof VfsError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const m = /^(E[A-Z]+):/.exec(message);
  return m ? new VfsError(m[1] as VfsError["code"], message) : error;
}

/** isomorphic-git's fs client over a Strata `FileSystem`. */
export function createGitFs(fs: FileSystem) {
  const wrap =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch (error) {
        throw coded(error);
      }
    };
  return {
    promises: {
      readFile: wrap(async (path: string, options?: Encoding) => {
        const bytes = await fs.readFile(path);
        const enc = encodingOf(options);
        const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        return enc ? buf.toString(enc as BufferEncoding) : buf;
      }),
      writeFile: wrap(
        async (path: string, data: Uint8Array | string, options?: Encoding & { mode?: number }) => {
          const mode = typeof options === "object" && options && "mode" in options ? options.mode : undefined;
          await fs.writeFile(
            path,
            typeof data === "string" ? data : new Uint8Array(data),
            mode ? { mode: mode & 0o111 ? 0o100755 : 0o100644 } : {},
          );
        },
      ),
      unlink: wrap((path: string) => fs.unlink(path)),
      readdir: wrap(async (path: string) => {
        const names = await fs.readdir(path);
        if (/(^|\/)\.git(\/|$)/.test(path)) return names;
        return names.filter((name) => name === ".git" || !gitNameProblem(name));
      }),
      mkdir: wrap((path: string) => fs.mkdir(path)),
      rmdir: wrap((path: string) => fs.rmdir(path)),
      stat: wrap(async (path: string) => new GitStats(await fs.stat(path), path)),
      lstat: wrap(async (path: string) => new GitStats(await fs.lstat(path), path)),
      readlink: wrap(async (path: string) => Buffer.from(await fs.readlink(path))),
      symlink: wrap((target: string, path: string) => fs.symlink(target, path)),
      chmod: wrap(async (path: string, mode: number) => {
        const st = await fs.lstat(path);
        if (st.kind === "file")
          await fs.writeFile(path, await fs.readFile(path), { mode: mode & 0o111 ? 0o100755 : 0o100644 });
      }),
    },
  };
}
