/**
 * Switching a stored session's model (pi `AgentSession.setModel`): the switch is recorded at once as a
 * `model_change` entry, not at the next prompt, so a reload shows the session's model.
 */
import type { DbScope } from "@/lib/db/client";
import type { Model } from "@/lib/llm/models";
import type { SessionModelRef } from "@/lib/session/projection";
import { getLiveRun, RunActiveError } from "@/lib/session/runs";
import { appendEntry, getSession } from "@/lib/session/store";
import { SessionNotFoundError } from "./session-tree";

/**
 * pi `setModel(model)`: appends `{type:"model_change", provider, modelId}` under the session's leaf (pi
 * appends it on every call, also when the model does not change). A session without entries first gets what
 * pi writes when a session starts (6.9): the `model_change`, then `thinking_level_change` `"off"` (the
 * default level), so its first prompt records nothing more. `model` must be an available model (the caller
 * resolves it; pi throws `No API key for …` before touching the session).
 * @returns the session's model afterwards, as pi's `buildSessionContext` reads it.
 * Refused while a run holds the session (its entries would interleave; the client sends the choice with the next
 * prompt or when the run ends). The session is not locked as a run meanwhile, so a prompt sent right after the
 * switch is never refused because of it.
 * @throws SessionNotFoundError; RunActiveError (the live run's kind) while a run holds the session.
 */
export async function setSessionModel(
  scope: DbScope,
  sessionId: string,
  model: Model,
): Promise<SessionModelRef> {
  const session = await getSession(scope, sessionId);
  if (!session) throw new SessionNotFoundError(sessionId);
  const live = await getLiveRun(scope, sessionId);
  if (live) throw new RunActiveError(live.kind);
  await appendEntry(scope, sessionId, { type: "model_change", provider: model.provider, modelId: model.id });
  if (session.leafId === null)
    await appendEntry(scope, sessionId, { type: "thinking_level_change", thinkingLevel: "off" });
  return { provider: model.provider, modelId: model.id };
}
