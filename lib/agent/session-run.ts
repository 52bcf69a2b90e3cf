/**
 * One prompt on a stored session, end to end: load the branch from Postgres, rebuild the system
 * state (resources in effect for the session → sections → SystemMessage patch), expand `/skill:` and
 * prompt-template commands, run the agent loop against the model with
 * the coding tools on the project's VFS, persist every message as it ends, and checkpoint file changes
 * with a git commit on the session's branch ref after each tool batch.
 *
 * Connections: the `DbScope` is released before every model request, so a stream never holds a
 * database connection while it waits on the model.
 */

import { convertToLlm } from "@/lib/context/convert-to-llm";
import { DbScope } from "@/lib/db/client";
import { defaultModel, modelConfigHelp, resolveModel } from "@/lib/llm/models";
import { streamAssistant } from "@/lib/llm/stream";
import type { SystemMessage, ToolResultMessage, UserMessage } from "@/lib/llm/types";
import { getProject } from "@/lib/projects/projects";
import { loadSessionResources } from "@/lib/projects/session-resources";
import { buildSystemPromptSections } from "@/lib/prompt/sections";
import {
  diffSystemPromptSections,
  diffTools,
  getCurrentSystemMessage,
  getSystemMessageText,
} from "@/lib/prompt/system-message";
import { expandPromptTemplate } from "@/lib/resources/prompt-templates";
import { expandSkillCommand } from "@/lib/resources/skills";
import { calculateContextTokens } from "@/lib/session/compaction/compaction";
import type { NewEntry } from "@/lib/session/entries";
import { appendEntry, getSession, loadSessionContext, setSessionTitle } from "@/lib/session/store";
import { createCodingTools } from "@/lib/tools";
import { toolParametersJsonSchema } from "@/lib/tools/types";
import { checkpoint } from "@/lib/vfs/git";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { compactSession, isContextOverflow, shouldAutoCompact } from "./compaction-run";
import { runAgentLoop } from "./loop";
import type { AgentMessage } from "./messages";
import type { AgentEvent } from "./types";

/** Events a prompt run streams: pi's agent events plus Strata's `files_changed` and `error`. */
export type RunEvent =
  | AgentEvent
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
  | { type: "error"; message: string };

export interface PromptRunInput {
  sessionId: string;
  text: string;
  /** `provider/modelId`; default: the session's current model, else the configured default. */
  modelRef?: string;
  env: Record<string, string | undefined>;
  emit: (event: RunEvent) => Promise<void>;
  signal?: AbortSignal;
  /** Author of checkpoint commits. */
  author?: { name: string; email: string };
}

/** Why a compaction ran: `/compact`, the context threshold, or a provider's context overflow. */
export type CompactionReason = "manual" | "threshold" | "overflow";

const COMPACTION_EVENTS = {
  manual: ["compaction_start", "compaction_end"],
  auto: ["auto_compaction_start", "auto_compaction_end"],
} as const;

const DEFAULT_AUTHOR = { name: "Strata", email: "agent@strata.local" };

/** Persisted roles: `custom` becomes a custom_message entry (pi 6.9); the rest are message entries. */
function toEntry(message: AgentMessage): NewEntry | null {
  if (message.role === "custom") return null;
  if (message.role === "branchSummary" || message.role === "compactionSummary") return null;
  return { type: "message", message };
}

/**
 * Run `text` as a prompt on session `sessionId` until the model stops calling tools.
 * @throws Error when the session or its project does not exist (before any event is emitted).
 */
export async function runPrompt(input: PromptRunInput): Promise<void> {
  const scope = new DbScope();
  try {
    await runWithScope(scope, input);
  } finally {
    await scope.release();
  }
}

