/**
 * Compaction and branch summaries as operations on a stored session, with the model call wired to the
 * session's model through `streamAssistant` (the same provider path as a prompt). pi's
 * `AgentSession.compact()` / `_runAutoCompaction()` and the summarizer side of `navigateTree()`;
 * the pure parts (cut point, prompts, file lists, pi's `compaction/compaction.ts`) live in `lib/session/compaction/*`.
 *
 * Connections: the scope is released before every model request, so a summarization never holds a
 * database connection while it waits on the model (the next store call reopens it).
 */

import type { DbScope } from "@/lib/db/client";
import { StrataError } from "@/lib/errors/strata-error";
import { type Env, type Model, resolvePromptModel } from "@/lib/llm/models";
import { isContextOverflowError } from "@/lib/llm/provider-errors";
import { streamAssistant } from "@/lib/llm/stream";
import type { AssistantMessage, UserMessage } from "@/lib/llm/types";
import {
  type CompactionResult,
  type CompactionSettings,
  compact,
  DEFAULT_COMPACTION_SETTINGS,
  type SummarizeFn,
  shouldCompact,
} from "@/lib/session/compaction/compaction";
import { loadContextPath } from "@/lib/session/context-load";
import type { CompactionEntry } from "@/lib/session/entries";
import { appendCompaction, CompactionPendingError, prepareSessionCompaction } from "@/lib/session/store";

/** pi's error when a compaction's summarization was aborted through its signal. */
export const COMPACTION_CANCELLED = "Compaction cancelled";

/**
 * A summarization that must not be persisted: the message is pi's summarization error text (`compaction.ts`)
 * (`Summarization failed: <error>`, `Summarization failed: generation hit the token cap and the summary
 * is incomplete`, `Summarization attempted to call a tool`, `Turn prefix summarization …`,
 * `Branch summarization …`) or `Compaction cancelled`.
 */
export class SummarizationError extends StrataError {
  constructor(message: string) {
    // Cancelled by the user: a conflict with their own abort; else the provider failed (a bad gateway).
    super(
      message === COMPACTION_CANCELLED ? 409 : 502,
      message === COMPACTION_CANCELLED ? "cancelled" : "summarization_failed",
      message,
    );
    this.name = "SummarizationError";
  }
}

/** No model is available for the session (its model is not configured and there is no default). */
export class NoModelError extends StrataError {
  constructor(message = "No model available for summarization") {
    super(400, "no_model", message);
    this.name = "NoModelError";
  }
}

/**
 * The injected `summarize(prompt, systemPrompt, maxTokens)` of `compact`/`generateBranchSummary`,
 * bound to `model`: one `streamAssistant` request with `systemPrompt`, a single user message holding
 * `prompt`, no tools, thinking off and `maxTokens` out. Resolves with the final assistant message
 * (errors and aborts included: the callers turn them into pi's texts).
 * @param beforeRequest called before each request (e.g. `() => scope.release()`).
 */
export function summarizerFor(
  model: Model,
  options: {
    env: Env;
    signal?: AbortSignal;
    fetch?: typeof fetch;
    beforeRequest?: () => Promise<void> | void;
  },
): SummarizeFn {
  return async (prompt, systemPrompt, maxTokens): Promise<AssistantMessage> => {
    await options.beforeRequest?.();
    const user: UserMessage = {
      role: "user",
      content: [{ type: "text", text: prompt }],
      timestamp: Date.now(),
    };
    return streamAssistant(
      model,
      { systemPrompt, messages: [user], tools: [] },
      { env: options.env, signal: options.signal, maxTokens, fetch: options.fetch },
    ).result();
  };
}

/** A `SummarizeFn` that refuses an aborted reply (pi: `Compaction cancelled`) instead of storing partial text. */
function refuseAborted(summarize: SummarizeFn, signal?: AbortSignal): SummarizeFn {
  return async (prompt, systemPrompt, maxTokens) => {
    if (signal?.aborted) throw new SummarizationError(COMPACTION_CANCELLED);
    const reply = await summarize(prompt, systemPrompt, maxTokens);
    if (reply.stopReason === "aborted" || signal?.aborted) throw new SummarizationError(COMPACTION_CANCELLED);
    return reply;
  };
}

/**
 * The model a session's summaries use: its current model (last `model_change` / assistant message on
 * the branch) when available in `env`, else the configured default.
 * @throws NoModelError when neither is available.
 */
export async function resolveSessionModel(scope: DbScope, sessionId: string, env: Env): Promise<Model> {
  const { settings } = await loadContextPath(scope, sessionId);
  const model = resolvePromptModel(undefined, settings.model, env);
  if (!model) throw new NoModelError();
  return model;
}

