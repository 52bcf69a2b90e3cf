"use client";

import { useState } from "react";
import { apiFetch } from "@/components/http/api-fetch";
import { DialogFrame } from "./dialog-frame";
import styles from "./git-remote.module.css";
import { archiveUrl } from "./git-remote-api";
import { type Source, SourcePicker, useSessions } from "./remote-fields";
import { sessionRefOf } from "./session-branch";

/** The error of a refused download: the server's message, else the status. */
async function archiveError(res: Response): Promise<Error> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return new Error(body?.error?.message ?? `The download failed (HTTP ${res.status}).`);
}

/**
 * "Download .zip": the working tree (what the file tree shows, `.git` left out), HEAD's commit, or a session's
 * latest checkpoint. The dialog fetches `GET /api/projects/<id>/archive[?commit=…]` and saves it under the server's
 * file name, so a refusal (no such commit, over 64 MiB) shows in the dialog instead of as a downloaded error page.
 */
export function DownloadDialog({
  projectId,
  branch,
  onClose,
}: {
  projectId: string;
  branch: string | null;
  onClose: () => void;
}) {
  const sessions = useSessions(projectId);
  const [source, setSource] = useState<Source>({ kind: "worktree" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const commit =
    source.kind === "worktree"
      ? undefined
      : source.kind === "head"
        ? "HEAD"
        : sessionRefOf(source.session.id);

  const download = async () => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const res = await apiFetch(archiveUrl(projectId, commit), undefined, archiveError);
      const name =
        /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "project.zip";
      const blob = await res.blob();
      const href = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = href;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
      setDone(`Downloaded ${name} (${(blob.size / 1024).toFixed(1)} KiB).`);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <DialogFrame
      title="Download .zip"
      busy={busy}
      ready
      submitLabel="Download .zip"
      busyLabel="Preparing…"
      onSubmit={() => void download()}
      onClose={onClose}
    >
      <SourcePicker
        label="What to download"
        sessions={sessions}
        value={source}
        onChange={setSource}
        worktree
        branch={branch}
        disabled={busy}
      />
      <p className={styles.hint}>
        Files keep their executable bit and symlinks; the .git folder is left out. At most 64 MiB.
      </p>
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
