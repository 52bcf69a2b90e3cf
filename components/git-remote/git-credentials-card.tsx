"use client";

import { useState } from "react";
import { describeError } from "@/components/api-client";
import { formatDateTime } from "@/components/ui/format";
import { gitCredentialProblem, gitHostProblem } from "@/lib/secrets/git-credential-checks";
import styles from "./git-remote.module.css";
import {
  deleteGitCredential,
  type GitCredentialInfo,
  listGitCredentials,
  putGitCredential,
} from "./git-remote-api";

type Status = { kind: "ok" | "error"; text: string } | null;

/** The host of a pasted URL (`https://github.com/o/r.git` → `github.com`), or the text as typed. */
function hostOf(text: string): string {
  const t = text.trim().toLowerCase();
  try {
    return /^https?:\/\//.test(t) ? new URL(t).host : t;
  } catch {
    return t;
  }
}

/**
 * The workspace settings page's "Git credentials" card: one credential per remote host (user name + token or
 * password) for Push and Pull in this workspace's projects, encrypted at rest and never shown again. Owners and
 * admins add, replace and delete them; others see who can.
 */
export function GitCredentialsCard({
  workspaceId,
  canManage,
  initial,
}: {
  workspaceId: string;
  canManage: boolean;
  initial: GitCredentialInfo[];
}) {
  const [list, setList] = useState(initial);
  const [host, setHost] = useState("");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  const run = async (action: () => Promise<void>, ok: string) => {
    setBusy(true);
    setStatus(null);
    try {
      await action();
      setList(await listGitCredentials(workspaceId));
      setStatus({ kind: "ok", text: ok });
    } catch (err) {
      setStatus({ kind: "error", text: describeError(err) });
    } finally {
      setBusy(false);
    }
  };
  const save = (e: React.FormEvent) => {
    e.preventDefault();
    const h = hostOf(host);
    const problem = gitHostProblem(h) ?? gitCredentialProblem({ username, password });
    if (problem) {
      setStatus({ kind: "error", text: problem });
      return;
    }
    void run(async () => {
      await putGitCredential(workspaceId, h, { username, password });
      setHost("");
      setUsername("");
      setPassword("");
    }, `Credential for ${h} saved. Pushes and pulls to ${h} use it.`);
  };

  return (
    <section className={styles.card} aria-labelledby="git-credentials-title">
      <h2 id="git-credentials-title">Git credentials</h2>
      <p className={styles.description}>
        For pushing and pulling this workspace&apos;s projects (Get work out → Push… / Pull…): one credential
        per remote host, e.g. a GitHub user name and a personal access token with access to the repository.
        Encrypted at rest and never shown again; it is sent only to that host, and only when it asks.
      </p>
      {!canManage ? (
        <p className={styles.hint} role="note">
          Only owners and admins manage git credentials. Ask one of them to add one for your git host.
        </p>
      ) : (
        <>
          {list.length > 0 ? (
            <ul className={styles.list} aria-label="Git credentials">
              {list.map((c) => (
                <li key={c.host} className={styles.row} data-host={c.host}>
                  <code className={styles.host}>{c.host}</code>
                  <span className={styles.hint} suppressHydrationWarning>
                    set · updated by {c.updatedBy ?? "a removed account"}, {formatDateTime(c.updatedAt)}
                  </span>
                  <button
                    type="button"
                    className="btn btn-small"
                    disabled={busy}
                    aria-label={`Delete the git credential for ${c.host}`}
                    onClick={() =>
                      void run(
                        () => deleteGitCredential(workspaceId, c.host),
                        `Credential for ${c.host} deleted.`,
                      )
                    }
                  >
                    Delete
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className={styles.hint}>No git credential is stored.</p>
          )}
          <form className={styles.form} onSubmit={save} aria-label="Add or replace a git credential">
            <label>
              Host
              <input
                type="text"
                value={host}
                placeholder="github.com"
                disabled={busy}
                onChange={(e) => setHost(e.target.value)}
                autoComplete="off"
              />
            </label>
            <label>
              User name
              <input
                type="text"
                value={username}
                disabled={busy}
                onChange={(e) => setUsername(e.target.value)}
                autoComplete="off"
              />
            </label>
            <label>
              Token or password
              <input
                type="password"
                value={password}
                disabled={busy}
                onChange={(e) => setPassword(e.target.value)}
                autoComplete="new-password"
              />
            </label>
            <button
              type="submit"
              className="btn btn-primary"
              disabled={busy || !host || !username || !password}
            >
              Save
            </button>
          </form>
        </>
      )}
      {status ? (
        <p
          className={status.kind === "ok" ? styles.result : styles.error}
          role={status.kind === "ok" ? "status" : "alert"}
        >
          {status.text}
        </p>
      ) : null}
    </section>
  );
}
