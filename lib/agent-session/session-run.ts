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
import type { AgentEvent } from "@/lib/agent/types";
import { blockImagesSetting } from "@/lib/context/block-images";
import { DbScope } from "@/lib/db/client";
import type { ExtensionModule } from "@/lib/extensions/types";
import { getAvailableModels, type Model, modelConfigHelp, resolvePromptModel } from "@/lib/llm/models";
import { streamAssistant } from "@/lib/llm/stream";
import { summarizeTransformReport } from "@/lib/llm/transform-report";
import type { AssistantMessage, ImageContent } from "@/lib/llm/types";
import { AGENT_DIR } from "@/lib/projects/agent-dir";
import type { Project } from "@/lib/projects/projects";
import { loadPiSettings } from "@/lib/resources/pi-settings";
import { calculateContextTokens } from "@/lib/session/compaction/compaction";
import { loadSessionContext } from "@/lib/session/context-load";
import type { NewEntry } from "@/lib/session/entries";
import { cancelQueued, claimQueued, finishRunIfIdle } from "@/lib/session/queue";
import { finishRun, type RunKind, type RunMode, type RunOutcome, setRunKind } from "@/lib/session/runs";
import { appendEntry, getSession, type SessionRow, setSessionTitle } from "@/lib/session/store";
import { titleFromPrompt } from "@/lib/text/credential-shape";
import { resolveProjectPath } from "@/lib/vfs/paths";
import { AgentSession } from "./agent-session";
import { AutoRetry, type AutoRetryEvent, loadRetrySettings, withoutFailedTurn } from "./auto-retry";
import { createCheckpointer, recoverAndNotify } from "./checkpointer";
import { compactSession, isContextOverflow, shouldAutoCompact } from "./compaction-run";
import { commitWorkingTree, pointCommit, USER_CHANGES_MESSAGE } from "./file-state";
import { messageToEntry } from "./message-entry";
import { changesNewToModel, type RequestNoticeEvent, withRequestNotice } from "./request-notice";
import { openSessionRuntime, type SessionRuntime } from "./session-runtime";

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

const COMPACTION_EVENTS = {
  manual: ["compaction_start", "compaction_end"],
  auto: ["auto_compaction_start", "auto_compaction_end"],
} as const;

