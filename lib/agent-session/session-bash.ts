/**
 * The user's `!command` / `!!command` on a stored session (pi `AgentSession.executeBash` +
 * `recordBashResult`): run in the session's cwd by the VFS shell, file changes flushed and checkpointed,
 * the `bashExecution` message streamed, and stored as a `message` entry — at once when the caller holds the
 * session's run lock, else queued for the live run to append when it ends (pi's pending bash messages).
 */

import type { AgentMessage } from "@/lib/agent/messages";
import { DbScope } from "@/lib/db/client";
import { enqueueForRun } from "@/lib/session/queue";
import { finishRun, RunActiveError, startRun } from "@/lib/session/runs";
import { appendEntry } from "@/lib/session/store";
import { createCheckpointer } from "./checkpointer";
import { pointCommit } from "./file-state";
import type { RunEvent } from "./session-run";
import { openSessionRuntime } from "./session-runtime";
import { executeUserBash, type UserBashCommand } from "./user-bash";

export interface UserBashRunInput {
  sessionId: string;
  /** The user running it (the request's caller; default: the session's creator). */
  userId?: string;
  command: UserBashCommand;
  emit: (event: RunEvent) => Promise<void>;
  signal?: AbortSignal;
  /** The caller's run lock, when it holds one; without it the entry is queued behind the live run. */
  runId?: string;
  author?: { name: string; email: string };
}

/**
 * Run the command and record it. Emits `message_start` / `message_end` for the `bashExecution` message and
 * `files_changed` when it wrote project files; a command the execution service queues behind others' emits its
 * `message_start` when it is queued, with the wait notice as its output.
 * @throws SessionUnavailableError for an unknown session.
 */
export async function runUserBash(input: UserBashRunInput): Promise<void> {
  const scope = new DbScope();
  try {
    const runtime = await openSessionRuntime(scope, input.sessionId, {
      userId: input.userId,
      runId: input.runId,
      author: input.author,
    });
    // Holding the session, the command's checkpoint goes on the leaf's commit and its entry records it
    // (docs/checkpoints.md); beside a live run, on the session ref (the next prompt binds what it finds).
    const base = input.runId ? await pointCommit(scope, runtime, runtime.session.leafId) : undefined;
    await scope.release();
    // Queued behind others' commands in the execution service: the message opens now, with the wait notice as its
    // output (the stream's `message_start`); the finished message closes it (`message_end`).
    let opened: Promise<void> | undefined;
    const message = await executeUserBash(runtime.toolContext, input.command, {
      signal: input.signal,
      onWait: (partial) => {
        opened = input.emit({ type: "message_start", message: partial });
        opened.catch(() => undefined); // awaited (and thrown) below, after the command
      },
    });
    const checkpointer = createCheckpointer(runtime, {
      author: input.author,
      emit: input.emit,
      scope,
      runId: input.runId,
      base,
      kind: "shell",
      userId: input.userId,
    });
    await checkpointer.checkpoint();
    await record(scope, input, message, checkpointer.head() ?? undefined);
    // Free the session before the client sees the result, so its next prompt is not refused.
    if (input.runId) await finishRun(scope, input.runId);
    if (opened) await opened;
    else await input.emit({ type: "message_start", message });
    await input.emit({ type: "message_end", message });
  } finally {
    await scope.release();
  }
}

/** How long a `!command` result waits for the session to be free when no prompt run can take it (ms). */
const RECORD_WAIT_MS = 60_000;
const RECORD_RETRY_MS = 100;

/**
 * Append now under a run lock; else queue it for the live prompt run (stored when that run ends); else take the
 * lock and append; when something else holds the session (a compaction), wait for it, at most a minute, then
 * append anyway (an append is atomic on its own; only its place among the run's entries is at stake).
 */
async function record(
  scope: DbScope,
  input: UserBashRunInput,
  message: AgentMessage,
  commit?: string,
): Promise<void> {
  const entry = { type: "message" as const, message };
  if (input.runId) {
    await appendEntry(scope, input.sessionId, entry, {
      author: input.userId ?? null,
      ...(commit ? { commit } : {}),
    });
    return;
  }
  const deadline = Date.now() + RECORD_WAIT_MS;
  for (;;) {
    const queued = await enqueueForRun(scope, input.sessionId, {
      kind: "append",
      inputText: `!${message.role === "bashExecution" ? message.command : ""}`,
      message,
      userId: input.userId ?? null,
    });
    if (queued) return;
    let runId: string | undefined;
    try {
      runId = await startRun(scope, input.sessionId, "bash");
    } catch (error) {
      if (!(error instanceof RunActiveError)) throw error;
      if (Date.now() > deadline) {
        await appendEntry(scope, input.sessionId, entry, { author: input.userId ?? null });
        return;
      }
      if (error.kind !== "prompt") await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MS));
      continue;
    }
    try {
      await appendEntry(scope, input.sessionId, entry, { author: input.userId ?? null });
    } finally {
      await finishRun(scope, runId);
    }
    return;
  }
}
