/**
 * Published shares in Postgres (`session_shares`, `session_share_files`; docs/sharing.md). Publishing stores the
 * owner's approved preview as an immutable snapshot under a fresh unguessable token (24 random bytes from Web Crypto,
 * base64url: 192 bits); nothing ever updates a share. Revoking deletes the row and its files, so every URL of the
 * share answers 404 afterwards; an expired share is revoked when it is next looked up. Deleting a session, project or
 * team revokes its shares first (`lib/session/lifecycle.ts` and `lib/projects/projects.ts` run the same DELETE in
 * their own transaction; `lib/auth/workspaces.ts`'s team-delete hook runs it just before Better Auth's delete, not in
 * one transaction, which fails safe; the RESTRICT foreign keys make a forgotten path fail). Edge-safe: this
 * file never imports the redaction code (secretlint is Node-only).
 */
import type { Caller } from "@/lib/auth/caller";
import { asRole, roleAllows } from "@/lib/auth/roles";
import type { DbScope } from "@/lib/db/client";
import { isDbTrouble } from "@/lib/db/errors";
import { isUuid } from "@/lib/db/ids";
import type { Project } from "@/lib/projects/projects";
import type { SessionRow } from "@/lib/session/store";
import { ShareError } from "./errors";
import { CONTROL_CHARS } from "./paths";
import type { ShareOptions, SharePreview, ShareSnapshot, ShareSummary } from "./types";

/** A live share with what the public routes serve. */
export interface ShareRow extends ShareSummary {
  token: string;
  snapshot: ShareSnapshot;
}

/** Longest expiry a share may have: one year from publishing. */
export const MAX_SHARE_LIFETIME_MS = 366 * 24 * 3600 * 1000;

/** Token shape: base64url, 22 to 64 characters (what {@link newShareToken} makes is 32). */
const TOKEN = /^[A-Za-z0-9_-]{22,64}$/;

/** A new share token: 24 random bytes from `crypto.getRandomValues`, base64url without padding (32 characters). */
export function newShareToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

interface RawShare {
  id: string;
  token: string;
  workspace_id: string;
  project_id: string;
  project_name: string;
  session_id: string;
  created_by: string;
  creator_name: string;
  created_at: Date | string;
  expires_at: Date | string | null;
  title: string;
  include_files: boolean;
  include_system: boolean;
  entry_count: number;
  redaction_count: number;
  snapshot?: ShareSnapshot | string;
}

const SELECT_SUMMARY = `SELECT sh.id, sh.token, sh.workspace_id, sh.project_id, p.name AS project_name, sh.session_id,
  sh.created_by, u.name AS creator_name, sh.created_at, sh.expires_at, sh.title, sh.include_files,
  sh.include_system, sh.entry_count, sh.redaction_count
  FROM session_shares sh JOIN projects p ON p.id = sh.project_id JOIN users u ON u.id = sh.created_by`;

const iso = (d: Date | string) => new Date(d).toISOString();

function toSummary(r: RawShare): ShareSummary {
  return {
    id: r.id,
    url: `/s/${r.token}`,
    sessionId: r.session_id,
    // The snapshot's (redacted) title, never the live session's: a title holding a secret must not reach a list.
    sessionTitle: r.title,
    projectId: r.project_id,
    projectName: r.project_name,
    workspaceId: r.workspace_id,
    title: r.title,
    entryCount: r.entry_count,
    includeFiles: r.include_files,
    includeSystem: r.include_system,
    redactionCount: r.redaction_count,
    createdAt: iso(r.created_at),
    createdBy: { id: r.created_by, name: r.creator_name },
    expiresAt: r.expires_at === null ? null : iso(r.expires_at),
  };
}

/**
 * Store `preview` as a new share of `session` (always a new token and snapshot; re-sharing never reuses one).
 * `expiresAt` must be in the future and at most a year away.
 *
 * **All or nothing.** The share row, every shared file and the summary read back run in one transaction: should any
 * statement fail, or the connection stay lost past the retry budget, no row of the share exists and its token serves
 * the 404 of an unknown share — never a share with part of its files. A dropped connection re-runs the transaction on
 * a new one (exactly once as seen by the database).
 * @returns the share's summary (its `url` is `/s/<token>`).
 * @throws ShareError 422 `bad_expiry`; DbBusyError / DbUnavailableError (503, nothing published unless its
 *   `commitUnknown`); ShareError 500 `publish_failed` for any other failure (nothing published).
 */
