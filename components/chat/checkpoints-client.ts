/**
 * Fetch helpers for the checkpoint endpoints the chat and the diff view use (docs/checkpoints.md, "Seeing and
 * undoing changes"): the current branch's turns that changed files, the changes between two points or of one tool
 * call (with one file's texts), and reverting them. Browser-only, relative `/api/...` URLs.
 */
import { apiJson, jsonInit } from "@/components/http/api-fetch";

/** One changed file; counts are null for a binary file or one too large to diff. */
export interface FileChange {
  path: string;
  status: "added" | "modified" | "deleted";
  additions: number | null;
  deletions: number | null;
  binary: boolean;
}

/** A turn of the current branch that changed files (`GET /api/sessions/:id/turns`). */
export interface TurnChanges {
  userEntryId: string;
  lastEntryId: string;
  /** The turn's user message's timestamp (ms): how the chat finds the turn among its messages. */
  userTimestamp: number | null;
  /** Tool call id → the files it changed. */
  toolCalls: Record<string, string[]>;
  /** Reverts of this turn's change that stand (lib/checkpoints/turn-reverts.ts), oldest first. */
  reverts: StandingRevert[];
  from: string | null;
  to: string | null;
  files: FileChange[];
}

/** A revert standing on the branch: undoing it reverts `base`→`commit`. */
export interface StandingRevert {
  entryId: string;
  commit: string;
  base: string;
  paths: string[];
}

/** One file's texts at both points (null where absent; both null when binary). */
export interface FileTexts {
  path: string;
  before: string | null;
  after: string | null;
  binary: boolean;
}

/** `GET /api/sessions/:id/changes`. */
export interface ChangeSet {
  from: string | null;
  to: string | null;
  files: FileChange[];
  file?: FileTexts;
}

/** What a diff view shows: between two points (entry ids or commits), or one tool call's changes. */
export type ChangesQuery = { from: string; to: string } | { toolCallId: string };

const enc = encodeURIComponent;

/** The turns of the current branch that changed files (oldest first) and the branch's leaf. */
export interface BranchTurns {
  turns: TurnChanges[];
  leafId: string | null;
}

/** The turns of the session's current branch that changed files, oldest first. @throws ApiError. */
export function getTurnChanges(sessionId: string, signal?: AbortSignal): Promise<BranchTurns> {
  return apiJson(`/api/sessions/${enc(sessionId)}/turns`, { signal });
}

/** The query string of a {@link ChangesQuery}, with `path` when one file's texts are wanted. */
export function changesSearch(query: ChangesQuery, path?: string): string {
  const params = new URLSearchParams(
    "toolCallId" in query ? { toolCallId: query.toolCallId } : { from: query.from, to: query.to },
  );
  if (path !== undefined) params.set("path", path);
  return params.toString();
}

/** The files changed (and `path`'s texts before and after, when given). @throws ApiError. */
export function getChanges(
  sessionId: string,
  query: ChangesQuery,
  path?: string,
  signal?: AbortSignal,
): Promise<ChangeSet> {
  return apiJson(`/api/sessions/${enc(sessionId)}/changes?${changesSearch(query, path)}`, { signal });
}

/** What a revert did: its commit, the files it wrote, and the entry that records it (the new leaf). */
export interface RevertResult {
  commit: string;
  paths: string[];
  entryId: string;
}

/**
 * Revert the changes `from` → `to` (or of `path` only) as a new checkpoint on the leaf.
 * @throws ApiError: 409 `revert_conflict` names the files changed again since (nothing was written).
 */
export function revertChanges(
  sessionId: string,
  input: { from: string; to: string; path?: string; label?: string },
): Promise<RevertResult> {
  return apiJson(`/api/sessions/${enc(sessionId)}/revert`, jsonInit("POST", input));
}
