/**
 * The rules repository itself: creating it, direct changes (worktree + commit on main), history and reading trees.
 */
import type { DbScope } from "@/lib/db/client";
import type {
  RulesAuthor,
  RulesChange,
  RulesChangeInfo,
  RulesFileInfo,
  RulesLogEntry,
  RulesRef,
} from "./types";

const todo = (): never => {
  throw new Error("not implemented");
};

/**
 * Create the rules repository of team `workspaceId` when missing: `/.team/.git` with `main` holding one empty
 * commit ("Create the team rules repository", author Strata). Idempotent, also under concurrency.
 * @returns main's head oid.
 * @throws RulesNotFoundError when the workspace does not exist or is not a team.
 */
export async function ensureRulesRepo(_scope: DbScope, _workspaceId: string): Promise<string> {
  return todo();
}

/**
 * A direct change (owners and admins; the caller checked): write `changes` into the `/.team` work tree and commit
 * them on main as `author`, in one VFS transaction; concurrent writers are serialised by retrying on conflict.
 * @returns `{ oid }` of the new commit, or `{ oid: head, changed: false }` when nothing differed.
 * @throws RulesInputError (bad path, duplicate path, too large), RulesNotFoundError (not a team).
 */
export async function writeRulesFiles(
  _scope: DbScope,
  _workspaceId: string,
  _author: RulesAuthor,
  _changes: RulesChange[],
  _message: string,
): Promise<{ oid: string; changed: boolean }> {
  return todo();
}

/** The newest commit on `ref` that touched `path` (relative to the rules root), or null (no repo, never touched). */
export async function lastChange(
  _scope: DbScope,
  _workspaceId: string,
  _path: string,
  _ref: RulesRef = "main",
): Promise<RulesChangeInfo | null> {
  return todo();
}

/** The last-change info of many paths of main at once (one history walk). */
export async function lastChanges(
  _scope: DbScope,
  _workspaceId: string,
  _paths: string[],
): Promise<Map<string, RulesChangeInfo | null>> {
  return todo();
}

/** main's commits, newest first, at most `limit` (default 50). Empty when the repository does not exist yet. */
export async function rulesLog(_scope: DbScope, _workspaceId: string, _limit = 50): Promise<RulesLogEntry[]> {
  return todo();
}

/**
 * The text files of `ref` (main, or a proposal branch head), relative path → content; files that are not UTF-8
 * are left out. Empty map when the repository does not exist yet.
 * @throws RulesNotFoundError for a proposal of another workspace.
 */
export async function readRulesTree(
  _scope: DbScope,
  _workspaceId: string,
  _ref: RulesRef = "main",
): Promise<Map<string, string>> {
  return todo();
}

/** main's files with size and last change, sorted by path. */
export async function listRulesFiles(_scope: DbScope, _workspaceId: string): Promise<RulesFileInfo[]> {
  return todo();
}

/**
 * One file of main. @throws RulesNotFoundError when it does not exist.
 */
export async function readRulesFile(
  _scope: DbScope,
  _workspaceId: string,
  _path: string,
): Promise<{ path: string; content: string; lastChange: RulesChangeInfo | null }> {
  return todo();
}
