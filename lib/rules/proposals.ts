/**
 * Reviewed changes of the rules root: a proposal is branch `proposals/<id>` of the rules repository plus a
 * `rule_proposals` row; comments are `rule_proposal_comments`. Every function is scoped by workspace: a proposal
 * id of another workspace is not found. The git side runs in `withRulesVfs` (retried when a concurrent writer
 * moved a ref it read), the row is updated after the flush.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import type { DbScope } from "@/lib/db/client";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { applyChanges, checkChanges, withRulesVfs } from "./changes";
import { RulesConflictError, RulesForbiddenError, RulesInputError, RulesStateError } from "./errors";
import {
  changedPaths,
  type FlatTree,
  MAIN_REF,
  proposalRef,
  RulesRepo as Repo,
  type RulesRepo,
} from "./git-tree";
import {
  checkText,
  commentRows,
  decideProposal,
  insertComment,
  insertProposal,
  type ProposalRow,
  proposalRow,
  proposalRows,
  touchProposal,
} from "./proposal-store";
import { checkout, ensureIn, requireTeam } from "./repo";
import type {
  Proposal,
  ProposalComment,
  ProposalFileDiff,
  ProposalStatus,
  RulesChange,
  RulesUser,
} from "./types";

/** @throws RulesStateError unless the proposal is open. */
function requireOpen(row: ProposalRow, action: string): void {
  if (row.status !== "open")
    throw new RulesStateError(
      `Proposal ${row.id} is ${row.status}; only an open proposal can be ${action}. Create a new proposal instead.`,
    );
}

/** @throws RulesForbiddenError unless `user` wrote the proposal. */
function requireAuthor(row: ProposalRow, user: RulesUser, action: string): void {
  if (row.authorUserId !== user.userId)
    throw new RulesForbiddenError(
      `Only the author of a proposal (${row.authorName}) can ${action} it; comment on it instead.`,
    );
}

/**
 * Where a branch stands against main: the heads, their merge base and the paths each side changed since it,
 * `conflicts` being the paths both changed to different content.
 */
async function compare(repo: RulesRepo, proposalId: string) {
  const main = await repo.resolve(MAIN_REF);
  const head = await repo.resolve(proposalRef(proposalId));
  if (!main || !head)
    throw new RulesStateError(
      `The branch of proposal ${proposalId} is missing from the rules repository; create a new proposal.`,
    );
  const base = (await repo.mergeBase(main, head)) ?? main;
  const [baseFlat, mainFlat, headFlat] = await Promise.all([
    repo.flat(base),
    repo.flat(main),
    repo.flat(head),
  ]);
  const ours = changedPaths(baseFlat, mainFlat);
  const theirs = changedPaths(baseFlat, headFlat);
  const conflicts = theirs.filter((p) => ours.includes(p) && !sameEntry(mainFlat, headFlat, p));
  return { main, head, base, baseFlat, mainFlat, headFlat, theirs, conflicts };
}

/** The paths an approved proposal changed: its branch head against the merge base it was merged from (`baseOid`). */
async function compareMerged(repo: RulesRepo, proposalId: string, baseOid: string) {
  const head = await repo.resolve(proposalRef(proposalId));
  if (!head)
    throw new RulesStateError(`The branch of proposal ${proposalId} is missing from the rules repository.`);
  const [baseFlat, headFlat] = await Promise.all([repo.flat(baseOid), repo.flat(head)]);
  return { baseFlat, headFlat, theirs: changedPaths(baseFlat, headFlat) };
}

function sameEntry(a: FlatTree, b: FlatTree, path: string): boolean {
  const x = a.get(path);
  const y = b.get(path);
  return x?.oid === y?.oid && x?.mode === y?.mode;
}

/** `target` with the branch's changes (`paths`, as in `branch`) applied. */
function overlay(target: FlatTree, branch: FlatTree, paths: string[]): FlatTree {
  const out: FlatTree = new Map(target);
  for (const p of paths) {
    const e = branch.get(p);
    if (e) out.set(p, e);
    else out.delete(p);
  }
  return out;
}

