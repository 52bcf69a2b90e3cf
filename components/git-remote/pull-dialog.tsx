"use client";

import { useId, useState } from "react";
import { describeError } from "@/components/api-client";
import { DialogFrame } from "./dialog-frame";
import styles from "./git-remote.module.css";
import {
  type PullAnswer,
  pullProject,
  RemoteApiError,
  rememberedRemote,
  rememberRemote,
} from "./git-remote-api";
import { RemoteField } from "./remote-fields";
import { branchNameProblem } from "./session-branch";

/** What a pull did, in words. */
export function pulledText(p: PullAnswer): string {
  if (p.status === "up_to_date") return `${p.branch} is already up to date with ${p.remoteBranch}.`;
  const n = p.files.length;
  const files = `${n} file${n === 1 ? "" : "s"} changed`;
  const what =
    p.status === "merged"
      ? `Merged ${p.remoteBranch} into ${p.branch} (merge commit ${p.to?.slice(0, 7)}): ${files}.`
      : `Fast-forwarded ${p.branch} to ${p.to?.slice(0, 7)}: ${files}.`;
  return `${what} ${PULLED_INTO_MAIN}`;
}

/** A pull moves the project's main line (docs/checkpoints.md): said after every pull that changed it. */
export const PULLED_INTO_MAIN =
  "That is the project's main line: new sessions start from it; open sessions keep their own files.";

/**
 * "Pull…": fetch a remote branch (default: the project's branch name) and bring its new commits into the project:
 * a fast-forward, or a merge when both sides moved and it merges cleanly. The server refuses, naming the files,
 * when the pull would overwrite changes that are not committed or the merge conflicts — nothing is changed then.
 * After a pull that changed files, `onPulled` refreshes the file tree.
 */
export function PullDialog({
  projectId,
  branch,
  onPulled,
  onClose,
}: {
  projectId: string;
  branch: string | null;
  onPulled: () => void;
  onClose: () => void;
}) {
  const [url, setUrl] = useState(() => rememberedRemote(projectId));
  const [remoteBranch, setRemoteBranch] = useState(branch ?? "main");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; paths: string[] } | null>(null);
  const [done, setDone] = useState<PullAnswer | null>(null);
  const branchId = useId();
  const problem = remoteBranch ? branchNameProblem(remoteBranch) : "Name the remote branch.";

  const pull = async () => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const pulled = await pullProject(projectId, { url, branch: remoteBranch });
      rememberRemote(projectId, url);
      setDone(pulled);
      if (pulled.files.length > 0) onPulled();
    } catch (err) {
      setError({ text: describeError(err), paths: err instanceof RemoteApiError ? err.paths : [] });
    } finally {
      setBusy(false);
    }
  };

  return (
    <DialogFrame
      title="Pull from a git remote"
      busy={busy}
      ready={url !== "" && problem === null}
      submitLabel="Pull"
      busyLabel="Pulling…"
      onSubmit={() => void pull()}
      onClose={onClose}
    >
      <RemoteField projectId={projectId} value={url} onChange={setUrl} disabled={busy} />
      <div className={styles.field}>
        <label htmlFor={branchId}>Remote branch</label>
        <input
          id={branchId}
          type="text"
          value={remoteBranch}
          disabled={busy}
          onChange={(e) => setRemoteBranch(e.target.value.trim())}
          spellCheck={false}
        />
        <p className={`${styles.hint} ${problem && remoteBranch ? styles.warn : ""}`}>
          {problem && remoteBranch
            ? problem
            : `Its new commits come into ${branch ?? "the project's branch"} and the files. Uncommitted changes to the files it touches are never overwritten.`}
        </p>
      </div>
      {busy ? (
        <p className={styles.progress} role="status">
          Fetching and updating the files…
        </p>
      ) : null}
      {done ? (
        <div className={styles.result} role="status">
          {pulledText(done)}
          {done.files.length > 0 ? (
            <ul className={styles.files}>
              {done.files.map((f) => (
                <li key={f.path}>
                  {f.status === "added" ? "+" : f.status === "deleted" ? "−" : "~"} {f.path}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {error ? (
        <div className={styles.error} role="alert">
          {error.text}
          {error.paths.length > 0 ? (
            <ul className={styles.files} aria-label="Files">
              {error.paths.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </DialogFrame>
  );
}
