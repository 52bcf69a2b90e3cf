/**
 * `POST /v1/sandbox` of the execution service: a command of the project's own toolchain (`npm test`, `pytest`,
 * `cargo test`, …) in the real sandbox (lib/exec/service/sandbox/run.ts) on a materialised copy of the project's
 * working tree; its file changes are written back to the VFS (recorded as the run's pending paths when `pending`
 * is given), flushed, and answered as `changedPaths`, which the app absorbs and checkpoints. The sandbox enforces
 * the command's limits itself (wall clock, CPU of all its processes, memory per process, processes, output) and
 * its process group is registered with the pool. Node-only.
 */
import { killReport } from "@/lib/exec/limits";
import type { ExecResult, SandboxExecRequest } from "@/lib/exec/types";
import { type ExecHandler, HandlerError } from "../handler";
import { runSandboxCommand, SandboxUnavailableError } from "../sandbox/run";

/** Check the request's shape. @throws HandlerError 400 naming the bad field. */
export function parseSandboxRequest(body: unknown): SandboxExecRequest {
  const r = body as Partial<SandboxExecRequest> | null;
  const bad = (field: string) => new HandlerError(`POST /v1/sandbox: ${field}`, 400);
  if (!r || typeof r !== "object") throw bad("the body must be a JSON object");
  if (typeof r.workspaceId !== "string" || !r.workspaceId) throw bad("workspaceId must be a string");
  for (const key of ["projectRoot", "cwd"] as const)
    if (typeof r[key] !== "string" || !r[key].startsWith("/"))
      throw bad(`${key} must be an absolute VFS path`);
  if (typeof r.command !== "string" || !r.command.trim()) throw bad("command must be a non-empty string");
  if (r.timeoutMs !== undefined && !(typeof r.timeoutMs === "number" && r.timeoutMs > 0))
    throw bad("timeoutMs must be a positive number");
  if (r.env !== undefined) {
    if (!r.env || typeof r.env !== "object") throw bad("env must be an object of strings");
    for (const value of Object.values(r.env))
      if (typeof value !== "string") throw bad("env must be an object of strings");
  }
  return r as SandboxExecRequest;
}

/**
 * The part of the wall-clock limit kept for the diff and the write-back (ms): the sandbox stops the command this
 * much before the pool would terminate the worker, so what it changed is still written back, its directory
 * removed, and the kill reported with the limit the request had: a fifth of the limit, 1–10 s, at most half.
 */
export function writeBackReserveMs(wallMs: number): number {
  return Math.min(10_000, Math.max(1000, Math.floor(wallMs / 5)), Math.floor(wallMs / 2));
}

/** `POST /v1/sandbox`; see the module comment. The sandbox not available here → 503 with what to do. */
export const handler: ExecHandler<unknown, ExecResult> = {
  async run(body, ctx) {
    const request = parseSandboxRequest(body);
    const wallMs = ctx.limits.wallMs - writeBackReserveMs(ctx.limits.wallMs);
    try {
      const result = await runSandboxCommand({ ...request, limits: { ...ctx.limits, wallMs } }, ctx.signal, {
        onSpawn: (pid) => ctx.trackProcess(pid),
      });
      if (result.killed?.reason === "wall") result.killed = killReport("wall", ctx.limits);
      return result;
    } catch (error) {
      if (error instanceof SandboxUnavailableError) throw new HandlerError(error.message, 503);
      if (error instanceof Error && error.message.startsWith("The working directory"))
        throw new HandlerError(error.message, 400);
      throw error;
    }
  },
};
