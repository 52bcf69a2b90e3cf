/**
 * Admission of a prompt request (`POST /api/sessions/:id/prompt`): start a run for it, or, while another
 * request's agent run is live, queue it into that run as pi's steer / follow-up (pi's `agent-session.ts` step 6). A `!command`
 * runs alongside a live run; a prompt without `streamingBehavior` is refused with the run's 409; during a
 * compaction every prompt is refused (pi's `agent-session.ts` step 2). Runs that start and end around the request are retried a
 * few times, so a queued text always finds a run.
 */

import type { DbScope } from "@/lib/db/client";
import { isDbTrouble } from "@/lib/db/errors";
import { StrataError } from "@/lib/errors/strata-error";
import type { ImageContent } from "@/lib/llm/types";
import { RunActiveError, startPromptRun, startRun } from "@/lib/session/runs";
import { queuePrompt } from "./session-queue";

/** A text the live run cannot take as a steer / follow-up (answered 400 `not_queueable`). */
export class NotQueueableError extends StrataError {
  constructor(message: string) {
    super(400, "not_queueable", message);
    this.name = "NotQueueableError";
  }
}

/** Queued texts find the run within a few tries even when runs start and end around them. */
const MAX_ATTEMPTS = 5;

/** What became of a prompt request. */
export type PromptAdmission =
  /** A run was started for it (`returned`: texts an earlier run left for the composer); `run` is undefined for a `!command` beside a live run. */
  | { kind: "run"; run: { id: string; returned: string[]; leafId?: string | null } | undefined }
  /** Queued into the live run (answer 202 with it). */
  | { kind: "queued"; queued: { id: string; kind: string; text: string } }
  /** Handled by the live run without queueing (e.g. an extension command). */
  | { kind: "handled" };

/**
 * Start or queue the prompt `text` of session `sessionId`.
 * @param input.bash true for a `!command` (runs beside a live prompt run, never queued).
 * @throws RunActiveError (409) when the session is held and the prompt cannot be queued;
 *   {@link NotQueueableError} (400 `not_queueable`) when the text cannot be queued; the database's errors as they are.
 */
export async function admitPrompt(
  scope: DbScope,
  input: {
    sessionId: string;
    bash: boolean;
    text: string;
    images?: ImageContent[];
    streamingBehavior?: "steer" | "followUp";
    /** The user prompting (the request's caller), whose skills and templates expand a queued text. */
    userId?: string;
  },
): Promise<PromptAdmission> {
  const { sessionId, bash } = input;
  for (let attempt = 0; ; attempt++) {
    try {
      // Only a prompt run hands back texts an earlier run left (a shell stream has no composer to fill).
      return {
        kind: "run",
        run: bash
          ? { id: await startRun(scope, sessionId, "bash"), returned: [] }
          : await startPromptRun(scope, sessionId),
      };
    } catch (error) {
      if (!(error instanceof RunActiveError)) throw error;
      // pi's `agent-session.ts`: refused during compaction (before any queueing).
      if (error.kind === "compaction") throw error;
      if (error.kind !== "prompt") throw error;
      if (bash) return { kind: "run", run: undefined };
      if (!input.streamingBehavior || attempt >= MAX_ATTEMPTS) throw error;
      const outcome = await queuePrompt(scope, {
        sessionId,
        kind: input.streamingBehavior,
        text: input.text,
        images: input.images,
        userId: input.userId,
      }).catch((e) => {
        // The database's trouble is a 503, not the text's fault.
        if (isDbTrouble(e)) throw e;
        throw new NotQueueableError(e instanceof Error ? e.message : String(e));
      });
      if (outcome.status === "queued")
        return {
          kind: "queued",
          queued: { id: outcome.queued.id, kind: outcome.queued.kind, text: outcome.queued.inputText },
        };
      if (outcome.status === "handled") return { kind: "handled" };
      // The run ended meanwhile: start one (or queue into the one that just started).
    }
  }
}
