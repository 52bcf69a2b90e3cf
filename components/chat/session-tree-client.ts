/**
 * Fetch helpers for the session tree endpoints (docs/http-api.md, "Session tree"): JSONL import and
 * export, the tree, moving the leaf, fork and compact. Browser-only, relative `/api/...` URLs.
 */
import { ApiError, errorFromResponse, type SessionSummary } from "@/components/api-client";

/** A parse problem of an imported file; `line` is 1-based. */
export interface JsonlDiagnostic {
  line: number;
  kind: "blank" | "invalid-json" | "torn-last-line" | "missing-final-newline" | "extra-header" | "schema";
  message: string;
}

export interface SessionImportResponse {
  session: SessionSummary;
  diagnostics: JsonlDiagnostic[];
}

/** One entry of `GET /api/sessions/:id/tree` (depth first, children oldest first). */
export interface SessionTreeNode {
  id: string;
  parentId: string | null;
  type: string;
  role?: string;
  preview: string;
  label?: string;
  timestamp: string;
  depth: number;
  childCount: number;
}

export interface SessionTreeResponse {
  leafId: string | null;
  nodes: SessionTreeNode[];
}

export interface BranchResponse {
  leafId: string | null;
  editorText?: string;
  summaryEntry?: { id: string; summary: string };
  aborted?: boolean;
}

export type CompactResponse =
  | { status: "compacted"; entry: { id: string; summary: string; tokensBefore: number } }
  | { status: "pending"; toolCallIds: string[] }
  | { status: "nothing" };

const enc = encodeURIComponent;

async function send<T>(url: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "network_error", err instanceof Error ? err.message : String(err));
  }
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as T;
}

const post = (body: unknown, signal?: AbortSignal): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
  signal,
});

/** The download URL of a session as a pi JSONL file. */
export function sessionExportUrl(sessionId: string): string {
  return `/api/sessions/${enc(sessionId)}/export`;
}

/** Upload a pi JSONL file as a new session of the project (multipart `file`). */
export function importSessionFile(projectId: string, file: File): Promise<SessionImportResponse> {
  const form = new FormData();
  form.append("file", file);
  return send(`/api/projects/${enc(projectId)}/sessions/import`, { method: "POST", body: form });
}

export function getSessionTree(sessionId: string, signal?: AbortSignal): Promise<SessionTreeResponse> {
  return send(`/api/sessions/${enc(sessionId)}/tree`, { signal });
}

export function branchSession(
  sessionId: string,
  input: { entryId: string; summarize?: boolean; customInstructions?: string },
): Promise<BranchResponse> {
  return send(`/api/sessions/${enc(sessionId)}/branch`, post(input));
}

export async function forkSession(sessionId: string, entryId: string): Promise<SessionSummary> {
  return (await send<{ session: SessionSummary }>(`/api/sessions/${enc(sessionId)}/fork`, post({ entryId })))
    .session;
}

export function compactSession(sessionId: string, focus?: string): Promise<CompactResponse> {
  return send(`/api/sessions/${enc(sessionId)}/compact`, post(focus ? { focus } : {}));
}
