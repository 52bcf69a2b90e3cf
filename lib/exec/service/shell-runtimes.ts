/**
 * The shell's heavy runtimes, for the execution service (and Node tests) only: just-bash's Node build (`just-bash`,
 * not `just-bash/browser`, which has none of them) with `js-exec` and Strata's `node` (QuickJS), `python3`/`python`
 * (CPython 3.13 compiled to WebAssembly, standard library only) and `sqlite3` (sql.js) on the project's VFS —
 * everything else as in process (`runShell`, lib/tools/bash.ts: same filesystem adapter, custom commands, limits).
 * Each runtime runs in a worker thread of its own that just-bash starts and ends; its per-run deadline is
 * `RUNTIME_TIMEOUT_MS` or the command's CPU-time limit in the service (capped by the shell's whole deadline), after which just-bash stops it with e.g.
 * `python3: Execution timeout: exceeded 60000ms limit` (exit 124). QuickJS has a 64 MB heap limit; CPython's and
 * sql.js's WebAssembly memory is not capped by the pool worker's heap limit (just-bash's README says so): the
 * pool bounds it by the worker's resident memory (command-watch.ts, `RSS_HEADROOM_MB`). Node-only: imported by lib/exec/service/ and tests, never by lib/ or routes.
 */
import {
  Bash,
  type Command,
  type CommandName,
  type CustomCommand,
  DefenseInDepthBox,
  getCommandNames,
  type IFileSystem,
} from "just-bash";
import { getCommandNames as browserCommandNames } from "just-bash/browser";
import { SERVICE_CAPABILITIES, type ShellCapabilities } from "@/lib/exec/shell/commands";
import { runShell, type ShellFactory, type ShellRun } from "@/lib/tools/bash";
import type { ToolContext } from "@/lib/tools/types";
import { JS_BOOTSTRAP } from "./js-bootstrap";
import { nodeCommand } from "./node-command";
import { pythonCommands } from "./python-command";

/** Deadline of one js-exec/node, python3 or sqlite3 run (ms): the service's CPU-time limit (60 s). */
export const RUNTIME_TIMEOUT_MS = 60_000;

/**
 * Every SQLite database image sqlite3 may hold (bytes): the VFS's largest file (10 MiB), so a database that
 * could not be written back fails in sqlite3 with its limit instead of at the write.
 */
export const MAX_DATABASE_BYTES = 10 * 1024 * 1024;

/**
 * The shell's filesystem adapter for the Node build: every call runs as trusted host code
 * (`DefenseInDepthBox.runTrusted`): just-bash's defense-in-depth layer (Node build only) blocks `process.env`,
 * `setTimeout` and `performance.now` while a script runs, and the VFS behind the adapter (the Postgres driver,
 * its retries) uses them. And `stat` of a file gives its identity (`vfs:<real path>`): sqlite3 refuses to open an
 * existing database whose identity it cannot determine ("database identity cannot be determined safely"), and
 * the VFS has no inodes; a file's real path (symlinks resolved) is its identity there (a VFS hard link is a copy).
 * A Proxy, so the adapter's other members (`gitRepository()`) stay reachable.
 */
export function trustedFs(fs: IFileSystem): IFileSystem {
  const stat: IFileSystem["stat"] = async (path) => {
    const st = await fs.stat(path);
    if (!st.isFile || st.identity !== undefined) return st;
    return { ...st, identity: `vfs:${await fs.realpath(path)}` };
  };
  return new Proxy(fs, {
    get(target, prop) {
      const value = prop === "stat" ? stat : Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => DefenseInDepthBox.runTrusted(() => value.apply(target, args));
    },
  });
}

/**
 * Strata's own commands (rm, ln, git: trusted host code) as in the browser build: run as trusted code, on the
 * adapter itself (`fs`) — the Node build hands a command its own wrapper of the filesystem, which hides
 * `gitRepository()` and runs the VFS's driver under the defense layer.
 */
function trustedCommand(command: CustomCommand, fs: IFileSystem): CustomCommand {
  if (!("execute" in command)) return command;
  const own = command as Command;
  return {
    ...own,
    execute: (args, ctx) => DefenseInDepthBox.runTrustedAsync(() => own.execute(args, { ...ctx, fs })),
  };
}

/**
 * `runShell`'s shell factory for the Node runner: just-bash's Node build with the runtimes of `capabilities`.
 * Its commands are exactly the in-process shell's (the browser bundle's registry; the Node build's tar, yq and
 * xan are left out, so both shells and `shellCommandNames()` agree) plus the runtimes' commands. The runtimes'
 * deadlines are `executionLimits`' (default `RUNTIME_TIMEOUT_MS`), never past the shell's `maxExecutionTimeMs`.
 */
export const runtimeShell: ShellFactory = (options, capabilities) => {
  const browser = new Set(browserCommandNames());
  const commands = getCommandNames().filter(
    (name) => browser.has(name) || (name === "sqlite3" && capabilities.sqlite === true),
  ) as CommandName[];
  const limits = options.executionLimits ?? {};
  const whole = limits.maxExecutionTimeMs ?? RUNTIME_TIMEOUT_MS;
  const deadline = (ms: number | undefined) => Math.min(ms ?? RUNTIME_TIMEOUT_MS, whole);
  const fs = options.fs ? trustedFs(options.fs) : undefined;
  const own = (options.customCommands ?? []).map((c) => (fs ? trustedCommand(c, fs) : c));
  return new Bash({
    ...options,
    ...(fs ? { fs } : {}),
    commands,
    customCommands: [
      ...own,
      ...(capabilities.javascript ? [nodeCommand] : []),
      ...(capabilities.python ? pythonCommands : []),
    ],
    python: capabilities.python === true,
    javascript: capabilities.javascript ? { bootstrap: JS_BOOTSTRAP } : false,
    executionLimits: {
      maxDatabaseBytes: MAX_DATABASE_BYTES,
      ...limits,
      maxJsTimeoutMs: deadline(limits.maxJsTimeoutMs),
      maxPythonTimeoutMs: deadline(limits.maxPythonTimeoutMs),
      maxSqliteTimeoutMs: deadline(limits.maxSqliteTimeoutMs),
    },
  });
};

/**
 * `runShell` with the runtimes (all of them unless `options.capabilities` says otherwise): what the execution
 * service's `/v1/shell` runs. Same options, result and errors as `runShell`.
 * @param options.runtimeTimeoutMs deadline of one js-exec/node, python3 or sqlite3 run (default
 *   `RUNTIME_TIMEOUT_MS`; the service passes the command's CPU-time limit: a runtime's worker thread is not the
 *   pool worker, whose CPU time the pool measures). Capped by the shell's whole deadline.
 */
export function runShellWithRuntimes(
  ctx: ToolContext,
  script: string,
  options: Omit<Parameters<typeof runShell>[2] & object, "createShell"> & { runtimeTimeoutMs?: number } = {},
): Promise<ShellRun> {
  const { runtimeTimeoutMs, ...rest } = options;
  const capabilities: ShellCapabilities = options.capabilities ?? SERVICE_CAPABILITIES;
  const deadline = runtimeTimeoutMs ?? RUNTIME_TIMEOUT_MS;
  const executionLimits = {
    maxJsTimeoutMs: deadline,
    maxPythonTimeoutMs: deadline,
    maxSqliteTimeoutMs: deadline,
    ...options.executionLimits,
  };
  return runShell(ctx, script, { ...rest, executionLimits, capabilities, createShell: runtimeShell });
}
