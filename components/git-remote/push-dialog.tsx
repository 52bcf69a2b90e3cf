"use client";

import { useEffect, useId, useState } from "react";
import { describeError } from "@/components/api-client";
import { DialogFrame } from "./dialog-frame";
import styles from "./git-remote.module.css";
import { type PushAnswer, pushProject, rememberedRemote, rememberRemote } from "./git-remote-api";
import { RemoteField, type Source, SourcePicker, useSessions } from "./remote-fields";
import { branchNameProblem, sessionBranchName } from "./session-branch";

/** The default remote branch of a source: HEAD's branch, or `strata/<slug of the session's title>`. */
function defaultBranch(source: Source, branch: string | null): string {
  return source.kind === "session" ? sessionBranchName(source.session.title) : (branch ?? "main");
}

/** "Pushed 1a2b3c4 to strata/fix-login on github.com (new branch)." */
export function pushedText(p: PushAnswer): string {
  const what =
    p.previous === null
      ? " (new branch)"
      : p.previous === p.commit
        ? " (already up to date)"
        : p.forced
          ? " (overwritten)"
          : "";
  return `Pushed ${p.commit.slice(0, 7)} to ${p.branch} on ${p.host}${what}.`;
}

/**
 * "Push…": a remote URL (remembered per project in this browser), what to push (HEAD's branch or a session's
 * checkpoints), the remote branch (a session's defaults to `strata/<slug>`; checked like git does), and
 * "Overwrite the remote branch". The credential is the workspace's for the URL's host; its status shows under
 * the URL. The server's errors (401, rejected, not found, unreachable) are shown as they are: they say what to do.
 */
export function PushDialog({
  projectId,
  branch,
  onClose,
}: {
  projectId: string;
  branch: string | null;
  onClose: () => void;
}) {
  const sessions = useSessions(projectId);
  const [url, setUrl] = useState(() => rememberedRemote(projectId));
  const [source, setSource] = useState<Source>({ kind: "head" });
  const [remoteBranch, setRemoteBranch] = useState(defaultBranch({ kind: "head" }, branch));
  const [force, setForce] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const branchId = useId();
  useEffect(() => setRemoteBranch(defaultBranch(source, branch)), [source, branch]);
  const problem = remoteBranch ? branchNameProblem(remoteBranch) : "Name the remote branch.";

  const push = async () => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const pushed = await pushProject(projectId, {
        url,
        branch: remoteBranch,
        force,
        ...(source.kind === "session" ? { sessionId: source.session.id } : {}),
      });
      rememberRemote(projectId, url);
      setDone(pushedText(pushed));
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <DialogFrame
      title="Push to a git remote"
      busy={busy}
      ready={url !== "" && problem === null}
      submitLabel="Push"
      busyLabel="Pushing…"
      onSubmit={() => void push()}
      onClose={onClose}
    >
      <RemoteField projectId={projectId} value={url} onChange={setUrl} disabled={busy} />
      <SourcePicker
        label="What to push"
        sessions={sessions}
        value={source}
        onChange={setSource}
        worktree={false}
        branch={branch}
        disabled={busy}
      />
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
            : source.kind === "session"
              ? "Each checkpoint of the session is one commit. Pushing the session again updates this branch."
              : "Created on the remote if it does not exist."}
        </p>
      </div>
      <label className={styles.check}>
        <input type="checkbox" checked={force} disabled={busy} onChange={(e) => setForce(e.target.checked)} />
        Overwrite the remote branch even if it has commits that are not here (force)
      </label>
      {busy ? (
        <p className={styles.progress} role="status">
          Pushing to the remote… large projects can take a minute.
        </p>
      ) : null}
      {done ? (
        <p className={styles.result} role="status">
          {done}
        </p>
      ) : null}
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </DialogFrame>
  );
}
