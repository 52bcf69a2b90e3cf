/**
 * The change feed of a project's files: a version token of everything `/tree` lists, cheap enough for every
 * open tab to poll every few seconds (the IDE re-reads the tree and its open files only when it changes).
 */
import type { DbScope } from "@/lib/db/client";

/** `LIKE` pattern of everything strictly below `dir` (wildcards in the literal escaped). */
function below(dir: string): string {
  return `${dir.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
}

/**
 * The version of the files below `root` (the repository's `.git` left out): an opaque token that changes
 * whenever a node there is created, changed, moved or deleted — by this tab, another tab, the agent, a
 * `!command` or the CLI. It is a fingerprint of the nodes' (path, version, mtime) set computed in one
 * statement over the `vfs_nodes` primary key (workspace, path): the node count, the sums of their row versions
 * (every update increments one) and mtimes (every write sets one) and of a hash of their paths (a move changes
 * it). A concurrent change is seen by the next call.
 * With `sessionId`, the files are that session's working tree: its own rows (lib/vfs/worktree-store.ts) are
 * fingerprinted the same way and appended.
 * @param scope the request's database scope; `workspaceId` the project's workspace; `root` its absolute root.
 * @returns e.g. `"12.15.20433449190112.-1872993612"` (with a session: two such parts joined by `:`).
 */
export async function projectTreeVersion(
  scope: DbScope,
  workspaceId: string,
  root: string,
  sessionId?: string,
): Promise<string> {
  const rows = await scope.query<{ n: string; v: string; m: string; h: string }>(
    `SELECT count(*)::text AS n, coalesce(sum(version), 0)::text AS v, coalesce(sum(mtime_ms), 0)::text AS m,
       coalesce(sum(hashtext(path)), 0)::text AS h
     FROM vfs_nodes
     WHERE workspace_id = $1 AND path LIKE $2 AND path <> $3 AND path NOT LIKE $4`,
    [workspaceId, below(root), `${root}/.git`, below(`${root}/.git`)],
  );
  const r = rows[0];
  const main = `${r.n}.${r.v}.${r.m}.${r.h}`;
  if (!sessionId) return main;
  const [own] = await scope.query<{ n: string; v: string; m: string; h: string }>(
    `SELECT count(*)::text AS n, coalesce(sum(version), 0)::text AS v, coalesce(sum(mtime_ms), 0)::text AS m,
       coalesce(sum(hashtext(path || kind)), 0)::text AS h
     FROM worktree_nodes WHERE session_id = $1`,
    [sessionId],
  );
  return `${main}:${own.n}.${own.v}.${own.m}.${own.h}`;
}
