/**
 * The phases of a prompt run on a stored session (session-run.ts `runPrompt` calls them in order): `prepareRun`
 * opens the runtime with the authorised rows, commits what a dead run left and the user's edits since the last turn,
 * loads the branch and picks the model; `createCompactor` runs pi's compaction with its events and the run lock's
 * kind; `createLiveSession` builds the `AgentSession` with the stored session's parts (persistence, checkpoints,
 * the provider stream with request notices, the queue in Postgres, auto-retry, the compactor, the Retry
 * button's settings record).
 */

import type { AgentMessage } from "@/lib/agent/messages";
import type { StreamFn } from "@/lib/agent/types";
import { blockImagesSetting } from "@/lib/context/block-images";
import type { DbScope } from "@/lib/db/client";
import { getAvailableModels, type Model, modelConfigHelp, resolvePromptModel } from "@/lib/llm/models";
import { streamAssistant } from "@/lib/llm/stream";
import { summarizeTransformReport } from "@/lib/llm/transform-report";
import { AGENT_DIR } from "@/lib/projects/agent-dir";
import { loadPiSettings } from "@/lib/resources/pi-settings";
import { loadSessionContext } from "@/lib/session/context-load";
import type { NewEntry } from "@/lib/session/entries";
import { claimQueued } from "@/lib/session/queue";
import { setRunKind } from "@/lib/session/runs";
import { appendEntry, getSession, setSessionTitle } from "@/lib/session/store";
import { titleFromPrompt } from "@/lib/text/credential-shape";
import { resolveProjectPath } from "@/lib/vfs/paths";
import { AgentSession } from "./agent-session";
import { AutoRetry, loadRetrySettings } from "./auto-retry";
import { createCheckpointer, recoverAndNotify } from "./checkpointer";
import { compactSession } from "./compaction-run";
import { commitWorkingTree, pointCommit, USER_CHANGES_MESSAGE } from "./file-state";
import { authorOf, queuedMessages } from "./message-authors";
import { messageToEntry } from "./message-entry";
import { changesNewToModel, withRequestNotice } from "./request-notice";
import type { CompactionReason, PromptRunInput } from "./run-types";
import { modelUnavailableMessage } from "./run-types";
import { openSessionRuntime, type SessionRuntime } from "./session-runtime";

const COMPACTION_EVENTS = {
  manual: ["compaction_start", "compaction_end"],
  auto: ["auto_compaction_start", "auto_compaction_end"],
} as const;

/** What `prepareRun` found: the runtime, the branch loaded from where the run starts, the model. */
export interface PreparedRun {
  runtime: SessionRuntime;
  session: SessionRuntime["session"];
  /** The commit the run's first checkpoint builds on (after a recovery and the user's own changes). */
  base: string | null | undefined;
  loaded: Awaited<ReturnType<typeof loadSessionContext>>;
  model: Model | undefined;
  /** The text of a missing or unavailable model (the model route's words; setup help when none is configured). */
  modelError: () => string;
}

/**
 * Open the run's runtime and bring the stored session to where the run starts (recovery checkpoint, the user's
 * changes as their own checkpoint), then load the branch and resolve the model.
 * @throws SessionUnavailableError when the session or its project does not exist.
 */
export async function prepareRun(scope: DbScope, input: PromptRunInput): Promise<PreparedRun> {
  const { env, emit } = input;
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
  const loaded = await loadSessionContext(scope, session.id, recovered?.entryId ?? session.leafId);
  // The active tools this branch declares (the IDE's toggles, an extension's setActiveTools), else pi's defaults.
  runtime.restoreActiveTools(loaded.messages);
  const model = resolvePromptModel(input.modelRef, loaded.model, env);
  const modelError = () => {
    const help = modelConfigHelp();
    if (!input.modelRef) return help;
    const text = modelUnavailableMessage(input.modelRef);
    return getAvailableModels(env).length > 0 ? text : `${text}\n\n${help}`;
  };
  const base = userChanges?.oid ?? recovered?.commit ?? startBase;
  return { runtime, session, base, loaded, model, modelError };
}

