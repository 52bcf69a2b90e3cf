/**
 * What a handler of the execution service is (`lib/exec/service/handlers/<kind>.ts`, listed in
 * `handlers/index.ts`): one kind of command (`shell`, `sandbox`, `import`, …), run inside a pool worker
 * (lib/exec/service/pool.ts) under the command's limits. Node-only.
 *
 * A handler answers `POST /v1/<kind>`. The request is the JSON body (`content-type: application/json`), or, for a
 * raw body (`application/octet-stream`, e.g. an archive), the query parameters with the bytes in `ctx.bytes`.
 * Its resolved value is sent back as JSON (200). A thrown `HandlerError` answers its status and message; any
 * other error answers 500 with its message. A command stopped at a limit is answered by the pool, not the handler,
 * as an `ExecResult` with `killed` set (see lib/exec/limits.ts for the texts).
 */
import type { ExecLimits } from "@/lib/exec/types";

/** Everything a handler gets besides its request. */
export interface HandlerContext {
  /** The command's limits (resolved: the kind's defaults under the request's `limits`). */
  limits: ExecLimits;
  /** Aborted when the caller's request is gone (the HTTP client aborted); stop soon after. */
  signal: AbortSignal;
  /** The raw body of an `application/octet-stream` request (undefined for JSON). */
  bytes?: Uint8Array;
  /**
   * Register a child process the handler started (`spawn(..., { detached: true })`): when the command is stopped
   * at a limit or its worker is replaced, the pool kills its whole process group (SIGKILL).
   */
  trackProcess(pid: number): void;
}

/** One kind of command. */
export interface ExecHandler<Request = unknown, Result = unknown> {
  run(request: Request, ctx: HandlerContext): Promise<Result>;
}

/** A failure the handler reports with an HTTP status (e.g. 400 for a bad request). */
export class HandlerError extends Error {
  override name = "HandlerError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}
