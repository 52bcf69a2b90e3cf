/**
 * `POST /v1/shell` of the execution service: a script in the simulated shell (`runShell` of lib/tools/bash.ts,
 * with the runtimes node/js-exec, python3 and sqlite3: `runShellWithRuntimes`, ../shell-runtimes.ts;
 * the same code as in process) on the workspace's VFS in Postgres, in a pool worker. Its changes are recorded as
 * the session's pending paths (when `pending` is given), flushed, and answered as `changedPaths`, which the app
 * absorbs (drops from its own VFS cache) and checkpoints.
 *
 * Limits: just-bash's iteration bounds are raised (the pool's wall-clock and CPU limits stop a runaway command
 * instead), its byte bounds follow the memory cap, and its output bound is the command's output cap: a command
 * that prints more, or grows a string or input past them, is stopped inside the worker, reported with the output or
 * memory kill (`Command stopped: …`), and none of its writes are kept — like a command the pool terminates.
 * A command that loses the database (a filesystem call, the pending paths or the flush meets `DbUnavailableError`
 * or `DbBusyError`) is stopped, none of its writes are kept, and it is answered 503 with that error's text (e.g.
 * `unavailableMessage` of lib/db/errors.ts), never as a command that failed with exit 1.
 * Node-only.
 */
import { DbScope } from "@/lib/db/client";
import { isDbTrouble } from "@/lib/db/errors";
import { KILLED_EXIT_CODE, killReport, shellOutputKill } from "@/lib/exec/limits";
import type { ExecKill, ExecLimits, ExecResult, ShellExecRequest } from "@/lib/exec/types";
import { recordPendingPaths } from "@/lib/session/pending-paths";
import { truncateTail, utf8ByteLength } from "@/lib/tools/truncate";
import { MAX_FILE_BYTES } from "@/lib/vfs/limits";
import type { VfsStore } from "@/lib/vfs/store";
import { Vfs } from "@/lib/vfs/vfs";
import { targetStore } from "@/lib/vfs/workspace";
import { type ExecHandler, HandlerError } from "../handler";
import { runShellWithRuntimes } from "../shell-runtimes";

/** Large enough that only the pool's limits stop a loop (2^31 − 1; just-bash wants safe integers). */
const UNBOUNDED = 2 ** 31 - 1;

/**
 * just-bash's byte bounds in the service, as fractions of the memory cap: a growing string or input is refused by
 * just-bash before the worker's heap is exhausted (V8 cannot always end a worker at its heap limit: a doubling
 * allocation past it aborts the whole process), and the refusal is reported as the memory kill.
 */
const STRING_SHARE = 0.3;
const LIVE_SHARE = 0.45;
const V8_MAX_STRING = 2 ** 29 - 24;

/** The byte bounds (strings/heredocs, live/input bytes) for a memory cap; never equal to the output cap. */
function memoryBounds(limits: ExecLimits): { string: number; live: number } {
  const bytes = limits.memoryMb * 1024 * 1024;
  const string = Math.min(V8_MAX_STRING, Math.floor(bytes * STRING_SHARE));
  const live = Math.floor(bytes * LIVE_SHARE);
  const apart = (n: number) => (n === limits.outputBytes ? n - 1 : n);
  return { string: apart(string), live: apart(live) };
}

/**
 * just-bash's limits in the service for a command's `limits`: iteration and work bounds lifted (the pool's
 * wall-clock and CPU limits stop a loop), byte bounds from the memory cap (`memoryBounds`), and the output bound =
 * the output cap.
 */
export function serviceShellLimits(limits: ExecLimits, timeoutMs?: number) {
  const { string, live } = memoryBounds(limits);
  return {
    maxCommandCount: UNBOUNDED,
    maxLoopIterations: UNBOUNDED,
    maxAwkIterations: UNBOUNDED,
    maxSedIterations: UNBOUNDED,
    maxJqIterations: UNBOUNDED,
    maxWorkUnits: Number.MAX_SAFE_INTEGER,
    maxLiveBytes: live,
    maxInputBytes: live,
    maxStringLength: string,
    maxHeredocSize: string,
    maxOutputSize: limits.outputBytes,
    // The pool's wall-clock kill comes first; pi's timeout (when given) is just-bash's, as in process.
    maxExecutionTimeMs: Math.min(timeoutMs ?? limits.wallMs + 60_000, limits.wallMs + 60_000),
  };
}

const LIMIT_ERROR = /limit exceeded \((\d+) bytes\)|output size exceeded \(>(\d+) bytes\)/g;

/**
 * Which cap just-bash's byte-limit errors in `output` name (they carry the limit): the output cap, the memory
 * cap's bounds, or none.
 */
function capHit(output: string, limits: ExecLimits): "output" | "memory" | undefined {
  const { string, live } = memoryBounds(limits);
  for (const m of output.matchAll(LIMIT_ERROR)) {
    const n = Number(m[1] ?? m[2]);
    if (n === limits.outputBytes) return "output";
    if (n === string || n === live) return "memory";
  }
  return undefined;
}

/**
 * The kill report of cap `cap`. In the simulated shell a command's output counts against the output cap wherever it
 * goes (the terminal, a redirect into a file, a pipe), and just-bash's error does not say where it went, so the
 * output report names both (a 32 MB file write was reported as "printed more than 16 MiB").
 */
function capReport(cap: "output" | "memory", limits: ExecLimits): ExecKill {
  return cap === "output" ? shellOutputKill(limits, MAX_FILE_BYTES) : killReport(cap, limits);
}

const isProjectPath = (root: string, p: string) =>
  p.startsWith(`${root}/`) && !p.startsWith(`${root}/.git/`) && p !== `${root}/.git`;

