/**
 * One prompt on a stored session, end to end (pi's `AgentSession.prompt` on a session file, with Postgres as
 * the file): load the branch, open the session runtime (resources in effect, tools, extensions), run pi's
 * input pipeline (`processPrompt`: extension command → `input` hook → `/skill:` → `/template` → model check →
 * compaction check → `before_agent_start` → system patch + user message), then pi's `Agent` with the coding
 * tools on the project's VFS. Every message is persisted as it ends, file changes are checkpointed with a git
 * commit on the session's branch ref after each tool batch, steering and follow-up messages queued by other
 * requests (`session_queue`) are delivered at pi's points, and the run finishes only when nothing waits.
 *
 * Connections: the `DbScope` is released before every model request, so a stream never holds a
 * database connection while it waits on the model.
 */

import type { AgentMessage } from "@/lib/agent/messages";
import { DbScope } from "@/lib/db/client";
import { cancelQueued, claimQueued, finishRunIfIdle } from "@/lib/session/queue";
import { finishRun } from "@/lib/session/runs";
import { appendEntry } from "@/lib/session/store";
import { createCompactor, createLiveSession, prepareRun } from "./live-session";
import { queuedMessages } from "./message-authors";
import { messageToEntry } from "./message-entry";
import type { PromptRunInput } from "./run-types";

export type { CompactionReason, PromptRunInput, RunEvent } from "./run-types";
export { modelUnavailableMessage } from "./run-types";

/**
 * Run `text` as a prompt on session `sessionId` until the model stops calling tools and no queued
 * message waits.
 * @throws SessionUnavailableError when the session or its project does not exist (before any event is emitted).
 */
export async function runPrompt(input: PromptRunInput): Promise<void> {
  const scope = input.scope ?? new DbScope();
  try {
    await runWithScope(scope, input);
  } finally {
    await scope.release();
  }
}

async function runWithScope(scope: DbScope, input: PromptRunInput): Promise<void> {
  const { emit, signal } = input;
  const run = await prepareRun(scope, input);
  const compactor = createCompactor(scope, input, run);
  // `/compact [focus]` (pi's command): summarise now, no model turn.
  const manual = /^\/compact(?:\s+([\s\S]*))?$/.exec(input.text.trim());
  if (manual) {
    if (!run.model) await emit({ type: "error", message: run.modelError() });
    else await compactor.compactNow("manual", manual[1]?.trim() || undefined);
    await finishQueue(scope, input);
    return;
  }
  const agentSession = await createLiveSession(scope, input, run, compactor);
  try {
    if (input.retry) await agentSession.retry();
    else await agentSession.prompt(input.text, input.images ?? []);
  } catch (error) {
    await emit({ type: "error", message: error instanceof Error ? error.message : String(error) });
    await run.runtime.flushHeldMessages(agentSession.messages);
    await finishQueue(scope, input);
    return;
  }
  await agentSession.checkCompaction(signal);
  // Messages queued after the agent's last follow-up poll: run them as follow-ups (pi `continue()` with a
  // queue), until the run can finish with nothing waiting.
  await run.runtime.flushHeldMessages(agentSession.messages);
  await finishQueue(scope, input, (messages) => agentSession.promptMessages(messages));
}

/**
 * Deliver what waits in `session_queue` and finish the run lock (when the caller holds one): appends are
 * persisted; steering (else follow-ups) start another agent run through `runAgain`; without `runAgain` (a run
 * that ended without an agent: `/compact`, a failure before the model) or after an abort, queued texts are handed
 * back (`queue_returned`) — or, when the client is gone, left for the next prompt run to hand back.
 */
async function finishQueue(
  scope: DbScope,
  input: PromptRunInput,
  runAgain?: (messages: AgentMessage[]) => Promise<void>,
): Promise<void> {
  const { sessionId, runId, signal, emit } = input;
  if (!runId) return;
  for (;;) {
    for (const queued of await claimQueued(scope, sessionId, "append")) {
      const entry = messageToEntry(queued.message);
      // Streamed by the request that ran the command; stored here, after the run's own messages.
      if (entry) await appendEntry(scope, sessionId, entry, { author: queued.userId });
    }
    const handBack = Boolean(signal?.aborted) || !runAgain;
    if (handBack) {
      if (input.clientGone?.()) {
        // Nobody to hand them to: leave them for the next prompt run to give back (`startPromptRun`).
        await finishRun(scope, runId);
        return;
      }
      const texts = await cancelQueued(scope, sessionId);
      if (texts.length > 0) await emit({ type: "queue_returned", texts });
    }
    if ((await finishRunIfIdle(scope, sessionId, runId)).finished) return;
    if (handBack || !runAgain) continue;
    const steering = await claimQueued(scope, sessionId, "steer", "one-at-a-time", runId);
    const next =
      steering.length > 0
        ? steering
        : await claimQueued(scope, sessionId, "followUp", "one-at-a-time", runId);
    if (next.length > 0) await runAgain(queuedMessages(next));
  }
}
