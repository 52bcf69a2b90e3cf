/**
 * Typed fetch helpers for the Strata HTTP API (docs/http-api.md). Browser-only: every helper
 * calls relative `/api/...` URLs on the app origin.
 */
import { projectFilesUrl } from "@/components/http/worktree";
import type { AgentMessage } from "@/lib/agent/messages";
import type { ImageContent } from "@/lib/llm/types";
import type { SlashCommand } from "@/lib/projects/slash-commands";
import { ApiError, apiFetch, apiJson, errorFromResponse, jsonInit } from "./http/api-fetch";

export { ApiError, errorFromResponse } from "./http/api-fetch";

export interface ModelInfo {
  id: string;
  provider: string;
  modelId: string;
  name: string;
  api: string;
  input: ("text" | "image")[];
  reasoning: boolean;
  contextWindow: number;
}

export interface ConfigResponse {
  models: ModelInfo[];
  defaultModel: string | null;
  configured: boolean;
  help: string;
}

export interface Project {
  id: string;
  name: string;
  rootPath: string;
  createdAt: string;
}

export interface ImportReport {
  files: number;
  bytes: number;
  skipped: { path: string; reason: string }[];
}

export interface ImportResponse {
  project: Project;
  report: ImportReport;
}

export type TreeEntryKind = "file" | "dir" | "symlink";

export interface TreeEntry {
  path: string;
  kind: TreeEntryKind;
  size: number;
}

export interface FileResponse {
  path: string;
  content: string | null;
  binary: boolean;
  size: number;
  tooLarge: boolean;
}

