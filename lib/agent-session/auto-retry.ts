/**
 * pi's auto-retry (coding-agent `AgentSession`: `_isRetryableError`, `_handleRetryableError`, `abortRetry`):
 * when a run ends with a transient provider error (overloaded, rate limit, 5xx, a dropped connection), the failed
 * assistant message stays in the session but leaves the agent's state, the run waits `baseDelayMs × 2^(n-1)` ms
 * (abortable) and continues from the transcript (`agent.continue()`), at most `maxRetries` times. A context
 * overflow is not retried (it goes to compaction). Events: `auto_retry_start` before each wait and
 * `auto_retry_end` when a series ends (success, retries exhausted, or cancelled).
 */

import type { Agent } from "@/lib/agent/agent";
import type { AgentMessage } from "@/lib/agent/messages";
import type { AgentEvent } from "@/lib/agent/types";
import { isTransientError } from "@/lib/llm/provider-errors";
import type { AssistantMessage } from "@/lib/llm/types";
import { AGENT_DIR } from "@/lib/projects/agent-dir";
import type { ResourceDiagnostic } from "@/lib/resources/fs-util";
import { loadPiSettings, type PiSettings } from "@/lib/resources/pi-settings";
import { isContextOverflow } from "./compaction-run";
import type { SessionRuntime } from "./session-runtime";

/** pi's `retry` settings (settings-manager.ts `getRetrySettings`). */
export interface RetrySettings {
  enabled: boolean;
  maxRetries: number;
  /** First wait in ms; doubles per attempt. */
  baseDelayMs: number;
  /** pi: the longest server-requested delay a provider may wait before failing (ms); see docs/pi-differences.md. */
  maxDelayMs: number;
}

/** pi's defaults: enabled, 3 retries, 2 s base (2 s, 4 s, 8 s), 60 s cap on server-requested delays. */
export const DEFAULT_RETRY_SETTINGS: RetrySettings = {
  enabled: true,
  maxRetries: 3,
  baseDelayMs: 2000,
  maxDelayMs: 60000,
};

/** pi's `finalError` when the wait before a retry was cancelled. */
export const RETRY_CANCELLED = "Retry cancelled";

/** Strata: the Retry button on a session whose last message is not a failed assistant turn. */
export const NOTHING_TO_RETRY = "Nothing to retry: the last turn did not fail.";

/** pi's auto-retry events (`AgentSessionEvent`). */
export type AutoRetryEvent =
  | { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
  | { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string };

/** Strata's bounds on the `retry` settings (pi has none): a hostile or mistyped value cannot cause a retry storm. */
export const RETRY_LIMITS = {
  maxRetries: { min: 0, max: 10 },
  baseDelayMs: { min: 100, max: 60_000 },
  maxDelayMs: { min: 100, max: 600_000 },
} as const;

/** The longest delay Node's `setTimeout` honours (2^31-1 ms); a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `v` clamped into `[min, max]`; `fallback` for anything but a finite non-negative number. */
const bounded = (v: unknown, { min, max }: { min: number; max: number }, fallback: number) =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.min(max, Math.max(min, v)) : fallback;

/**
 * The `retry` object of pi settings: pi's defaults for what is missing, `NaN`, negative or not a number;
 * numbers clamped into {@link RETRY_LIMITS} (`maxRetries` rounded down). See docs/pi-differences.md.
 */
export function retrySettingsFrom(settings: PiSettings): RetrySettings {
  const r = (typeof settings.retry === "object" && settings.retry !== null ? settings.retry : {}) as Record<
    string,
    unknown
  >;
  const d = DEFAULT_RETRY_SETTINGS;
  const L = RETRY_LIMITS;
  return {
    enabled: typeof r.enabled === "boolean" ? r.enabled : d.enabled,
    maxRetries: Math.floor(bounded(r.maxRetries, L.maxRetries, d.maxRetries)),
    baseDelayMs: bounded(r.baseDelayMs, L.baseDelayMs, d.baseDelayMs),
    maxDelayMs: bounded(r.maxDelayMs, L.maxDelayMs, d.maxDelayMs),
  };
}

/**
 * The retry settings of a session's runtime, read as pi reads settings: `/.pi/agent/settings.json` of the user's
 * agent VFS, merged with the project's `<cwd>/.pi/settings.json` when the project is trusted. Unreadable files
 * are skipped and reported in `errors`.
 */
export async function loadRetrySettings(
  runtime: Pick<SessionRuntime, "agentFs" | "vfs" | "session" | "resources">,
): Promise<{ settings: RetrySettings; errors: ResourceDiagnostic[] }> {
  const { settings, errors } = await loadPiSettings({
    agentFs: runtime.agentFs,
    agentDir: AGENT_DIR,
    projectFs: runtime.vfs,
    cwd: runtime.session.cwd,
    projectTrusted: runtime.resources.projectTrusted,
  });
  return { settings: retrySettingsFrom(settings), errors };
}

/**
 * pi's backoff: the wait before retry `attempt` (1-based) is `baseDelayMs × 2^(attempt-1)` ms, capped (Strata) at
 * `maxDelayMs` and at {@link MAX_TIMER_MS}, so the announced `delayMs` is the real wait.
 */
export function retryDelayMs(attempt: number, baseDelayMs: number, maxDelayMs = MAX_TIMER_MS): number {
  return Math.min(baseDelayMs * 2 ** (attempt - 1), maxDelayMs, MAX_TIMER_MS);
}

/**
 * pi `_isRetryableError`: an `error` message with an `errorMessage` that is transient ({@link isTransientError})
 * and not a context overflow of a `contextWindow`-token model.
 */
export function isRetryableError(message: AssistantMessage, contextWindow: number): boolean {
  if (message.stopReason !== "error" || !message.errorMessage) return false;
  if (isContextOverflow(message, contextWindow)) return false;
  return isTransientError(message.errorMessage);
}

/**
 * The transcript to re-run a failed turn from (Strata's Retry button, pi's auto-retry step): `messages` without
 * the last message when it is an assistant message with `stopReason` "error" or "aborted"; `messages` as they are
 * when they end with the user's message or tool results that have no stored answer (the run failed storing it,
 * or died), so the retry answers them without sending the user's message twice.
 * @throws Error {@link NOTHING_TO_RETRY} otherwise (an answer that did not fail, an empty transcript).
 */
export function withoutFailedTurn(messages: AgentMessage[]): AgentMessage[] {
  const last = messages[messages.length - 1];
  if (last?.role === "user" || last?.role === "toolResult") return messages;
  if (last?.role !== "assistant" || (last.stopReason !== "error" && last.stopReason !== "aborted"))
    throw new Error(NOTHING_TO_RETRY);
  return messages.slice(0, -1);
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error(RETRY_CANCELLED));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error(RETRY_CANCELLED));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * One run's auto-retry state (pi keeps it on the `AgentSession`): the attempt counter of the current series.
 * `signal` cancels a pending wait (pi `abortRetry`; Strata's abort request aborts the run's signal).
 */
