/**
 * Push a commit of a project's repository (HEAD's branch, a session's checkpoint ref, or a commit id) to a branch
 * of a remote over git smart HTTP (isomorphic-git `push`, through the transport the route injects: the guarded one
 * of lib/net/git-http.ts). Nothing of the project changes: the remote-tracking ref isomorphic-git writes stays in
 * the VFS cache, which is never flushed.
 */

import * as git from "isomorphic-git";
import type { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { entryCommit } from "@/lib/session/checkpoint-rows";
import { sessionRef } from "@/lib/vfs/session-ref";
import type { Vfs } from "@/lib/vfs/vfs";
import { RemoteError, remoteFailure } from "./errors";
import { branchNameProblem, sessionBranchName } from "./refs";
import { authCallbacks, type Remote } from "./remote";
import { openRepo, type Repo, resolveSource } from "./tree";

/** What to push where. */
export interface PushRequest {
  /** The commit: `HEAD` (default without `sessionId`), a 40-hex oid or a full ref. */
  source?: string;
  /** A session of the project: its checkpoint ref is the default source and its title the default branch. */
  sessionId?: string;
  /** The remote branch (short name). Default: `strata/<slug of the session title>` or HEAD's branch. */
  branch?: string;
  /** Overwrite the remote branch even when it is not a fast-forward. */
  force?: boolean;
}

/** What a push did. */
export interface PushOutcome {
  host: string;
  branch: string;
  commit: string;
  /** The remote branch's commit before the push, or null when the push created it. */
  previous: string | null;
  forced: boolean;
}

const ZERO = "0000000000000000000000000000000000000000";

/**
 * What a session's push sends by default: the commit its current leaf stands on (the conversation branch the user is
 * on, docs/checkpoints.md), else its checkpoint ref.
 */
async function sessionSource(scope: DbScope, sessionId: string): Promise<string> {
  const [row] = await scope.query<{ leaf_id: string | null }>("SELECT leaf_id FROM sessions WHERE id = $1", [
    sessionId,
  ]);
  const commit = row?.leaf_id ? await entryCommit(scope, sessionId, row.leaf_id) : null;
  return commit ?? sessionRef(sessionId);
}

/** The title of `sessionId` when it is a session of `projectId`. @throws RemoteError 404 otherwise. */
async function sessionTitle(scope: DbScope, projectId: string, sessionId: string): Promise<string | null> {
  const rows = isUuid(sessionId)
    ? await scope.query<{ title: string | null }>(
        "SELECT title FROM sessions WHERE id = $1 AND project_id = $2",
        [sessionId, projectId],
      )
    : [];
  if (!rows[0]) throw new RemoteError(404, "not_found", `Session ${sessionId.slice(0, 64)} not found`);
  return rows[0].title;
}

/** HEAD's branch (short name), or null when HEAD is detached. */
export async function headBranch(repo: Repo): Promise<string | null> {
  return (await git.currentBranch({ fs: repo.gfs, gitdir: repo.gitdir, fullname: false })) ?? null;
}

/**
 * The first of `strata/<slug>`, `strata/<slug>-2`, … that the remote lacks, or holds `commit` or an ancestor of it
 * (pushing the same session again updates its branch instead of making a new one).
 */
async function freeSessionBranch(
  repo: Repo,
  http: git.HttpClient,
  remote: Remote,
  title: string | null,
  commit: string,
) {
  const refs = await git.listServerRefs({
    http,
    url: remote.url,
    forPush: true,
    protocolVersion: 1,
    prefix: "refs/heads/strata/",
    ...authCallbacks(remote),
  });
  const remoteOid = new Map(refs.map((r) => [r.ref.slice("refs/heads/".length), r.oid]));
  const taken = new Set<string>();
  for (;;) {
    const name = sessionBranchName(title, taken);
    const oid = remoteOid.get(name);
    if (!oid || oid === commit) return name;
    const ancestor = await git
      .isDescendent({
        fs: repo.gfs,
        gitdir: repo.gitdir,
        oid: commit,
        ancestor: oid,
        depth: -1,
        cache: repo.cache,
      })
      .catch(() => false);
    if (ancestor) return name;
    taken.add(name);
  }
}

/**
 * Push to `remote` as {@link PushRequest} says.
 * @throws RemoteError: 400 `invalid_branch` / `invalid_commit` / `detached_head`, 404 `commit_not_found` / session
 *   not found / `remote_not_found`, 401 `remote_auth`, 409 `push_rejected` (not a fast-forward), 502
 *   `remote_unreachable` / `remote_failed`; texts never contain the credential.
 */
export async function pushToRemote(
  scope: DbScope,
  vfs: Vfs,
  project: { id: string; rootPath: string },
  remote: Remote,
  http: git.HttpClient,
  request: PushRequest,
): Promise<PushOutcome> {
  const repo = openRepo(vfs, project.rootPath);
  const title = request.sessionId ? await sessionTitle(scope, project.id, request.sessionId) : null;
  const source =
    request.source ?? (request.sessionId ? await sessionSource(scope, request.sessionId) : "HEAD");
  if (request.branch !== undefined) {
    const problem = branchNameProblem(request.branch);
    if (problem) throw new RemoteError(400, "invalid_branch", problem);
  }
  const commit = await resolveSource(repo, source).catch((error: unknown) => {
    if (request.sessionId && !request.source && (error as RemoteError).code === "commit_not_found")
      throw new RemoteError(
        404,
        "no_checkpoints",
        "This session has no checkpoint yet (none of its turns changed files), so there is nothing of it to push.",
      );
    throw error;
  });
  let branch = request.branch ?? "";
  const ctx = { host: remote.host, branch: branch || "the branch", credential: remote.credential };
  try {
    if (!branch && request.sessionId) branch = await freeSessionBranch(repo, http, remote, title, commit);
    if (!branch) {
      const head = await headBranch(repo);
      if (!head)
        throw new RemoteError(
          400,
          "detached_head",
          "HEAD is not on a branch: name the remote branch to push to.",
        );
      branch = head;
    }
    ctx.branch = branch;
    let previous: string | null = null;
    await git.push({
      fs: repo.gfs,
      http,
      gitdir: repo.gitdir,
      url: remote.url,
      remote: "strata-push",
      ref: commit,
      remoteRef: `refs/heads/${branch}`,
      force: request.force ?? false,
      cache: repo.cache,
      ...authCallbacks(remote),
      onPrePush: ({ remoteRef }) => {
        previous = remoteRef.oid === ZERO ? null : remoteRef.oid;
        return true;
      },
    });
    return {
      host: remote.host,
      branch,
      commit,
      previous,
      forced: (request.force ?? false) && previous !== null,
    };
  } catch (error) {
    throw remoteFailure("push", error, ctx);
  }
}
