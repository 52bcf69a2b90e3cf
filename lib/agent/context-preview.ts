/**
 * The context preview: the pipeline of one live prompt run (`runPrompt` in session-run.ts), stopping before the
 * network. Resources with trust (`loadResources`), the active tools, sections and the system patch
 * (system-state.ts), the session projection of a leaf, `/skill:` then `/template` expansion, the user message,
 * `convertToLlm`, the request (`buildRequest` of a run), `transformMessages` for the target model, and the
 * provider payload exactly as the AI SDK would send it, captured by `capturePayload` with placeholder keys and a
 * canned answer. Used by `npx strata preview` (lib/cli/preview.ts) and the IDE's context inspector.
 */
import { convertToLlm } from "@/lib/context/convert-to-llm";
import { type CapturedPayload, captureEnv, capturePayload } from "@/lib/llm/capture-payload";
import {
  defaultModel,
  type Env,
  getAvailableModels,
  type Model,
  modelRef,
  PROVIDER_ENV,
  PROVIDERS,
  resolveModel,
} from "@/lib/llm/models";
import { toolCallIdNormalizerFor } from "@/lib/llm/tool-call-ids";
import { transformMessages } from "@/lib/llm/transform-messages";
import type { Message, SystemMessage, ThinkingLevel, UserMessage } from "@/lib/llm/types";
import { AGENT_DIR, AGENT_HOME } from "@/lib/projects/agent-dir";
import { DEFAULT_SELECTED_TOOLS, type SystemPromptSections } from "@/lib/prompt/sections";
import { expandPromptTemplate } from "@/lib/resources/prompt-templates";
import { loadResources, type ResourceProvenance } from "@/lib/resources/resource-loader";
import { expandSkillCommand } from "@/lib/resources/skills";
import type { SessionEntry } from "@/lib/session/entries";
import { buildSessionProjection } from "@/lib/session/projection";
import { createAllTools, type ToolName } from "@/lib/tools";
import type { AgentTool } from "@/lib/tools/types";
import { normalizePosix } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";
import type { AgentMessage } from "./messages";
import {
  buildRequestFromTranscript,
  buildSessionSections,
  buildSystemPatch,
  declareToolsForPrompt,
} from "./system-state";

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
  /** The session's entries (pi `SessionEntry[]`, already parsed); none = a new session. */
  entries?: readonly SessionEntry[];
  /** Leaf entry id; default the last entry (pi `buildSessionPath`); `null` = before the first entry. */
  leafId?: string | null;
  /** The target model. */
  model: Model;
  /** Project trust; undefined = resolved as the loader does without a stored decision (untrusted when anything needs trust). */
  trust?: boolean;
  /** Active tool names (see {@link PREVIEW_TOOL_NAMES}), in the order given; default pi's `read, bash, edit, write`. */
  tools?: readonly string[];
  /** The prompt text as typed (`/skill:` and `/template` commands are expanded). */
  text: string;
  /** Default: the session's thinking level (its last `thinking_level_change`, else `off`), as a live run uses. */
  thinkingLevel?: ThinkingLevel;
  /** Server environment: base URLs and `STRATA_MODELS` for the request; its API keys are never used nor printed. */
  env?: Env;
  /** Timestamp of the new system patch and user message, epoch ms. Default `Date.now()`. */
  now?: number;
}

/** A problem or note found while building the preview. */
export interface PreviewDiagnostic {
  /** `resources`: the loader's diagnostics; `input`: skill expansion, commands; `session`: model switch; `payload`: capture. */
  source: "resources" | "input" | "session" | "payload";
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
  /** The system message the prompt starts with, or null when the transcript's system state is already current. */
  systemPatch: SystemMessage | null;
  /** The input after `/skill:` and `/template` expansion (the user message's text). */
  expandedText: string;
  /** Resources in effect, with where they come from. */
  provenance: ResourceProvenance[];
  /** The session projection of the leaf, then the system patch (if any) and the user message. */
  agentMessages: AgentMessage[];
  /** `convertToLlm(agentMessages)`. */
  llmMessages: Message[];
  /** The request's messages (system messages removed) after `transformMessages` for the target model. */
  transformedMessages: Message[];
  /** The request as the provider would receive it (URL without user info, query string as `?[redacted]`; JSON body), or null when none was built. */
  payload: CapturedPayload | null;
  diagnostics: PreviewDiagnostic[];
}