async function withHead(scope: DbScope, workspaceId: string, row: ProposalRow): Promise<Proposal> {
  const { vfs } = openWorkspaceVfs(workspaceId, scope);
  const repo = new Repo(vfs);
  return { ...row, headOid: await repo.resolve(proposalRef(row.id)) };
}

/**
 * Propose `changes` (a member or above; the route checks): branch `proposals/<id>` from main's head (`baseOid`) with
 * one commit of them by `author` (message: the title, a blank line and the description); the `/.team` work tree
 * is not touched.
 * @throws RulesInputError (no change, bad path, a change equal to main, bad title), RulesNotFoundError (not a team,
 *   deleting a file main lacks).
 */
export async function createProposal(
  scope: DbScope,
  workspaceId: string,
  author: RulesUser,
  input: { title: string; description?: string; changes: RulesChange[] },
): Promise<Proposal> {
  const text = checkText({ title: input.title, description: input.description ?? "" });
  const changes = checkChanges(input.changes);
  await requireTeam(scope, workspaceId);
  const id = crypto.randomUUID();
  const { base, head } = await withRulesVfs(scope, workspaceId, async (repo) => {
    const main = await ensureIn(repo);
    const before = await repo.flat(main);
    const after = await applyChanges(repo, before, changes);
    if (changedPaths(before, after).length === 0)
      throw new RulesInputError("The proposal changes nothing: every file already has this content on main.");
    const message = text.description ? `${text.title}\n\n${text.description}` : text.title!;
    const oid = await repo.writeCommit({
      tree: await repo.writeFlat(after),
      parents: [main],
      author,
      message,
    });
    await repo.setRef(proposalRef(id), oid);
    return { base: main, head: oid };
  });
  await insertProposal(scope, {
    id,
    workspaceId,
    authorUserId: author.userId,
    title: text.title!,
    description: text.description ?? "",
    baseOid: base,
  });
  return { ...(await proposalRow(scope, workspaceId, id)), headOid: head };
}

/**
 * The author adds a commit of `changes` to their open proposal's branch (title/description updated when given).
 * When main moved since the branch's merge base, that commit also merges main in (parents: branch head, main head;
 * tree: main with the proposal's changes and these), so the proposal is up to date with main; a path both main and
 * the proposal changed must be among `changes` (its new content resolves the conflict).
 * @throws RulesNotFoundError, RulesForbiddenError (not the author), RulesStateError (not open), RulesConflictError
 *   ("main changed X since this proposal; include X in the update…"), RulesInputError.
 */
export async function updateProposal(
  scope: DbScope,
  workspaceId: string,
  proposalId: string,
  author: RulesUser,
  input: { title?: string; description?: string; changes: RulesChange[] },
): Promise<Proposal> {
  const text = checkText(input);
  const changes = input.changes.length > 0 ? checkChanges(input.changes) : [];
  let row = await proposalRow(scope, workspaceId, proposalId);
  requireAuthor(row, author, "update");
  requireOpen(row, "updated");
  if (changes.length > 0) {
    await withRulesVfs(scope, workspaceId, async (repo) => {
      row = await proposalRow(scope, workspaceId, proposalId);
      requireOpen(row, "updated");
      const c = await compare(repo, proposalId);
      const moved = c.base !== c.main;
      const given = new Set(changes.map((x) => x.path));
      const unresolved = c.conflicts.filter((p) => !given.has(p));
      if (moved && unresolved.length > 0)
        throw new RulesConflictError(
          unresolved,
          `main changed ${unresolved.join(", ")} since this proposal; include ${unresolved.length === 1 ? "that file" : "those files"} in the update with the content you want (start from main's version).`,
        );
      const start = moved ? overlay(c.mainFlat, c.headFlat, c.theirs) : c.headFlat;
      const after = await applyChanges(repo, start, changes);
      if (!moved && changedPaths(c.headFlat, after).length === 0)
        throw new RulesInputError("The update changes nothing: the proposal already has this content.");
      const title = text.title ?? row.title;
      const oid = await repo.writeCommit({
        tree: await repo.writeFlat(after),
        parents: moved ? [c.head, c.main] : [c.head],
        author,
        message: moved ? `Update proposal: ${title} (with main merged in)` : `Update proposal: ${title}`,
      });
      await repo.setRef(proposalRef(proposalId), oid);
    });
  }
  if (!(await touchProposal(scope, workspaceId, proposalId, text)))
    requireOpen(await proposalRow(scope, workspaceId, proposalId), "updated");
  return getProposal(scope, workspaceId, proposalId);
}

