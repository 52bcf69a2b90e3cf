"use client";

import { useEffect, useState } from "react";
import { describeError } from "@/components/api-client";
import { apiJson } from "@/components/http/api-fetch";
import { projectFilesUrl } from "@/components/http/worktree";
import styles from "./git-head.module.css";

/** `GET /api/projects/:id/git` (lib/projects/git-head.ts `GitHead`). */
interface GitHead {
  repository: boolean;
  branch: string | null;
  commit: { oid: string; shortOid: string; subject: string; authorName: string; timestamp: number } | null;
}

function getGitHead(projectId: string, signal: AbortSignal): Promise<GitHead> {
  return apiJson<GitHead>(projectFilesUrl(projectId, "/git"), { signal });
}

/**
 * The project's current branch and HEAD commit (short id and subject), under the Files title. Re-read whenever
 * `refreshKey` changes: the workspace bumps it after a `!command`, an agent run and a tree refresh, so a commit
 * made with `git commit` in the shell shows here. A failed read says so (the row stays, with the reason).
 */
export function GitHeadIndicator({ projectId, refreshKey }: { projectId: string; refreshKey: number }) {
  const [head, setHead] = useState<GitHead | null>(null);
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey is the re-read trigger.
  useEffect(() => {
    const ctrl = new AbortController();
    getGitHead(projectId, ctrl.signal).then(
      (h) => {
        setHead(h);
        setError(null);
      },
      (err) => {
        if (!ctrl.signal.aborted) setError(describeError(err));
      },
    );
    return () => ctrl.abort();
  }, [projectId, refreshKey]);

  if (error)
    return (
      <div className={styles.row} role="status" aria-label="Git HEAD">
        <span className={styles.error} title={error}>
          Could not read the git HEAD: {error} (refresh the files to retry)
        </span>
      </div>
    );
  if (!head) return null;
  if (!head.repository)
    return (
      <div className={styles.row} role="status" aria-label="Git HEAD">
        No git repository (run git init in the shell)
      </div>
    );
  const branch = head.branch ?? "detached HEAD";
  const c = head.commit;
  const title = c
    ? `${branch} · ${c.oid}\n${c.subject}\n${c.authorName}, ${new Date(c.timestamp * 1000).toLocaleString()}`
    : `${branch} · no commits yet`;
  return (
    <div className={styles.row} role="status" aria-label="Git HEAD" title={title}>
      <span className={styles.branch}>⎇ {branch}</span>
      {c ? (
        <>
          <span className={styles.oid}>{c.shortOid}</span>
          <span className={styles.subject}>{c.subject}</span>
        </>
      ) : (
        <span className={styles.subject}>no commits yet</span>
      )}
    </div>
  );
}