/** `Model <ref> is not available.`: the text for a model reference the server has no model (or key) for. */
export const modelUnavailableMessage = (ref: string) => `Model ${ref} is not available.`;

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
  const { env, emit, signal } = input;
  const runtime = await openSessionRuntime(scope, input.sessionId, {
    ...(input.loaded ? { loaded: input.loaded } : {}),
    userId: input.userId,
    runId: input.runId,
    author: input.author,
    extensions: input.extensions,
    onExtensionError: (error) =>
      void emit({
        type: "extension_error",
        extensionPath: error.extensionPath,
        event: error.event,
        error: error.error,
      }),
  });
  const { session } = runtime;
  // Files a dead run left without a checkpoint are committed first (and the user told, in the chat).
  const startBase = await pointCommit(scope, runtime, session.leafId);
  const recovered = input.runId
    ? await recoverAndNotify(runtime, {
        scope,
        runId: input.runId,
        author: input.author,
        emit,
        base: startBase,
        userId: input.userId,
      })
    : undefined;
  const recoveredLeaf = recovered?.entryId;
  // The user's edits since the last turn (and other changes to the working tree) become their own checkpoint,
  // so the prompt's entry records them and the agent's changes stay apart (docs/checkpoints.md).
  const userChanges = await commitWorkingTree(runtime, {
    scope,
    base: recovered?.commit ?? startBase,
    kind: "user",
    message: USER_CHANGES_MESSAGE,
    author: input.author ?? { name: "Strata", email: "agent@strata.local" },
    userId: input.userId,
  });

  // The projection of the current leaf (compactions and context edits applied), read from Postgres
  // without walking past the latest compaction's first kept entry.
  const loaded = await loadSessionContext(scope, session.id, recoveredLeaf ?? session.leafId);
  // The active tools this branch declares (the IDE's toggles, an extension's setActiveTools), else pi's defaults.
  runtime.restoreActiveTools(loaded.messages);
  const model = resolvePromptModel(input.modelRef, loaded.model, env);
  // An unknown model among configured ones gets the model route's text; the setup help only when none is configured.
  const modelError = () => {
    const help = modelConfigHelp();
    if (!input.modelRef) return help;
    const text = modelUnavailableMessage(input.modelRef);
    return getAvailableModels(env).length > 0 ? text : `${text}\n\n${help}`;
  };

  const compactNow = async (reason: CompactionReason, focus?: string): Promise<boolean> => {
    if (!model) return false;
    const [start, end] = reason === "manual" ? COMPACTION_EVENTS.manual : COMPACTION_EVENTS.auto;
    await emit({ type: start, reason });
    // While it compacts, other requests get pi's "compaction in progress" refusal instead of queueing.
    if (input.runId) await setRunKind(scope, input.runId, "compaction");
    try {
      const result = await compactSession({ scope, sessionId: session.id, model, env, signal, focus });
      await emit({
        type: end,
        reason,
        ...(result.status === "compacted" ? { summary: result.entry.summary } : { skipped: result.status }),
      });
      return result.status === "compacted";
    } catch (error) {
      await emit({ type: end, reason, errorMessage: error instanceof Error ? error.message : String(error) });
      return false;
    } finally {
      if (input.runId) await setRunKind(scope, input.runId, "prompt");
    }
  };
  const reloadHistory = async (): Promise<AgentMessage[]> => {
    const current = await getSession(scope, session.id);
    return (await loadSessionContext(scope, session.id, current?.leafId ?? null)).messages;
  };

  // `/compact [focus]` (pi's command): summarise now, no model turn.
  const manual = /^\/compact(?:\s+([\s\S]*))?$/.exec(input.text.trim());
  if (manual) {
    if (!model) await emit({ type: "error", message: modelError() });
    else await compactNow("manual", manual[1]?.trim() || undefined);
    await finishQueue(scope, input);
    return;
  }

  // Every entry records the commit its files are at (docs/checkpoints.md).
  const append = (entry: NewEntry) => {
    const commit = checkpointer.head();
    return appendEntry(scope, session.id, entry, commit ? { commit } : {});
  };
  const persist = async (message: AgentMessage) => {
    const entry = messageToEntry(message);
    if (entry) await append(entry);
  };
  const checkpointer = createCheckpointer(runtime, {
    author: input.author,
    emit,
    scope,
    runId: input.runId,
    base: userChanges?.oid ?? recovered?.commit ?? startBase,
    userId: input.userId,
  });
  const retrySettings = await loadRetrySettings(runtime);
  for (const error of retrySettings.errors) console.warn(`[strata] ${error.path}: ${error.message}`);
  const retry = new AutoRetry({
    settings: retrySettings.settings,
    emit,
    signal,
    contextWindow: () => model?.contextWindow ?? 0,
  });
  const agentSession: AgentSession = new AgentSession({
    runtime,
    model,
    thinkingLevel: loaded.thinkingLevel,
    messages: loaded.messages,
    stream: (context, s, options) => {
      const target = options?.model ?? model;
      if (!target) throw new Error(modelError());
      // The request's transformMessages report → the chat's notice, emitted before the answer (request-notice.ts).
      return withRequestNotice(
        (transformReport) =>
          streamAssistant(target, context, {
            env,
            signal: s,
            thinkingLevel: options?.thinkingLevel ?? "off",
            onPayload: runtime.extensions.createOnPayload(),
            transformReport,
          }),
        // Only what is new to this model: its earlier answers already got the older history the same way.
        (report) => summarizeTransformReport(changesNewToModel(report, context.messages ?? [], target)),
        emit,
      );
    },
    // pi's convertToLlmWithBlockImages: `images.blockImages` read from the settings files for every request (pi's `sdk.ts`).
    blockImages: async () => blockImagesSetting((await loadRunSettings(runtime)).settings),
    modelError,
    emit,
    persist,
    hooks: {
      beforeRequest: async () => scope.detach(),
      afterToolExecution: (name, toolCallId, args) =>
        checkpointer.flush(toolCallId, writtenPath(runtime.root, session.cwd, name, args)),
      afterToolResults: () => checkpointer.checkpoint(),
    },
    queueSource: {
      take: async (kind, mode) =>
        (await claimQueued(scope, session.id, kind, mode, input.runId)).map((queued) => queued.message),
    },
    // pi's `agent-session.ts` step 9: before a new prompt, compact when the last answer already crossed the threshold.
    checkCompaction: async (last) =>
      model &&
      last?.role === "assistant" &&
      last.stopReason !== "error" &&
      last.stopReason !== "aborted" &&
      shouldAutoCompact(calculateContextTokens(last.usage), model) &&
      (await compactNow("threshold"))
        ? await reloadHistory()
        : undefined,
    beforeRun: () => recordSettings(scope, input, session, loaded, model as Model, checkpointer.head()),
    runTurns: (start): Promise<void> => retry.run(agentSession.agent, start),
  });
  const { agent } = agentSession;
  agent.subscribe((event) => retry.observe(event));
  const onAbort = () => agent.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) agent.abort();

  try {
    if (input.retry) {
      if (!model) throw new Error(modelError());
      agent.state.messages = withoutFailedTurn(agent.state.messages);
      await recordSettings(scope, input, session, loaded, model, checkpointer.head());
      await agentSession.continue();
    } else await agentSession.prompt(input.text, input.images ?? []);
  } catch (error) {
    await emit({ type: "error", message: error instanceof Error ? error.message : String(error) });
    await runtime.flushHeldMessages(agent.state.messages);
    await finishQueue(scope, input);
    return;
  }

  // pi's compaction check after a run (AgentSession._checkCompaction): a context overflow from this
  // model compacts and retries once; a context over the threshold compacts without a retry.
  const last = lastAssistant(agent.state.messages);
  if (model && last && !signal?.aborted) {
    const overflow =
      isContextOverflow(last, model.contextWindow) &&
      last.provider === model.provider &&
      last.model === model.id;
    const threshold =
      !overflow &&
      last.stopReason !== "error" &&
      last.stopReason !== "aborted" &&
      shouldAutoCompact(calculateContextTokens(last.usage), model);
    if ((overflow || threshold) && (await compactNow(overflow ? "overflow" : "threshold")) && overflow) {
      const history = await reloadHistory();
      // Retry from the history without the failed answer (pi removes it before `agent.continue()`).
      const tail = history[history.length - 1];
      agent.state.messages =
        tail?.role === "assistant" && tail.stopReason === "error" ? history.slice(0, -1) : history;
      await agentSession.continue();
    }
  }

  // Messages queued after the agent's last follow-up poll: run them as follow-ups (pi `continue()` with a
  // queue), until the run can finish with nothing waiting.
  await runtime.flushHeldMessages(agent.state.messages);
  await finishQueue(scope, input, (messages) => agentSession.promptMessages(messages));
  signal?.removeEventListener("abort", onAbort);
}

