/**
 * A just-bash `IFileSystem` over Strata's `FileSystem`, confined to one project root: every path the
 * shell touches must resolve (symlinks included) inside the root, otherwise the call fails with an
 * `EACCES` `PathEscapeError` that the shell reports on stderr with a non-zero exit code.
 */

import { type Command, defineCommand, type FsStat, type IFileSystem } from "just-bash/browser";
import { assertNoSymlinkEscape } from "./confine";
import { PathEscapeError, refuseGitWrite, VfsError, type VfsErrorCode } from "./errors";
import { basenamePosix, dirnamePosix, isInsideRoot, joinPosix, normalizePosix } from "./paths";
import type { FileSystem, VfsStat } from "./types";

type Encoding = "utf8" | "utf-8" | "ascii" | "binary" | "base64" | "hex" | "latin1";
type EncodingArg = { encoding?: Encoding | null } | Encoding | undefined;
type DirentEntry = { name: string; isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean };

const DESCRIPTIONS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EEXIST: "file already exists",
  ENOTDIR: "not a directory",
  EISDIR: "illegal operation on a directory",
  ENOTEMPTY: "directory not empty",
  EINVAL: "invalid argument",
  EACCES: "permission denied",
};

/** Re-labels a VFS error Node-style ("ENOENT: no such file or directory, open '/p'"), which just-bash parses. */
function asNodeError(error: unknown, op: string, path: string): Error {
  // Refusals (outside the root, inside `.git`) keep their own message.
  if (error instanceof VfsError && error.code === "EACCES") return error;
  const code = (error instanceof VfsError ? error.code : (error as { code?: string })?.code) as
    | VfsErrorCode
    | undefined;
  if (!code) return error instanceof Error ? error : new Error(String(error));
  return new VfsError(code, `${code}: ${DESCRIPTIONS[code] ?? "operation failed"}, ${op} '${path}'`, path);
}

function encodingOf(options: EncodingArg): Encoding {
  if (typeof options === "string") return options;
  return options?.encoding ?? "utf8";
}

function decode(bytes: Uint8Array, encoding: Encoding): string {
  switch (encoding) {
    case "base64": {
      let binary = "";
      for (let i = 0; i < bytes.length; i += 0x8000)
        binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(binary);
    }
    case "hex":
      return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    case "latin1":
    case "binary":
    case "ascii": {
      let out = "";
      for (let i = 0; i < bytes.length; i += 0x8000)
        out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return encoding === "ascii"
        ? out.replace(/[\x80-\xff]/g, (c) => String.fromCharCode(c.charCodeAt(0) & 0x7f))
        : out;
    }
    default:
      return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  }
}

