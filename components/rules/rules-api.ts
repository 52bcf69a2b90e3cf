/**
 * Browser helpers for a team's rules root and its proposals (`/api/workspaces/:id/rules/...`, lib/rules).
 * Every helper throws the shared `ApiError` (message and code from the API's `{ error }` body) or
 * `ApiError(0, "network_error")` when the server could not be reached.
 */
import { ApiError, apiJson, jsonInit } from "@/components/http/api-fetch";

/** Who made a commit of the rules repository and when (`timestamp` as an ISO string or epoch ms/seconds). */
export interface RulesChange {
  authorName: string;
  authorEmail: string;
  timestamp: string | number;
  oid?: string;
  message?: string;
}

export interface RulesFile {
  /** Relative to the rules root, e.g. `AGENTS.md`, `skills/review/SKILL.md`. */
  path: string;
  size: number;
  lastChange: RulesChange | null;
}

export interface RulesListing {
  root: string;
  files: RulesFile[];
}

export interface RulesFileContent {
  path: string;
  content: string | null;
  size: number;
  binary?: boolean;
  tooLarge?: boolean;
}

export type ProposalStatus = "open" | "approved" | "rejected" | "withdrawn";

/** A proposal as the API answers it (lib/rules `Proposal`; times are ISO strings). */
export interface ProposalSummary {
  id: string;
  workspaceId?: string;
  authorUserId: string;
  authorName: string;
  authorEmail?: string;
  title: string;
  description: string;
  branch?: string;
  baseOid?: string;
  headOid?: string | null;
  status: ProposalStatus;
  decidedBy?: string | null;
  decidedByName?: string | null;
  decidedAt?: string | null;
  mergedOid?: string | null;
  createdAt: string;
  updatedAt?: string;
}

export type DiffStatus = "added" | "modified" | "deleted";

/** One changed file of a proposal (between the merge base with main and the branch head). */
export interface ProposalDiffFile {
  path: string;
  status: DiffStatus;
  before: string | null;
  after: string | null;
  /** Unified diff text (`---`/`+++` header, `@@ … @@` hunks, `+`/`-`/` ` lines). */
  patch: string;
}

export interface ProposalComment {
  id: string;
  proposalId?: string;
  authorUserId: string;
  authorName: string;
  body: string;
  createdAt: string;
}

export interface ProposalDetail {
  proposal: ProposalSummary;
  diff: ProposalDiffFile[];
  comments: ProposalComment[];
}

export interface DraftChange {
  path: string;
  /** New content, or null to delete the file. */
  content: string | null;
}

/** {@link apiJson}, with this module's wording of a server that could not be reached. */
async function call<T>(url: string, init?: RequestInit): Promise<T> {
  try {
    return await apiJson<T>(url, init);
  } catch (err) {
    if (err instanceof ApiError && err.status === 0 && err.code === "network_error")
      throw new ApiError(
        0,
        "network_error",
        `Strata could not be reached (${err.message}). Check the connection and try again.`,
      );
    throw err;
  }
}

const enc = encodeURIComponent;
const base = (workspaceId: string) => `/api/workspaces/${enc(workspaceId)}/rules`;

export function listRules(workspaceId: string, signal?: AbortSignal): Promise<RulesListing> {
  return call(base(workspaceId), { signal });
}

export function readRulesFile(workspaceId: string, path: string): Promise<RulesFileContent> {
  return call(`${base(workspaceId)}/file?path=${enc(path)}`);
}

/** The commit a direct write made (shapes vary: `{ commit }`, `{ lastChange }` or the fields at the top). */
export function commitOf(body: unknown): RulesChange | null {
  if (!body || typeof body !== "object") return null;
  const b = body as Record<string, unknown>;
  for (const candidate of [b.commit, b.lastChange, b]) {
    const c = candidate as Partial<RulesChange> | null | undefined;
    if (c && typeof c === "object" && typeof c.authorName === "string" && c.timestamp !== undefined)
      return c as RulesChange;
  }
  return null;
}

