/**
 * A long session operation (compaction, a summarized branch move) held as the session's run: a prompt
 * cannot start meanwhile (409 `run_active`), and `POST /api/sessions/:id/abort` cancels it through the
 * same cross-instance abort flag a prompt uses.
 */

import { SessionNotFoundError } from "@/lib/agent-session/session-tree";
import { DbScope } from "@/lib/db/client";
import { finishRun, heartbeatRun, type RunKind, startRun } from "@/lib/session/runs";
import { getSession } from "@/lib/session/store";

const ABORT_POLL_MS = 500;

/**
 * Run `fn` as the session's run of `kind` (default `compaction`). `fn` gets a scope (released afterwards) and a signal that aborts when
 * an abort is requested or `requestSignal` aborts.
 * @throws SessionNotFoundError; RunActiveError when a run is live on the session.
 */
export async function withSessionRun<T>(
  sessionId: string,
  fn: (ctx: { scope: DbScope; signal: AbortSignal }) => Promise<T>,
  requestSignal?: AbortSignal,
  kind: RunKind = "compaction",
): Promise<T> {
  const scope = new DbScope();
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  requestSignal?.addEventListener("abort", onAbort);
  let runId: string | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  try {
    if (!(await getSession(scope, sessionId))) throw new SessionNotFoundError(sessionId);
    runId = await startRun(scope, sessionId, kind);
    const id = runId;
    poll = setInterval(async () => {
      const s = new DbScope();
      try {
        if (await heartbeatRun(s, id)) abort.abort();
      } catch {
        // a missed heartbeat is retried on the next tick
      } finally {
        await s.release();
      }
    }, ABORT_POLL_MS);
    return await fn({ scope, signal: abort.signal });
  } finally {
    if (poll) clearInterval(poll);
    requestSignal?.removeEventListener("abort", onAbort);
    if (runId) await finishRun(scope, runId).catch(() => undefined);
    await scope.release();
  }
}
