/**
 * Fetch helpers for renaming and deleting sessions and projects (docs/http-api.md: `PATCH`/`DELETE
 * /api/sessions/:id`, `PATCH`/`DELETE /api/projects/:id`). Browser-only, relative URLs.
 */
import type { Project, SessionSummary } from "@/components/api-client";
import { apiJson, jsonInit } from "@/components/http/api-fetch";

/** What `DELETE /api/sessions/:id` removed. */
export interface DeletedSession {
  id: string;
  projectId: string;
  title: string | null;
  entries: number;
  branchDeleted: boolean;
}

/** What `DELETE /api/projects/:id` removed. */
export interface DeletedProject {
  id: string;
  name: string;
  rootPath: string;
  sessions: number;
  files: number;
}

function send<T>(url: string, method: "PATCH" | "DELETE", body?: unknown): Promise<T> {
  return apiJson<T>(url, body === undefined ? { method } : jsonInit(method, body));
}

const enc = encodeURIComponent;

/** Rename a session (stored as pi's `session_info`). @throws ApiError 400 bad name, 404, 409 `session_busy`. */
export async function renameSession(id: string, title: string): Promise<SessionSummary> {
  return (await send<{ session: SessionSummary }>(`/api/sessions/${enc(id)}`, "PATCH", { title })).session;
}

/** Delete a session with its entries and checkpoint branch. @throws ApiError 404, 409 `session_running`. */
export async function deleteSession(id: string): Promise<DeletedSession> {
  return (await send<{ deleted: DeletedSession }>(`/api/sessions/${enc(id)}`, "DELETE")).deleted;
}

/** Rename a project (its directory stays). @throws ApiError 400 bad name, 404. */
export async function renameProject(id: string, name: string): Promise<Project> {
  return (await send<{ project: Project }>(`/api/projects/${enc(id)}`, "PATCH", { name })).project;
}

/** Delete a project with its files and sessions. @throws ApiError 404, 409 `project_running`. */
export async function deleteProject(id: string): Promise<DeletedProject> {
  return (await send<{ deleted: DeletedProject }>(`/api/projects/${enc(id)}`, "DELETE")).deleted;
}

const DELETED_KEY = "strata.deletedProject";

/** Remember a project deleted from its own page, for the projects page to report after the navigation. */
export function leaveDeletedNotice(deleted: DeletedProject): void {
  try {
    window.sessionStorage.setItem(DELETED_KEY, JSON.stringify(deleted));
  } catch {
    // Storage unavailable: the project is gone from the list all the same.
  }
}

/** The project {@link leaveDeletedNotice} remembered (once), or null. */
export function takeDeletedNotice(): DeletedProject | null {
  try {
    const raw = window.sessionStorage.getItem(DELETED_KEY);
    window.sessionStorage.removeItem(DELETED_KEY);
    return raw ? (JSON.parse(raw) as DeletedProject) : null;
  } catch {
    return null;
  }
}
