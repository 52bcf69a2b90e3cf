/**
 * What changed between two points of a session (docs/checkpoints.md, "Seeing and undoing changes"): the files and
 * their `+/-` line counts between two commits, a file's texts before and after (for the diff editor), a tool call's
 * changes, and the turns of the current branch that changed files (for the chat's summaries).
 */
import { diffLines } from "diff";
import { EntryNotFoundError, SessionNotFoundError } from "@/lib/agent-session/session-tree";
import type { DbScope } from "@/lib/db/client";
import { getProject } from "@/lib/projects/projects";
import {
  type CheckpointRow,
  entryCommit,
  entryCommits,
  listCheckpoints,
} from "@/lib/session/checkpoint-rows";
import { loadBranch } from "@/lib/session/context-load";
import { getSession } from "@/lib/session/store";
import type { Vfs } from "@/lib/vfs/vfs";
import { openSessionVfs } from "@/lib/vfs/workspace";
import { commitSnapshot, diffSnapshots, readBlob, type TreeChange } from "@/lib/vfs/worktree";
import { CheckpointError, orCommitNotFound } from "./errors";
import { CHECKPOINT_CUSTOM_TYPE } from "./restore";
import { type StandingRevert, standingReverts } from "./turn-reverts";

/** One changed file. Counts are lines; null when the file is binary or over {@link MAX_DIFF_BYTES}. */
export interface FileChange {
  path: string;
  status: TreeChange["status"];
  additions: number | null;
  deletions: number | null;
  binary: boolean;
}

/** Changes between two commits of the session's project. */
export interface ChangeSet {
  from: string | null;
  to: string | null;
  files: FileChange[];
}

/** A side larger than this (bytes) is not diffed line by line. */
export const MAX_DIFF_BYTES = 1024 * 1024;

/**
 * Longest one file's line diff may run (ms): Myers' diff is O((N+M)·D), and two unrelated 10,000-line texts took
 * 16 s of the event loop (every request waited). Past it the counts are null, as for a side over the size limit.
 */
export const DIFF_TIMEOUT_MS = 100;

const decoder = new TextDecoder("utf-8", { fatal: false });
const isBinary = (bytes: Uint8Array) => bytes.subarray(0, 8000).includes(0);

/** The session's project VFS and root. @throws SessionNotFoundError. */
export async function openSessionFiles(
  scope: DbScope,
  sessionId: string,
): Promise<{ vfs: Vfs; root: string; projectId: string; workspaceId: string }> {
  const session = await getSession(scope, sessionId);
  const project = session ? await getProject(scope, session.projectId) : null;
  if (!session || !project) throw new SessionNotFoundError(sessionId);
  return {
    vfs: openSessionVfs(project, session.id, scope).vfs,
    root: project.rootPath,
    projectId: project.id,
    workspaceId: project.workspaceId,
  };
}

/**
 * A point of the session as a commit: an entry id (its recorded commit, or its nearest ancestor's) or a 40-hex
 * commit id as is. null = no commit (the empty tree).
 * @throws EntryNotFoundError for an unknown entry.
 */
export async function resolvePoint(scope: DbScope, sessionId: string, point: string): Promise<string | null> {
  if (/^[0-9a-f]{40}$/.test(point)) return point;
  const commit = await entryCommit(scope, sessionId, point);
  if (commit === undefined) throw new EntryNotFoundError(point);
  return commit;
}

/** `+/-` line counts of one change (null, null when binary or too large). */
async function countLines(vfs: Vfs, root: string, c: TreeChange): Promise<FileChange> {
  const [before, after] = await Promise.all([
    c.before ? readBlob(vfs, root, c.before.oid) : new Uint8Array(),
    c.after ? readBlob(vfs, root, c.after.oid) : new Uint8Array(),
  ]);
  if (isBinary(before) || isBinary(after))
    return { path: c.path, status: c.status, additions: null, deletions: null, binary: true };
  if (before.byteLength > MAX_DIFF_BYTES || after.byteLength > MAX_DIFF_BYTES)
    return { path: c.path, status: c.status, additions: null, deletions: null, binary: false };
  let additions = 0;
  let deletions = 0;
  const parts = diffLines(decoder.decode(before), decoder.decode(after), { timeout: DIFF_TIMEOUT_MS });
  if (!parts) return { path: c.path, status: c.status, additions: null, deletions: null, binary: false };
  for (const part of parts) {
    if (part.added) additions += part.count ?? 0;
    else if (part.removed) deletions += part.count ?? 0;
  }
  return { path: c.path, status: c.status, additions, deletions, binary: false };
}