function encode(content: string | Uint8Array, encoding: Encoding): Uint8Array {
  if (typeof content !== "string") return content;
  switch (encoding) {
    case "base64":
      return Uint8Array.from(atob(content), (c) => c.charCodeAt(0));
    case "hex":
      return Uint8Array.from(content.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
    case "latin1":
    case "binary":
    case "ascii":
      return Uint8Array.from(content, (c) => c.charCodeAt(0) & 0xff);
    default:
      return new TextEncoder().encode(content);
  }
}

function toFsStat(stat: VfsStat): FsStat {
  return {
    isFile: stat.kind === "file",
    isDirectory: stat.kind === "dir",
    isSymbolicLink: stat.kind === "symlink",
    mode: stat.mode & 0o7777 || (stat.kind === "dir" ? 0o755 : 0o644),
    size: stat.size,
    mtime: new Date(stat.mtimeMs),
  };
}

/** Device files the shell may use without touching the VFS. */
const DEV_NULL = "/dev/null";

/**
 * just-bash filesystem adapter confined to `projectRoot`.
 * Supports everything just-bash needs; hard links are emulated as copies, `utimes` is a no-op
 * (the VFS sets mtimes itself) and `chmod` rewrites the file with the new mode.
 */
/** Operation names (as passed to `run`) that change the filesystem. */
const MUTATING_OPS = new Set(["mkdir", "rm", "chmod", "utime", "write"]);
/** Mutating operations on the entry itself: a final symlink is changed, not followed. */
const ENTRY_OPS = new Set(["mkdir", "rm"]);

export class ProjectBashFs implements IFileSystem {
  constructor(
    private readonly fs: FileSystem,
    private readonly projectRoot: string,
  ) {}

  /** Normalises `path` and refuses it unless it (and any symlink along it) stays inside the root. */
  private async confine(path: string): Promise<string> {
    const abs = normalizePosix(path);
    if (!isInsideRoot(this.projectRoot, abs))
      throw new PathEscapeError(abs, normalizePosix(this.projectRoot));
    await assertNoSymlinkEscape(this.fs, this.projectRoot, abs);
    return abs;
  }

  /**
   * `confine` for a write: the project's `.git` directory is managed by Strata, not the shell.
   * Refused when the path, its entry with the directory's symlinks resolved, or (with `followLast`,
   * for operations that write through a final symlink) its fully resolved target lies in `.git`.
   */
  private async confineWrite(path: string, followLast = true): Promise<string> {
    const abs = await this.confine(path);
    const root = normalizePosix(this.projectRoot);
    refuseGitWrite(root, abs);
    if (abs === root) return abs;
    const dir = await assertNoSymlinkEscape(this.fs, root, dirnamePosix(abs));
    refuseGitWrite(root, joinPosix(dir, basenamePosix(abs)));
    if (followLast) refuseGitWrite(root, await assertNoSymlinkEscape(this.fs, root, abs));
    return abs;
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
        const merged = new Uint8Array(existing.length + data.length);
        merged.set(existing);
        merged.set(data, existing.length);
        await this.fs.writeFile(abs, merged);
      },
      true,
    );
  }

  async exists(path: string): Promise<boolean> {
    try {
      return await this.fs.exists(await this.confine(path));
    } catch {
      return false;
    }
  }

  async stat(path: string): Promise<FsStat> {
    return this.run("stat", path, async (abs) => toFsStat(await this.fs.stat(abs)));
  }

  async lstat(path: string): Promise<FsStat> {
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
        else
          await this.fs.writeFile(target, contents.get(entry.path) ?? new Uint8Array(0), {
            mode: entry.stat.mode,
          });
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
      await this.fs.writeFile(to, await this.fs.readFile(from), { mode: stat.mode });
    } catch (error) {
      throw asNodeError(error, "link", existingPath);
    }
  }

  async readlink(path: string): Promise<string> {
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

/** Parses `-abc` / `--long` boolean flags; `--` ends them. Returns the usage error as a result. */
function parseFlags(
  name: string,
  args: string[],
  short: Record<string, string>,
  long: Record<string, string>,
): { flags: Set<string>; operands: string[] } | { stdout: string; stderr: string; exitCode: number } {
  const flags = new Set<string>();
  const operands: string[] = [];
  let options = true;
  for (const arg of args) {
    if (!options || !arg.startsWith("-") || arg === "-") operands.push(arg);
    else if (arg === "--") options = false;
    else if (arg.startsWith("--")) {
      const flag = long[arg.slice(2)];
      if (!flag) return { stdout: "", stderr: `${name}: unrecognized option '${arg}'\n`, exitCode: 1 };
      flags.add(flag);
    } else {
      for (const c of arg.slice(1)) {
        const flag = short[c];
        if (!flag) return { stdout: "", stderr: `${name}: invalid option -- '${c}'\n`, exitCode: 1 };
        flags.add(flag);
      }
    }
  }
  return { flags, operands };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * just-bash's `rm`, except that `-f` (like GNU's) ignores only missing operands: a refusal (a write
 * into `.git` or outside the project) still fails with its message instead of exiting 0. Like GNU's,
 * it removes a symlink itself (just-bash's follows it: "Is a directory" for a link to a directory).
 */
const rmCommand = defineCommand("rm", async (args, ctx) => {
  const parsed = parseFlags(
    "rm",
    args,
    { r: "recursive", R: "recursive", f: "force", v: "verbose" },
    { recursive: "recursive", force: "force", verbose: "verbose" },
  );
  if (!("flags" in parsed)) return parsed;
  const { flags, operands } = parsed;
  const force = flags.has("force");
  if (operands.length === 0)
    return { stdout: "", stderr: force ? "" : "rm: missing operand\n", exitCode: force ? 0 : 1 };
  let stdout = "";
  let stderr = "";
  let exitCode = 0;
  for (const operand of operands) {
    try {
      const path = ctx.fs.resolvePath(ctx.cwd, operand);
      if ((await ctx.fs.lstat(path)).isDirectory && !flags.has("recursive")) {
        stderr += `rm: cannot remove '${operand}': Is a directory\n`;
        exitCode = 1;
        continue;
      }
      await ctx.fs.rm(path, { recursive: flags.has("recursive"), force });
      if (flags.has("verbose")) stdout += `removed '${operand}'\n`;
    } catch (error) {
      const text = message(error);
      const missing = text.includes("ENOENT") || text.includes("no such file");
      if (force && missing) continue;
      const reason = missing
        ? "No such file or directory"
        : text.includes("ENOTEMPTY") || text.includes("not empty")
          ? "Directory not empty"
          : text;
      stderr += `rm: cannot remove '${operand}': ${reason}\n`;
      exitCode = 1;
    }
  }
  return { stdout, stderr, exitCode };
});

/**
 * just-bash's `ln`, except that a refusal is reported verbatim: just-bash masks paths such as
 * `/etc/passwd` or `/tmp/x` in its message as `<path>`, hiding which symlink target was refused.
 */
const lnCommand = defineCommand("ln", async (args, ctx) => {
  const parsed = parseFlags(
    "ln",
    args,
    { s: "symbolic", f: "force", v: "verbose", n: "no-dereference" },
    { symbolic: "symbolic", force: "force", verbose: "verbose", "no-dereference": "no-dereference" },
  );
  if (!("flags" in parsed)) return parsed;
  const { flags, operands } = parsed;
  if (operands.length < 2) return { stdout: "", stderr: "ln: missing file operand\n", exitCode: 1 };
  if (operands.length > 2) return { stdout: "", stderr: `ln: extra operand '${operands[2]}'\n`, exitCode: 1 };
  const [target, name] = operands;
  const symbolic = flags.has("symbolic");
  const link = ctx.fs.resolvePath(ctx.cwd, name);
  const fail = (stderr: string) => ({ stdout: "", stderr, exitCode: 1 });
  if (await ctx.fs.exists(link)) {
    if (!flags.has("force"))
      return fail(`ln: failed to create ${symbolic ? "symbolic " : ""}link '${name}': File exists\n`);
    try {
      await ctx.fs.rm(link, { force: true });
    } catch {
      return fail(`ln: cannot remove '${name}': Permission denied\n`);
    }
  }
  try {
    if (symbolic) await ctx.fs.symlink(target, link);
    else {
      const existing = ctx.fs.resolvePath(ctx.cwd, target);
      if (!(await ctx.fs.exists(existing)))
        return fail(`ln: failed to access '${target}': No such file or directory\n`);
      await ctx.fs.link(existing, link);
    }
  } catch (error) {
    return fail(`ln: ${message(error)}\n`);
  }
  return { stdout: flags.has("verbose") ? `'${name}' -> '${target}'\n` : "", stderr: "", exitCode: 0 };
});

/** Commands that replace just-bash built-ins for a shell over `ProjectBashFs` (pass as `customCommands`). */
export const projectShellCommands: Command[] = [rmCommand, lnCommand];