export class AutoRetry {
  private attempt = 0;

  constructor(
    private readonly options: {
      settings: RetrySettings;
      emit: (event: AutoRetryEvent) => Promise<void>;
      /** The model's context window (tokens), for the overflow test. */
      contextWindow: () => number;
      signal?: AbortSignal;
    },
  ) {}

  /** The attempt of the series in progress (0: none). */
  get retryAttempt(): number {
    return this.attempt;
  }

  /**
   * Call after each agent event was handled: an assistant `message_end` that is not an error ends a series
   * with `auto_retry_end { success: true }` (pi resets the counter on any successful response). An aborted
   * retried request ends it with `{ success: false, finalError: "Retry cancelled" }` (pi says success: true;
   * see docs/pi-differences.md).
   */
  async observe(event: AgentEvent): Promise<void> {
    if (event.type !== "message_end" || event.message.role !== "assistant") return;
    if (event.message.stopReason === "error" || this.attempt === 0) return;
    const attempt = this.attempt;
    this.attempt = 0;
    if (event.message.stopReason === "aborted")
      await this.options.emit({
        type: "auto_retry_end",
        success: false,
        attempt,
        finalError: RETRY_CANCELLED,
      });
    else await this.options.emit({ type: "auto_retry_end", success: true, attempt });
  }

  /** Run `start` (an `agent.prompt` or `agent.continue`), then `agent.continue()` after every retryable failure. */
  async run(agent: Agent, start: () => Promise<void>): Promise<void> {
    await start();
    while (await this.prepareRetry(agent)) await agent.continue();
  }

  /** pi `_handleRetryableError`: true when the agent should continue (the wait is over). */
  private async prepareRetry(agent: Agent): Promise<boolean> {
    const { settings, emit, signal } = this.options;
    const messages = agent.state.messages;
    const last = messages[messages.length - 1];
    if (last?.role !== "assistant" || !settings.enabled) return false;
    if (!isRetryableError(last, this.options.contextWindow())) return false;
    this.attempt++;
    if (this.attempt > settings.maxRetries) {
      const attempt = this.attempt - 1;
      this.attempt = 0;
      await emit({ type: "auto_retry_end", success: false, attempt, finalError: last.errorMessage });
      return false;
    }
    const delayMs = retryDelayMs(this.attempt, settings.baseDelayMs, settings.maxDelayMs);
    await emit({
      type: "auto_retry_start",
      attempt: this.attempt,
      maxAttempts: settings.maxRetries,
      delayMs,
      errorMessage: last.errorMessage || "Unknown error",
    });
    // Out of the agent's state, still in the session (persisted at its message_end).
    agent.state.messages = messages.slice(0, -1);
    try {
      await sleep(delayMs, signal);
    } catch {
      const attempt = this.attempt;
      this.attempt = 0;
      await emit({ type: "auto_retry_end", success: false, attempt, finalError: RETRY_CANCELLED });
      return false;
    }
    return true;
  }
}
