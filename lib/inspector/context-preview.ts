/**
 * The context preview: the pipeline of one live prompt run (`runPrompt` in session-run.ts), stopping before the
 * network. Resources with trust (`loadResources`), the active tools, sections and the system patch
 * (system-state.ts), the session projection of a leaf, `/skill:` then `/template` expansion, the user message,
 * `convertToLlm`, the request (`buildRequest` of a run), `transformMessages` for the target model, and the
 * provider payload exactly as the AI SDK would send it, captured by `capturePayload` with placeholder keys and a
 * canned answer. Used by `npx strata preview` (lib/cli/preview.ts) and the IDE's context inspector.
 */

import type { AgentMessage } from "@/lib/agent/messages";
import { ActiveTools } from "@/lib/agent-session/active-tools";
import {
  buildRequestFromTranscript,
  buildSessionSections,
  buildSystemPatch,
  declareToolsForPrompt,
} from "@/lib/agent-session/system-state";
import { createConvertToLlm } from "@/lib/context/block-images";
import type { ExtensionModule } from "@/lib/extensions/types";
import { type CapturedPayload, capturePayload } from "@/lib/llm/capture-payload";
import { type Env, type Model, modelRef } from "@/lib/llm/models";
import { redactSecrets } from "@/lib/llm/redact";
import { toolCallIdNormalizerFor } from "@/lib/llm/tool-call-ids";
import { transformMessages } from "@/lib/llm/transform-messages";
import { createTransformReport, type TransformReport } from "@/lib/llm/transform-report";
import type { Message, SystemMessage, ThinkingLevel, ToolDeclaration, UserMessage } from "@/lib/llm/types";
import { AGENT_DIR, AGENT_HOME } from "@/lib/projects/agent-dir";
import type { SystemPromptSections } from "@/lib/prompt/sections";
import {
  listTeamTrustRequiringResources,
  listTrustRequiringProjectResources,
} from "@/lib/resources/project-trust";
import { expandPromptTemplate } from "@/lib/resources/prompt-templates";
import { loadResources, type ResourceProvenance } from "@/lib/resources/resource-loader";
import { expandSkillCommand } from "@/lib/resources/skills";
import type { SessionEntry } from "@/lib/session/entries";
import { buildSessionPath, projectPath } from "@/lib/session/projection";
import { createAllTools, type ToolName } from "@/lib/tools";
import type { AgentTool, ToolExec } from "@/lib/tools/types";
import { normalizePosix } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";
import {
  buildPreviewEntries,
  buildRecentCost,
  type PreviewEntry,
  type RecentCost,
} from "./context-preview-entries";
import {
  buildSectionSources,
  type ContextHookChanges,
  estimateRequestTokens,
  readBlockImagesSetting,
  runContextHooks,
  type SectionSource,
  type TokenEstimate,
} from "./context-preview-layers";
import { ContextPreviewError } from "./context-preview-model";

export { envSecrets, maskKeyLikeStrings, redactSecrets, redactUrl } from "@/lib/llm/redact";
export type { PreviewEntry, RecentCost, TurnCost } from "./context-preview-entries";
export type {
  ContextHookChange,
  ContextHookChanges,
  SectionSource,
  TokenEstimate,
} from "./context-preview-layers";
export { ContextPreviewError, resolvePreviewModel } from "./context-preview-model";

/** Tool names the preview can activate, in pi's `createAllTools` order. */
export const PREVIEW_TOOL_NAMES: readonly ToolName[] = [
  "read",
  "bash",
  "edit",
  "write",
  "grep",
  "find",
  "ls",
];

