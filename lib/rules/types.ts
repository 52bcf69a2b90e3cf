/** Shapes of the team rules layer (lib/rules): authors, changes, history entries, proposals, diffs, comments. */

/** RULES_ROOT: the rules root's absolute path in a team workspace's VFS (a git work tree; `.git` inside). */
export const RULES_ROOT = "/.team";

/** Who makes a direct change or a merge commit (git author and committer). */
export interface RulesAuthor {
  name: string;
  email: string;
}

/** A signed-in user acting on proposals: the git identity plus the user id stored in `rule_proposals`. */
export interface RulesUser extends RulesAuthor {
  userId: string;
}

/**
 * One file change, `path` relative to the rules root ("AGENTS.md", "skills/review/SKILL.md"); `content` the
 * whole new UTF-8 text, or null to delete the file.
 */
export interface RulesChange {
  path: string;
  content: string | null;
}

/** The newest commit that touched a path (or any commit, in a log). `timestamp` in ms since the epoch. */
export interface RulesChangeInfo {
  oid: string;
  authorName: string;
  authorEmail: string;
  timestamp: number;
}

/** One commit of the rules repository, newest first in `rulesLog`. */
export interface RulesLogEntry extends RulesChangeInfo {
  /** The commit message without its trailing newline. */
  message: string;
  parents: string[];
}

/** Which state of the rules to read: main (what everyone gets) or a proposal branch's head. */
export type RulesRef = "main" | { proposalId: string };

export type ProposalStatus = "open" | "approved" | "rejected" | "withdrawn";

/** A proposal as the API shows it (names joined from `users`). Times are ISO strings. */
export interface Proposal {
  id: string;
  workspaceId: string;
  authorUserId: string;
  authorName: string;
  authorEmail: string;
  title: string;
  description: string;
  /** `proposals/<id>` (the ref is `refs/heads/proposals/<id>`). */
  branch: string;
  /** main's commit the proposal was branched from. */
  baseOid: string;
  /** The branch's head commit now (null only if the branch was lost). */
  headOid: string | null;
  status: ProposalStatus;
  decidedBy: string | null;
  decidedByName: string | null;
  decidedAt: string | null;
  /** The commit on main after approval (the branch head after a fast-forward, else the merge commit). */
  mergedOid: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One changed file of a proposal, between the merge base with main and the branch head. */
export interface ProposalFileDiff {
  path: string;
  status: "added" | "modified" | "deleted";
  /** The text at the merge base (null when added). */
  before: string | null;
  /** The text at the branch head (null when deleted). */
  after: string | null;
  /** Unified diff (the `diff` package's `createTwoFilesPatch`, `a/<path>` → `b/<path>`, 3 lines of context). */
  patch: string;
}

/** A review comment. `createdAt` ISO string. */
export interface ProposalComment {
  id: string;
  proposalId: string;
  authorUserId: string;
  authorName: string;
  body: string;
  createdAt: string;
}

/** A file of the rules root on main, for the file list. `size` in UTF-8 bytes. */
export interface RulesFileInfo {
  path: string;
  size: number;
  lastChange: RulesChangeInfo | null;
}
