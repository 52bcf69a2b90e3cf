/**
 * The shapes of a prompt run (session-run.ts): its input (`PromptRunInput`) and the events it streams (`RunEvent`:
 * pi's agent events plus Strata's files, compaction, queue, retry and run-log events).
 */

import type { AgentEvent } from "@/lib/agent/types";
import type { DbScope } from "@/lib/db/client";
import type { ExtensionModule } from "@/lib/extensions/types";
import type { ImageContent } from "@/lib/llm/types";
import type { Project } from "@/lib/projects/projects";
import type { RunKind, RunMode, RunOutcome } from "@/lib/session/runs";
import type { SessionRow } from "@/lib/session/store";
import type { AutoRetryEvent } from "./auto-retry";
import type { RequestNoticeEvent } from "./request-notice";

/**
 * Events a prompt run streams: pi's agent events plus Strata's `files_changed`, compaction, queue and `error`, and
 * the run's first and last events (`run_start`, `run_end`; lib/runs, docs/runs.md).
 */
export type RunEvent =
  | AgentEvent
  /** The first event of a run's log: its `session_runs` id (null for a `!command` beside a live run: no log). */
  | { type: "run_start"; runId: string | null; kind: RunKind; mode: RunMode }
  /** The last event of a run's log: how it ended. */
  | { type: "run_end"; outcome: RunOutcome }
  /** pi's `auto_retry_start` / `auto_retry_end` (lib/agent-session/auto-retry.ts). */
  | AutoRetryEvent
  | { type: "files_changed"; paths: string[]; commit?: string }
  | { type: "auto_compaction_start" | "compaction_start"; reason: CompactionReason }
  | {
      type: "auto_compaction_end" | "compaction_end";
      reason: CompactionReason;
      summary?: string;
      /** Why nothing was written: "nothing" to summarise, or tool results still "pending". */
      skipped?: "nothing" | "pending";
      errorMessage?: string;
    }
  /** pi's `queue_update`: the steer and follow-up texts still waiting, oldest first. */
  | { type: "queue_update"; steering: string[]; followUp: string[] }
  /** Queued texts the run will never deliver (abort or failure); the client gives them back to the user. */
  | { type: "queue_returned"; texts: string[] }
  /** pi's extension error report (`{ extensionPath, event, error }`). */
  | { type: "extension_error"; extensionPath: string; event: string; error: string }
  /** Before a turn's provider request: what `transformMessages` dropped or replaced for its model (request-notice.ts). */
  | RequestNoticeEvent
  | { type: "error"; message: string };

export interface PromptRunInput {
  sessionId: string;
  /** The user prompting (the request's caller): their agent dir and trust decisions apply (default: the session's creator). */
  userId?: string;
  /** The prompt (unused with `retry`). */
  text: string;
  /** Re-run the failed last turn instead (the Retry button): pi's `agent.continue()` without the failed answer. */
  retry?: boolean;
  /** pi's `prompt(text, { images })`: sent after the text in the user message (checked by the caller). */
  images?: ImageContent[];
  /** `provider/modelId`; default: the session's current model, else the configured default. */
  modelRef?: string;
  env: Record<string, string | undefined>;
  emit: (event: RunEvent) => Promise<void>;
  signal?: AbortSignal;
  /** Author of checkpoint commits. */
  author?: { name: string; email: string };
  /**
   * The caller's `session_runs` lock. When given, the run delivers messages queued for it by other requests
   * and finishes the lock itself (only when nothing waits); without it, queued messages are still taken at
   * pi's delivery points but the lock is the caller's business.
   */
  runId?: string;
  /** Extensions registered for this run, in load order (Strata's built-ins and code-registered modules). */
  extensions?: readonly ExtensionModule[];
  /**
   * The session and project rows the request already read (authorisation), the session's `leafId` as the run lock
   * found it: the run reads neither again. Default: read by `openSessionRuntime`.
   */
  loaded?: { session: SessionRow; project: Project };
  /** An open scope to continue on (saves a connection set-up); `runPrompt` releases it when done. */
  scope?: DbScope;
  /** True when the client that started the run is gone: queued texts are then left for the next run to hand back. */
  clientGone?: () => boolean;
}

/** Why a compaction ran: `/compact`, the context threshold, or a provider's context overflow. */
export type CompactionReason = "manual" | "threshold" | "overflow";

/** `Model <ref> is not available.`: the text for a model reference the server has no model (or key) for. */
export const modelUnavailableMessage = (ref: string) => `Model ${ref} is not available.`;
