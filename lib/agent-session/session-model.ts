/**
 * Switching a stored session's model (pi `AgentSession.setModel`): the switch is recorded at once as a
 * `model_change` entry, not at the next prompt, so a reload shows the session's model.
 */
import type { DbScope } from "@/lib/db/client";
import type { Model } from "@/lib/llm/models";
import { describeRunKind } from "@/lib/session/lifecycle";
import type { SessionModelRef } from "@/lib/session/projection";
import { getLiveRun, RunActiveError, type RunKind } from "@/lib/session/runs";
import { appendEntry, getSession } from "@/lib/session/store";
import { SessionNotFoundError } from "./session-tree";

/**
 * A model switch refused while a run holds the session: a {@link RunActiveError} (so HTTP 409 with the run's code,
 * `run_active` for an agent run) whose text says what to do, e.g. "The model cannot be switched while an agent run
 * is in progress in this session. Wait for it to end, then choose the model again." (the prompt's text, pi's
 * "Specify streamingBehavior…", names a parameter this switch does not have).
 */
export class ModelSwitchBusyError extends RunActiveError {
  constructor(kind: RunKind) {
    super(kind);
    this.message = `The model cannot be switched while ${describeRunKind(kind)} is in progress in this session. Wait for it to end, then choose the model again.`;
    this.name = "ModelSwitchBusyError";
  }
}

/**
 * pi `setModel(model)`: appends `{type:"model_change", provider, modelId}` under the session's leaf (pi
 * appends it on every call, also when the model does not change). A session without entries first gets what
 * pi writes when a session starts (pi's `agent-session.ts`): the `model_change`, then `thinking_level_change` `"off"` (the
 * default level), so its first prompt records nothing more. `model` must be an available model (the caller
 * resolves it; pi throws `No API key for …` before touching the session).
 * @returns the session's model afterwards, as pi's `buildSessionContext` reads it.
 * Refused while a run holds the session (its entries would interleave; the client sends the choice with the next
 * prompt or when the run ends). The session is not locked as a run meanwhile, so a prompt sent right after the
 * switch is never refused because of it.
 * @throws SessionNotFoundError; ModelSwitchBusyError (a RunActiveError of the live run's kind) while a run holds the session.
 */
export async function setSessionModel(
  scope: DbScope,
  sessionId: string,
  model: Model,
): Promise<SessionModelRef> {
  const session = await getSession(scope, sessionId);
  if (!session) throw new SessionNotFoundError(sessionId);
  const live = await getLiveRun(scope, sessionId);
  if (live) throw new ModelSwitchBusyError(live.kind);
  await appendEntry(scope, sessionId, { type: "model_change", provider: model.provider, modelId: model.id });
  if (session.leafId === null)
    await appendEntry(scope, sessionId, { type: "thinking_level_change", thinkingLevel: "off" });
  return { provider: model.provider, modelId: model.id };
}
