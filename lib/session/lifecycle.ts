/**
 * Renaming and deleting sessions (the IDE's session menu, `PATCH`/`DELETE /api/sessions/:id`).
 *
 * - Rename follows pi: the name is a `session_info` entry appended under the current leaf (pi
 *   `appendSessionInfo`, pi's `session-manager.ts`), so an exported file carries it and pi shows it; the `sessions.title` column
 *   follows it for the session list.
 * - Delete removes the session row; the foreign keys (`ON DELETE CASCADE`, db/schema.ts) take its entries,
 *   runs, queued messages and pending paths with it. In the same transaction the session's checkpoint branch
 *   `refs/heads/strata/session-<id>` is removed from the project's git repository (the loose ref file and
 *   its line in `packed-refs`; the now unreferenced commits stay until a `git gc`, as after `git branch -D`).
 * - A session with a live run is refused rather than aborted behind the user's back: the run may be another
 *   tab's, and what it is writing would be lost half-way. The user stops it and deletes again.
 */

import type { DbScope } from "@/lib/db/client";
import type { Query } from "@/lib/db/transaction";
import { StrataError } from "@/lib/errors/strata-error";
import { SessionNotFoundError } from "./errors";
import { RUN_STALE_MS, type RunKind } from "./runs";
import { appendSessionInfo, getSession, type SessionRow } from "./store";
import { sanitizeSessionName } from "./tree";

/** Longest session title accepted by {@link renameSession} (characters, after sanitising). */
export const MAX_SESSION_TITLE_LENGTH = 200;

/** The session does not exist (deleted meanwhile, or never existed). */

/** A rename or delete refused with a reason the user can act on (`code` for the API, e.g. `session_running`). */
export class LifecycleRefusedError extends StrataError {
  declare readonly status: 400 | 409;
  constructor(status: 400 | 409, code: string, message: string) {
    super(status, code, message);
    this.name = "LifecycleRefusedError";
  }
}

/** What a live run is doing, in words for a refusal ("an agent run", "a compaction", …). */
export function describeRunKind(kind: RunKind): string {
  return kind === "compaction"
    ? "a compaction"
    : kind === "branch_summary"
      ? "a branch summary"
      : kind === "bash"
        ? "a shell command"
        : "an agent run";
}

/**
 * The checked title for a rename: CR/LF runs become one space and the ends are trimmed (pi's
 * `appendSessionInfo` sanitising); it must then be non-empty, hold no other control character (U+0000–U+001F,
 * U+007F: Postgres cannot store NUL, and the project name check refuses them too) and be at most
 * {@link MAX_SESSION_TITLE_LENGTH} characters.
 * @throws LifecycleRefusedError 400 `bad_request`: "The session name must not be empty", "The session name must
 *   not contain control characters (tabs, NUL and the like)" or "The session name is <n> characters long; the limit is 200".
 */
export function checkSessionTitle(title: string): string {
  const name = sanitizeSessionName(title);
  if (name === "") throw new LifecycleRefusedError(400, "bad_request", "The session name must not be empty");
  if (/[\u0000-\u001f\u007f]/.test(name))
    throw new LifecycleRefusedError(
      400,
      "bad_request",
      "The session name must not contain control characters (tabs, NUL and the like)",
    );
  const length = [...name].length;
  if (length > MAX_SESSION_TITLE_LENGTH)
    throw new LifecycleRefusedError(
      400,
      "bad_request",
      `The session name is ${length} characters long; the limit is ${MAX_SESSION_TITLE_LENGTH}`,
    );
  return name;
}

/** The live run of a session (heartbeat within {@link RUN_STALE_MS}), read inside a transaction. */
async function liveRunKind(q: Query, sessionId: string): Promise<RunKind | null> {
  const rows = await q<{ kind: RunKind }>(
    `SELECT kind FROM session_runs WHERE session_id = $1 AND finished_at IS NULL
     AND heartbeat_at >= now() - ($2::int * interval '1 millisecond') LIMIT 1`,
    [sessionId, RUN_STALE_MS],
  );
  return rows[0]?.kind ?? null;
}

/**
 * Rename a session as pi's `/name` does: append a `session_info` entry `{ name }` (pi `appendSessionInfo`) and
 * set the session's title to it. Allowed while an agent run streams (the entry lands under the current leaf,
 * as in pi); refused while a compaction or branch summary holds the session, since those append under a leaf
 * they read first.
 * @returns the session with its new title.
 * @throws LifecycleRefusedError 400 (see {@link checkSessionTitle}); 409 `session_busy` "Session <id> is busy with
 *   a compaction; rename it when that has finished"; SessionNotFoundError when there is no such session.
 */
export async function renameSession(scope: DbScope, sessionId: string, title: string): Promise<SessionRow> {
  const name = checkSessionTitle(title);
  const kind = await scope.transaction(async (q) => {
    const rows = await q("SELECT id FROM sessions WHERE id = $1", [sessionId]);
    return rows.length === 0 ? undefined : await liveRunKind(q, sessionId);
  });
  if (kind === undefined) throw new SessionNotFoundError(sessionId);
  if (kind === "compaction" || kind === "branch_summary")
    throw new LifecycleRefusedError(
      409,
      "session_busy",
      `Session ${sessionId} is busy with ${describeRunKind(kind)}; rename it when that has finished`,
    );
  try {
    await appendSessionInfo(scope, sessionId, name);
  } catch (error) {
    if (!(await getSession(scope, sessionId))) throw new SessionNotFoundError(sessionId);
    throw error;
  }
  const session = await getSession(scope, sessionId);
  if (!session) throw new SessionNotFoundError(sessionId);
  return session;
}

