/**
 * A just-bash `IFileSystem` over Strata's `FileSystem`, confined to one project root: every path the
 * shell touches must resolve (symlinks included) inside the root, otherwise the call fails with an
 * `EACCES` `PathEscapeError` that the shell reports on stderr with a non-zero exit code.
 */

import type { FsStat, IFileSystem } from "just-bash/browser";
import { confineShellPath, confineShellWrite } from "./bash-confine";
import { decode, type EncodingArg, encode, encodingOf } from "./bash-encoding";
import { asNodeError, type DirentEntry, toFsStat } from "./bash-node";
import { assertNoSymlinkEscape } from "./confine";
import { formatBytesLimit, PathEscapeError, VfsError } from "./errors";
import { MAX_COMMAND_WRITE_BYTES } from "./limits";
import { dirnamePosix, isInsideRoot, joinPosix, normalizePosix } from "./paths";
import type { FileSystem, VfsStat } from "./types";

/**
 * The host's timer, captured when this module loads: just-bash's defense-in-depth mode (on by default)
 * replaces `setTimeout` with a blocking proxy while a script runs, so the shell's own yields use this one.
 */
const hostSetTimeout: (callback: () => void, ms: number) => unknown = globalThis.setTimeout.bind(globalThis);

/**
 * The shell runs on the server's event loop; after this many ms of interpretation without a pause, the next
 * filesystem call waits one macrotask so other requests are served (the longest stall is about this long
 * plus one command).
 */
export const SHELL_YIELD_EVERY_MS = 10;

/** Device files the shell may use without touching the VFS. */
const DEV_NULL = "/dev/null";

/** Operation names (as passed to `run`) that change the filesystem. */
const MUTATING_OPS = new Set(["mkdir", "rm", "chmod", "utime", "write"]);
/** Mutating operations on the entry itself: a final symlink is changed, not followed. */
const ENTRY_OPS = new Set(["mkdir", "rm"]);

/**
 * just-bash filesystem adapter confined to `projectRoot`.
 * Supports everything just-bash needs; hard links are emulated as copies, `utimes` is a no-op
 * (the VFS sets mtimes itself) and `chmod` rewrites the file with the new mode.
 */
export class ProjectBashFs implements IFileSystem {
  /** Bytes this shell (one command: a bash tool call or a `!command`) has written so far. */
  private written = 0;
  /** `Date.now()` when this shell last let the event loop run (see `SHELL_YIELD_EVERY_MS`). */
  private lastYield = Date.now();

  /**
   * @param options.maxWriteBytes total bytes one shell may write (default `MAX_COMMAND_WRITE_BYTES`,
   *   64 MiB); every write counts, overwrites included.
   */
  constructor(
    private readonly fs: FileSystem,
    private readonly projectRoot: string,
    private readonly options: { maxWriteBytes?: number } = {},
  ) {}

  /**
   * The filesystem and project root behind this adapter, for the shell's `git` (lib/exec/shell/git/): the one
   * command that writes the project's `.git`, through isomorphic-git on the filesystem itself (never through
   * this adapter, which refuses `.git` writes).
   */
  gitRepository(): { fs: FileSystem; root: string } {
    return { fs: this.fs, root: normalizePosix(this.projectRoot) };
  }

  /** Bytes written so far by this shell. */
  get bytesWritten(): number {
    return this.written;
  }

  /** Count `n` more bytes against the shell's write limit, or refuse them (nothing of them is written). */
  private charge(n: number): void {
    const limit = this.options.maxWriteBytes ?? MAX_COMMAND_WRITE_BYTES;
    if (this.written + n > limit) {
      throw new VfsError(
        "EFBIG",
        `EFBIG: this command would write ${this.written + n} bytes; the limit for one command is ${formatBytesLimit(limit)}. Nothing more was written; write less in one command.`,
      );
    }
    this.written += n;
  }

  /**
   * Let the event loop run (one macrotask) when more than `SHELL_YIELD_EVERY_MS` have passed since the last
   * pause; otherwise returns at once. Every filesystem call passes here, and just-bash probes the filesystem
   * for every external command it runs, so a long script shares the loop instead of holding it.
   */
  private async pace(): Promise<void> {
    if (Date.now() - this.lastYield < SHELL_YIELD_EVERY_MS) return;
    await new Promise<void>((resolve) => hostSetTimeout(resolve, 0));
    this.lastYield = Date.now();
  }

  /** Normalises `path` and refuses it unless it (and any symlink along it) stays inside the root. */
  private async confine(path: string): Promise<string> {
    await this.pace();
    return confineShellPath(this.fs, this.projectRoot, path);
  }