const lastAssistant = (messages: AgentMessage[]) =>
  [...messages].reverse().find((m): m is AssistantMessage => m.role === "assistant");

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
      if (entry) await appendEntry(scope, sessionId, entry);
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
    if (next.length > 0) await runAgain(next.map((m) => m.message));
  }
}

/** The pi settings in effect for the run's user and project (global, then the trusted project's). */
function loadRunSettings(runtime: SessionRuntime) {
  return loadPiSettings({
    agentFs: runtime.agentFs,
    agentDir: AGENT_DIR,
    projectFs: runtime.vfs,
    cwd: runtime.session.cwd,
    projectTrusted: runtime.resources.projectTrusted,
  });
}

/**
 * The file a `write` or `edit` call names (absolute), so the checkpoint credits it to that call even when another
 * call of the same batch flushed it first; undefined for other tools (they are credited what they left dirty).
 */
function writtenPath(root: string, cwd: string, name: string, args: unknown): string[] | undefined {
  const path = (args as { path?: unknown } | null)?.path;
  if ((name !== "write" && name !== "edit") || typeof path !== "string") return undefined;
  try {
    return [resolveProjectPath(root, cwd, path)];
  } catch {
    return undefined;
  }
}

/** pi's `agent-session.ts`: a new session starts with model and thinking-level entries; a switch adds a `model_change`; first prompt titles it. */
async function recordSettings(
  scope: DbScope,
  input: PromptRunInput,
  session: SessionRuntime["session"],
  loaded: Awaited<ReturnType<typeof loadSessionContext>>,
  model: Model,
  commit: string | null | undefined,
): Promise<void> {
  const append = (entry: NewEntry) => appendEntry(scope, session.id, entry, commit ? { commit } : {});
  if (session.leafId === null) {
    await append({ type: "model_change", provider: model.provider, modelId: model.id });
    await append({ type: "thinking_level_change", thinkingLevel: loaded.thinkingLevel });
  } else if (loaded.model?.provider !== model.provider || loaded.model?.modelId !== model.id) {
    await append({ type: "model_change", provider: model.provider, modelId: model.id });
  }
  if (!session.title && !input.retry) await setSessionTitle(scope, session.id, titleFromPrompt(input.text));
}