/** What {@link deleteSession} removed (row counts). */
export interface DeletedSession {
  id: string;
  projectId: string;
  title: string | null;
  /** Tree entries deleted. */
  entries: number;
  /** Whether the checkpoint branch `strata/session-<id>` existed and was removed. */
  branchDeleted: boolean;
}

/** `packed-refs` without the line of `ref` (and the peeled `^` lines after it); null when `ref` is not in it. */
export function withoutPackedRef(packed: string, ref: string): string | null {
  const lines = packed.split("\n");
  const out: string[] = [];
  let found = false;
  let skipping = false;
  for (const line of lines) {
    if (skipping && line.startsWith("^")) continue;
    skipping = false;
    const name = line.startsWith("#") ? null : line.split(" ")[1];
    if (name === ref) {
      found = true;
      skipping = true;
      continue;
    }
    out.push(line);
  }
  return found ? out.join("\n") : null;
}

/**
 * Remove the git ref `ref` of the repository at `root` in workspace `workspaceId`, inside a transaction: the
 * loose ref file, its line in `packed-refs` (rewritten, its version bumped), and the ref's directories left
 * empty under `refs/heads`. Plain SQL on `vfs_nodes`, so it commits or rolls back with the caller's rows.
 * @returns whether the ref existed.
 */
export async function deleteGitRefRows(
  q: Query,
  workspaceId: string,
  root: string,
  ref: string,
): Promise<boolean> {
  const gitdir = `${root}/.git`;
  const loose = await q("DELETE FROM vfs_nodes WHERE workspace_id = $1 AND path = $2 RETURNING path", [
    workspaceId,
    `${gitdir}/${ref}`,
  ]);
  let found = loose.length > 0;
  const [packed] = await q<{ data: Uint8Array | null; version: string | number }>(
    "SELECT data, version FROM vfs_nodes WHERE workspace_id = $1 AND path = $2 AND kind = 'file' FOR UPDATE",
    [workspaceId, `${gitdir}/packed-refs`],
  );
  if (packed?.data) {
    const rest = withoutPackedRef(new TextDecoder().decode(packed.data), ref);
    if (rest !== null) {
      const bytes = new TextEncoder().encode(rest);
      await q(
        `UPDATE vfs_nodes SET data = $3::bytea, size = $4, mtime_ms = $5, version = version + 1
         WHERE workspace_id = $1 AND path = $2`,
        [workspaceId, `${gitdir}/packed-refs`, bytes, bytes.byteLength, Date.now()],
      );
      found = true;
    }
  }
  // Directories of the ref under refs/heads (e.g. refs/heads/strata) that are empty now, deepest first.
  const parts = ref.split("/");
  for (let n = parts.length - 1; n > 2; n--) {
    const dir = `${gitdir}/${parts.slice(0, n).join("/")}`;
    const removed = await q(
      `DELETE FROM vfs_nodes d WHERE d.workspace_id = $1 AND d.path = $2 AND d.kind = 'dir'
       AND NOT EXISTS (SELECT 1 FROM vfs_nodes c WHERE c.workspace_id = $1 AND c.parent = $2) RETURNING path`,
      [workspaceId, dir],
    );
    if (removed.length === 0) break;
  }
  return found;
}

/** The checkpoint ref of a session (same name as `sessionRef` in lib/agent-session/checkpointer.ts). */
const checkpointRef = (sessionId: string) => `refs/heads/strata/session-${sessionId}`;

/**
 * Delete a session and everything that is only its: its shares (revoked first: every share URL answers 404), its entries, runs, queued messages, pending paths (by the
 * foreign keys' cascade) and its checkpoint branch `strata/session-<id>` in the project repository, in one
 * transaction that holds the session row locked (a run cannot start meanwhile). The project's files are not
 * touched.
 * @returns what was deleted.
 * @throws SessionNotFoundError when there is no such session; LifecycleRefusedError 409 `session_running`
 *   "Session <id> has a run in progress (an agent run); stop it, then delete the session" when a live run holds it.
 */
export async function deleteSession(scope: DbScope, sessionId: string): Promise<DeletedSession> {
  return scope.transaction(async (q) => {
    const [row] = await q<{
      project_id: string;
      title: string | null;
      workspace_id: string;
      root_path: string;
    }>(
      `SELECT s.project_id, s.title, p.workspace_id, p.root_path FROM sessions s
       JOIN projects p ON p.id = s.project_id WHERE s.id = $1 FOR UPDATE OF s`,
      [sessionId],
    );
    if (!row) throw new SessionNotFoundError(sessionId);
    const kind = await liveRunKind(q, sessionId);
    if (kind)
      throw new LifecycleRefusedError(
        409,
        "session_running",
        `Session ${sessionId} has a run in progress (${describeRunKind(kind)}); stop it, then delete the session`,
      );
    const [count] = await q<{ n: number }>(
      "SELECT count(*)::int AS n FROM session_entries WHERE session_id = $1",
      [sessionId],
    );
    // Its shares are revoked first (docs/sharing.md): their rows RESTRICT the session's deletion.
    await q("DELETE FROM session_shares WHERE session_id = $1", [sessionId]);
    await q("DELETE FROM sessions WHERE id = $1", [sessionId]);
    const branchDeleted = await deleteGitRefRows(
      q,
      row.workspace_id,
      row.root_path,
      checkpointRef(sessionId),
    );
    return {
      id: sessionId,
      projectId: row.project_id,
      title: row.title,
      entries: count?.n ?? 0,
      branchDeleted,
    };
  });
}
