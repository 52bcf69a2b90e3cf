"use client";

import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import {
  describeError,
  type ImportResponse,
  importArchive,
  importGit,
  type UploadProgress,
} from "@/components/api-client";
import { formatBytes } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { ImportReportView } from "./import-report";

type Mode = "git" | "archive";
type Phase =
  | { kind: "idle" }
  | { kind: "cloning"; since: number }
  | { kind: "uploading"; progress: UploadProgress };

const ARCHIVE_ACCEPT = ".zip,.tar.gz,.tgz,application/zip,application/gzip,application/x-gzip";

export function isSupportedArchive(name: string): boolean {
  const n = name.toLowerCase();
  return n.endsWith(".zip") || n.endsWith(".tar.gz") || n.endsWith(".tgz");
}

/**
 * Imports a project from a git URL (JSON) or an uploaded archive (multipart). The mode follows the
 * input last used: typing a URL clears the file and choosing a file clears the URL.
 */
export function ImportForm({
  workspaceId,
  onImported,
}: {
  /** The workspace the project is imported into. */
  workspaceId: string;
  onImported: (result: ImportResponse) => void;
}) {
  const ids = useId();
  const [mode, setMode] = useState<Mode>("git");
  const [gitUrl, setGitUrl] = useState("");
  const [gitRef, setGitRef] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResponse | null>(null);
  const [now, setNow] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const busy = phase.kind !== "idle";

  useEffect(() => {
    if (phase.kind !== "cloning") return;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [phase.kind]);

  const canSubmit = !busy && (mode === "git" ? gitUrl.trim() !== "" : file !== null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!canSubmit) return;
    setError(null);
    setResult(null);
    try {
      let res: ImportResponse;
      if (mode === "git") {
        const since = Date.now();
        setNow(since);
        setPhase({ kind: "cloning", since });
        res = await importGit({
          gitUrl: gitUrl.trim(),
          ...(name.trim() ? { name: name.trim() } : {}),
          ...(gitRef.trim() ? { ref: gitRef.trim() } : {}),
          workspaceId,
        });
      } else {
        if (!file) return;
        if (!isSupportedArchive(file.name)) {
          throw new Error(`Unsupported archive "${file.name}": use .zip, .tar.gz or .tgz`);
        }
        setPhase({ kind: "uploading", progress: { loaded: 0, total: file.size } });
        res = await importArchive({ file, name: name.trim() || undefined, workspaceId }, (progress) =>
          setPhase({ kind: "uploading", progress }),
        );
      }
      setResult(res);
      setGitUrl("");
      setGitRef("");
      setName("");
      setFile(null);
      setMode("git");
      if (fileInput.current) fileInput.current.value = "";
      onImported(res);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setPhase({ kind: "idle" });
    }
  }

  return (
    <form className="import-form" onSubmit={submit} aria-label="Import a project">
      <div className="import-sources">
        <div className={`import-source${mode === "git" ? " active" : ""}`}>
          <label htmlFor={`${ids}-git`}>Git URL</label>
          <input
            id={`${ids}-git`}
            type="text"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://github.com/owner/repo.git"
            value={gitUrl}
            disabled={busy}
            onChange={(e) => {
              setGitUrl(e.target.value);
              setMode("git");
              setFile(null);
              if (fileInput.current) fileInput.current.value = "";
            }}
          />
          <label htmlFor={`${ids}-ref`} className="sublabel">
            Branch or tag (optional)
          </label>
          <input
            id={`${ids}-ref`}
            type="text"
            placeholder="main"
            value={gitRef}
            disabled={busy}
            onChange={(e) => setGitRef(e.target.value)}
          />
        </div>
        <div className="import-or" aria-hidden="true">
          or
        </div>
        <div className={`import-source${mode === "archive" ? " active" : ""}`}>
          <label htmlFor={`${ids}-file`}>Archive</label>
          <input
            id={`${ids}-file`}
            ref={fileInput}
            type="file"
            accept={ARCHIVE_ACCEPT}
            disabled={busy}
            onChange={(e) => {
              const f = e.target.files?.[0] ?? null;
              setFile(f);
              if (f) {
                setMode("archive");
                setGitUrl("");
              }
            }}
          />
          <span className="hint">.zip, .tar.gz or .tgz{file ? ` · ${formatBytes(file.size)}` : ""}</span>
        </div>
      </div>
      <div className="import-row">
        <label htmlFor={`${ids}-name`}>Project name (optional)</label>
        <input
          id={`${ids}-name`}
          type="text"
          value={name}
          disabled={busy}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="btn btn-primary" disabled={!canSubmit}>
          Import
        </button>
        <span className="hint">
          {mode === "git" ? "Clones the repository" : "Uploads and unpacks the archive"}
        </span>
      </div>
      <ImportProgress phase={phase} now={now} />
      {error ? (
        <Notice kind="error" title="Import failed">
          {error}
        </Notice>
      ) : null}
      {result ? <ImportReportView result={result} /> : null}
    </form>
  );
}

function ImportProgress({ phase, now }: { phase: Phase; now: number }) {
  if (phase.kind === "idle") return null;
  if (phase.kind === "cloning") {
    const secs = Math.max(0, Math.floor((now - phase.since) / 1000));
    return (
      <p className="import-progress" role="status">
        <Spinner label="Importing" /> Cloning and importing… {secs}s
      </p>
    );
  }
  const { loaded, total } = phase.progress;
  const done = total !== null && loaded >= total;
  return (
    <p className="import-progress" role="status">
      <Spinner label="Importing" />{" "}
      {done
        ? "Unpacking and importing…"
        : `Uploading ${formatBytes(loaded)}${total ? ` of ${formatBytes(total)}` : ""}`}
      <progress
        aria-label="Upload progress"
        max={total ?? undefined}
        value={done || total === null ? undefined : loaded}
      />
    </p>
  );
}
