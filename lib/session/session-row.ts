/**
 * A `sessions` row as the store reads it (`SessionRow`, from the raw row with `toSession`), and the store's errors
 * about it. Shared by the store's modules (store.ts, append.ts, entry-writes.ts, session-copy.ts).
 */

import type { DbScope } from "@/lib/db/client";
import { StrataError } from "@/lib/errors/strata-error";
import { CURRENT_SESSION_VERSION, type SessionHeader } from "./entries";
import { SessionNotFoundError } from "./errors";

/** A `sessions` row: `leafId` null = empty session or reset leaf; timestamps ISO-8601. */
export interface SessionRow {
  id: string;
  projectId: string;
  userId: string | null;
  title: string | null;
  cwd: string;
  leafId: string | null;
  createdAt: string;
  updatedAt: string;
  /** "This session only" trust (true / false), null = none: the user's stored decision applies. */
  trustOverride: boolean | null;
  /** The open rules proposal whose team rules this session previews, or null (lib/projects/team-rules-resources.ts). */
  rulesPreviewProposalId: string | null;
}

export interface RawSession {
  id: string;
  project_id: string;
  user_id: string | null;
  title: string | null;
  cwd: string;
  leaf_id: string | null;
  header: Record<string, unknown> | null;
  created_at: Date | string;
  updated_at: Date | string;
  trust_override?: boolean | null;
  rules_preview_proposal_id?: string | null;
}

export type Query = <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<R[]>;

export const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

export function toSession(r: RawSession): SessionRow {
  return {
    id: r.id,
    projectId: r.project_id,
    userId: r.user_id,
    title: r.title,
    cwd: r.cwd,
    leafId: r.leaf_id,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    trustOverride: r.trust_override ?? null,
    rulesPreviewProposalId: r.rules_preview_proposal_id ?? null,
  };
}

/** Thrown when another writer moved the leaf between read and append. */
export class LeafMovedError extends StrataError {
  constructor(sessionId: string) {
    super(409, "conflict", `Session ${sessionId} changed concurrently (its leaf moved); reload and retry`);
    this.name = "LeafMovedError";
  }
}

/**
 * Thrown by `appendCompaction` while tool calls of the branch's newest assistant message have no result
 * yet: a compaction entry must never land between a tool call and its result. The caller waits for the
 * results to be stored (the tool batch to finish) and retries. `toolCallIds` lists the unanswered calls.
 */
export class CompactionPendingError extends StrataError {
  constructor(readonly toolCallIds: string[]) {
    super(
      409,
      "compaction_pending",
      `Cannot compact while tool calls are unanswered: ${toolCallIds.join(", ")}; retry after their results`,
    );
    this.name = "CompactionPendingError";
  }
}

/** Create an empty session for a project. `header` = a pi header to keep for export (pi's `session-manager.ts`). */
export async function createSession(
  scope: DbScope,
  input: {
    projectId: string;
    userId?: string | null;
    cwd: string;
    title?: string | null;
    header?: SessionHeader | null;
  },
): Promise<SessionRow> {
  const [row] = await scope.query<RawSession>(
    "INSERT INTO sessions (project_id, user_id, cwd, title, header) VALUES ($1, $2, $3, $4, $5) RETURNING *",
    [
      input.projectId,
      input.userId ?? null,
      input.cwd,
      input.title ?? null,
      input.header ? JSON.stringify(input.header) : null,
    ],
  );
  return toSession(row);
}

/** A session by id, or null. */
export async function getSession(scope: DbScope, id: string): Promise<SessionRow | null> {
  const rows = await scope.query<RawSession>("SELECT * FROM sessions WHERE id = $1", [id]);
  return rows[0] ? toSession(rows[0]) : null;
}

/** A project's sessions, most recently updated first. */
export async function listSessions(scope: DbScope, projectId: string): Promise<SessionRow[]> {
  const rows = await scope.query<RawSession>(
    "SELECT * FROM sessions WHERE project_id = $1 ORDER BY updated_at DESC, created_at DESC",
    [projectId],
  );
  return rows.map(toSession);
}

/** Set the session's display title. */
export async function setSessionTitle(scope: DbScope, id: string, title: string): Promise<void> {
  await scope.query("UPDATE sessions SET title = $2, updated_at = now() WHERE id = $1", [id, title]);
}

/**
 * The session's pi header (pi's `session-manager.ts`): the stored one (imported or branched sessions), else one synthesised
 * as `{type:"session", version:3, id, timestamp: created_at, cwd}`.
 * @throws Error `Session <id> not found`.
 */
export async function getSessionHeader(scope: DbScope, sessionId: string): Promise<SessionHeader> {
  const [row] = await scope.query<RawSession>("SELECT * FROM sessions WHERE id = $1", [sessionId]);
  if (!row) throw new SessionNotFoundError(sessionId);
  if (row.header) return row.header as unknown as SessionHeader;
  return {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id: row.id,
    timestamp: iso(row.created_at),
    cwd: row.cwd,
  };
}