export interface SessionSummary {
  id: string;
  projectId: string;
  title: string | null;
  model: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SessionResponse {
  session: SessionSummary;
  messages: AgentMessage[];
  /** Who wrote each user message: its `timestamp` (as a string) → the author's name. */
  authors?: Record<string, string>;
  /**
   * The session's live run (possibly another tab's), or null. While it is live, `messages` are the path to its
   * start (`startLeafId`): attach to `…/runs/:id/events?after=0` to see it from its first event.
   */
  run?: {
    id?: string;
    kind: "prompt" | "compaction" | "branch_summary" | "bash";
    mode?: "prompt" | "retry" | "bash";
    startLeafId?: string | null;
    lastSeq?: number;
  } | null;
  /** Texts queued for that run. */
  queue?: { steering: string[]; followUp: string[] };
}

const enc = encodeURIComponent;

/**
 * The models configured; with `projectId` (or `workspaceId`), those of its workspace (its secrets win over the
 * server's keys).
 */
export function getConfig(
  signal?: AbortSignal,
  projectId?: string,
  workspaceId?: string,
): Promise<ConfigResponse> {
  const query = projectId
    ? `?project=${encodeURIComponent(projectId)}`
    : workspaceId
      ? `?workspace=${encodeURIComponent(workspaceId)}`
      : "";
  return apiJson(`/api/config${query}`, { signal });
}

/** The projects of `workspaceId` (unset: the caller's personal workspace). */
export async function listProjects(signal?: AbortSignal, workspaceId?: string): Promise<Project[]> {
  const query = workspaceId ? `?workspaceId=${enc(workspaceId)}` : "";
  return (await apiJson<{ projects: Project[] }>(`/api/projects${query}`, { signal })).projects;
}

export async function getProject(id: string, signal?: AbortSignal): Promise<Project> {
  return (await apiJson<{ project: Project }>(`/api/projects/${enc(id)}`, { signal })).project;
}

export function importGit(
  input: { gitUrl: string; name?: string; ref?: string; workspaceId?: string },
  signal?: AbortSignal,
): Promise<ImportResponse> {
  return apiJson("/api/projects", jsonInit("POST", input, signal));
}

export interface UploadProgress {
  loaded: number;
  total: number | null;
}

/**
 * Uploads an archive as multipart `file` + `name`. Uses XMLHttpRequest rather than fetch so the
 * caller can show upload progress.
 */
export function importArchive(
  input: { file: File; name?: string; workspaceId?: string },
  onProgress?: (p: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<ImportResponse> {
  const form = new FormData();
  form.append("file", input.file);
  if (input.name) form.append("name", input.name);
  if (input.workspaceId) form.append("workspaceId", input.workspaceId);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/projects");
    xhr.responseType = "text";
    xhr.upload.onprogress = (e) =>
      onProgress?.({ loaded: e.loaded, total: e.lengthComputable ? e.total : null });
    xhr.onerror = () => reject(new ApiError(0, "network_error", "Network error while uploading the archive"));
    xhr.onabort = () => reject(new DOMException("Upload aborted", "AbortError"));
    xhr.onload = () => {
      const res = new Response(xhr.responseText, { status: xhr.status, statusText: xhr.statusText });
      if (xhr.status >= 200 && xhr.status < 300) {
        res.json().then((body) => resolve(body as ImportResponse), reject);
      } else {
        errorFromResponse(res).then(reject, reject);
      }
    };
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

export async function getTree(projectId: string, signal?: AbortSignal): Promise<TreeEntry[]> {
  return (await apiJson<{ entries: TreeEntry[] }>(projectFilesUrl(projectId, "/tree"), { signal })).entries;
}

export function readFile(projectId: string, path: string, signal?: AbortSignal): Promise<FileResponse> {
  return apiJson(projectFilesUrl(projectId, `/file?path=${enc(path)}`), { signal });
}

export function writeFile(
  projectId: string,
  path: string,
  content: string,
): Promise<{ path: string; size: number }> {
  return apiJson(projectFilesUrl(projectId, "/file"), jsonInit("PUT", { path, content }));
}

/** What a DELETE of a file or folder removed (`deleted` counts the folder and everything below it). */
export interface DeleteResponse {
  path: string;
  kind: "file" | "dir" | "symlink";
  deleted: number;
}

/** Delete a project file or folder (with everything below it). @throws ApiError (404 missing, 400 `.git`). */
export function deleteFile(projectId: string, path: string): Promise<DeleteResponse> {
  return apiJson(projectFilesUrl(projectId, `/file?path=${enc(path)}`), { method: "DELETE" });
}

export async function listSessions(projectId: string, signal?: AbortSignal): Promise<SessionSummary[]> {
  return (
    await apiJson<{ sessions: SessionSummary[] }>(`/api/projects/${enc(projectId)}/sessions`, { signal })
  ).sessions;
}

export async function createSession(projectId: string, model?: string): Promise<SessionSummary> {
  const body = model ? { model } : {};
  return (
    await apiJson<{ session: SessionSummary }>(
      `/api/projects/${enc(projectId)}/sessions`,
      jsonInit("POST", body),
    )
  ).session;
}

export function getSession(sessionId: string, signal?: AbortSignal): Promise<SessionResponse> {
  return apiJson(`/api/sessions/${enc(sessionId)}`, { signal });
}

export type StreamingBehavior = "steer" | "followUp";

/** `202` answer of a prompt sent while a run is live: the message waits in the run's queue. */
export interface QueuedPrompt {
  queued: { id: string; kind: StreamingBehavior; text: string };
}

/** POST `body` to `path` asking for an event stream; failures as {@link apiFetch} throws them. */
function postEventStream(path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  return apiFetch(path, {
    ...jsonInit("POST", body, signal),
    headers: { "content-type": "application/json", accept: "text/event-stream" },
  });
}

/**
 * Sends a prompt. Resolves with the raw response, already checked for a 2xx status: a `text/event-stream`
 * (read it with `readSseStream` from `components/chat/sse.ts`) when a run (or a `!command`) starts, or a
 * `202` with a {@link QueuedPrompt} body when `streamingBehavior` queued it for the live run.
 */
export async function postPrompt(
  sessionId: string,
  input: { text: string; model?: string; streamingBehavior?: StreamingBehavior; images?: ImageContent[] },
  signal?: AbortSignal,
): Promise<Response> {
  return postEventStream(`/api/sessions/${enc(sessionId)}/prompt`, input, signal);
}

/** Starts the re-run of a session's failed last turn; resolves with its event stream (like {@link postPrompt}). */
export async function postRetry(
  sessionId: string,
  input: { model?: string },
  signal?: AbortSignal,
): Promise<Response> {
  return postEventStream(`/api/sessions/${enc(sessionId)}/retry`, input, signal);
}

/**
 * What a prompt response is: an event stream (a run or a `!command`), a queued message (`202`), or another
 * JSON answer (the server handled the text without a stream).
 */
export function promptAnswerKind(res: Response): "stream" | "queued" | "handled" {
  if (res.status === 202) return "queued";
  const type = res.headers.get("content-type") ?? "";
  return type.includes("text/event-stream") || !type.includes("json") ? "stream" : "handled";
}

/** `POST /abort`: `undelivered` are the texts of queued messages the run never got (queue order). */
export async function abortSession(sessionId: string): Promise<{ aborted: boolean; undelivered: string[] }> {
  const body = await apiJson<{ aborted?: unknown; undelivered?: unknown }>(
    `/api/sessions/${enc(sessionId)}/abort`,
    { method: "POST" },
  );
  const undelivered = Array.isArray(body.undelivered)
    ? body.undelivered.filter((t): t is string => typeof t === "string")
    : [];
  return { aborted: body.aborted === true, undelivered };
}

/** A readable message for anything thrown by the helpers above. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) return err.code && err.status ? `${err.message} (${err.code})` : err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

export type ResourceKind = "context" | "system" | "append" | "skill" | "template";

/** One resource in effect for a session (docs/http-api.md, `GET /api/sessions/:id/resources`). */
export interface ResourceProvenance {
  kind: ResourceKind;
  path: string;
  filesystem: "project" | "agent" | "team";
  /** Whose rules: the team's rules root, the project's files, or the user's own agent dir. */
  scope: "team" | "project" | "personal";
  name?: string;
  trustGated: boolean;
  /** Who last changed the file ("—" when unknown). */
  lastChangedBy: string;
  /** When, ISO 8601 (null when unknown). */
  lastChangedAt: string | null;
}

/** A team rules proposal the session previews (not merged). */
export interface RulesPreview {
  proposalId: string;
  title: string;
}

export interface ResourceDiagnostic {
  type: "warning" | "error" | "collision" | "info";
  message: string;
  path?: string;
  collision?: { resourceType?: string; name?: string; winnerPath?: string; loserPath?: string };
  /** Rule-loading kinds (lib/resources/fs-util.ts `ResourceDiagnosticCode`) and their fields. */
  code?: "symlink_escape" | "symlink_broken" | "duplicate" | "truncated";
  target?: string;
  link?: string;
  canonical?: string;
  duplicateOf?: string;
  sizeBytes?: number;
  loadedBytes?: number;
  marker?: string;
}

export type TrustChoice = "trust" | "trust_parent" | "session_only" | "do_not_trust" | "do_not_trust_session";

export interface TrustStatus {
  trusted: boolean;
  needsDecision: boolean;
  prompt: string;
  options: { choice: TrustChoice; label: string }[];
  cwd: string;
  sessionOverride: boolean | null;
  withheld: string[];
}

export interface SessionResourcesResponse {
  provenance: ResourceProvenance[];
  /** The proposal whose team rules this session previews, or null. */
  preview: RulesPreview | null;
  diagnostics: ResourceDiagnostic[];
  trust: TrustStatus;
  /** The `/` commands for the composer's autocomplete, in pi's order. */
  commands: SlashCommand[];
}

export function getSessionResources(
  sessionId: string,
  signal?: AbortSignal,
): Promise<SessionResourcesResponse> {
  return apiJson(`/api/sessions/${enc(sessionId)}/resources`, { signal });
}

/** Preview a team rules proposal in the session, or stop (`null`). */
export function putRulesPreview(
  sessionId: string,
  proposalId: string | null,
): Promise<{ preview: RulesPreview | null }> {
  return apiJson(`/api/sessions/${enc(sessionId)}/rules-preview`, jsonInit("PUT", { proposalId }));
}

export function postTrust(
  projectId: string,
  input: { choice: TrustChoice; sessionId?: string },
): Promise<{ trusted: boolean; cwd: string; updates: { path: string; decision: boolean | null }[] }> {
  return apiJson(`/api/projects/${enc(projectId)}/trust`, jsonInit("POST", input));
}

/** The user's agent dir (`/.pi/agent`): tree and files, paths relative to it. */
export async function getAgentTree(signal?: AbortSignal): Promise<{ root: string; entries: TreeEntry[] }> {
  return apiJson("/api/agent/tree", { signal });
}

export function readAgentFile(path: string, signal?: AbortSignal): Promise<FileResponse> {
  return apiJson(`/api/agent/file?path=${enc(path)}`, { signal });
}

export function writeAgentFile(path: string, content: string): Promise<{ path: string; size: number }> {
  return apiJson("/api/agent/file", jsonInit("PUT", { path, content }));
}

/** Delete a file or folder of the agent dir (with everything below it). @throws ApiError (404 missing). */
export function deleteAgentFile(path: string): Promise<DeleteResponse> {
  return apiJson(`/api/agent/file?path=${enc(path)}`, { method: "DELETE" });
}