/** What `compactSession` did. */
export type CompactSessionResult =
  | { status: "compacted"; entry: CompactionEntry; result: CompactionResult }
  /** Tool calls of the newest assistant message have no result yet: store them, then compact again. */
  | { status: "pending"; toolCallIds: string[] }
  /** Nothing to summarize (empty session, the branch ends in a compaction, or everything is kept). */
  | { status: "nothing" };

/** Input of {@link compactSession}. */
export interface CompactSessionInput {
  scope: DbScope;
  sessionId: string;
  /** The model that writes the summary (pi: the session's current model; see `resolveSessionModel`). */
  model: Model;
  env: Env;
  /** pi's `/compact <instructions>`: appended to the instructions as `Additional focus: <focus>`. */
  focus?: string;
  signal?: AbortSignal;
  /** Default pi's 8.1 settings (`reserveTokens` 16384, `keepRecentTokens` 20000). */
  settings?: CompactionSettings;
  /** Replaces the model call (tests, hooks); default `summarizerFor(model, …)`. */
  summarize?: SummarizeFn;
  /** HTTP client of the model request; default the global `fetch`. */
  fetch?: typeof fetch;
}

/**
 * Compact the session's current branch (pi `compact()`): plan with `prepareSessionCompaction`,
 * summarize with the session's model (pi's summarization system prompt; max tokens
 * `min(floor(0.8 × reserveTokens), model.maxTokens)`, a split turn's prefix `0.5 ×`; 8.6–8.7), append
 * the summary and the read/modified file lists (pi's `compaction/compaction.ts`) as a compaction entry on the leaf it was planned
 * on. Nothing is stored when the summarization fails.
 *
 * - `pending` while tool calls of the newest assistant message are unanswered (also when a result
 *   arrives during the summarization would have been needed: the append is refused the same way);
 * - `nothing` when there is nothing to summarize.
 * @throws SummarizationError with pi's summarization error text (`compaction.ts`), or `Compaction cancelled` when `signal` aborts.
 * @throws LeafMovedError when the branch moved while the summary was written (nothing is stored).
 * @throws Error `Session <id> not found`.
 */
export async function compactSession(input: CompactSessionInput): Promise<CompactSessionResult> {
  const { scope, sessionId, model, env, signal } = input;
  const settings = input.settings ?? DEFAULT_COMPACTION_SETTINGS;
  const plan = await prepareSessionCompaction(scope, sessionId, settings);
  if (plan.status !== "ready") return plan;
  const summarize = refuseAborted(
    input.summarize ??
      summarizerFor(model, { env, signal, fetch: input.fetch, beforeRequest: () => scope.release() }),
    signal,
  );
  let result: CompactionResult;
  try {
    result = await compact(plan.preparation, summarize, {
      customInstructions: input.focus?.trim() || undefined,
      modelMaxTokens: model.maxTokens,
    });
  } catch (error) {
    if (error instanceof SummarizationError) throw error;
    throw new SummarizationError(error instanceof Error ? error.message : String(error));
  }
  if (signal?.aborted) throw new SummarizationError(COMPACTION_CANCELLED);
  try {
    const entry = await appendCompaction(
      scope,
      sessionId,
      {
        summary: result.summary,
        firstKeptEntryId: result.firstKeptEntryId,
        tokensBefore: result.tokensBefore,
        details: result.details,
        usage: result.usage,
      },
      { expectedLeaf: plan.leafId },
    );
    return { status: "compacted", entry, result };
  } catch (error) {
    if (error instanceof CompactionPendingError) return { status: "pending", toolCallIds: error.toolCallIds };
    throw error;
  }
}

/**
 * pi's `compaction/compaction.ts` for a model: whether a context of `contextTokens` (pi: `calculateContextTokens(usage)` of the
 * last successful assistant message) calls for a compaction — `enabled && tokens > contextWindow -
 * reserveTokens`.
 */
export function shouldAutoCompact(
  contextTokens: number,
  model: Pick<Model, "contextWindow">,
  settings: CompactionSettings = DEFAULT_COMPACTION_SETTINGS,
): boolean {
  return shouldCompact(contextTokens, model.contextWindow, settings);
}

/** Re-exported from the provider-error classification (lib/llm/provider-errors.ts), where the patterns live. */
export { isContextOverflowError };

/**
 * pi `isContextOverflow(message, contextWindow?)`: an `error` reply whose message is an overflow, or
 * (providers that overflow silently) a `stop` reply whose input + cache-read tokens exceed `contextWindow`.
 */
export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
  if (message.stopReason === "error" && isContextOverflowError(message.errorMessage)) return true;
  if (contextWindow && message.stopReason === "stop")
    return message.usage.input + message.usage.cacheRead > contextWindow;
  return false;
}