async function runWithScope(scope: DbScope, input: PromptRunInput): Promise<void> {
  const { env, emit, signal } = input;
  const session = await getSession(scope, input.sessionId);
  if (!session) throw new Error(`Session ${input.sessionId} not found`);
  const project = await getProject(scope, session.projectId);
  if (!project) throw new Error(`Project ${session.projectId} not found`);
  const { vfs } = openWorkspaceVfs(project.workspaceId, scope);
  const root = project.rootPath;

  // The projection of the current leaf (compactions and context edits applied), read from Postgres
  // without walking past the latest compaction's first kept entry.
  const loaded = await loadSessionContext(scope, session.id, session.leafId);
  const settings = { thinkingLevel: loaded.thinkingLevel, model: loaded.model };
  let history = loaded.messages;
  const ref =
    input.modelRef ?? (settings.model ? `${settings.model.provider}/${settings.model.modelId}` : undefined);
  const model =
    (ref ? resolveModel(ref, env) : undefined) ?? (input.modelRef ? undefined : defaultModel(env));
  if (!model) {
    const help = modelConfigHelp();
    await emit({
      type: "error",
      message: input.modelRef ? `Model ${input.modelRef} is not available.\n\n${help}` : help,
    });
    return;
  }

  /** Compact the session with its model; emits start/end events; true when an entry was written. */
  const compactNow = async (reason: CompactionReason, focus?: string): Promise<boolean> => {
    const [start, end] = reason === "manual" ? COMPACTION_EVENTS.manual : COMPACTION_EVENTS.auto;
    await emit({ type: start, reason });
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
    }
  };
  const reloadHistory = async () => {
    const current = await getSession(scope, session.id);
    history = (await loadSessionContext(scope, session.id, current?.leafId ?? null)).messages;
  };

  // `/compact [focus]` (pi's command): summarise now, no model turn.
  const manual = /^\/compact(?:\s+([\s\S]*))?$/.exec(input.text.trim());
  if (manual) {
    await compactNow("manual", manual[1]?.trim() || undefined);
    return;
  }
  // pi 6.1 step 9: before a new prompt, compact when the last answer already crossed the threshold.
  const lastAnswer = [...history].reverse().find((m) => m.role === "assistant");
  if (
    lastAnswer?.role === "assistant" &&
    lastAnswer.stopReason !== "error" &&
    lastAnswer.stopReason !== "aborted" &&
    shouldAutoCompact(calculateContextTokens(lastAnswer.usage), model) &&
    (await compactNow("threshold"))
  ) {
    await reloadHistory();
  }

  const tools = createCodingTools({ fs: vfs, cwd: session.cwd, projectRoot: root });
  const declarations = tools.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: toolParametersJsonSchema(t),
  }));
  // Resources in effect (pi's loader): context files, SYSTEM/APPEND_SYSTEM, skills and templates, with
  // project trust from the session's "this session only" override or the user's stored decision.
  const { resources, agentFs } = await loadSessionResources(scope, { session, project, vfs });
  const sections = buildSystemPromptSections({
    cwd: session.cwd,
    customPrompt: resources.systemPrompt,
    appendSystemPrompt:
      resources.appendSystemPrompt.length > 0 ? resources.appendSystemPrompt.join("\n\n") : undefined,
    selectedTools: tools.map((t) => t.name),
    toolSnippets: Object.fromEntries(
      tools.filter((t) => t.promptSnippet).map((t) => [t.name, t.promptSnippet!]),
    ),
    toolGuidelines: Object.fromEntries(tools.map((t) => [t.name, t.promptGuidelines ?? []])),
    contextFiles: resources.agentsFiles,
    skills: resources.skills,
  });

  // pi prompt order (6.1 steps 4–5): `/skill:name args`, then `/template args`, before the user message.
  const skillExpansion = await expandSkillCommand(input.text, resources.skills, (skill) =>
    skill.source === "user" ? agentFs : vfs,
  );
  if (skillExpansion.error)
    await emit({
      type: "error",
      message: `Extension "${skillExpansion.error.extensionPath}" ${skillExpansion.error.event} error: ${skillExpansion.error.error}`,
    });
  const text = expandPromptTemplate(skillExpansion.text, resources.promptTemplates);

  // Settings entries: a new session starts with model and thinking level (pi 6.9); a switch adds a model_change.
  const append = (entry: NewEntry) => appendEntry(scope, session.id, entry);
  if (session.leafId === null) {
    await append({ type: "model_change", provider: model.provider, modelId: model.id });
    await append({ type: "thinking_level_change", thinkingLevel: settings.thinkingLevel });
  } else if (settings.model?.provider !== model.provider || settings.model?.modelId !== model.id) {
    await append({ type: "model_change", provider: model.provider, modelId: model.id });
  }
  if (!session.title)
    await setSessionTitle(scope, session.id, input.text.replace(/\s+/g, " ").trim().slice(0, 80));

  const now = Date.now();
  const prompts: AgentMessage[] = [];
  const head = getCurrentSystemMessage(history);
  const patch = diffSystemPromptSections(head?.sections ?? {}, sections);
  const toolDelta = diffTools(head?.toolsAdded ?? [], declarations);
  if (patch || toolDelta.toolsAdded || toolDelta.toolsRemoved) {
    const system: SystemMessage = {
      role: "system",
      content: "",
      ...(patch ? { sections: patch } : {}),
      ...toolDelta,
      timestamp: now,
    };
    prompts.push(system);
  }
  const user: UserMessage = { role: "user", content: [{ type: "text", text }], timestamp: now };
  prompts.push(user);

  const changed = new Set<string>();
  let flushing: Promise<unknown> = Promise.resolve();
  const flush = () => {
    flushing = flushing.then(async () => {
      for (const p of vfs.dirtyPaths())
        if (p.startsWith(`${root}/`) && !p.startsWith(`${root}/.git/`) && p !== `${root}/.git`)
          changed.add(p);
      await vfs.flush();
    });
    return flushing;
  };

  const loopConfig: Parameters<typeof runAgentLoop>[2] = {
    tools,
    stream: (context, s) =>
      streamAssistant(model, context, { env, signal: s, thinkingLevel: settings.thinkingLevel }),
    convertToLlm,
    buildRequest(messages) {
      const current = getCurrentSystemMessage(messages);
      return {
        systemPrompt: current ? getSystemMessageText(current) : "",
        messages: messages.filter((m) => m.role !== "system"),
        tools: current?.toolsAdded ?? [],
      };
    },
    beforeRequest: () => scope.release(),
    afterToolExecution: async () => {
      await flush();
    },
    async afterToolResults(_results: ToolResultMessage[]) {
      await flush();
      if (changed.size === 0) return;
      const paths = [...changed].sort();
      changed.clear();
      const result = await checkpoint(vfs, root, {
        changedPaths: paths,
        ref: `refs/heads/strata/session-${session.id}`,
        message: `Strata checkpoint: ${paths.length} file${paths.length === 1 ? "" : "s"} changed`,
        author: input.author ?? DEFAULT_AUTHOR,
      });
      await vfs.flush();
      await emit({
        type: "files_changed",
        paths: paths.map((p) => p.slice(root.length + 1)),
        commit: result?.oid,
      });
    },
  };
  const onEvent = async (event: AgentEvent) => {
    if (event.type === "message_end") {
      const entry = toEntry(event.message);
      if (entry) await append(entry);
    }
    await emit(event);
  };
  const added = await runAgentLoop(prompts, history, loopConfig, onEvent, signal);

  // pi's compaction check after a run (AgentSession._checkCompaction): a context overflow from this
  // model compacts and retries once; a context over the threshold compacts without a retry.
  const last = [...added].reverse().find((m) => m.role === "assistant");
  if (last?.role !== "assistant" || signal?.aborted) return;
  const overflow =
    isContextOverflow(last, model.contextWindow) &&
    last.provider === model.provider &&
    last.model === model.id;
  const threshold =
    !overflow &&
    last.stopReason !== "error" &&
    last.stopReason !== "aborted" &&
    shouldAutoCompact(calculateContextTokens(last.usage), model);
  if (!overflow && !threshold) return;
  if (!(await compactNow(overflow ? "overflow" : "threshold")) || !overflow) return;
  await reloadHistory();
  await runAgentLoop([], history, loopConfig, onEvent, signal);
}
