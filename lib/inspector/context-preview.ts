/**
 * The context preview: one prompt run stopped before the network. It builds a session runtime from the given
 * filesystems (`createSessionRuntime`: resources with trust, the coding tools, the extensions) and runs the real
 * `AgentSession` — pi's input pipeline, the system patch, the agent's request path — with a stream that captures the
 * first request and its provider payload (`createCaptureStream`: `capturePayload` with placeholder keys and a canned
 * answer) instead of calling the provider. So the preview and a live run (`runPrompt`, session-run.ts) assemble the
 * request with the same code; what this module adds is the inspector's view of each layer. Used by
 * `npx strata preview` (lib/cli/preview.ts), `POST /api/sessions/:id/preview` and the share preview
 * (through session-preview.ts), and the IDE's context inspector.
 */

import type { AgentMessage } from "@/lib/agent/messages";
import { buildSessionSections } from "@/lib/agent-session/system-state";
import { modelRef } from "@/lib/llm/models";
import { redactSecrets } from "@/lib/llm/redact";
import { toolCallIdNormalizerFor } from "@/lib/llm/tool-call-ids";
import { transformMessages } from "@/lib/llm/transform-messages";
import { createTransformReport } from "@/lib/llm/transform-report";
import type { SystemMessage, UserMessage } from "@/lib/llm/types";
import { AGENT_DIR } from "@/lib/projects/agent-dir";
import {
  listTeamTrustRequiringResources,
  listTrustRequiringProjectResources,
} from "@/lib/resources/project-trust";
import { buildSessionPath, projectPath } from "@/lib/session/projection";
import { normalizePosix } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";
import { buildPreviewEntries, buildRecentCost } from "./context-preview-entries";
import {
  buildSectionSources,
  type ContextHookChanges,
  diffContextMessages,
  estimateRequestTokens,
  NO_CONTEXT_HOOK_CHANGES,
  readBlockImagesSetting,
} from "./context-preview-layers";
import {
  capturedPayload,
  checkPreviewInput,
  previewResources,
  previewRuntime,
  runCapturedPrompt,
  sessionDiagnostics,
} from "./context-preview-run";
import type { ContextPreview, ContextPreviewInput, PreviewDiagnostic } from "./context-preview-types";

export { envSecrets, maskKeyLikeStrings, redactSecrets, redactUrl } from "@/lib/llm/redact";
export type { PreviewEntry, RecentCost, TurnCost } from "./context-preview-entries";
export type {
  ContextHookChange,
  ContextHookChanges,
  SectionSource,
  TokenEstimate,
} from "./context-preview-layers";
export { ContextPreviewError, resolvePreviewModel } from "./context-preview-model";
export type { ContextPreview, ContextPreviewInput, PreviewDiagnostic } from "./context-preview-types";
export { PREVIEW_TOOL_NAMES } from "./context-preview-types";

/** The trust-requiring files an untrusted project withholds: the project's (pi's `resource-loader.ts`), then the team rules root's. */
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

/** `images.blockImages` as given, else read from the settings in effect as a run reads them (with their errors). */
async function previewBlockImages(
  input: ContextPreviewInput,
  projectTrusted: boolean,
): Promise<{ blockImages: boolean; diagnostics: PreviewDiagnostic[] }> {
  if (input.blockImages !== undefined) return { blockImages: input.blockImages, diagnostics: [] };
  const setting = await readBlockImagesSetting({
    fs: input.fs,
    cwd: normalizePosix(input.cwd),
    ...(input.agentFs ? { agentFs: input.agentFs } : {}),
    agentDir: input.agentDir ?? AGENT_DIR,
    projectTrusted,
  });
  return {
    blockImages: setting.blockImages,
    diagnostics: setting.errors.map((d) => ({
      source: "resources" as const,
      type: d.type,
      message: d.message,
      ...(d.path ? { path: d.path } : {}),
    })),
  };
}

/** What the `context` hooks (paths `hooks`) changed from `before` to `after` (none without hooks). */
function contextChanges(hooks: string[], before: AgentMessage[], after: AgentMessage[]): ContextHookChanges {
  if (hooks.length === 0) return NO_CONTEXT_HOOK_CHANGES;
  const diff = diffContextMessages(before, after);
  return { ...diff, hooks, ...(diff.details.length > 0 ? { messages: after } : {}) };
}

/** The text of a user message: its string content, else its text parts joined. */
function userText(message: UserMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
}