export async function publishShare(
  scope: DbScope,
  input: {
    session: SessionRow;
    project: Project;
    userId: string;
    preview: SharePreview;
    options: ShareOptions;
    expiresAt: Date | null;
  },
): Promise<ShareSummary> {
  const { session, project, preview, options, expiresAt } = input;
  if (expiresAt) {
    const left = expiresAt.getTime() - Date.now();
    if (!(left > 0) || left > MAX_SHARE_LIFETIME_MS)
      throw new ShareError(422, "bad_expiry", "The expiry must be in the future and at most one year away");
  }
  const token = newShareToken();
  const { snapshot, fileTexts } = preview;
  const publish = scope.transaction(async (q) => {
    const [row] = await q<{ id: string }>(
      `INSERT INTO session_shares (token, workspace_id, project_id, session_id, leaf_entry_id, created_by, expires_at,
         title, include_files, include_system, entry_count, redaction_count, snapshot, digest)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14) RETURNING id`,
      [
        token,
        project.workspaceId,
        project.id,
        session.id,
        options.leafId,
        input.userId,
        expiresAt,
        snapshot.title,
        options.includeFiles,
        options.includeSystem,
        snapshot.entries.length,
        snapshot.redactions.length,
        JSON.stringify(snapshot),
        preview.digest,
      ],
    );
    const files = (snapshot.files ?? []).filter((f) => !f.omitted && fileTexts[f.path] !== undefined);
    for (let i = 0; i < files.length; i += 200) {
      const chunk = files.slice(i, i + 200);
      await q(
        `INSERT INTO session_share_files (share_id, path, text, size, mode)
         SELECT $1, t.path, t.text, t.size, t.mode FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[])
           AS t(path, text, size, mode)`,
        [
          row.id,
          chunk.map((f) => f.path),
          chunk.map((f) => fileTexts[f.path]),
          chunk.map((f) => f.size),
          chunk.map((f) => f.mode),
        ],
      );
    }
    const [summary] = await q<RawShare>(`${SELECT_SUMMARY} WHERE sh.id = $1`, [row.id]);
    return summary;
  });
  try {
    return toSummary(await publish);
  } catch (error) {
    if (isDbTrouble(error)) throw error;
    throw new ShareError(
      500,
      "publish_failed",
      "The share could not be stored, so nothing was published (no link exists). Publish again; if it keeps failing, report it.",
      { cause: error },
    );
  }
}

/**
 * The live share of `token`, or null for an unknown, malformed, revoked or expired token (an expired share is
 * revoked here). The lookup is one equality on the unique index.
 */
export async function findLiveShare(scope: DbScope, token: string): Promise<ShareRow | null> {
  if (typeof token !== "string" || !TOKEN.test(token)) return null;
  const [row] = await scope.query<RawShare>(
    `${SELECT_SUMMARY.replace(" FROM", ", sh.snapshot FROM")} WHERE sh.token = $1`,
    [token],
  );
  if (!row) return null;
  if (row.expires_at !== null && new Date(row.expires_at).getTime() <= Date.now()) {
    await scope.query("DELETE FROM session_shares WHERE id = $1", [row.id]);
    return null;
  }
  const snapshot =
    typeof row.snapshot === "string" ? (JSON.parse(row.snapshot) as ShareSnapshot) : row.snapshot!;
  return { ...toSummary(row), token: row.token, snapshot };
}

/**
 * One shared file's redacted text, or null when `path` is not a file of the share (or the share is gone), a path with
 * a control character (NUL included) too.
 */
