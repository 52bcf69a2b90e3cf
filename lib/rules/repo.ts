/**
 * The rules repository itself: creating it, direct changes (work tree + commit on main), history and reading trees.
 */
import type { DbScope } from "@/lib/db/client";
import { initRepository } from "@/lib/vfs/git";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { applyChanges, checkChanges, cleanRulesPath, withRulesVfs } from "./changes";
import { RulesNotFoundError } from "./errors";
import { changedPaths, type FlatTree, MAIN_REF, proposalRef, RulesRepo } from "./git-tree";
import { proposalRow } from "./proposal-store";
import {
  RULES_ROOT,
  type RulesAuthor,
  type RulesChange,
  type RulesChangeInfo,
  type RulesFileInfo,
  type RulesLogEntry,
  type RulesRef,
} from "./types";

/** The author of the repository's first (empty) commit. */
export const STRATA_AUTHOR: RulesAuthor = { name: "Strata", email: "strata@strata.localhost" };
export const INITIAL_MESSAGE = "Create the team rules repository";

/** Whether `workspaceId` is a team. */
async function isTeam(scope: DbScope, workspaceId: string): Promise<boolean> {
  const rows = await scope.query<{ kind: string }>("SELECT kind FROM workspaces WHERE id = $1", [
    workspaceId,
  ]);
  return rows[0]?.kind === "team";
}

/** @throws RulesNotFoundError unless `workspaceId` is a team. */
export async function requireTeam(scope: DbScope, workspaceId: string): Promise<void> {
  if (!(await isTeam(scope, workspaceId)))
    throw new RulesNotFoundError(
      `Workspace ${workspaceId} has no team rules: only a team workspace has a rules root. Create a team first.`,
    );
}

/** In an open operation: main's head, creating the repository (empty initial commit) when missing. */
export async function ensureIn(repo: RulesRepo): Promise<string> {
  const head = (await repo.exists()) ? await repo.resolve(MAIN_REF) : null;
  if (head) return head;
  await initRepository(repo.vfs, RULES_ROOT, { defaultBranch: "main" });
  const tree = await repo.writeFlat(new Map());
  const oid = await repo.writeCommit({ tree, parents: [], author: STRATA_AUTHOR, message: INITIAL_MESSAGE });
  await repo.setRef(MAIN_REF, oid);
  return oid;
}

/**
 * Create the rules repository of team `workspaceId` when missing: `/.team/.git` (HEAD → main) with main holding one
 * commit of an empty tree ("Create the team rules repository", author Strata <strata@strata.localhost>); the work
 * tree starts empty. Idempotent, also under concurrency (the losing creator retries and finds it).
 * @returns main's head oid.
 * @throws RulesNotFoundError when the workspace does not exist or is not a team.
 */
export async function ensureRulesRepo(scope: DbScope, workspaceId: string): Promise<string> {
  await requireTeam(scope, workspaceId);
  return withRulesVfs(scope, workspaceId, ensureIn);
}

/**
 * Write `target`'s content into the `/.team` work tree for each path that differs from `from` (deleting files
 * `target` lacks and folders left empty).
 */
export async function checkout(repo: RulesRepo, from: FlatTree, target: FlatTree): Promise<void> {
  for (const path of changedPaths(from, target)) {
    const abs = `${RULES_ROOT}/${path}`;
    const entry = target.get(path);
    if (entry) {
      await repo.vfs.writeFile(abs, await repo.blob(entry.oid));
      continue;
    }
    if (await repo.vfs.exists(abs)) await repo.vfs.unlink(abs);
    for (let dir = abs.slice(0, abs.lastIndexOf("/")); dir !== RULES_ROOT; ) {
      if (!(await repo.vfs.exists(dir)) || (await repo.vfs.readdir(dir)).length > 0) break;
      await repo.vfs.rmdir(dir);
      dir = dir.slice(0, dir.lastIndexOf("/"));
    }
  }
}

/**
 * A direct change (owners and admins; the caller checked the role): write `changes` into the `/.team` work tree
 * and commit them on main as `author` with `message`, in one VFS transaction; concurrent writers are serialised
 * (a writer that lost the race on main's ref retries on the new head), so no commit is lost.
 * @returns `{ oid, changed: true }` of the new commit, or `{ oid: head, changed: false }` when every file already
 *   had that content (no commit).
 * @throws RulesInputError (bad or duplicate path, too large), RulesNotFoundError (not a team; deleting a missing file).
 */
export async function writeRulesFiles(
  scope: DbScope,
  workspaceId: string,
  author: RulesAuthor,
  changes: RulesChange[],
  message: string,
): Promise<{ oid: string; changed: boolean }> {
  const clean = checkChanges(changes);
  await requireTeam(scope, workspaceId);
  const text = message.trim() || `Update ${clean.map((c) => c.path).join(", ")}`;
  return withRulesVfs(scope, workspaceId, async (repo) => {
    const head = await ensureIn(repo);
    const before = await repo.flat(head);
    const after = await applyChanges(repo, before, clean);
    // Unchanged: the blobs existed already, so nothing is dirty and nothing is flushed.
    if (changedPaths(before, after).length === 0) return { oid: head, changed: false };
    const tree = await repo.writeFlat(after);
    const oid = await repo.writeCommit({ tree, parents: [head], author, message: text });
    await repo.setRef(MAIN_REF, oid);
    await checkout(repo, before, after);
    return { oid, changed: true };
  });
}

