/**
 * What the IDE shows of a project's repository next to its file tree: the current branch and HEAD's commit
 * (short id and subject). Session checkpoints are commits on `refs/heads/strata/session-<id>` and never move
 * HEAD; a commit made with `git commit` in the shell does.
 */
import { log, resolveRef } from "@/lib/vfs/git";
import type { Vfs } from "@/lib/vfs/vfs";

/** The repository's HEAD as the IDE shows it. */
export interface GitHead {
  /** False when the project has no `.git` directory. */
  repository: boolean;
  /** The current branch's short name ("main"), or null when HEAD is detached (or there is no repository). */
  branch: string | null;
  /** HEAD's commit, or null on a branch without commits yet. */
  commit: { oid: string; shortOid: string; subject: string; authorName: string; timestamp: number } | null;
}

/**
 * Read HEAD of the repository at `${root}/.git`: two small reads (HEAD, the branch's ref) and one commit object.
 * `commit.timestamp` is the author date in seconds since the epoch; `subject` the message's first line.
 */
export async function readGitHead(vfs: Vfs, root: string): Promise<GitHead> {
  const gitdir = `${root}/.git`;
  if (!(await vfs.exists(`${gitdir}/HEAD`))) return { repository: false, branch: null, commit: null };
  const head = (await vfs.readText(`${gitdir}/HEAD`)).trim();
  const branch = /^ref: refs\/heads\/(.+)$/.exec(head)?.[1] ?? null;
  const oid = await resolveRef(vfs, root, "HEAD");
  if (!oid) return { repository: true, branch, commit: null };
  const [entry] = await log(vfs, root, oid, 1);
  const subject = entry.message.replace(/^\n+/, "").split("\n")[0] ?? "";
  return {
    repository: true,
    branch,
    commit: {
      oid,
      shortOid: oid.slice(0, 7),
      subject,
      authorName: entry.author.name,
      timestamp: entry.author.timestamp,
    },
  };
}