/** Check the request's shape. @throws HandlerError 400 naming the bad field. */
function parseRequest(body: unknown): ShellExecRequest {
  const r = body as Partial<ShellExecRequest> | null;
  const bad = (field: string) => new HandlerError(`POST /v1/shell: ${field}`, 400);
  if (!r || typeof r !== "object") throw bad("the body must be a JSON object");
  if (typeof r.workspaceId !== "string" || !r.workspaceId) throw bad("workspaceId must be a string");
  for (const key of ["projectRoot", "cwd"] as const)
    if (typeof r[key] !== "string" || !r[key].startsWith("/"))
      throw bad(`${key} must be an absolute VFS path`);
  if (typeof r.script !== "string") throw bad("script must be a string");
  if (r.timeoutMs !== undefined && !(typeof r.timeoutMs === "number" && r.timeoutMs > 0))
    throw bad("timeoutMs must be a positive number");
  const tail = r.outputTail;
  if (
    tail !== undefined &&
    !(tail && [tail.maxLines, tail.maxBytes].every((n) => Number.isInteger(n) && n > 0))
  )
    throw bad("outputTail must be { maxLines, maxBytes } (positive whole numbers)");
  return r as ShellExecRequest;
}

const encoder = new TextEncoder();

/** The output as answered: all of it, or with `outputTail` only pi's tail and the whole output's counts. */
function outputOf(
  output: string,
  bounds: ShellExecRequest["outputTail"],
): Pick<ExecResult, "output" | "tail"> {
  if (!bounds) return { output };
  const { content, ...tail } = truncateTail(output, bounds);
  if (!tail.lastLinePartial) return { output: content, tail };
  const last = output.endsWith("\n") ? output.slice(0, -1) : output;
  return {
    output: content,
    tail: { ...tail, lastLineBytes: utf8ByteLength(last.slice(last.lastIndexOf("\n") + 1)) },
  };
}

/**
 * The workspace's VFS for one command, on its own `DbScope`, whose store keeps the first database trouble
 * (`isDbTrouble`) of any call and aborts `lost.signal`: the shell reports a failed filesystem call as a command's
 * error and carries on, so without it the command would end with exit 1 and keep the writes made before.
 */
function watchedWorkspaceVfs(request: ShellExecRequest) {
  const scope = new DbScope();
  const store = targetStore(scope, request);
  const lost = { error: undefined as Error | undefined, stop: new AbortController() };
  const watch =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (error) {
        if (isDbTrouble(error) && !lost.error) {
          lost.error = error;
          lost.stop.abort();
        }
        throw error;
      }
    };
  const watched: VfsStore = {
    // Whose nodes (a session's working tree: the shell's git keeps to the session there, lib/exec/shell/git/worktree.ts).
    identity: store.identity,
    getMeta: watch(store.getMeta.bind(store)),
    listChildren: watch(store.listChildren.bind(store)),
    loadData: watch(store.loadData.bind(store)),
    loadTree: watch(store.loadTree.bind(store)),
    commit: watch(store.commit.bind(store)),
    deleteTree: watch(store.deleteTree.bind(store)),
  };
  return { vfs: new Vfs(watched), scope, lost };
}

/** `POST /v1/shell`; see the module comment. */
export const handler: ExecHandler<unknown, ExecResult> = {
  async run(body, ctx) {
    const request = parseRequest(body);
    const { vfs, scope, lost } = watchedWorkspaceVfs(request);
    try {
      const started = performance.now();
      const executionLimits = serviceShellLimits(ctx.limits, request.timeoutMs);
      const run = await runShellWithRuntimes(
        { fs: vfs, cwd: request.cwd, projectRoot: request.projectRoot },
        request.script,
        {
          signal: AbortSignal.any([ctx.signal, lost.stop.signal]),
          timeoutMs: request.timeoutMs,
          env: request.env,
          executionLimits,
          runtimeTimeoutMs: ctx.limits.cpuMs,
        },
      );
      // Nothing of a command that lost the database is kept: not flushed, no pending paths.
      if (lost.error) throw new HandlerError(lost.error.message, 503);
      // A loop that never yields passes pi's timeout inside just-bash (its deadline is the timeout): pi's "timed out".
      const deadline = `bash: execution exceeded execution deadline (${executionLimits.maxExecutionTimeMs}ms)\n`;
      if (request.timeoutMs !== undefined && run.output.endsWith(deadline)) {
        run.output = run.output.slice(0, -deadline.length);
        run.timedOut = true;
      }
      const usage = { wallMs: Math.round(performance.now() - started), cpuMs: 0 };
      const cap = capHit(run.output, ctx.limits);
      if (cap) {
        return {
          output: "",
          outputBytes: cap === "output" ? ctx.limits.outputBytes : 0,
          exitCode: KILLED_EXIT_CODE,
          timedOut: false,
          aborted: false,
          killed: capReport(cap, ctx.limits),
          changedPaths: [],
          usage,
        };
      }
      const changedPaths = vfs.dirtyPaths();
      if (request.pending && changedPaths.length > 0) {
        const project = changedPaths.filter((p) => isProjectPath(request.projectRoot, p));
        await recordPendingPaths(scope, request.pending.sessionId, request.pending.runId ?? null, project);
      }
      if (changedPaths.length > 0) await vfs.flush();
      return {
        ...outputOf(run.output, request.outputTail),
        outputBytes: encoder.encode(run.output).byteLength,
        exitCode: run.exitCode,
        timedOut: run.timedOut,
        aborted: run.aborted,
        changedPaths,
        usage,
      };
    } catch (error) {
      if (isDbTrouble(error)) throw new HandlerError(error.message, 503);
      throw error;
    } finally {
      await scope.release();
    }
  },
};