/** Input of {@link buildContextPreview}. */
export interface ContextPreviewInput {
  /** The workspace filesystem (a `Vfs`; over `MemoryVfsStore` for a host directory). */
  fs: FileSystem;
  /** Absolute VFS working directory (the session cwd); must be a directory of `fs`. */
  cwd: string;
  /** The project root on `fs` the tools confine `.git` writes to (a live run: the project's root path). Default `cwd`. */
  projectRoot?: string;
  /** The user's agent filesystem (pi `~/.pi/agent` lives at `agentDir` on it). */
  agentFs?: FileSystem;
  /** Default `/.pi/agent` (`AGENT_DIR`, as in a live run). */
  agentDir?: string;
  /** pi's `~` on `agentFs` (its `.agents/skills`). Default `/` (`AGENT_HOME`). */
  agentHomeDir?: string;
  /** Strata: the team rules root of a team project (`dir` on `fs`), as a run of the session loads it. */
  team?: { fs: FileSystem; dir: string };
  /** The session's entries (pi `SessionEntry[]`, already parsed); none = a new session. */
  entries?: readonly SessionEntry[];
  /** Leaf entry id; default the last entry (pi `buildSessionPath`); `null` = before the first entry. */
  leafId?: string | null;
  /** The target model. */
  model: Model;
  /** Project trust; undefined = resolved as the loader does without a stored decision (untrusted when anything needs trust). */
  trust?: boolean;
  /**
   * Active tool names (see {@link PREVIEW_TOOL_NAMES}), in the order given; default as a run: the set the branch's
   * transcript declares (`ActiveTools.restoreFromTranscript`: the IDE's toggles), else pi's `read, bash, edit, write`.
   */
  tools?: readonly string[];
  /** The prompt text as typed (`/skill:` and `/template` commands are expanded). */
  text: string;
  /** Default: the session's thinking level (its last `thinking_level_change`, else `off`), as a live run uses. */
  thinkingLevel?: ThinkingLevel;
  /** Server environment: base URLs and `STRATA_MODELS` for the request; its API keys are never used nor printed. */
  env?: Env;
  /** Timestamp of the new system patch and user message, epoch ms. Default `Date.now()`. */
  now?: number;
  /**
   * pi's `images.blockImages`; default: read from the settings in effect (`<agentDir>/settings.json` on `agentFs`,
   * then the trusted project's `<cwd>/.pi/settings.json`), as a run reads it.
   */
  blockImages?: boolean;
  /**
   * Extensions registered for the run, in load order: their `context` / `context_with_system` hooks run on the
   * messages as in a live run (layer 3). A stored session's prompt run registers none (the product loads no
   * extension code), so neither does its preview.
   */
  extensions?: readonly ExtensionModule[];
  /** The session id the extensions' `ctx.sessionId` names. Default `""`. */
  sessionId?: string;
  /**
   * The run's way to the execution service (`toolExec` of session-runtime.ts), so the tools are declared as a run
   * declares them (the `bash` description names node/python3/sqlite3 and the sandbox note only with it). Never
   * called: the preview runs no tool. Default none (the in-process shell's description).
   */
  exec?: ToolExec;
}

/** A problem or note found while building the preview. */
export interface PreviewDiagnostic {
  /**
   * `resources`: the loader's and settings files' diagnostics; `input`: skill expansion, commands; `session`: model
   * switch; `extensions`: a `context` hook failed (pi's `{ extensionPath, event, error }` as `path` and message);
   * `payload`: capture.
   */
  source: "resources" | "input" | "session" | "extensions" | "payload";
  type: "warning" | "error" | "collision" | "info";
  message: string;
  path?: string;
}

/** Result of {@link buildContextPreview}; JSON-serialisable, without keys or auth headers. */
export interface ContextPreview {
  /** The target model (its ref is `<provider>/<id>`). */
  model: Model & { ref: string };
  thinkingLevel: ThinkingLevel;
  cwd: string;
  trusted: boolean;
  /** Active tool names, in order. */
  tools: string[];
  /** The request's system prompt: the text of the current system message (after the patch). */
  systemPrompt: string;
  /** The sections built for this prompt (pi's order). */
  sections: SystemPromptSections;
  /** Each section's source file(s) and trust gate, in section order (see `buildSectionSources`). */
  sectionSources: SectionSource[];
  /** The system message the prompt starts with, or null when the transcript's system state is already current. */
  systemPatch: SystemMessage | null;
  /** The input after `/skill:` and `/template` expansion (the user message's text). */
  expandedText: string;
  /** Resources in effect, with where they come from. */
  provenance: ResourceProvenance[];
  /** Layer 1: the session entries on the root→leaf path, in path order, with the messages each produces. */
  entries: PreviewEntry[];
  /** Layer 2: the session projection of the leaf, then the system patch (if any) and the user message. */
  agentMessages: AgentMessage[];
  /** Layer 3: what the extensions' `context` hooks changed (nothing without extensions; never stored). */
  contextHookChanges: ContextHookChanges;
  /** pi's `images.blockImages` in effect: when true, `llmMessages` has every user / tool-result image replaced. */
  blockImages: boolean;
  /** Layer 4: `convertToLlm` of the messages after the hooks, then `blockImages` when the setting is on. */
  llmMessages: Message[];
  /** The request's messages (system messages removed) after `transformMessages` for the target model. */
  transformedMessages: Message[];
  /** Layer 5: every change `transformMessages` made for the target model, with its reason (transform-report.ts). */
  transformReport: TransformReport;
  /** For each request message (the transform's input, whose indexes `transformReport` uses): its `llmMessages` index. */
  requestMessageIndexes: number[];
  /** The request's tool declarations (name, description, JSON Schema parameters) as passed to the provider. */
  toolDeclarations: ToolDeclaration[];
  /** Layer 6: the request as the provider would receive it (URL without user info, query string as `?[redacted]`; JSON body, secrets masked), or null when none was built. */
  payload: CapturedPayload | null;
  /** The request's size, ceil(chars / 4) as pi's `estimateTokens`, against the model's context window. */
  tokenEstimate: TokenEstimate;
  /** Usage and cost of the last 5 assistant turns on the path. */
  recentCost: RecentCost;
  diagnostics: PreviewDiagnostic[];
}

