"use client";

import { useEffect, useId, useState } from "react";
import { describeError, listSessions, type SessionSummary } from "@/components/api-client";
import { sessionLabel } from "@/components/chat/session-bar";
import styles from "./git-remote.module.css";
import { remoteStatus } from "./git-remote-api";

/**
 * The remote URL field of the Push and Pull dialogs, with the credential status of its host underneath: stored
 * (used when the server asks), or none (fine for a public repository; otherwise an owner or admin adds one in
 * Workspace settings → Git credentials). A URL with a user name or password in it is refused by the server.
 */
export function RemoteField({
  projectId,
  value,
  onChange,
  disabled,
}: {
  projectId: string;
  value: string;
  onChange: (url: string) => void;
  disabled: boolean;
}) {
  const id = useId();
  const [status, setStatus] = useState<{ kind: "ok" | "warn" | "muted"; text: string } | null>(null);
  useEffect(() => {
    if (!/^https?:\/\/[^/]+/.test(value)) {
      setStatus(null);
      return;
    }
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      remoteStatus(projectId, value, ctrl.signal).then(
        ({ host, credential }) =>
          setStatus(
            credential
              ? {
                  kind: "ok",
                  text: `A git credential for ${host} is stored in this workspace; it is used when ${host} asks.`,
                }
              : {
                  kind: "warn",
                  text: `No git credential is stored for ${host}. A public repository can be pulled without one; to push, a workspace owner or admin adds one in Workspace settings → Git credentials.`,
                },
          ),
        (err) => {
          if (!ctrl.signal.aborted) setStatus({ kind: "warn", text: describeError(err) });
        },
      );
    }, 300);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [projectId, value]);
  return (
    <div className={styles.field}>
      <label htmlFor={id}>Remote repository URL</label>
      <input
        id={id}
        type="url"
        value={value}
        placeholder="https://github.com/owner/repo.git"
        disabled={disabled}
        onChange={(e) => onChange(e.target.value.trim())}
        autoComplete="off"
        spellCheck={false}
      />
      {status ? (
        <p
          className={`${styles.hint} ${status.kind === "ok" ? styles.ok : status.kind === "warn" ? styles.warn : ""}`}
          role="status"
        >
          {status.text}
        </p>
      ) : (
        <p className={styles.hint}>http(s) only; put no user name or token in the URL.</p>
      )}
    </div>
  );
}

/** What a download or push takes: the working tree (download only), HEAD, or a session's latest checkpoint. */
export type Source = { kind: "worktree" } | { kind: "head" } | { kind: "session"; session: SessionSummary };

/** The sessions of a project, newest first (for the source pickers); empty while loading or on failure. */
export function useSessions(projectId: string): SessionSummary[] {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  useEffect(() => {
    const ctrl = new AbortController();
    listSessions(projectId, ctrl.signal).then(setSessions, () => undefined);
    return () => ctrl.abort();
  }, [projectId]);
  return sessions;
}

/** A select of sources: the working tree (with `worktree`), HEAD's branch, each session's checkpoints. */
export function SourcePicker({
  label,
  sessions,
  value,
  onChange,
  worktree,
  branch,
  disabled,
}: {
  label: string;
  sessions: SessionSummary[];
  value: Source;
  onChange: (source: Source) => void;
  worktree: boolean;
  branch: string | null;
  disabled: boolean;
}) {
  const id = useId();
  const key = value.kind === "session" ? `session:${value.session.id}` : value.kind;
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={key}
        disabled={disabled}
        onChange={(e) => {
          const v = e.target.value;
          if (v === "worktree" || v === "head") onChange({ kind: v });
          else {
            const session = sessions.find((s) => `session:${s.id}` === v);
            if (session) onChange({ kind: "session", session });
          }
        }}
      >
        {worktree ? <option value="worktree">Working tree (the files as they are now)</option> : null}
        <option value="head">Project branch{branch ? ` ${branch}` : ""} (HEAD commit)</option>
        {sessions.map((s) => (
          <option key={s.id} value={`session:${s.id}`}>
            Session: {sessionLabel(s)} (latest checkpoint)
          </option>
        ))}
      </select>
    </div>
  );
}