/** pi's compaction for a run: `compactNow(reason, focus?)` → whether it compacted; `reloadHistory()` after it. */
export function createCompactor(scope: DbScope, input: PromptRunInput, run: PreparedRun) {
  const { emit, env, signal } = input;
  const { session, model } = run;
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
  return { compactNow, reloadHistory };
}

export type Compactor = ReturnType<typeof createCompactor>;

/** The run's retry of failed answers (pi's auto-retry), with the settings files' `retry` block (their errors logged). */
async function createAutoRetry(
  runtime: PreparedRun["runtime"],
  model: PreparedRun["model"],
  io: { emit: PromptRunInput["emit"]; signal: PromptRunInput["signal"] },
): Promise<AutoRetry> {
  const retrySettings = await loadRetrySettings(runtime);
  for (const error of retrySettings.errors) console.warn(`[strata] ${error.path}: ${error.message}`);
  return new AutoRetry({
    settings: retrySettings.settings,
    emit: io.emit,
    signal: io.signal,
    contextWindow: () => model?.contextWindow ?? 0,
  });
}

/**
 * The live run's model call: `streamAssistant` on the turn's model (else the run's; none: the model error), with the
 * extensions' `onPayload`, and the request's transformMessages report emitted as the chat's notice before the answer.
 */
function liveStream(run: PreparedRun, env: PromptRunInput["env"], emit: PromptRunInput["emit"]): StreamFn {
  const { runtime, model, modelError } = run;
  return (context, s, options) => {
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
  };
}

/**
 * The run's `AgentSession`: every message persisted as an entry with the commit its files are at, tool writes
 * flushed and checkpointed, the connection released before each model request, the provider stream with the
 * chat's request notices, the Postgres queue, pi's compaction check before a prompt and auto-retry around each
 * start. Aborting `input.signal` aborts the agent.
 */
export async function createLiveSession(
  scope: DbScope,
  input: PromptRunInput,
  run: PreparedRun,
  compactor: Compactor,
): Promise<AgentSession> {
  const { env, emit, signal } = input;
  const { runtime, session, loaded, model, modelError } = run;
  // Every entry records the commit its files are at (docs/checkpoints.md).
  const persist = async (message: AgentMessage) => {
    const entry = messageToEntry(message);
    const commit = checkpointer.head();
    const author = authorOf(message, input.userId);
    if (entry) await appendEntry(scope, session.id, entry, { author, ...(commit ? { commit } : {}) });
  };
  const checkpointer = createCheckpointer(runtime, {
    author: input.author,
    emit,
    scope,
    runId: input.runId,
    base: run.base,
    userId: input.userId,
  });
  const retry = await createAutoRetry(runtime, model, { emit, signal });
  const agentSession: AgentSession = new AgentSession({
    runtime,
    model,
    thinkingLevel: loaded.thinkingLevel,
    messages: loaded.messages,
    stream: liveStream(run, env, emit),
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
        queuedMessages(await claimQueued(scope, session.id, kind, mode, input.runId)),
    },
    compactor,
    beforeRetry: () => recordSettings(scope, input, run, model as Model, checkpointer.head()),
    beforeRun: () => recordSettings(scope, input, run, model as Model, checkpointer.head()),
    runTurns: (start): Promise<void> => retry.run(agentSession.agent, start),
  });
  agentSession.agent.subscribe((event) => retry.observe(event));
  const onAbort = () => agentSession.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) agentSession.abort();
  return agentSession;
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
  run: PreparedRun,
  model: Model,
  commit: string | null | undefined,
): Promise<void> {
  const { session, loaded } = run;
  const append = (entry: NewEntry) => appendEntry(scope, session.id, entry, commit ? { commit } : {});
  if (session.leafId === null) {
    await append({ type: "model_change", provider: model.provider, modelId: model.id });
    await append({ type: "thinking_level_change", thinkingLevel: loaded.thinkingLevel });
  } else if (loaded.model?.provider !== model.provider || loaded.model?.modelId !== model.id) {
    await append({ type: "model_change", provider: model.provider, modelId: model.id });
  }
  if (!session.title && !input.retry) await setSessionTitle(scope, session.id, titleFromPrompt(input.text));
}