  /**
   * `confine` for a write (lib/vfs/bash-confine.ts `confineShellWrite`): never into the project's `.git`, never over
   * the path limits where the write lands; without `followLast` a final symlink is the entry itself, not followed.
   * @throws PathEscapeError (EACCES) outside the root; VfsError EACCES for `.git`; VfsError ENAMETOOLONG.
   */
  private async confineWrite(path: string, followLast = true): Promise<string> {
    await this.pace();
    return confineShellWrite(this.fs, this.projectRoot, path, followLast);
  }

  private async run<T>(
    op: string,
    path: string,
    fn: (abs: string) => Promise<T>,
    write = MUTATING_OPS.has(op),
  ): Promise<T> {
    const abs = write ? await this.confineWrite(path, !ENTRY_OPS.has(op)) : await this.confine(path);
    try {
      return await fn(abs);
    } catch (error) {
      throw asNodeError(error, op, path);
    }
  }

  async readFile(path: string, options?: EncodingArg): Promise<string> {
    if (normalizePosix(path) === DEV_NULL) return "";
    return decode(await this.readFileBuffer(path), encodingOf(options));
  }

  async readFileBuffer(path: string): Promise<Uint8Array> {
    if (normalizePosix(path) === DEV_NULL) return new Uint8Array(0);
    return this.run("open", path, (abs) => this.fs.readFile(abs));
  }

  async writeFile(path: string, content: string | Uint8Array, options?: EncodingArg): Promise<void> {
    if (normalizePosix(path) === DEV_NULL) return;
    const data = encode(content, encodingOf(options));
    await this.run(
      "open",
      path,
      async (abs) => {
        const mode = await this.fs
          .stat(abs)
          .then((s) => s.mode)
          .catch(() => undefined);
        this.charge(data.byteLength);
        await this.fs.writeFile(abs, data, mode ? { mode } : undefined);
      },
      true,
    );
  }

  async appendFile(path: string, content: string | Uint8Array, options?: EncodingArg): Promise<void> {
    if (normalizePosix(path) === DEV_NULL) return;
    const data = encode(content, encodingOf(options));
    await this.run(
      "open",
      path,
      async (abs) => {
        const existing = await this.fs.readFile(abs).catch((e: unknown) => {
          if ((e as { code?: string }).code === "ENOENT") return new Uint8Array(0);
          throw e;
        });
        this.charge(data.byteLength);
        const merged = new Uint8Array(existing.length + data.length);
        merged.set(existing);
        merged.set(data, existing.length);
        await this.fs.writeFile(abs, merged);
      },
      true,
    );
  }

  async exists(path: string): Promise<boolean> {
    // just-bash probes every PATH entry (`/usr/bin/echo`, `/bin/echo`) for each command it runs: a path
    // outside the root is answered without building (and throwing) a PathEscapeError, which cost ~0.2 ms each.
    await this.pace();
    const abs = normalizePosix(path);
    if (!isInsideRoot(this.projectRoot, abs)) return false;
    try {
      return await this.fs.exists(await this.confine(abs));
    } catch {
      return false;
    }
  }

  async stat(path: string): Promise<FsStat> {
    return this.run("stat", path, async (abs) => toFsStat(await this.fs.stat(abs)));
  }

  async lstat(path: string): Promise<FsStat> {
    await this.pace();
    const abs = normalizePosix(path);
    if (!isInsideRoot(this.projectRoot, abs))
      throw new PathEscapeError(abs, normalizePosix(this.projectRoot));
    await assertNoSymlinkEscape(this.fs, this.projectRoot, dirnamePosix(abs));
    try {
      return toFsStat(await this.fs.lstat(abs));
    } catch (error) {
      throw asNodeError(error, "lstat", path);
    }
  }