/** One proposal with its branch head. @throws RulesNotFoundError (no such proposal in this workspace). */
export async function getProposal(
  scope: DbScope,
  workspaceId: string,
  proposalId: string,
): Promise<Proposal> {
  return withHead(scope, workspaceId, await proposalRow(scope, workspaceId, proposalId));
}

/** The workspace's proposals, newest first, optionally of one status (author and decider names joined). */
export async function listProposals(
  scope: DbScope,
  workspaceId: string,
  options: { status?: ProposalStatus } = {},
): Promise<Proposal[]> {
  const rows = await proposalRows(scope, workspaceId, options.status);
  if (rows.length === 0) return [];
  const { vfs } = openWorkspaceVfs(workspaceId, scope);
  const repo = new Repo(vfs);
  await repo.preload();
  return Promise.all(rows.map(async (r) => ({ ...r, headOid: await repo.resolve(proposalRef(r.id)) })));
}

/**
 * The files the proposal changes, from the merge base of its branch and main to the branch head, sorted by path;
 * `patch` is the `diff` package's unified diff (`--- a/<path>` / `+++ b/<path>`, `/dev/null` for an added or
 * deleted side, 3 lines of context, no `===` line).
 * @throws RulesNotFoundError; RulesStateError when the branch is missing.
 */
export async function proposalDiff(
  scope: DbScope,
  workspaceId: string,
  proposalId: string,
): Promise<ProposalFileDiff[]> {
  const row = await proposalRow(scope, workspaceId, proposalId);
  const { vfs } = openWorkspaceVfs(workspaceId, scope);
  const repo = new Repo(vfs);
  await repo.preload();
  // Once merged, main contains the branch (the merge base is its head): the diff is against the base it merged from.
  const c =
    row.status === "approved"
      ? await compareMerged(repo, proposalId, row.baseOid)
      : await compare(repo, proposalId);
  const out: ProposalFileDiff[] = [];
  for (const path of c.theirs) {
    const b = c.baseFlat.get(path);
    const a = c.headFlat.get(path);
    const before = b ? ((await repo.text(b.oid)) ?? "") : null;
    const after = a ? ((await repo.text(a.oid)) ?? "") : null;
    const status = before === null ? "added" : after === null ? "deleted" : "modified";
    const patch = createTwoFilesPatch(
      before === null ? "/dev/null" : `a/${path}`,
      after === null ? "/dev/null" : `b/${path}`,
      before ?? "",
      after ?? "",
      undefined,
      undefined,
      { context: 3, headerOptions: FILE_HEADERS_ONLY },
    );
    out.push({ path, status, before, after, patch });
  }
  return out;
}

/** Add a review comment (any member who may write; the route checks). @throws RulesNotFoundError, RulesInputError (empty). */
export async function commentOnProposal(
  scope: DbScope,
  workspaceId: string,
  proposalId: string,
  author: RulesUser,
  body: string,
): Promise<ProposalComment> {
  await proposalRow(scope, workspaceId, proposalId);
  return insertComment(scope, proposalId, author.userId, body);
}