/** A preview input the caller has to fix (unknown leaf or tool, cwd not a directory). */
export class ContextPreviewError extends Error {
  override name = "ContextPreviewError";
}

/**
 * The model `ref` names (with every provider configured by placeholder keys: no real key is needed), the
 * session's model when `ref` is absent and it resolves (a live run's rule), else the default model.
 * @throws ContextPreviewError `Unknown model: <ref>. Available: <refs>`.
 */
export function resolvePreviewModel(
  ref: string | undefined,
  sessionModel: { provider: string; modelId: string } | null,
  env: Env,
): Model {
  const configured = captureEnv(env);
  if (ref !== undefined) {
    const model = resolveModel(ref, configured);
    if (!model)
      throw new ContextPreviewError(
        `Unknown model: ${ref}. Available: ${getAvailableModels(configured).map(modelRef).join(", ")}`,
      );
    return model;
  }
  const fromSession = sessionModel
    ? resolveModel(`${sessionModel.provider}/${sessionModel.modelId}`, configured)
    : undefined;
  const model = fromSession ?? defaultModel(configured);
  if (!model) throw new ContextPreviewError("No model available");
  return model;
}

/**
 * Build the context of one prompt exactly as `runPrompt` would send it, without sending it: nothing is written
 * (no session entries, no VFS flush) and no network is used.
 *
 * Steps (pi's prompt order, 6.1, and a run's request path, 9.x, 12.x, 13.x): `loadResources` on `fs` / `agentFs`
 * with `trust` → tools (`createAllTools` filtered to `tools`) → `buildSessionSections` → session projection of
 * `leafId` (`buildSessionProjection`) → `buildSystemPatch` against it with `declareToolsForPrompt` →
 * `expandSkillCommand` (user skills read from `agentFs`) → `expandPromptTemplate` → user message →
 * `convertToLlm` → request (system prompt = `getSystemMessageText(getCurrentSystemMessage(llm))`, messages
 * without system messages, tools = current `toolsAdded`) → `transformMessages` with the target's tool-call id
 * normalizer → `capturePayload` (`streamAssistant` through `prepareRequest` and the provider SDK).
 *
 * The result is passed through {@link redactSecrets}: `payload.url` loses its user info and its query string
 * (`?[redacted]`), and every string containing a secret of `env` (provider API keys, any `*_KEY`, `*_TOKEN`,
 * `*_SECRET` value, the query and user info of a `*_BASE_URL`) has it replaced by `[redacted]` (the capture
 * uses placeholder keys, so no key should appear).
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
  const names = [...new Set(input.tools ?? DEFAULT_SELECTED_TOOLS)];
  for (const name of names)
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
    ...(input.trust !== undefined ? { projectTrusted: input.trust } : {}),
  });
  for (const d of resources.diagnostics)
    diagnostics.push({
      source: "resources",
      type: d.type,
      message: d.message,
      ...(d.path ? { path: d.path } : {}),
    });

  const all = createAllTools({ fs, cwd, projectRoot: input.projectRoot ?? cwd });
  const tools: AgentTool[] = names.map((name) => all[name as ToolName]);
  const sections = buildSessionSections({ cwd, resources, tools });

  const projection = buildSessionProjection(entries, input.leafId);
  const history = projection.messages;
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
    skill.source === "user" && agentFs ? agentFs : fs,
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

  const llmMessages = convertToLlm(agentMessages);
  const request = buildRequestFromTranscript(llmMessages);
  const transformedMessages = transformMessages(request.messages, model, toolCallIdNormalizerFor(model));
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
    systemPatch,
    expandedText,
    provenance: resources.provenance,
    agentMessages,
    llmMessages,
    transformedMessages,
    payload,
    diagnostics,
  };
  return redactSecrets(preview, env);
}

/** Environment variables whose values are secrets: names ending in `_KEY`, `_TOKEN` or `_SECRET`. */
const SECRET_ENV_NAME = /_(?:KEY|TOKEN|SECRET)$/i;
/** Environment variables holding a base URL: their query string and user info are secrets. */
const BASE_URL_ENV_NAME = /_BASE_URL$/i;
/** Shorter values are not redacted (they would rewrite ordinary words and numbers of the output). */
const MIN_SECRET_LENGTH = 4;

