/**
 * The IDE's calls for getting work out (`/api/projects/<id>/archive|push|pull|git-remote`) and the settings page's
 * git credentials (`/api/workspaces/<id>/git-credentials`). A refusal keeps the server's `paths` (the files a pull
 * would overwrite or that conflict), so a dialog can list them.
 */

import { ApiError, apiJson, errorFromResponse, jsonInit } from "@/components/http/api-fetch";
import { projectFilesUrl } from "@/components/http/worktree";

/** An API refusal with the files it names. */
export class RemoteApiError extends ApiError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly paths: string[],
  ) {
    super(status, code, message);
  }
}

/** The error of a non-2xx answer: {@link errorFromResponse}'s, with the `paths` of the `{ error }` body. */
async function remoteError(res: Response): Promise<RemoteApiError> {
  let paths: string[] = [];
  try {
    const body = (await res.clone().json()) as { error?: { paths?: unknown } };
    if (Array.isArray(body.error?.paths)) paths = body.error.paths.map(String);
  } catch {
    // Not JSON.
  }
  const err = await errorFromResponse(res);
  return new RemoteApiError(err.status, err.code, err.message, paths);
}

/** {@link apiJson} whose refusals are {@link RemoteApiError}s. */
function call<T>(url: string, init?: RequestInit): Promise<T> {
  return apiJson<T>(url, init, remoteError);
}

const project = (id: string) => `/api/projects/${encodeURIComponent(id)}`;

/** What a download holds: the working tree, or a commit (`HEAD`, an oid, a ref). */
export function archiveUrl(projectId: string, commit?: string): string {
  return projectFilesUrl(projectId, `/archive${commit ? `?commit=${encodeURIComponent(commit)}` : ""}`);
}

/** Whether the workspace stores a credential for the host of `url`. @throws ApiError 400 for a bad URL. */
export function remoteStatus(projectId: string, url: string, signal?: AbortSignal) {
  return call<{ host: string; credential: boolean }>(
    `${project(projectId)}/git-remote?url=${encodeURIComponent(url)}`,
    { signal },
  );
}

/** The project's current branch (`GET /api/projects/<id>/git`). */
export async function currentBranch(projectId: string): Promise<string | null> {
  return (await call<{ branch: string | null }>(projectFilesUrl(projectId, "/git"))).branch;
}

export interface PushAnswer {
  host: string;
  branch: string;
  commit: string;
  previous: string | null;
  forced: boolean;
}

export interface PushBody {
  url: string;
  sessionId?: string;
  branch?: string;
  force?: boolean;
}

/** Push. @throws RemoteApiError with the server's text (auth, rejected, not found, unreachable). */
export async function pushProject(projectId: string, body: PushBody): Promise<PushAnswer> {
  return (await call<{ pushed: PushAnswer }>(projectFilesUrl(projectId, "/push"), jsonInit("POST", body)))
    .pushed;
}

export interface PullAnswer {
  status: "up_to_date" | "fast_forward" | "merged";
  branch: string;
  remoteBranch: string;
  from: string | null;
  to: string | null;
  files: { path: string; status: "added" | "modified" | "deleted" }[];
}

/** Pull. @throws RemoteApiError (409 with `paths` when it would overwrite work or conflicts). */
export async function pullProject(
  projectId: string,
  body: { url: string; branch?: string },
): Promise<PullAnswer> {
  return (await call<{ pulled: PullAnswer }>(`${project(projectId)}/pull`, jsonInit("POST", body))).pulled;
}

export interface GitCredentialInfo {
  host: string;
  updatedAt: string;
  updatedBy: string | null;
}

const creds = (workspaceId: string) => `/api/workspaces/${encodeURIComponent(workspaceId)}/git-credentials`;

export async function listGitCredentials(workspaceId: string): Promise<GitCredentialInfo[]> {
  return (await call<{ credentials: GitCredentialInfo[] }>(creds(workspaceId))).credentials;
}

export async function putGitCredential(
  workspaceId: string,
  host: string,
  credential: { username: string; password: string },
): Promise<GitCredentialInfo> {
  const url = `${creds(workspaceId)}/${encodeURIComponent(host)}`;
  return (await call<{ credential: GitCredentialInfo }>(url, jsonInit("PUT", credential))).credential;
}

export async function deleteGitCredential(workspaceId: string, host: string): Promise<void> {
  await call(`${creds(workspaceId)}/${encodeURIComponent(host)}`, { method: "DELETE" });
}

/** The remote URL last used for a project in this browser (not a secret: URLs with credentials are refused). */
export function rememberedRemote(projectId: string): string {
  try {
    return localStorage.getItem(`strata.remote.${projectId}`) ?? "";
  } catch {
    return "";
  }
}

export function rememberRemote(projectId: string, url: string): void {
  try {
    localStorage.setItem(`strata.remote.${projectId}`, url);
  } catch {
    // Storage unavailable: the field starts empty next time.
  }
}
