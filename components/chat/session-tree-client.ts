/**
 * Fetch helpers for the session tree endpoints (docs/http-api.md, "Session tree"): JSONL import and
 * export, the tree, moving the leaf, fork, compact and the model switch. Browser-only, relative `/api/...` URLs.
 */
import type { SessionSummary } from "@/components/api-client";
import { apiFetch, apiJson, jsonInit } from "@/components/http/api-fetch";

/** A parse problem of an imported file; `line` is 1-based. */
export interface JsonlDiagnostic {
  line: number;
  kind:
    | "blank"
    | "invalid-json"
    | "torn-last-line"
    | "missing-final-newline"
    | "extra-header"
    | "schema"
    | "repaired"
    | "unknown-parent";
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
  /** When the label was set. */
  labelTimestamp?: string;
  /** An assistant message holding only tool calls (pi's tree hides it unless it is the leaf). */
  toolCallsOnly?: true;
  /** A tool result's call as pi's tree shows it (`[read: a.ts]`). */
  tool?: string;
  /** The entry's file-state commit (docs/checkpoints.md), when the server knows it. */
  commit?: string;
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

/** The download URL of a session as a pi JSONL file. */
export function sessionExportUrl(sessionId: string): string {
  return `/api/sessions/${enc(sessionId)}/export`;
}

/** Largest session file sent in one request (the server's limit for one import request, 8 MiB). */
export const SINGLE_REQUEST_IMPORT_BYTES = 8 * 1024 * 1024;

/** Bytes of a session file sent so far, for a progress display. */
export interface ImportProgress {
  loaded: number;
  total: number;
}

/**
 * Import a pi JSONL file as a new session of the project: one request when it fits
 * ({@link SINGLE_REQUEST_IMPORT_BYTES}), otherwise in parts — start an upload, send the file as byte ranges of
 * the size the server names, then commit `{ parts, bytes }`, which imports every entry or none. A failed upload
 * is cancelled (its staged parts deleted).
 * @throws ApiError with the server's answer (413 with the limit, 400 with line-numbered diagnostics, …).
 */
export async function importSessionFile(
  projectId: string,
  file: File,
  onProgress?: (p: ImportProgress) => void,
): Promise<SessionImportResponse> {
  const base = `/api/projects/${enc(projectId)}/sessions/import`;
  if (file.size <= SINGLE_REQUEST_IMPORT_BYTES) {
    const result = await apiJson<SessionImportResponse>(`${base}?name=${enc(file.name)}`, {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: file,
    });
    onProgress?.({ loaded: file.size, total: file.size });
    return result;
  }
  const { upload } = await apiJson<{ upload: { id: string; partBytes: number } }>(
    `${base}/uploads`,
    jsonInit("POST", { name: file.name }),
  );
  const url = `${base}/uploads/${enc(upload.id)}`;
  try {
    let parts = 0;
    for (let start = 0; start < file.size; start += upload.partBytes, parts++) {
      const end = Math.min(file.size, start + upload.partBytes);
      await apiJson(`${url}/parts/${parts}`, {
        method: "PUT",
        headers: { "content-type": "application/octet-stream" },
        body: file.slice(start, end),
      });
      onProgress?.({ loaded: end, total: file.size });
    }
    return await apiJson<SessionImportResponse>(url, jsonInit("POST", { parts, bytes: file.size }));
  } catch (err) {
    void apiFetch(url, { method: "DELETE" }).catch(() => undefined);
    throw err;
  }
}

export function getSessionTree(sessionId: string, signal?: AbortSignal): Promise<SessionTreeResponse> {
  return apiJson(`/api/sessions/${enc(sessionId)}/tree`, { signal });
}

export function branchSession(
  sessionId: string,
  input: { entryId: string; summarize?: boolean; customInstructions?: string },
): Promise<BranchResponse> {
  return apiJson(`/api/sessions/${enc(sessionId)}/branch`, jsonInit("POST", input));
}

/**
 * `POST /api/sessions/:id/fork`: a new session from `entryId`; `position: "before"` (pi's `/fork` of a user
 * message) keeps the path before it and answers its text as `editorText`, `"at"` (default) keeps the entry. The
 * files become that point's (`changed`; the editor's `buffers` are kept first).
 */
export function forkSession(
  sessionId: string,
  entryId: string,
  position: "before" | "at" = "at",
  buffers?: { path: string; content: string }[],
): Promise<{ session: SessionSummary; editorText?: string; restoreId?: string; changed?: string[] }> {
  return apiJson(
    `/api/sessions/${enc(sessionId)}/fork`,
    jsonInit("POST", buffers?.length ? { entryId, position, buffers } : { entryId, position }),
  );
}

/** `POST /api/sessions/:id/labels`: set an entry's label; an empty label clears it (pi). */
export function labelEntry(
  sessionId: string,
  entryId: string,
  label: string,
): Promise<{ entryId: string; label?: string; labelEntryId: string }> {
  return apiJson(`/api/sessions/${enc(sessionId)}/labels`, jsonInit("POST", { entryId, label }));
}

export function compactSession(sessionId: string, focus?: string): Promise<CompactResponse> {
  return apiJson(`/api/sessions/${enc(sessionId)}/compact`, jsonInit("POST", focus ? { focus } : {}));
}

/**
 * `PUT /api/sessions/:id/model`: switch the session's model (recorded as a `model_change` entry, pi `setModel`).
 * Resolves the session's model afterwards (`provider/id`).
 * @throws ApiError (400 `model_unavailable`, 409 `run_active` while a run holds the session, …).
 */
export async function putSessionModel(sessionId: string, model: string): Promise<string> {
  return (
    await apiJson<{ model: string }>(`/api/sessions/${enc(sessionId)}/model`, jsonInit("PUT", { model }))
  ).model;
}