/** Commit `content` to `path` of the rules root (owners and admins). @throws ApiError 403 for a lower role. */
export async function writeRulesFile(
  workspaceId: string,
  path: string,
  content: string,
  message?: string,
): Promise<RulesChange | null> {
  const body = message ? { content, message } : { content };
  return commitOf(await call<unknown>(`${base(workspaceId)}/file?path=${enc(path)}`, jsonInit("PUT", body)));
}

/** Delete `path` from the rules root (a commit; `message` defaults to "Delete <path>" on the server). */
export async function deleteRulesFile(
  workspaceId: string,
  path: string,
  message?: string,
): Promise<RulesChange | null> {
  const url = `${base(workspaceId)}/file?path=${enc(path)}`;
  return commitOf(await call<unknown>(url, message ? jsonInit("DELETE", { message }) : { method: "DELETE" }));
}

export async function listProposals(workspaceId: string, signal?: AbortSignal): Promise<ProposalSummary[]> {
  return (await call<{ proposals: ProposalSummary[] }>(`${base(workspaceId)}/proposals`, { signal }))
    .proposals;
}

/** Propose `changes` for review; resolves with the new proposal. */
export async function createProposal(
  workspaceId: string,
  input: { title: string; description: string; changes: DraftChange[] },
): Promise<ProposalSummary> {
  const body = await call<{ proposal?: ProposalSummary } & Partial<ProposalSummary>>(
    `${base(workspaceId)}/proposals`,
    jsonInit("POST", input),
  );
  return body.proposal ?? (body as ProposalSummary);
}

const proposalUrl = (workspaceId: string, id: string) => `${base(workspaceId)}/proposals/${enc(id)}`;

export function getProposal(workspaceId: string, id: string, signal?: AbortSignal): Promise<ProposalDetail> {
  return call(proposalUrl(workspaceId, id), { signal });
}

export function withdrawProposal(workspaceId: string, id: string): Promise<unknown> {
  return call(proposalUrl(workspaceId, id), jsonInit("PATCH", { status: "withdrawn" }));
}

export function commentOnProposal(workspaceId: string, id: string, body: string): Promise<unknown> {
  return call(`${proposalUrl(workspaceId, id)}/comments`, jsonInit("POST", { body }));
}

export function approveProposal(workspaceId: string, id: string): Promise<unknown> {
  return call(`${proposalUrl(workspaceId, id)}/approve`, { method: "POST" });
}

export function rejectProposal(workspaceId: string, id: string, reason?: string): Promise<unknown> {
  return call(`${proposalUrl(workspaceId, id)}/reject`, jsonInit("POST", reason ? { reason } : {}));
}

/** Make session `sessionId` preview proposal `proposalId` (null: back to the merged rules). */
export function setRulesPreview(sessionId: string, proposalId: string | null): Promise<unknown> {
  return call(`/api/sessions/${enc(sessionId)}/rules-preview`, jsonInit("PUT", { proposalId }));
}

export interface TeamProject {
  id: string;
  name: string;
}

export interface TeamSession {
  id: string;
  projectId: string;
  title: string | null;
  userId?: string | null;
  updatedAt: string;
  rulesPreviewProposalId?: string | null;
}

/** The projects of workspace `workspaceId`. */
export async function listTeamProjects(workspaceId: string): Promise<TeamProject[]> {
  return (await call<{ projects: TeamProject[] }>(`/api/projects?workspaceId=${enc(workspaceId)}`)).projects;
}

export async function listProjectSessions(projectId: string): Promise<TeamSession[]> {
  return (await call<{ sessions: TeamSession[] }>(`/api/projects/${enc(projectId)}/sessions`)).sessions;
}

/** The display name of a proposal's or comment's author. */
export function authorLabel(x: { authorName?: string; authorEmail?: string }): string {
  return x.authorName || x.authorEmail || "someone";
}

/** A commit timestamp (ISO, epoch ms or git's epoch seconds) as a Date. */
export function changeDate(value: string | number): Date {
  if (typeof value === "number") return new Date(value < 1e11 ? value * 1000 : value);
  return new Date(value);
}
