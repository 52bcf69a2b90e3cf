/**
 * Running `strata` in tests, two ways:
 * - `runStrata(args)`: the command line in this process (bin/lib/main.mjs `runCli`) with collected stdout/stderr,
 *   a given stdin and environment, and the TypeScript library loaded by Vitest instead of tsx. For what a command
 *   prints, stores and refuses (the same code as the binary, without a process and tsx per case).
 * - `spawnStrata(args)`: the real binary (`node bin/strata.mjs`, tsx and all). Only where the process boundary is
 *   what a test is about: the exit status, the process's stdin, a lock held by another process, the event loop.
 * Both answer `{ code, stdout, stderr }` (code = the exit code).
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { runCli } from "../../bin/lib/main.mjs";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const cliPath = path.join(root, "bin/strata.mjs");

/** What one `strata` run gave. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The run's environment (default `process.env`) and its stdin (default empty: end of input at once). */
export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  stdin?: string;
}

/** A writable stream that keeps what is written (bytes, decoded as UTF-8 at the end). */
class Collector extends Writable {
  private readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    callback();
  }
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

/**
 * `strata <args…>` in this process. The environment is copied (the command never changes the caller's); lib/db
 * still reads `process.env` (see `runCli`), so database commands of one file run one at a time or on one database.
 */
export async function runStrata(
  args: string[],
  { env = process.env, stdin = "" }: CliOptions = {},
): Promise<CliRun> {
  const stdout = new Collector();
  const stderr = new Collector();
  const code = await runCli(args, {
    stdout,
    stderr,
    stdin: Readable.from(stdin === "" ? [] : [Buffer.from(stdin)]),
    env,
    loadModule: (relativePath) => import(/* @vite-ignore */ path.join(root, relativePath)),
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** `node bin/strata.mjs <args…>` as a process (cwd: the repository), stdin written and closed. */
export function spawnStrata(
  args: string[],
  { env = process.env, stdin = "" }: CliOptions = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [cliPath, ...args],
      { cwd: root, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin);
  });
}

/** `process.env` without the names `pattern` matches (keys, database, …), plus `extra`. */
export function envWithout(pattern: RegExp, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(process.env)) if (!pattern.test(name)) env[name] = value;
  return { ...env, ...extra } as NodeJS.ProcessEnv;
}