/**
 * The files that differ from commit `from` to commit `to` (sorted by path) with line counts; `paths` narrows them.
 * @throws isomorphic-git `NotFoundError` for a commit the repository does not have.
 */
export async function diffCommits(
  vfs: Vfs,
  root: string,
  from: string | null,
  to: string | null,
  paths?: readonly string[],
): Promise<ChangeSet> {
  const [a, b] = await Promise.all([commitSnapshot(vfs, root, from), commitSnapshot(vfs, root, to)]);
  const only = paths ? new Set(paths) : null;
  const changes = diffSnapshots(a, b).filter((c) => !only || only.has(c.path));
  const files: FileChange[] = [];
  for (const c of changes) files.push(await countLines(vfs, root, c));
  return { from, to, files };
}

/** Texts of `path` at `from` and `to` (null where absent); `binary` when either side is. */
export async function fileAtCommits(
  vfs: Vfs,
  root: string,
  from: string | null,
  to: string | null,
  path: string,
): Promise<{ before: string | null; after: string | null; binary: boolean }> {
  const [a, b] = await Promise.all([commitSnapshot(vfs, root, from), commitSnapshot(vfs, root, to)]);
  const [x, y] = [a.get(path), b.get(path)];
  const before = x ? await readBlob(vfs, root, x.oid) : null;
  const after = y ? await readBlob(vfs, root, y.oid) : null;
  if ((before && isBinary(before)) || (after && isBinary(after)))
    return { before: null, after: null, binary: true };
  return {
    before: before ? decoder.decode(before) : null,
    after: after ? decoder.decode(after) : null,
    binary: false,
  };
}

/** The changes of one tool call: its checkpoint's parent → commit, narrowed to the files that call wrote. */
export async function toolCallChanges(
  scope: DbScope,
  sessionId: string,
  toolCallId: string,
): Promise<ChangeSet | null> {
  const rows = await listCheckpoints(scope, sessionId);
  const row = rows.find((r) => r.toolCalls && toolCallId in r.toolCalls);
  if (!row) return null;
  const { vfs, root } = await openSessionFiles(scope, sessionId);
  return diffCommits(vfs, root, row.parentOid, row.commitOid, row.toolCalls?.[toolCallId] ?? []);
}

const isCheckpointEntry = (e: { type: string; customType?: string }) =>
  e.type === "custom" && e.customType === CHECKPOINT_CUSTOM_TYPE;

/** Every tool call of the session that changed files (its checkpoint rows): tool call id → paths. */
function toolCallPaths(rows: readonly CheckpointRow[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const row of rows)
    for (const [id, paths] of Object.entries(row.toolCalls ?? {})) if (paths.length > 0) out.set(id, paths);
  return out;
}

/** A turn of the current branch that changed files: its user message, its last entry, and the commits around it. */
export interface TurnChanges extends ChangeSet {
  /** The turn's user message entry. */
  userEntryId: string;
  /** The last entry of the turn (before the next user message). */
  lastEntryId: string;
  /** The user message's `timestamp` (ms), which the chat matches its messages by; null when it has none. */
  userTimestamp: number | null;
  /** The turn's tool calls that changed files (their checkpoint rows): tool call id → project-relative paths. */
  toolCalls: Record<string, string[]>;
  /** The reverts of this turn's change (whole or of some files) that stand on the branch, oldest first. */
  reverts: StandingRevert[];
}

/** Turns reported by {@link branchTurnChanges}: the newest ones. */
export const MAX_TURNS = 50;

/**
 * The turns on the root→`leafId` path whose files changed (from the user message's commit — the user's own edits
 * already in it — to the turn's last entry's, a revert or restore after it not included), newest
 * {@link MAX_TURNS}, oldest first.
 */
