/** The `rule_proposals` and `rule_proposal_comments` rows, always scoped by workspace. */

import type { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { RulesInputError, RulesNotFoundError } from "./errors";
import type { Proposal, ProposalComment, ProposalStatus } from "./types";

/** A proposal row with the names joined (no head oid: that lives in git). */
export type ProposalRow = Omit<Proposal, "headOid">;

interface RawProposal {
  id: string;
  workspace_id: string;
  author_user_id: string;
  author_name: string;
  author_email: string;
  title: string;
  description: string;
  branch: string;
  base_oid: string;
  status: ProposalStatus;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_at: Date | string | null;
  merged_oid: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const iso = (v: Date | string) => new Date(v).toISOString();

function toRow(r: RawProposal): ProposalRow {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    authorUserId: r.author_user_id,
    authorName: r.author_name,
    authorEmail: r.author_email,
    title: r.title,
    description: r.description,
    branch: r.branch,
    baseOid: r.base_oid,
    status: r.status,
    decidedBy: r.decided_by,
    decidedByName: r.decided_by_name,
    decidedAt: r.decided_at ? iso(r.decided_at) : null,
    mergedOid: r.merged_oid,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

const SELECT = `SELECT p.id, p.workspace_id, p.author_user_id, a.name AS author_name, a.email AS author_email,
  p.title, p.description, p.branch, p.base_oid, p.status, p.decided_by, d.name AS decided_by_name, p.decided_at,
  p.merged_oid, p.created_at, p.updated_at
  FROM rule_proposals p JOIN users a ON a.id = p.author_user_id LEFT JOIN users d ON d.id = p.decided_by`;

/** The not-found error of a proposal (same words for one of another workspace). */
export const proposalNotFound = (id: string) => new RulesNotFoundError(`Proposal ${id} not found`);

/** Proposal `id` of `workspaceId`. @throws RulesNotFoundError (also for another workspace's). */
export async function proposalRow(scope: DbScope, workspaceId: string, id: string): Promise<ProposalRow> {
  if (!isUuid(id)) throw proposalNotFound(id);
  const rows = await scope.query<RawProposal>(`${SELECT} WHERE p.id = $1 AND p.workspace_id = $2`, [
    id,
    workspaceId,
  ]);
  if (!rows[0]) throw proposalNotFound(id);
  return toRow(rows[0]);
}

/** The workspace's proposals, newest first. */
export async function proposalRows(
  scope: DbScope,
  workspaceId: string,
  status?: ProposalStatus,
): Promise<ProposalRow[]> {
  const rows = await scope.query<RawProposal>(
    `${SELECT} WHERE p.workspace_id = $1 AND ($2::text IS NULL OR p.status = $2) ORDER BY p.created_at DESC, p.id`,
    [workspaceId, status ?? null],
  );
  return rows.map(toRow);
}

/** Check and trim a title (1..200 characters) and description (at most 20,000). @throws RulesInputError. */
export function checkText(input: { title?: string; description?: string }): {
  title?: string;
  description?: string;
} {
  const title = input.title?.trim();
  if (title !== undefined && (title.length === 0 || title.length > 200))
    throw new RulesInputError(
      "The proposal title must be 1 to 200 characters; say in a line what it changes.",
    );
  const description = input.description?.trim();
  if (description !== undefined && description.length > 20_000)
    throw new RulesInputError("The proposal description is over 20,000 characters; shorten it.");
  return { title, description };
}

export async function insertProposal(
  scope: DbScope,
  row: {
    id: string;
    workspaceId: string;
    authorUserId: string;
    title: string;
    description: string;
    baseOid: string;
  },
): Promise<void> {
  await scope.query(
    `INSERT INTO rule_proposals (id, workspace_id, author_user_id, title, description, branch, base_oid)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      row.id,
      row.workspaceId,
      row.authorUserId,
      row.title,
      row.description,
      `proposals/${row.id}`,
      row.baseOid,
    ],
  );
}

/** Touch (and retitle) an open proposal; false when it is no longer open. */
export async function touchProposal(
  scope: DbScope,
  workspaceId: string,
  id: string,
  text: { title?: string; description?: string },
): Promise<boolean> {
  const rows = await scope.query(
    `UPDATE rule_proposals SET title = COALESCE($3, title), description = COALESCE($4, description),
       updated_at = now() WHERE id = $1 AND workspace_id = $2 AND status = 'open' RETURNING id`,
    [id, workspaceId, text.title ?? null, text.description ?? null],
  );
  return rows.length > 0;
}

/** Close an open proposal with `status`; false when it was not open any more. */
export async function decideProposal(
  scope: DbScope,
  workspaceId: string,
  id: string,
  decision: {
    status: Exclude<ProposalStatus, "open">;
    decidedBy: string;
    mergedOid?: string;
    /** An approval: the merge base it merged from, kept so the proposal's diff stays readable after the merge. */
    baseOid?: string;
  },
): Promise<boolean> {
  const rows = await scope.query(
    `UPDATE rule_proposals SET status = $3, decided_by = $4, decided_at = now(), merged_oid = $5,
       base_oid = COALESCE($6, base_oid), updated_at = now()
     WHERE id = $1 AND workspace_id = $2 AND status = 'open' RETURNING id`,
    [
      id,
      workspaceId,
      decision.status,
      decision.decidedBy,
      decision.mergedOid ?? null,
      decision.baseOid ?? null,
    ],
  );
  return rows.length > 0;
}

interface RawComment {
  id: string;
  proposal_id: string;
  author_user_id: string;
  author_name: string;
  body: string;
  created_at: Date | string;
}

const toComment = (r: RawComment): ProposalComment => ({
  id: r.id,
  proposalId: r.proposal_id,
  authorUserId: r.author_user_id,
  authorName: r.author_name,
  body: r.body,
  createdAt: iso(r.created_at),
});

/** Add a comment (body 1..20,000 characters after trimming). @throws RulesInputError. */
export async function insertComment(
  scope: DbScope,
  proposalId: string,
  authorUserId: string,
  body: string,
): Promise<ProposalComment> {
  const text = body.trim();
  if (text.length === 0)
    throw new RulesInputError("The comment is empty; write what you think of the change.");
  if (text.length > 20_000) throw new RulesInputError("The comment is over 20,000 characters; shorten it.");
  const rows = await scope.query<RawComment>(
    `WITH c AS (INSERT INTO rule_proposal_comments (proposal_id, author_user_id, body) VALUES ($1, $2, $3)
       RETURNING id, proposal_id, author_user_id, body, created_at)
     SELECT c.*, u.name AS author_name FROM c JOIN users u ON u.id = c.author_user_id`,
    [proposalId, authorUserId, text],
  );
  return toComment(rows[0]);
}

/** A proposal's comments, oldest first. */
export async function commentRows(scope: DbScope, proposalId: string): Promise<ProposalComment[]> {
  const rows = await scope.query<RawComment>(
    `SELECT c.id, c.proposal_id, c.author_user_id, c.body, c.created_at, u.name AS author_name
     FROM rule_proposal_comments c JOIN users u ON u.id = c.author_user_id
     WHERE c.proposal_id = $1 ORDER BY c.created_at, c.id`,
    [proposalId],
  );
  return rows.map(toComment);
}
