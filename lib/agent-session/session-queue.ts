/**
 * pi's `steer(text)` / `followUp(text)` (pi's `agent-session.ts`) for a session whose run lives in another request, tab or
 * server instance: the text goes through the session's input pipeline (extension-command refusal, `input`
 * hooks, `/skill:` then `/template` expansion) and the resulting user message is queued in Postgres for the
 * live run, which delivers it at pi's points (steering after the current tool batch, follow-ups when it
 * would stop).
 */
import type { DbScope } from "@/lib/db/client";
import { ExtensionRunner } from "@/lib/extensions/runner";
import type { ExtensionModule } from "@/lib/extensions/types";
import type { ImageContent } from "@/lib/llm/types";
import { enqueueForRun, type QueuedMessage } from "@/lib/session/queue";
import { createInputState, queueInput } from "./input-pipeline";
import { openSessionRuntime } from "./session-runtime";

/** `/compact` is a command of the idle session, not a message: it is never queued. */
export const COMPACT_NOT_QUEUEABLE = "/compact cannot be queued. Run it when the agent has finished.";

/** What {@link queuePrompt} did: queued for the live run, handled by an `input` hook, or no run is live. */
export type QueuePromptOutcome =
  | { status: "queued"; queued: QueuedMessage }
  | { status: "handled" }
  | { status: "idle" };

/**
 * Whether queuing needs the session's runtime (resources, extensions): only text that starts with `/` can be
 * an extension command, `/skill:` or a template, and only registered extensions' `input` hooks can change
 * text. Plain text with no extensions goes through the pipeline unchanged, so loading the session's resources
 * for it (tens of ms of CPU each) is skipped — a burst of 100 follow-ups no longer loads them 100 times.
 */
function needsRuntime(input: { text: string; extensions?: readonly ExtensionModule[] }): boolean {
  return input.text.trimStart().startsWith("/") || (input.extensions?.length ?? 0) > 0;
}

/** The input pipeline's view of a session for plain text without extensions: nothing to expand or hook. */
function plainTextRuntime(sessionId: string) {
  return {
    extensions: new ExtensionRunner(() => ({ cwd: "", sessionId })),
    expandSkill: async (text: string) => ({ text }),
    expandTemplate: (text: string) => text,
  };
}

/**
 * Queue `text` as a steering or follow-up message of the session's live run.
 * @returns `idle` when no run is live any more (the caller runs the text as a prompt instead).
 * @throws Error pi's `Extension command "/<name>" cannot be queued. …` for a registered extension command,
 *   {@link COMPACT_NOT_QUEUEABLE} for `/compact`;
 *   SessionUnavailableError for an unknown session.
 */
export async function queuePrompt(
  scope: DbScope,
  input: {
    sessionId: string;
    kind: "steer" | "followUp";
    text: string;
    /** Images of the queued user message (pi's `agent-session.ts` `{content:[{type:"text",text}, ...images]}`). */
    images?: ImageContent[];
    extensions?: readonly ExtensionModule[];
    /** The user queueing it (the request's caller): their skills and templates expand it. */
    userId?: string;
  },
): Promise<QueuePromptOutcome> {
  if (/^\/compact(\s|$)/.test(input.text.trim())) throw new Error(COMPACT_NOT_QUEUEABLE);
  const runtime = needsRuntime(input)
    ? await openSessionRuntime(scope, input.sessionId, { extensions: input.extensions, userId: input.userId })
    : plainTextRuntime(input.sessionId);
  const message = await queueInput(input.kind, input.text, input.images, {
    state: createInputState(),
    extensions: runtime.extensions,
    isStreaming: () => true,
    expandSkill: runtime.expandSkill,
    expandTemplate: runtime.expandTemplate,
    steer: () => {},
    followUp: () => {},
    appendMessage: () => {},
    run: () => {},
  });
  if (!message) return { status: "handled" };
  const queued = await enqueueForRun(scope, input.sessionId, {
    kind: input.kind,
    inputText: input.text,
    message,
    userId: input.userId ?? null,
  });
  return queued ? { status: "queued", queued } : { status: "idle" };
}