/** The proposal's comments, oldest first. @throws RulesNotFoundError. */
export async function listComments(
  scope: DbScope,
  workspaceId: string,
  proposalId: string,
): Promise<ProposalComment[]> {
  await proposalRow(scope, workspaceId, proposalId);
  return commentRows(scope, proposalId);
}

/**
 * Approve and merge into main (an owner or admin; the route checks): a fast-forward when main has not moved since
 * the merge base, else a merge commit by `reviewer` (parents: main, branch head; message `Merge proposal "<title>"`)
 * when no path was changed differently on both sides; then the merged files are checked out into `/.team` and the
 * row becomes approved (decided_by/at, merged_oid = main's new head).
 * @throws RulesNotFoundError, RulesStateError (not open), RulesConflictError ("main changed X since this proposal;
 *   the author must update it.").
 */
export async function approveProposal(
  scope: DbScope,
  workspaceId: string,
  proposalId: string,
  reviewer: RulesUser,
): Promise<Proposal> {
  requireOpen(await proposalRow(scope, workspaceId, proposalId), "approved");
  const merged = await withRulesVfs(scope, workspaceId, async (repo) => {
    const row = await proposalRow(scope, workspaceId, proposalId);
    requireOpen(row, "approved");
    const c = await compare(repo, proposalId);
    // Rewritten unchanged: an update of the branch racing this merge makes one of them retry.
    await repo.setRef(proposalRef(proposalId), c.head);
    if (c.base === c.head) return { oid: c.main, base: c.base };
    if (c.conflicts.length > 0) throw new RulesConflictError(c.conflicts);
    let oid = c.head;
    let target = c.headFlat;
    if (c.base !== c.main) {
      target = overlay(c.mainFlat, c.headFlat, c.theirs);
      oid = await repo.writeCommit({
        tree: await repo.writeFlat(target),
        parents: [c.main, c.head],
        author: reviewer,
        message: `Merge proposal "${row.title}"\n\nProposal ${row.id} by ${row.authorName}.`,
      });
    }
    await repo.setRef(MAIN_REF, oid);
    await checkout(repo, c.mainFlat, target);
    return { oid, base: c.base };
  });
  await decideProposal(scope, workspaceId, proposalId, {
    status: "approved",
    decidedBy: reviewer.userId,
    mergedOid: merged.oid,
    baseOid: merged.base,
  });
  return getProposal(scope, workspaceId, proposalId);
}

/**
 * Reject an open proposal (an owner or admin; the route checks); a non-empty `reason` is stored as the reviewer's
 * comment "Rejected: <reason>". The branch stays in the repository.
 * @throws RulesNotFoundError, RulesStateError.
 */
export async function rejectProposal(
  scope: DbScope,
  workspaceId: string,
  proposalId: string,
  reviewer: RulesUser,
  reason?: string,
): Promise<Proposal> {
  requireOpen(await proposalRow(scope, workspaceId, proposalId), "rejected");
  if (
    !(await decideProposal(scope, workspaceId, proposalId, {
      status: "rejected",
      decidedBy: reviewer.userId,
    }))
  )
    requireOpen(await proposalRow(scope, workspaceId, proposalId), "rejected");
  if (reason?.trim()) await insertComment(scope, proposalId, reviewer.userId, `Rejected: ${reason.trim()}`);
  return getProposal(scope, workspaceId, proposalId);
}

/** The author withdraws their open proposal. @throws RulesNotFoundError, RulesForbiddenError, RulesStateError. */
export async function withdrawProposal(
  scope: DbScope,
  workspaceId: string,
  proposalId: string,
  author: RulesUser,
): Promise<Proposal> {
  const row = await proposalRow(scope, workspaceId, proposalId);
  requireAuthor(row, author, "withdraw");
  requireOpen(row, "withdrawn");
  if (
    !(await decideProposal(scope, workspaceId, proposalId, { status: "withdrawn", decidedBy: author.userId }))
  )
    requireOpen(await proposalRow(scope, workspaceId, proposalId), "withdrawn");
  return getProposal(scope, workspaceId, proposalId);
}