export async function readSharedFile(
  scope: DbScope,
  shareId: string,
  path: string,
): Promise<{ text: string; size: number; mode: string } | null> {
  // A NUL cannot reach Postgres (text refuses it: a 500); no shared path holds a control character.
  if (CONTROL_CHARS.test(path)) return null;
  const [row] = await scope.query<{ text: string; size: string | number; mode: string }>(
    "SELECT text, size, mode FROM session_share_files WHERE share_id = $1 AND path = $2",
    [shareId, path],
  );
  return row ? { text: row.text, size: Number(row.size), mode: row.mode } : null;
}

/** Every shared file's redacted text: path → text (empty when files were not shared). */
export async function readSharedFiles(scope: DbScope, shareId: string): Promise<Record<string, string>> {
  const rows = await scope.query<{ path: string; text: string }>(
    "SELECT path, text FROM session_share_files WHERE share_id = $1 ORDER BY path",
    [shareId],
  );
  return Object.fromEntries(rows.map((r) => [r.path, r.text]));
}

/** The live shares of a session, newest first (expired ones are left out, and revoked on the next lookup). */
export async function listSharesForSession(scope: DbScope, sessionId: string): Promise<ShareSummary[]> {
  const rows = await scope.query<RawShare>(
    `${SELECT_SUMMARY} WHERE sh.session_id = $1 AND (sh.expires_at IS NULL OR sh.expires_at > now())
     ORDER BY sh.created_at DESC, sh.id`,
    [sessionId],
  );
  return rows.map(toSummary);
}

/**
 * The caller's current role in the share's workspace, as `authorizeWorkspace` sees it (an agent workspace: its owner
 * only), or NULL for someone who is not (or no longer) a member. Needs `sh` and the caller's id as `$<n>`.
 */
const callerRole = (param: string) => `(SELECT CASE WHEN w.kind = 'agent'
    THEN CASE WHEN w.owner_user_id = ${param} THEN 'owner' END
    ELSE (SELECT m.role FROM workspace_members m WHERE m.workspace_id = w.id AND m.user_id = ${param}) END
  FROM workspaces w WHERE w.id = sh.workspace_id)`;

/**
 * Every live share `caller` may revoke, in the workspaces they are a member of now: those they created (any role), and
 * every share of a workspace where they are admin or owner. A former member sees none of that workspace's shares.
 */
export async function listSharesForCaller(
  scope: DbScope,
  caller: Pick<Caller, "userId">,
): Promise<ShareSummary[]> {
  const rows = await scope.query<RawShare>(
    `SELECT * FROM (${SELECT_SUMMARY.replace(" FROM", `, ${callerRole("$1")} AS caller_role FROM`)}
       WHERE sh.expires_at IS NULL OR sh.expires_at > now()) shares
     WHERE caller_role IN ('owner', 'admin') OR (created_by = $1 AND caller_role IN ('member', 'viewer'))
     ORDER BY created_at DESC, id`,
    [caller.userId],
  );
  return rows.map(toSummary);
}

/**
 * Revoke a share: its creator while still a member of its workspace (any role), or an admin or owner of the workspace,
 * deletes it (snapshot and files).
 * @throws ShareError 404 `not_found` "Share <id> not found" (no such share, or the caller is not — or no longer — a
 *   member of its workspace, its creator included); 403 `forbidden` for a member below admin who did not create it.
 */
export async function revokeShare(
  scope: DbScope,
  caller: Pick<Caller, "userId">,
  shareId: string,
): Promise<void> {
  const missing = () => new ShareError(404, "not_found", `Share ${shareId} not found`);
  if (!isUuid(shareId)) throw missing();
  const [row] = await scope.query<{ created_by: string; role: string | null }>(
    `SELECT sh.created_by, ${callerRole("$2")} AS role FROM session_shares sh WHERE sh.id = $1`,
    [shareId, caller.userId],
  );
  if (!row) throw missing();
  const role = asRole(row.role);
  if (role === null) throw missing();
  if (row.created_by !== caller.userId && !roleAllows(role, "manage"))
    throw new ShareError(
      403,
      "forbidden",
      `Your role in this workspace (${role}) cannot revoke a share someone else created. Ask its creator or an admin.`,
    );
  await scope.query("DELETE FROM session_shares WHERE id = $1", [shareId]);
}
