/**
 * The team rules root as a session's resource loader sees it (lib/rules, `RULES_ROOT` = `/.team`): for a project
 * in a team workspace, main's work tree in the team's VFS — or, while the session previews an open proposal
 * (`sessions.rules_preview_proposal_id`), that proposal branch's files in an in-memory VFS at the same paths.
 * A proposal that is no longer open (approved, rejected, withdrawn) or gone previews nothing: the session reads
 * main again without anyone clearing the column; nor does one whose author is not the session's user. Projects of a personal workspace have no team rules.
 */
import type { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import {
  getProposal,
  RULES_ROOT,
  RulesForbiddenError,
  RulesNotFoundError,
  type RulesRef,
  RulesStateError,
  readRulesTree,
} from "@/lib/rules";
import type { SessionRow } from "@/lib/session/store";
import { MemoryVfsStore } from "@/lib/vfs/memory-store";
import { Vfs } from "@/lib/vfs/vfs";

/** A previewed proposal: its id and title (for the Context panel's banner). */
export interface RulesPreview {
  proposalId: string;
  title: string;
}

/** The team rules a session reads. */
export interface SessionTeamRules {
  /** The filesystem holding the rules root: the team workspace's VFS (main) or a proposal's files in memory. */
  fs: Vfs;
  /** The rules root on `fs` ({@link RULES_ROOT}). */
  dir: string;
  /** The proposal previewed, or null for main. */
  preview: RulesPreview | null;
  /** The git ref the files come from (for their history). */
  ref: RulesRef;
}

/**
 * The team rules of `session`'s project in `workspaceId`, or null when the workspace is not a team. The preview of
 * a proposal applies while it is open and, for a session with an owner, only that owner's proposal.
 * @param session the session; with `current` (its row read in this request) its `rulesPreviewProposalId` and
 *   `userId` are used as they are, else they are read with the workspace.
 * @param vfs the team workspace's VFS (main's work tree is read from it).
 * @throws the driver's error when a query fails.
 */
export async function openSessionTeamRules(
  scope: DbScope,
  input: {
    session: Pick<SessionRow, "id" | "userId" | "rulesPreviewProposalId">;
    current: boolean;
    workspaceId: string;
    vfs: Vfs;
  },
): Promise<SessionTeamRules | null> {
  const { session } = input;
  const rows = await scope.query<{ kind: string; proposal_id: string | null; title: string | null }>(
    input.current
      ? `SELECT w.kind, p.id AS proposal_id, p.title
           FROM workspaces w
           LEFT JOIN rule_proposals p
             ON p.id = $2::uuid AND p.workspace_id = w.id AND p.status = 'open'
            AND ($3::uuid IS NULL OR p.author_user_id = $3::uuid)
          WHERE w.id = $1`
      : `SELECT w.kind, p.id AS proposal_id, p.title
           FROM workspaces w
           LEFT JOIN sessions s ON s.id = $2
           LEFT JOIN rule_proposals p
             ON p.id = s.rules_preview_proposal_id AND p.workspace_id = w.id AND p.status = 'open'
            AND (s.user_id IS NULL OR p.author_user_id = s.user_id)
          WHERE w.id = $1`,
    input.current
      ? [input.workspaceId, session.rulesPreviewProposalId, session.userId]
      : [input.workspaceId, session.id],
  );
  const row = rows[0];
  if (row?.kind !== "team") return null;
  const main: SessionTeamRules = { fs: input.vfs, dir: RULES_ROOT, preview: null, ref: "main" };
  if (!row.proposal_id || row.title === null) return main;
  const ref = { proposalId: row.proposal_id };
  let tree: Map<string, string>;
  try {
    tree = await readRulesTree(scope, input.workspaceId, ref);
  } catch (error) {
    if (error instanceof RulesNotFoundError) return main;
    throw error;
  }
  const store = new MemoryVfsStore(
    [...tree].map(([path, data]) => ({ path: `${RULES_ROOT}/${path}`, data })),
  );
  // The rules root exists even for an empty tree, as main's work tree does.
  if (tree.size === 0) store.seed([{ path: RULES_ROOT, kind: "dir" }]);
  return {
    fs: new Vfs(store),
    dir: RULES_ROOT,
    preview: { proposalId: row.proposal_id, title: row.title },
    ref,
  };
}

/**
 * Start (a proposal id) or stop (null) previewing a proposal in session `sessionId` of team `workspaceId`, as
 * `userId`. The caller checked that the user may write the session.
 * @returns the preview now in effect.
 * @throws RulesNotFoundError (404: no such proposal in this workspace), RulesForbiddenError (403: only the
 *   proposal's author previews it, and only in a session they started), RulesStateError (409: the proposal is no
 *   longer open).
 */
export async function setRulesPreview(
  scope: DbScope,
  input: { sessionId: string; workspaceId: string; userId: string; proposalId: string | null },
): Promise<RulesPreview | null> {
  if (input.proposalId === null) {
    await scope.query("UPDATE sessions SET rules_preview_proposal_id = NULL WHERE id = $1", [
      input.sessionId,
    ]);
    return null;
  }
  if (!isUuid(input.proposalId)) throw new RulesNotFoundError(`Proposal ${input.proposalId} not found`);
  const proposal = await getProposal(scope, input.workspaceId, input.proposalId);
  if (proposal.authorUserId !== input.userId)
    throw new RulesForbiddenError(
      `Only the author of proposal “${proposal.title}” can preview it. Ask ${proposal.authorName} to, or review its diff instead.`,
    );
  // Only in the author's own sessions: in a teammate's session the unreviewed files would become that teammate's
  // system prompt (their agent, their commits) without any review.
  const [owner] = await scope.query<{ user_id: string | null }>(
    "SELECT user_id FROM sessions WHERE id = $1",
    [input.sessionId],
  );
  if (owner?.user_id && owner.user_id !== input.userId)
    throw new RulesForbiddenError(
      `Preview proposal “${proposal.title}” in a session you started: this session is a teammate's, and their prompts would run with rules nobody has reviewed yet.`,
    );
  if (proposal.status !== "open")
    throw new RulesStateError(
      `Proposal “${proposal.title}” is ${proposal.status}; only an open proposal can be previewed.`,
    );
  await scope.query("UPDATE sessions SET rules_preview_proposal_id = $2 WHERE id = $1", [
    input.sessionId,
    proposal.id,
  ]);
  return { proposalId: proposal.id, title: proposal.title };
}