/**
 * Build the context of one prompt exactly as `runPrompt` would send it, without sending it: nothing is written
 * (no session entries, no VFS flush) and no network is used.
 *
 * Steps: `loadResources` on `fs` / `agentFs` with `trust` → a session runtime (`createSessionRuntime`) with the
 * active tools (`tools`, else the set the transcript declares, else pi's defaults) → the session projection of
 * `leafId` (`buildSessionPath` + `projectPath`; layer 1 `entries` maps each path entry to its messages) → the real
 * `AgentSession.prompt(text)`: pi's input pipeline (extension command → `input` hook → `/skill:` (user skills read
 * from `agentFs`) → `/template` → `before_agent_start` → `buildSystemPatch` + user message; layer 2
 * `agentMessages`) → the agent's `transformContext` (the extensions' `context` hooks and a forced system prompt;
 * layer 3) → `convertToLlm` with `blockImages` (layer 4) → the request (system prompt = the current system message's
 * text, messages without system messages, tools = current `toolsAdded`) → the capturing stream: `capturePayload`
 * (`streamAssistant` through `prepareRequest` and the provider SDK; layer 6). `transformMessages` with the target's
 * tool-call id normalizer and a change report (layer 5) is computed on the captured request, as `prepareRequest`
 * runs it. The agent gets an empty `stop` answer: no tool runs, nothing is written, no network is used.
 *
 * The result is passed through {@link redactSecrets}: `payload.url` loses its user info and its query string
 * (`?[redacted]`), every string containing a secret of `env` (provider API keys, any `*_KEY`, `*_TOKEN`,
 * `*_SECRET` value, the query and user info of a `*_BASE_URL`) has it replaced by `[redacted]`, and so has every
 * key-shaped string (`maskKeyLikeStrings`; the capture uses placeholder keys, so no configured key should appear).
 * @throws ContextPreviewError `Unknown leaf entry id: <id>`, `Unknown tool: <name> (known: …)`,
 *   `Working directory <cwd> is not a directory of the workspace`.
 */
export async function buildContextPreview(input: ContextPreviewInput): Promise<ContextPreview> {
  const { model } = input;
  const cwd = normalizePosix(input.cwd);
  const env = input.env ?? {};
  const diagnostics: PreviewDiagnostic[] = [];
  const given = await checkPreviewInput(input, cwd);
  const resources = await previewResources(input, cwd, diagnostics);
  const runtime = await previewRuntime(input, cwd, resources, diagnostics);
  const path = buildSessionPath(input.entries ?? [], input.leafId);
  const projection = projectPath(path);
  const history = projection.messages;
  // A run's active tools: the set the branch's transcript declares (the IDE's toggles), else pi's defaults.
  if (given) runtime.setActiveToolsByName(given);
  else runtime.restoreActiveTools(history);
  const thinkingLevel = input.thinkingLevel ?? projection.thinkingLevel;
  diagnostics.push(...sessionDiagnostics(input, projection.model));
  const settings = await previewBlockImages(input, resources.projectTrusted);
  const run = await runCapturedPrompt(input, {
    runtime,
    thinkingLevel,
    history,
    blockImages: settings.blockImages,
    env,
  });
  diagnostics.push(...settings.diagnostics);

  const { captured, layers } = run;
  const agentMessages = layers.before ?? [...history, ...(layers.prompt ?? [])];
  const hooks = runtime.extensions.handlerPaths("context", "context_with_system");
  const llmMessages = layers.llm ?? [];
  const request = captured?.request ?? { systemPrompt: "", messages: [], tools: [] };
  const user = layers.prompt?.find((m): m is UserMessage => m.role === "user");
  const transformReport = createTransformReport();
  const transformedMessages = transformMessages(request.messages, model, toolCallIdNormalizerFor(model), {
    report: transformReport,
  });
  const sections = buildSessionSections({ cwd, resources, tools: runtime.tools });

  const preview: ContextPreview = {
    model: { ...model, ref: modelRef(model) },
    thinkingLevel,
    cwd,
    trusted: resources.projectTrusted,
    tools: runtime.getActiveToolNames(),
    systemPrompt: request.systemPrompt,
    sections,
    sectionSources: buildSectionSources(
      sections,
      resources.provenance,
      resources.projectTrusted,
      resources.projectTrusted ? [] : await withheldResources(input.fs, cwd, input.team),
    ),
    systemPatch: (layers.prompt?.find((m) => m.role === "system") as SystemMessage | undefined) ?? null,
    expandedText: user ? userText(user) : input.text,
    provenance: resources.provenance,
    entries: buildPreviewEntries(path, projection),
    agentMessages,
    contextHookChanges: contextChanges(hooks, agentMessages, layers.after ?? agentMessages),
    blockImages: settings.blockImages,
    llmMessages,
    transformedMessages,
    transformReport,
    requestMessageIndexes: llmMessages.flatMap((m, i) => (m.role === "system" ? [] : [i])),
    toolDeclarations: request.tools,
    payload: capturedPayload(captured, diagnostics),
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