/** The query string (whole and per value) and the user info of a URL, raw and percent-decoded. */
function urlSecrets(url: string): string[] {
  const out: string[] = [];
  const add = (v: string) => {
    out.push(v);
    try {
      out.push(decodeURIComponent(v.replace(/\+/g, " ")));
    } catch {
      // not percent-encoded
    }
  };
  const hash = url.indexOf("#");
  const noHash = hash === -1 ? url : url.slice(0, hash);
  const q = noHash.indexOf("?");
  if (q !== -1) {
    const query = noHash.slice(q + 1);
    add(query);
    for (const pair of query.split("&")) {
      const eq = pair.indexOf("=");
      if (eq !== -1) add(pair.slice(eq + 1));
    }
  }
  if (hash !== -1) add(url.slice(hash + 1));
  const userInfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(url)?.[1];
  if (userInfo) {
    add(userInfo);
    for (const part of userInfo.split(":")) add(part);
  }
  return out;
}

/**
 * The secrets of `env` that must never be printed, longest first: every provider API key, the value of every
 * variable whose name ends in `_KEY`, `_TOKEN` or `_SECRET`, and the query string, fragment and user info of
 * every `*_BASE_URL` (raw and decoded); values shorter than 4 characters are left out.
 */
export function envSecrets(env: Env): string[] {
  const out = new Set<string>();
  for (const p of PROVIDERS) {
    const key = env[PROVIDER_ENV[p].apiKey];
    if (key) out.add(key.trim());
  }
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (SECRET_ENV_NAME.test(name)) {
      out.add(value);
      out.add(value.trim());
    } else if (BASE_URL_ENV_NAME.test(name)) for (const v of urlSecrets(value.trim())) out.add(v);
  }
  return [...out].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** A URL for printing: without user info, its query string replaced by `?[redacted]`, no fragment. */
export function redactUrl(url: string): string {
  const hash = url.indexOf("#");
  const noHash = hash === -1 ? url : url.slice(0, hash);
  const q = noHash.indexOf("?");
  const base = (q === -1 ? noHash : noHash.slice(0, q)).replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, "$1");
  return q === -1 ? base : `${base}?[redacted]`;
}

/**
 * `value` (a JSON value) with its `payload.url` passed through {@link redactUrl} and every occurrence of a secret
 * of `env` ({@link envSecrets}) in any string or object key replaced by `[redacted]`. Returns a new value.
 */
export function redactSecrets<T>(value: T, env: Env): T {
  let out: unknown = value;
  const payload = (value as { payload?: unknown } | null)?.payload;
  if (payload && typeof payload === "object" && typeof (payload as CapturedPayload).url === "string")
    out = { ...value, payload: { ...payload, url: redactUrl((payload as CapturedPayload).url) } };
  const secrets = envSecrets(env);
  if (secrets.length === 0) return out as T;
  const redact = (v: unknown): unknown => {
    if (typeof v === "string") return secrets.reduce((s, k) => s.split(k).join("[redacted]"), v);
    if (Array.isArray(v)) return v.map(redact);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [redact(k), redact(x)]));
    return v;
  };
  return redact(out) as T;
}