/** The trust-requiring files an untrusted project withholds: the project's (pi 2.9), then the team rules root's. */
async function withheldResources(fs: FileSystem, cwd: string, team?: { fs: FileSystem; dir: string }) {
  return [
    ...(await listTrustRequiringProjectResources(fs, cwd)).map((path) => ({
      path,
      filesystem: "project" as const,
    })),
    ...(team ? await listTeamTrustRequiringResources(team.fs, team.dir) : []).map((path) => ({
      path,
      filesystem: "team" as const,
    })),
  ];
}

/**
 * Build the context of one prompt exactly as `runPrompt` would send it, without sending it: nothing is written
 * (no session entries, no VFS flush) and no network is used.
 *
 * Steps (pi's prompt order, 6.1, and a run's request path, 9.x, 11.x, 12.x, 13.x): `loadResources` on `fs` /
 * `agentFs` with `trust` → tools (`createAllTools` filtered to `tools`) → `buildSessionSections` → session
 * projection of `leafId` (`buildSessionPath` + `projectPath`; layer 1 `entries` maps each path entry to its
 * messages) → `buildSystemPatch` against it with `declareToolsForPrompt` → `expandSkillCommand` (user skills read
 * from `agentFs`) → `expandPromptTemplate` → user message (layer 2 `agentMessages`) → the extensions' `context`
 * hooks (`ExtensionRunner.emitContext`, a run's `transformContext`; layer 3) → `convertToLlm`, then `blockImages`
 * when `images.blockImages` is on (layer 4) → request (system prompt =
 * `getSystemMessageText(getCurrentSystemMessage(llm))`, messages without system messages, tools = current
 * `toolsAdded`) → `transformMessages` with the target's tool-call id normalizer and a change report (layer 5) →
 * `capturePayload` (`streamAssistant` through `prepareRequest` and the provider SDK; layer 6). Not run:
 * `input` and `before_agent_start` handlers (a forced system prompt of a run does not show here).
 *
 * The result is passed through {@link redactSecrets}: `payload.url` loses its user info and its query string
 * (`?[redacted]`), every string containing a secret of `env` (provider API keys, any `*_KEY`, `*_TOKEN`,
 * `*_SECRET` value, the query and user info of a `*_BASE_URL`) has it replaced by `[redacted]`, and so has every
 * key-shaped string (`maskKeyLikeStrings`; the capture uses placeholder keys, so no configured key should appear).
 * @throws ContextPreviewError `Unknown leaf entry id: <id>`, `Unknown tool: <name> (known: …)`,
 *   `Working directory <cwd> is not a directory of the workspace`.
 */