/** A read-only view of the workspace's rules repository (null when it does not exist yet). */
async function openReader(scope: DbScope, workspaceId: string): Promise<RulesRepo | null> {
  const { vfs } = openWorkspaceVfs(workspaceId, scope);
  const repo = new RulesRepo(vfs);
  await repo.preload();
  return (await repo.exists()) ? repo : null;
}

/** The head of `ref` in `repo`. @throws RulesNotFoundError for a proposal of another workspace. */
async function headOf(
  scope: DbScope,
  workspaceId: string,
  repo: RulesRepo,
  ref: RulesRef,
): Promise<string | null> {
  if (ref === "main") return repo.resolve(MAIN_REF);
  const row = await proposalRow(scope, workspaceId, ref.proposalId);
  return repo.resolve(proposalRef(row.id));
}

/**
 * The newest commit on `ref` that touched `path` (relative to the rules root; git's history simplification, so a
 * merged proposal's file names the proposal's author), or null: no repository, a workspace that is not a team, a
 * path never committed.
 * @throws RulesNotFoundError for a proposal of another workspace.
 */
export async function lastChange(
  scope: DbScope,
  workspaceId: string,
  path: string,
  ref: RulesRef = "main",
): Promise<RulesChangeInfo | null> {
  const repo = await openReader(scope, workspaceId);
  if (!repo) return null;
  const head = await headOf(scope, workspaceId, repo, ref);
  return head ? repo.lastChange(head, cleanRulesPath(path)) : null;
}

/** The last change of many paths of `ref` at once (shared caches), path → info (null: never committed). */
export async function lastChanges(
  scope: DbScope,
  workspaceId: string,
  paths: string[],
  ref: RulesRef = "main",
): Promise<Map<string, RulesChangeInfo | null>> {
  const out = new Map<string, RulesChangeInfo | null>(paths.map((p) => [p, null]));
  const repo = await openReader(scope, workspaceId);
  const head = repo ? await headOf(scope, workspaceId, repo, ref) : null;
  if (!repo || !head) return out;
  for (const p of paths) out.set(p, await repo.lastChange(head, cleanRulesPath(p)));
  return out;
}

/** main's commits, newest first, at most `limit` (default 50). Empty when the repository does not exist yet. */
export async function rulesLog(scope: DbScope, workspaceId: string, limit = 50): Promise<RulesLogEntry[]> {
  const repo = await openReader(scope, workspaceId);
  const head = repo ? await repo.resolve(MAIN_REF) : null;
  return repo && head ? repo.log(head, Math.max(1, Math.min(limit, 1000))) : [];
}

/**
 * The text files of `ref` (main, or a proposal branch's head), relative path → content, in path order; files that
 * are not valid UTF-8 are left out. An empty map when the repository does not exist yet (or the workspace is not a
 * team).
 * @throws RulesNotFoundError for a proposal of another workspace.
 */
export async function readRulesTree(
  scope: DbScope,
  workspaceId: string,
  ref: RulesRef = "main",
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const repo = await openReader(scope, workspaceId);
  const head = repo ? await headOf(scope, workspaceId, repo, ref) : null;
  if (!repo || !head) return out;
  const flat = await repo.flat(head);
  for (const path of [...flat.keys()].sort()) {
    const text = await repo.text(flat.get(path)!.oid);
    if (text !== null) out.set(path, text);
  }
  return out;
}

/**
 * main's files with their size (bytes) and last change, sorted by path.
 * @throws RulesNotFoundError when the workspace is not a team.
 */
export async function listRulesFiles(scope: DbScope, workspaceId: string): Promise<RulesFileInfo[]> {
  await requireTeam(scope, workspaceId);
  const repo = await openReader(scope, workspaceId);
  const head = repo ? await repo.resolve(MAIN_REF) : null;
  if (!repo || !head) return [];
  const flat = await repo.flat(head);
  const out: RulesFileInfo[] = [];
  for (const path of [...flat.keys()].sort()) {
    const size = (await repo.blob(flat.get(path)!.oid)).byteLength;
    out.push({ path, size, lastChange: await repo.lastChange(head, path) });
  }
  return out;
}

/**
 * One file of main with its last change.
 * @throws RulesNotFoundError when the workspace is not a team or the file does not exist (or is not UTF-8 text).
 */
export async function readRulesFile(
  scope: DbScope,
  workspaceId: string,
  path: string,
): Promise<{ path: string; content: string; lastChange: RulesChangeInfo | null }> {
  const clean = cleanRulesPath(path);
  await requireTeam(scope, workspaceId);
  const repo = await openReader(scope, workspaceId);
  const head = repo ? await repo.resolve(MAIN_REF) : null;
  const entry = head ? (await repo!.flat(head)).get(clean) : undefined;
  const content = entry ? await repo!.text(entry.oid) : null;
  if (!repo || !head || content === null)
    throw new RulesNotFoundError(`The team rules have no file ${clean}. Create it, or check the path.`);
  return { path: clean, content, lastChange: await repo.lastChange(head, clean) };
}