  async mkdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    await this.run("mkdir", path, (abs) => this.fs.mkdir(abs, options));
  }

  async readdir(path: string): Promise<string[]> {
    return this.run("scandir", path, (abs) => this.fs.readdir(abs));
  }

  async readdirWithFileTypes(path: string): Promise<DirentEntry[]> {
    return this.run("scandir", path, async (abs) => {
      const names = await this.fs.readdir(abs);
      const out: DirentEntry[] = [];
      for (const name of names) {
        const stat = await this.fs.lstat(joinPosix(abs, name));
        out.push({
          name,
          isFile: stat.kind === "file",
          isDirectory: stat.kind === "dir",
          isSymbolicLink: stat.kind === "symlink",
        });
      }
      return out;
    });
  }

  async rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void> {
    await this.run("rm", path, async (abs) => {
      let stat: VfsStat;
      try {
        stat = await this.fs.lstat(abs);
      } catch (error) {
        if (options?.force) return;
        throw error;
      }
      if (stat.kind === "dir") await this.fs.rmdir(abs, { recursive: options?.recursive });
      else await this.fs.unlink(abs);
    });
  }

  async cp(src: string, dest: string, options?: { recursive?: boolean }): Promise<void> {
    const from = await this.confine(src);
    const to = await this.confineWrite(dest);
    try {
      const stat = await this.fs.stat(from);
      if (stat.kind !== "dir") {
        this.charge(stat.size);
        await this.fs.writeFile(to, await this.fs.readFile(from), { mode: stat.mode });
        return;
      }
      if (!options?.recursive)
        throw new VfsError("EISDIR", `EISDIR: illegal operation on a directory, cp '${src}'`);
      await this.fs.mkdir(to, { recursive: true });
      const entries = await this.fs.walk(from);
      const files = entries.filter((e) => e.stat.kind === "file").map((e) => e.path);
      const contents = await this.fs.readFiles(files);
      for (const entry of entries) {
        const target = await this.confineWrite(joinPosix(to, entry.path.slice(from.length + 1)));
        if (entry.stat.kind === "dir") await this.fs.mkdir(target, { recursive: true });
        else if (entry.stat.kind === "symlink")
          await this.fs.symlink(await this.fs.readlink(entry.path), target);
        else {
          const bytes = contents.get(entry.path) ?? new Uint8Array(0);
          this.charge(bytes.byteLength);
          await this.fs.writeFile(target, bytes, { mode: entry.stat.mode });
        }
      }
    } catch (error) {
      throw asNodeError(error, "cp", src);
    }
  }

  async mv(src: string, dest: string): Promise<void> {
    const from = await this.confineWrite(src, false);
    const to = await this.confineWrite(dest, false);
    try {
      await this.fs.rename(from, to);
    } catch (error) {
      throw asNodeError(error, "mv", src);
    }
  }

  resolvePath(base: string, path: string): string {
    return path.startsWith("/") ? normalizePosix(path) : joinPosix(base, path);
  }

  getAllPaths(): string[] {
    return [];
  }

  async chmod(path: string, mode: number): Promise<void> {
    await this.run("chmod", path, async (abs) => {
      const stat = await this.fs.stat(abs);
      if (stat.kind !== "file") return;
      const type = stat.mode & ~0o7777;
      await this.fs.writeFile(abs, await this.fs.readFile(abs), { mode: type | (mode & 0o7777) });
    });
  }

  async symlink(target: string, linkPath: string): Promise<void> {
    const abs = normalizePosix(linkPath);
    const root = normalizePosix(this.projectRoot);
    if (!isInsideRoot(root, abs)) throw new PathEscapeError(abs, root);
    // A link may point into `.git` (reading through it is fine; every write through it is refused).
    const resolved = target.startsWith("/") ? normalizePosix(target) : joinPosix(dirnamePosix(abs), target);
    if (!isInsideRoot(root, resolved)) throw new PathEscapeError(resolved, root, `target of symlink ${abs}`);
    await this.confineWrite(linkPath, false);
    try {
      await this.fs.symlink(target, abs);
    } catch (error) {
      throw asNodeError(error, "symlink", linkPath);
    }
  }

  async link(existingPath: string, newPath: string): Promise<void> {
    const from = await this.confine(existingPath);
    const to = await this.confineWrite(newPath);
    try {
      if (await this.fs.exists(to))
        throw new VfsError("EEXIST", `EEXIST: file already exists, link '${newPath}'`);
      const stat = await this.fs.stat(from);
      this.charge(stat.size);
      await this.fs.writeFile(to, await this.fs.readFile(from), { mode: stat.mode });
    } catch (error) {
      throw asNodeError(error, "link", existingPath);
    }
  }

  async readlink(path: string): Promise<string> {
    await this.pace();
    const abs = normalizePosix(path);
    if (!isInsideRoot(this.projectRoot, abs))
      throw new PathEscapeError(abs, normalizePosix(this.projectRoot));
    try {
      return await this.fs.readlink(abs);
    } catch (error) {
      throw asNodeError(error, "readlink", path);
    }
  }

  async realpath(path: string): Promise<string> {
    return this.run("realpath", path, async (abs) => {
      const real = await assertNoSymlinkEscape(this.fs, this.projectRoot, abs);
      await this.fs.stat(real);
      return real;
    });
  }

  async utimes(path: string): Promise<void> {
    await this.run("utime", path, async (abs) => {
      await this.fs.stat(abs);
    });
  }
}
