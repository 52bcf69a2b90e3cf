/**
 * Merges that wait for an admin (docs/checkpoints.md, "Approval in a team"): when a team workspace turns
 * `merge_approval` on, a member's "Merge into main" becomes a merge request — the review flow of team rules: the
 * request (the session's work committed as it was asked, with the texts chosen for conflicts), comments, and an
 * owner's or admin's approve (the merge, made then, in their name) or reject. Owners and admins merge directly. One
 * open request per session; asking again replaces its work.
 */
import { roleAllows, type WorkspaceAccess } from "@/lib/auth/roles";
import type { DbScope } from "@/lib/db/client";
import { openSessionVfs } from "@/lib/vfs/workspace";
import { CheckpointError } from "./errors";
import { MergeConflictError, type MergeInput, type MergeResult, mergeIntoMain } from "./merge";
import { sessionTip } from "./merge-tip";

export type MergeRequestStatus = "open" | "approved" | "rejected" | "withdrawn";

/** A merge request as the review page shows it. Times are ISO strings. */
export interface MergeRequestView {
  id: string;
  sessionId: string;
  authorUserId: string;
  authorName: string;
  tipOid: string;
  mainOid: string;
  status: MergeRequestStatus;
  decidedByName: string | null;
  decidedAt: string | null;
  mergedOid: string | null;
  createdAt: string;
  comments: { id: string; authorName: string; body: string; createdAt: string }[];
}

/** The longest comment (characters). */
export const MAX_COMMENT = 10_000;

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** Whether team workspace `workspaceId` makes members' merges wait for approval (false for other kinds). */
export async function getMergeApproval(scope: DbScope, workspaceId: string): Promise<boolean> {
  const rows = await scope.query<{ on: boolean }>(
    "SELECT merge_approval AND kind = 'team' AS on FROM workspaces WHERE id = $1",
    [workspaceId],
  );
  return rows[0]?.on ?? false;
}

/** Turn approval of merges on or off for team workspace `workspaceId` (authorised before). @returns the stored value. */
export async function setMergeApproval(scope: DbScope, workspaceId: string, on: boolean): Promise<boolean> {
  const rows = await scope.query<{ merge_approval: boolean }>(
    "UPDATE workspaces SET merge_approval = $2 WHERE id = $1 AND kind = 'team' RETURNING merge_approval",
    [workspaceId, on],
  );
  if (!rows[0])
    throw new CheckpointError(400, "not_a_team", "Approval of merges is a setting of team workspaces.");
  return rows[0].merge_approval;
}

/** Whether a caller with `access` must ask for approval to merge (a member of a team that requires it). */
export async function approvalNeeded(scope: DbScope, access: WorkspaceAccess): Promise<boolean> {
  return !roleAllows(access.role, "manage") && (await getMergeApproval(scope, access.workspaceId));
}

/**
 * "Merge into main" for `input.access`: the merge itself, or for a member who needs approval a merge request of the
 * session's work now (its working tree committed) with `input.resolutions` — refused like a merge while a conflict
 * has no chosen text. @returns the review, with `request` when one was made (main untouched then).
 * @throws MergeConflictError (409) for unresolved conflicts; what {@link mergeIntoMain} throws.
 */
export async function mergeOrRequest(
  input: MergeInput,
): Promise<MergeResult & { request?: MergeRequestView }> {
  if (input.preview || !input.access || !(await approvalNeeded(input.scope, input.access)))
    return mergeIntoMain(input);
  if (!input.userId)
    throw new CheckpointError(403, "forbidden", "Only a signed-in member can ask for a merge.");
  const own = openSessionVfs(input.project, input.session.id, input.scope).vfs;
  const tip = await sessionTip(own, input, true);
  const review = await mergeIntoMain({ ...input, tip: tip ?? undefined, preview: true });
  if (review.conflicts.length > 0) throw new MergeConflictError(review.conflicts);
  if (!review.tip || !review.main)
    throw new CheckpointError(409, "no_repository", "This project has no commits to merge.");
  // Asking again withdraws the open request (its comments stay with what they were about) and makes a new one.
  await input.scope.transaction(async (q) => {
    await q(
      "UPDATE merge_requests SET status = 'withdrawn', updated_at = now() WHERE session_id = $1 AND status = 'open'",
      [input.session.id],
    );
    await q(
      `INSERT INTO merge_requests (session_id, author_user_id, tip_oid, main_oid, resolutions)
       VALUES ($1, $2, $3, $4, $5)`,
      [input.session.id, input.userId, review.tip, review.main, JSON.stringify(input.resolutions ?? {})],
    );
  });
  return { ...review, request: (await sessionMergeRequest(input.scope, input.session.id)) ?? undefined };
}