export async function branchTurnChanges(
  scope: DbScope,
  sessionId: string,
  leafId: string | null,
): Promise<TurnChanges[]> {
  if (!leafId) return [];
  const path = await loadBranch(scope, sessionId, leafId);
  const starts: number[] = [];
  path.forEach((e, i) => {
    if (e.type === "message" && (e.message as { role?: string }).role === "user") starts.push(i);
  });
  // A turn ends before the next user message, or before a revert or restore recorded on its leaf (a
  // `strata.checkpoint` entry): those are the user's later changes, not the turn's.
  const turns = starts.slice(-MAX_TURNS).map((start, k, all) => {
    const next = k + 1 < all.length ? all[k + 1] : path.length;
    let end = start + 1;
    while (end < next && !isCheckpointEntry(path[end])) end++;
    return { start, end };
  });
  // Each path entry's commit: its own, else the nearest ancestor's (one query for the session).
  const recorded = await entryCommits(scope, sessionId);
  const effective = new Map<string, string | null>();
  let carried: string | null = null;
  for (const e of path) {
    carried = recorded.get(e.id) ?? carried;
    effective.set(e.id, carried);
  }
  const { vfs, root } = await openSessionFiles(scope, sessionId);
  const rows = await listCheckpoints(scope, sessionId);
  const written = toolCallPaths(rows);
  const reverts = standingReverts(
    path,
    CHECKPOINT_CUSTOM_TYPE,
    new Map(rows.map((r) => [r.commitOid, r.parentOid])),
  );
  const out: TurnChanges[] = [];
  for (const t of turns) {
    const [user, last] = [path[t.start], path[t.end - 1]];
    const [from, to] = [effective.get(user.id), effective.get(last.id)];
    if (!from || !to || from === to) continue;
    const toolCalls: Record<string, string[]> = {};
    for (const e of path.slice(t.start + 1, t.end)) {
      const id = e.type === "message" ? (e.message as { toolCallId?: unknown }).toolCallId : undefined;
      const paths = typeof id === "string" ? written.get(id) : undefined;
      if (typeof id === "string" && paths) toolCalls[id] = paths;
    }
    const timestamp =
      (user.type === "message" ? (user.message as { timestamp?: unknown }).timestamp : null) ?? null;
    out.push({
      userEntryId: user.id,
      lastEntryId: last.id,
      userTimestamp: typeof timestamp === "number" ? timestamp : null,
      toolCalls,
      reverts: reverts.get(`${from}..${to}`) ?? [],
      ...(await diffCommits(vfs, root, from, to)),
    });
  }
  return out;
}

/** What `GET /api/sessions/:id/changes` answers: the change set, and one file's texts when `path` was asked. */
export interface SessionChanges extends ChangeSet {
  file?: { path: string; before: string | null; after: string | null; binary: boolean };
}

/**
 * The changes between two points of the session (entry ids or commit ids) or of one tool call, with `path`'s texts.
 * @throws EntryNotFoundError; CheckpointError 404 for an unknown tool call or a commit not in the project.
 */
export async function sessionChanges(
  scope: DbScope,
  sessionId: string,
  query: { from: string; to: string; path?: string } | { toolCallId: string; path?: string },
): Promise<SessionChanges> {
  const { vfs, root } = await openSessionFiles(scope, sessionId);
  let set: ChangeSet;
  if ("toolCallId" in query) {
    const found = await toolCallChanges(scope, sessionId, query.toolCallId);
    if (!found)
      throw new CheckpointError(
        404,
        "not_found",
        `Tool call ${query.toolCallId} changed no file in this session.`,
      );
    set = found;
  } else {
    const [from, to] = [
      await resolvePoint(scope, sessionId, query.from),
      await resolvePoint(scope, sessionId, query.to),
    ];
    set = await orCommitNotFound(`${from}..${to}`, () => diffCommits(vfs, root, from, to));
  }
  if (!query.path) return set;
  const path = query.path;
  const file = await orCommitNotFound(set.to, () => fileAtCommits(vfs, root, set.from, set.to, path));
  return { ...set, file: { path, ...file } };
}