export async function buildContextPreview(input: ContextPreviewInput): Promise<ContextPreview> {
  const { fs, model } = input;
  const cwd = normalizePosix(input.cwd);
  const now = input.now ?? Date.now();
  const env = input.env ?? {};
  const diagnostics: PreviewDiagnostic[] = [];

  const cwdStat = await fs.stat(cwd).catch(() => undefined);
  if (cwdStat?.kind !== "dir")
    throw new ContextPreviewError(`Working directory ${cwd} is not a directory of the workspace`);
  const entries = input.entries ?? [];
  if (typeof input.leafId === "string" && !entries.some((e) => e.id === input.leafId))
    throw new ContextPreviewError(`Unknown leaf entry id: ${input.leafId}`);
  const given = input.tools ? [...new Set(input.tools)] : undefined;
  for (const name of given ?? [])
    if (!(PREVIEW_TOOL_NAMES as readonly string[]).includes(name))
      throw new ContextPreviewError(`Unknown tool: ${name} (known: ${PREVIEW_TOOL_NAMES.join(", ")})`);

  // Resources in effect, as loadSessionResources loads them for a run (root "/", the agent dir at AGENT_DIR).
  const agentFs = input.agentFs;
  const resources = await loadResources({
    fs,
    cwd,
    root: "/",
    ...(agentFs
      ? { agentFs, agentDir: input.agentDir ?? AGENT_DIR, agentHomeDir: input.agentHomeDir ?? AGENT_HOME }
      : {}),
    ...(input.team ? { teamFs: input.team.fs, teamRulesDir: input.team.dir } : {}),
    ...(input.trust !== undefined ? { projectTrusted: input.trust } : {}),
  });
  for (const d of resources.diagnostics)
    diagnostics.push({
      source: "resources",
      type: d.type,
      message: d.message,
      ...(d.path ? { path: d.path } : {}),
    });

  const all = createAllTools({
    fs,
    cwd,
    projectRoot: input.projectRoot ?? cwd,
    ...(input.exec ? { exec: input.exec } : {}),
  });
  const path = buildSessionPath(entries, input.leafId);
  const projection = projectPath(path);
  const history = projection.messages;
  // A run's active tools: the set the branch's transcript declares (the IDE's toggles), else pi's defaults.
  let names = given;
  if (!names) {
    const active = new ActiveTools(Object.values(all));
    active.restoreFromTranscript(history);
    names = active.tools.map((t) => t.name);
  }
  const tools: AgentTool[] = names.map((name) => all[name as ToolName]);
  const sections = buildSessionSections({ cwd, resources, tools });
  const thinkingLevel = input.thinkingLevel ?? projection.thinkingLevel;
  if (
    projection.model &&
    (projection.model.provider !== model.provider || projection.model.modelId !== model.id)
  )
    diagnostics.push({
      source: "session",
      type: "info",
      message: `Model switch: the session's model is ${projection.model.provider}/${projection.model.modelId}; a run on ${modelRef(model)} appends a model_change entry`,
    });

  if (/^\/compact(?:\s|$)/.test(input.text.trim()))
    diagnostics.push({
      source: "input",
      type: "info",
      message: "/compact is a command: a live run compacts the session instead of sending this prompt",
    });
  const skillExpansion = await expandSkillCommand(input.text, resources.skills, (skill) =>
    skill.source === "user" && agentFs ? agentFs : skill.source === "team" && input.team ? input.team.fs : fs,
  );
  if (skillExpansion.error)
    diagnostics.push({
      source: "input",
      type: "error",
      message: `Extension "${skillExpansion.error.extensionPath}" ${skillExpansion.error.event} error: ${skillExpansion.error.error}`,
    });
  const expandedText = expandPromptTemplate(skillExpansion.text, resources.promptTemplates);

  const systemPatch = buildSystemPatch(history, sections, declareToolsForPrompt(tools), now) ?? null;
  const user: UserMessage = { role: "user", content: [{ type: "text", text: expandedText }], timestamp: now };
  const agentMessages: AgentMessage[] = [...history, ...(systemPatch ? [systemPatch] : []), user];

  // A run's transformContext (the extensions' context hooks), then its convertToLlm with blockImages.
  const hooked = await runContextHooks(agentMessages, input.extensions ?? [], {
    cwd,
    ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
    onError: (e) =>
      diagnostics.push({
        source: "extensions",
        type: "error",
        message: `Extension "${e.extensionPath}" ${e.event} error: ${e.error}`,
        path: e.extensionPath,
      }),
  });
  let blocked = input.blockImages;
  if (blocked === undefined) {
    const setting = await readBlockImagesSetting({
      fs,
      cwd,
      ...(agentFs ? { agentFs } : {}),
      agentDir: input.agentDir ?? AGENT_DIR,
      projectTrusted: resources.projectTrusted,
    });
    blocked = setting.blockImages;
    for (const d of setting.errors)
      diagnostics.push({
        source: "resources",
        type: d.type,
        message: d.message,
        ...(d.path ? { path: d.path } : {}),
      });
  }
  const blockImages = blocked;
  const llmMessages = createConvertToLlm(() => blockImages)(hooked.messages);
  const request = buildRequestFromTranscript(llmMessages);
  const transformReport = createTransformReport();
  const transformedMessages = transformMessages(request.messages, model, toolCallIdNormalizerFor(model), {
    report: transformReport,
  });
  const capture = await capturePayload(model, request, { env, thinkingLevel });
  let payload: CapturedPayload | null = null;
  if ("error" in capture)
    diagnostics.push({ source: "payload", type: "error", message: `No payload: ${capture.error}` });
  else payload = capture;

  const preview: ContextPreview = {
    model: { ...model, ref: modelRef(model) },
    thinkingLevel,
    cwd,
    trusted: resources.projectTrusted,
    tools: names,
    systemPrompt: request.systemPrompt,
    sections,
    sectionSources: buildSectionSources(
      sections,
      resources.provenance,
      resources.projectTrusted,
      resources.projectTrusted ? [] : await withheldResources(fs, cwd, input.team),
    ),
    systemPatch,
    expandedText,
    provenance: resources.provenance,
    entries: buildPreviewEntries(path, projection),
    agentMessages,
    contextHookChanges: hooked.changes,
    blockImages,
    llmMessages,
    transformedMessages,
    transformReport,
    requestMessageIndexes: llmMessages.flatMap((m, i) => (m.role === "system" ? [] : [i])),
    toolDeclarations: request.tools,
    payload,
    tokenEstimate: estimateRequestTokens(
      request.systemPrompt,
      transformedMessages,
      request.tools,
      model.contextWindow,
    ),
    recentCost: buildRecentCost(path),
    diagnostics,
  };
  return redactSecrets(preview, env);
}
