/**
 * The phases of a context preview's run, in the order `buildContextPreview` (context-preview.ts) calls them: check the
 * input, load the resources in effect, build the session runtime over the given filesystems, run the real
 * `AgentSession.prompt` against a capturing stream (recording each layer the inspector shows), and read the captured
 * payload. Each phase adds what it found to the preview's diagnostics.
 */

import type { AgentMessage } from "@/lib/agent/messages";
import { AgentSession } from "@/lib/agent-session/agent-session";
import { createSessionRuntime, type SessionRuntimeCore } from "@/lib/agent-session/runtime";
import type { ExtensionError } from "@/lib/extensions/types";
import type { CapturedPayload } from "@/lib/llm/capture-payload";
import { type Env, modelRef } from "@/lib/llm/models";
import type { Message, ThinkingLevel } from "@/lib/llm/types";
import { AGENT_DIR, AGENT_HOME } from "@/lib/projects/agent-dir";
import { type LoadedResources, loadResources } from "@/lib/resources/resource-loader";
import type { SessionModelRef } from "@/lib/session/projection";
import { type CapturedRequest, createCaptureStream } from "./capture-stream";
import { ContextPreviewError } from "./context-preview-model";
import {
  type ContextPreviewInput,
  PREVIEW_TOOL_NAMES,
  type PreviewDiagnostic,
} from "./context-preview-types";

/**
 * Refuse what the preview cannot run: a `cwd` that is not a directory, a `leafId` not among `entries`, an unknown
 * tool. Returns the given tool names without repeats (undefined when none were given).
 * @throws ContextPreviewError with the message the CLI and the route show.
 */
export async function checkPreviewInput(
  input: ContextPreviewInput,
  cwd: string,
): Promise<string[] | undefined> {
  const cwdStat = await input.fs.stat(cwd).catch(() => undefined);
  if (cwdStat?.kind !== "dir")
    throw new ContextPreviewError(`Working directory ${cwd} is not a directory of the workspace`);
  const entries = input.entries ?? [];
  if (typeof input.leafId === "string" && !entries.some((e) => e.id === input.leafId))
    throw new ContextPreviewError(`Unknown leaf entry id: ${input.leafId}`);
  const given = input.tools ? [...new Set(input.tools)] : undefined;
  for (const name of given ?? [])
    if (!(PREVIEW_TOOL_NAMES as readonly string[]).includes(name))
      throw new ContextPreviewError(`Unknown tool: ${name} (known: ${PREVIEW_TOOL_NAMES.join(", ")})`);
  return given;
}

/** The resources in effect, as loadSessionResources loads them for a run (root "/", the agent dir at AGENT_DIR). */
export async function previewResources(
  input: ContextPreviewInput,
  cwd: string,
  diagnostics: PreviewDiagnostic[],
): Promise<LoadedResources> {
  const agentFs = input.agentFs;
  const resources = await loadResources({
    fs: input.fs,
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
  return resources;
}

/** A failure an extension handler (or a `/skill:` read) reported while the preview's prompt ran. */
function extensionDiagnostic(e: ExtensionError): PreviewDiagnostic {
  const message = `Extension "${e.extensionPath}" ${e.event} error: ${e.error}`;
  // A skill file that cannot be read is an input problem (pi reports it in the extension error shape).
  return e.event === "skill_expansion"
    ? { source: "input", type: "error", message }
    : { source: "extensions", type: "error", message, path: e.extensionPath };
}

/** The session runtime a live run would build over these filesystems (tools, skills, extensions). */
export function previewRuntime(
  input: ContextPreviewInput,
  cwd: string,
  resources: LoadedResources,
  diagnostics: PreviewDiagnostic[],
): Promise<SessionRuntimeCore> {
  const { fs, agentFs, team } = input;
  return createSessionRuntime({
    session: { id: input.sessionId ?? "", cwd },
    toolContext: {
      fs,
      cwd,
      projectRoot: input.projectRoot ?? cwd,
      ...(input.exec ? { exec: input.exec } : {}),
    },
    resources,
    skillFs: (skill) =>
      skill.source === "user" && agentFs ? agentFs : skill.source === "team" && team ? team.fs : fs,
    extensions: input.extensions ?? [],
    onExtensionError: (e) => diagnostics.push(extensionDiagnostic(e)),
  });
}

/** Notes on the session a live run would act on: a model switch it would record, a `/compact` it would run instead. */
export function sessionDiagnostics(
  input: ContextPreviewInput,
  sessionModel: SessionModelRef | null,
): PreviewDiagnostic[] {
  const { model } = input;
  const out: PreviewDiagnostic[] = [];
  if (sessionModel && (sessionModel.provider !== model.provider || sessionModel.modelId !== model.id))
    out.push({
      source: "session",
      type: "info",
      message: `Model switch: the session's model is ${sessionModel.provider}/${sessionModel.modelId}; a run on ${modelRef(model)} appends a model_change entry`,
    });
  if (/^\/compact(?:\s|$)/.test(input.text.trim()))
    out.push({
      source: "input",
      type: "info",
      message: "/compact is a command: a live run compacts the session instead of sending this prompt",
    });
  return out;
}

/** The layers the agent's taps recorded on the first turn: before/after the context hooks, the LLM messages, the prompt's messages. */
export interface PromptLayers {
  before?: AgentMessage[];
  after?: AgentMessage[];
  llm?: Message[];
  prompt?: AgentMessage[];
}

/**
 * Run `input.text` through the real `AgentSession` on `history` with a capturing stream: pi's input pipeline, the
 * system patch, the context hooks, `convertToLlm` and the request, stopped before the network. Returns the recorded
 * layers and the first request (undefined when the input pipeline handled the prompt before the model).
 */
export async function runCapturedPrompt(
  input: ContextPreviewInput,
  run: {
    runtime: SessionRuntimeCore;
    thinkingLevel: ThinkingLevel;
    history: AgentMessage[];
    blockImages: boolean;
    env: Env;
  },
): Promise<{ layers: PromptLayers; captured: CapturedRequest | undefined }> {
  const layers: PromptLayers = {};
  const capture = createCaptureStream(input.model, run.env);
  const now = input.now ?? Date.now();
  const session = new AgentSession({
    runtime: run.runtime,
    model: input.model,
    thinkingLevel: run.thinkingLevel,
    messages: run.history,
    stream: capture.stream,
    blockImages: () => run.blockImages,
    tap: {
      context: (before, after) => {
        layers.before ??= before.slice();
        layers.after ??= after.slice();
      },
      llm: (messages) => {
        layers.llm ??= messages.slice();
      },
      prompt: (messages) => {
        layers.prompt ??= messages.slice();
      },
    },
    now: () => now,
  });
  await session.prompt(input.text);
  return { layers, captured: capture.captured() };
}

/** The captured provider payload, or null with a diagnostic saying why there is none. */
export function capturedPayload(
  captured: CapturedRequest | undefined,
  diagnostics: PreviewDiagnostic[],
): CapturedPayload | null {
  if (!captured) {
    diagnostics.push({
      source: "input",
      type: "info",
      message: "No request: the prompt was handled before the model",
    });
    return null;
  }
  if ("error" in captured.capture) {
    diagnostics.push({ source: "payload", type: "error", message: `No payload: ${captured.capture.error}` });
    return null;
  }
  return captured.capture;
}
