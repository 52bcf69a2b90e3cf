/**
 * Reviewed changes of the rules root: a proposal is branch `proposals/<id>` of the rules repository plus a
 * `rule_proposals` row; comments are `rule_proposal_comments`. Every function is scoped by workspace: a proposal
 * id of another workspace is not found.
 */
import type { DbScope } from "@/lib/db/client";
import type {
  Proposal,
  ProposalComment,
  ProposalFileDiff,
  ProposalStatus,
  RulesChange,
  RulesUser,
} from "./types";

const todo = (): never => {
  throw new Error("not implemented");
};

/**
 * Propose `changes`: branch `proposals/<id>` from main's head (`baseOid`) with one commit of them by `author`; the
 * `/.team` work tree is not touched.
 * @throws RulesInputError (no change, bad path, nothing differs from main), RulesNotFoundError (not a team).
 */
export async function createProposal(
  _scope: DbScope,
  _workspaceId: string,
  _author: RulesUser,
  _input: { title: string; description?: string; changes: RulesChange[] },
): Promise<Proposal> {
  return todo();
}

/**
 * The author adds a commit of `changes` to the open proposal's branch (also updates title/description when given).
 * When main moved since the branch's merge base, the commit also merges main in (parents: branch head, main), so a
 * conflicting path the author includes in `changes` is resolved by its new content.
 * @throws RulesNotFoundError, RulesForbiddenError (not the author), RulesStateError (not open),
 *   RulesConflictError (main changed a path of the proposal the update does not include), RulesInputError.
 */
export async function updateProposal(
  _scope: DbScope,
  _workspaceId: string,
  _proposalId: string,
  _author: RulesUser,
  _input: { title?: string; description?: string; changes: RulesChange[] },
): Promise<Proposal> {
  return todo();
}

/** One proposal. @throws RulesNotFoundError (no such proposal in this workspace). */
export async function getProposal(
  _scope: DbScope,
  _workspaceId: string,
  _proposalId: string,
): Promise<Proposal> {
  return todo();
}

/** The workspace's proposals, newest first, optionally of one status. */
export async function listProposals(
  _scope: DbScope,
  _workspaceId: string,
  _options: { status?: ProposalStatus } = {},
): Promise<Proposal[]> {
  return todo();
}

/**
 * The files the proposal changes, between the merge base of its branch and main and the branch head, sorted by path.
 * @throws RulesNotFoundError.
 */
export async function proposalDiff(
  _scope: DbScope,
  _workspaceId: string,
  _proposalId: string,
): Promise<ProposalFileDiff[]> {
  return todo();
}

/** Add a review comment (any member who may write; the route checks). @throws RulesNotFoundError, RulesInputError (empty). */
export async function commentOnProposal(
  _scope: DbScope,
  _workspaceId: string,
  _proposalId: string,
  _author: RulesUser,
  _body: string,
): Promise<ProposalComment> {
  return todo();
}

/** The proposal's comments, oldest first. @throws RulesNotFoundError. */
export async function listComments(
  _scope: DbScope,
  _workspaceId: string,
  _proposalId: string,
): Promise<ProposalComment[]> {
  return todo();
}

/**
 * Approve and merge into main: a fast-forward when main has not moved since the merge base, else a merge commit by
 * `reviewer` when the changed paths do not conflict; then the merged files are checked out into `/.team` and the row
 * becomes approved (decided_by/at, merged_oid).
 * @throws RulesNotFoundError, RulesStateError (not open), RulesConflictError ("main changed X since this proposal;
 *   the author must update it.").
 */
export async function approveProposal(
  _scope: DbScope,
  _workspaceId: string,
  _proposalId: string,
  _reviewer: RulesUser,
): Promise<Proposal> {
  return todo();
}

/** Reject (a reviewer); a `reason` is stored as the reviewer's comment. @throws RulesNotFoundError, RulesStateError. */
export async function rejectProposal(
  _scope: DbScope,
  _workspaceId: string,
  _proposalId: string,
  _reviewer: RulesUser,
  _reason?: string,
): Promise<Proposal> {
  return todo();
}

/** The author withdraws their open proposal. @throws RulesNotFoundError, RulesForbiddenError, RulesStateError. */
export async function withdrawProposal(
  _scope: DbScope,
  _workspaceId: string,
  _proposalId: string,
  _author: RulesUser,
): Promise<Proposal> {
  return todo();
}
