/**
 * The IDE's tool toggles on a stored session: which tools are active (pi `getActiveToolNames`, `getAllTools`) and
 * turning them on and off (pi `setActiveToolsByName`). A change is recorded at once as the system patch pi's next
 * prompt would start with (pi's `system-prompt.ts`: the changed `tools` / `rules` sections, `toolsAdded` / `toolsRemoved`), the way a
 * model switch is recorded at once (session-model.ts): a server request is a whole pi session, so the set must be
 * in the transcript to outlive it, and every later request restores it from there.
 */
import type { DbScope } from "@/lib/db/client";
import { resolvePromptModel } from "@/lib/llm/models";
import type { SystemMessage } from "@/lib/llm/types";
import { loadSessionContext } from "@/lib/session/context-load";
import { describeRunKind } from "@/lib/session/lifecycle";
import { getLiveRun, RunActiveError, type RunKind } from "@/lib/session/runs";
import { appendEntry } from "@/lib/session/store";
import { messageToEntry } from "./message-entry";
import { openSessionRuntime, type SessionRuntime } from "./session-runtime";

/** One registered tool as the toggles show it. */
export interface SessionToolInfo {
  name: string;
  /** pi's one-line prompt snippet (the `<tools>` line), else the tool's description. */
  summary: string;
  active: boolean;
}

/** `GET`/`PUT /api/sessions/:id/tools`: every registered tool in registry order and the active names in order. */
export interface SessionToolState {
  tools: SessionToolInfo[];
  active: string[];
}

/**
 * A tool change refused while a run holds the session (HTTP 409, the live run's code): its entries would
 * interleave with the run's.
 */
export class ToolsChangeBusyError extends RunActiveError {
  constructor(kind: RunKind) {
    super(kind);
    this.message = `The tools cannot be changed while ${describeRunKind(kind)} is in progress in this session. Wait for it to end, then change them again.`;
    this.name = "ToolsChangeBusyError";
  }
}

function stateOf(runtime: SessionRuntime): SessionToolState {
  const active = runtime.getActiveToolNames();
  return {
    tools: runtime.allTools.map((t) => ({
      name: t.name,
      summary: t.promptSnippet ?? t.description,
      active: active.includes(t.name),
    })),
    active,
  };
}

async function open(scope: DbScope, sessionId: string, userId?: string) {
  const runtime = await openSessionRuntime(scope, sessionId, { userId });
  const loaded = await loadSessionContext(scope, sessionId, runtime.session.leafId);
  runtime.restoreActiveTools(loaded.messages);
  return { runtime, messages: loaded.messages };
}

/**
 * The session's tools on its current branch: the active set its transcript declares, else pi's defaults.
 * @throws SessionUnavailableError when the session or its project does not exist.
 */
export async function getSessionTools(
  scope: DbScope,
  sessionId: string,
  options: { userId?: string } = {},
): Promise<SessionToolState> {
  return stateOf((await open(scope, sessionId, options.userId)).runtime);
}

/**
 * pi `setActiveToolsByName(names)` on the session's branch, recorded now: when the declared tools change, the
 * system patch is appended as a `message` entry (returned as `patch`); nothing is written when they do not. A
 * session without entries first gets what pi writes when a session starts (pi's `agent-session.ts`: `model_change` of the default
 * model of `env`, `thinking_level_change` `"off"`), so the patch follows them as in a pi session file.
 * @param names tool names in the order they become active (unknown names and duplicates are dropped, as pi).
 * @throws SessionUnavailableError; ToolsChangeBusyError while a run holds the session.
 */
export async function setSessionTools(
  scope: DbScope,
  sessionId: string,
  names: readonly string[],
  options: { userId?: string; env?: Record<string, string | undefined> } = {},
): Promise<SessionToolState & { patch?: SystemMessage }> {
  const { runtime, messages } = await open(scope, sessionId, options.userId);
  const live = await getLiveRun(scope, sessionId);
  if (live) throw new ToolsChangeBusyError(live.kind);
  runtime.setActiveToolsByName(names);
  const patch = runtime.buildToolsPatch(messages);
  if (patch) {
    const model =
      runtime.session.leafId === null ? resolvePromptModel(undefined, null, options.env ?? {}) : undefined;
    if (model) {
      await appendEntry(scope, sessionId, {
        type: "model_change",
        provider: model.provider,
        modelId: model.id,
      });
      await appendEntry(scope, sessionId, { type: "thinking_level_change", thinkingLevel: "off" });
    }
    const entry = messageToEntry(patch);
    if (entry) await appendEntry(scope, sessionId, entry);
  }
  return { ...stateOf(runtime), ...(patch ? { patch } : {}) };
}