/** The session's newest merge request with its comments (oldest first), or null. */
export async function sessionMergeRequest(
  scope: DbScope,
  sessionId: string,
): Promise<MergeRequestView | null> {
  const [r] = await scope.query<{
    id: string;
    author_user_id: string;
    author_name: string;
    tip_oid: string;
    main_oid: string;
    status: MergeRequestStatus;
    decided_by_name: string | null;
    decided_at: Date | string | null;
    merged_oid: string | null;
    created_at: Date | string;
  }>(
    `SELECT r.id, r.author_user_id, a.name AS author_name, r.tip_oid, r.main_oid, r.status, d.name AS decided_by_name,
       r.decided_at, r.merged_oid, r.created_at
     FROM merge_requests r JOIN users a ON a.id = r.author_user_id LEFT JOIN users d ON d.id = r.decided_by
     WHERE r.session_id = $1 ORDER BY r.created_at DESC, r.id LIMIT 1`,
    [sessionId],
  );
  if (!r) return null;
  const comments = await scope.query<{
    id: string;
    author_name: string;
    body: string;
    created_at: Date | string;
  }>(
    `SELECT c.id, u.name AS author_name, c.body, c.created_at FROM merge_request_comments c
     JOIN users u ON u.id = c.author_user_id WHERE c.request_id = $1 ORDER BY c.created_at, c.id`,
    [r.id],
  );
  return {
    id: r.id,
    sessionId,
    authorUserId: r.author_user_id,
    authorName: r.author_name,
    tipOid: r.tip_oid,
    mainOid: r.main_oid,
    status: r.status,
    decidedByName: r.decided_by_name,
    decidedAt: iso(r.decided_at),
    mergedOid: r.merged_oid,
    createdAt: iso(r.created_at) as string,
    comments: comments.map((c) => ({
      id: c.id,
      authorName: c.author_name,
      body: c.body,
      createdAt: iso(c.created_at) as string,
    })),
  };
}

/** The session's open request. @throws CheckpointError 409 `no_open_request`. */
async function openRequest(scope: DbScope, sessionId: string): Promise<MergeRequestView> {
  const request = await sessionMergeRequest(scope, sessionId);
  if (request?.status !== "open")
    throw new CheckpointError(
      409,
      "no_open_request",
      "This session has no merge request waiting for a decision.",
    );
  return request;
}

/**
 * Decide the session's open merge request as an owner or admin (authorised before): `approve` merges the work as
 * asked (the requested tip and chosen texts) into main now, in the approver's name; `reject` closes it. `requestTip`:
 * the request's `tipOid` the decider saw (another: 409 `request_changed`). An optional `comment` is stored too.
 * @returns the request after the decision, and the merge when approved.
 * @throws CheckpointError 409 `no_open_request`, `request_changed`; MergeConflictError when main changed since in the same places
 *   (the member asks again after bringing main in); what {@link mergeIntoMain} throws. Nothing is decided then.
 */
export async function decideMergeRequest(
  input: MergeInput & { decision: "approve" | "reject"; requestTip: string; comment?: string },
): Promise<{ request: MergeRequestView; merge: MergeResult | null }> {
  const { scope, session } = input;
  const request = await openRequest(scope, session.id);
  // The decision is about the work the decider saw: claimed atomically, so a second decision or a new ask
  // cannot change what is merged meanwhile.
  const [claimed] = await scope.query<{ resolutions: Record<string, string | null> }>(
    `UPDATE merge_requests SET status = 'deciding', updated_at = now()
     WHERE id = $1 AND status = 'open' AND tip_oid = $2 RETURNING resolutions`,
    [request.id, input.requestTip],
  );
  if (!claimed)
    throw new CheckpointError(
      409,
      "request_changed",
      "This merge request changed or was decided since you loaded it. Nothing was decided; load the page again.",
    );
  let merge: MergeResult | null = null;
  try {
    if (input.decision === "approve")
      merge = await mergeIntoMain({ ...input, tip: request.tipOid, resolutions: claimed.resolutions ?? {} });
  } catch (error) {
    await scope.query("UPDATE merge_requests SET status = 'open' WHERE id = $1 AND status = 'deciding'", [
      request.id,
    ]);
    throw error;
  }
  if (input.comment?.trim()) await commentMergeRequest(scope, session.id, input.userId, input.comment);
  await scope.query(
    `UPDATE merge_requests SET status = $2, decided_by = $3, decided_at = now(), merged_oid = $4, updated_at = now()
     WHERE id = $1 AND status = 'deciding'`,
    [request.id, input.decision === "approve" ? "approved" : "rejected", input.userId, merge?.commit ?? null],
  );
  return { request: (await sessionMergeRequest(scope, session.id)) as MergeRequestView, merge };
}

/** Add `body` (trimmed, 1–{@link MAX_COMMENT} characters) by `userId` to the session's newest request. */
export async function commentMergeRequest(
  scope: DbScope,
  sessionId: string,
  userId: string | null,
  body: string,
): Promise<MergeRequestView> {
  const text = body.trim();
  if (!text || text.length > MAX_COMMENT)
    throw new CheckpointError(400, "invalid_comment", `A comment has 1 to ${MAX_COMMENT} characters.`);
  const request = await sessionMergeRequest(scope, sessionId);
  if (!request || !userId)
    throw new CheckpointError(409, "no_open_request", "This session has no merge request to comment on.");
  await scope.query(
    "INSERT INTO merge_request_comments (request_id, author_user_id, body) VALUES ($1, $2, $3)",
    [request.id, userId, text],
  );
  return (await sessionMergeRequest(scope, sessionId)) as MergeRequestView;
}
