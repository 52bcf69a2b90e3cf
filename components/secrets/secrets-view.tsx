"use client";

import { useState } from "react";
import { accountErrorMessage } from "@/components/account/auth-fetch";
import { formatDateTime } from "@/components/ui/format";
import frame from "@/components/ui/settings-page.module.css";
import { SECRET_NAMES, SECRET_VALUE_MAX, secretValueProblem } from "@/lib/secrets/names";
import styles from "./secrets.module.css";
import { listSecrets, putSecret, removeSecret, type SecretInfo } from "./secrets-api";

type Status = { kind: "ok" | "error"; text: string } | null;

/** "set · updated by Ada, 1 Dec 2026, 15:04" for a stored secret. */
export function describeSecret(secret: SecretInfo): string {
  return `set · updated by ${secret.updatedBy ?? "a removed account"}, ${formatDateTime(secret.updatedAt)}`;
}

/**
 * The workspace settings page: a card per workspace secret name (every provider variable Strata reads), its state
 * (set here — who and when —, from the server environment, or not set), and for owners and admins Set/Replace
 * (a password field, cleared after saving; the value is never shown or sent back) and Delete with a confirmation.
 * Other roles see that only owners and admins manage secrets.
 */
export function SecretsView({
  workspace,
  role,
  canManage,
  initial,
  serverSet,
  providers,
  children,
}: {
  workspace: { id: string; name: string; kind: string };
  role: string;
  canManage: boolean;
  initial: SecretInfo[];
  /** Names the server environment sets (no values). */
  serverSet: string[];
  /** Variable name → provider id. */
  providers: Record<string, string>;
  /** More settings cards, after the provider keys (e.g. the sandbox switch). */
  children?: React.ReactNode;
}) {
  const [secrets, setSecrets] = useState(initial);
  const [editing, setEditing] = useState<string | null>(null);
  const [value, setValue] = useState("");
  const [confirm, setConfirm] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const byName = new Map(secrets.map((s) => [s.name, s]));

  const refresh = async () => setSecrets(await listSecrets(workspace.id));
  const save = async (e: React.FormEvent, name: string) => {
    e.preventDefault();
    const problem = secretValueProblem(name, value);
    if (problem) {
      setStatus({ kind: "error", text: problem });
      return;
    }
    setBusy(true);
    setStatus(null);
    try {
      await putSecret(workspace.id, name, value);
      setValue("");
      setEditing(null);
      await refresh();
      setStatus({ kind: "ok", text: `${name} saved. New prompts in this workspace's projects use it.` });
    } catch (err) {
      setStatus({ kind: "error", text: accountErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  const remove = async (name: string) => {
    setBusy(true);
    setStatus(null);
    try {
      await removeSecret(workspace.id, name);
      setConfirm(null);
      await refresh();
      setStatus({
        kind: "ok",
        text: `${name} deleted.${serverSet.includes(name) ? " The server environment's value applies again." : ""}`,
      });
    } catch (err) {
      setStatus({ kind: "error", text: accountErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  const cancelEdit = () => {
    setEditing(null);
    setValue("");
  };

  return (
    <main className={frame.page}>
      <header className={frame.head}>
        <div>
          <div className={frame.crumbs}>Workspace settings</div>
          <h1>{workspace.name}</h1>
          <p className={frame.sub}>
            {workspace.kind === "team" ? "Team" : "Personal"} workspace · your role: {role}
          </p>
        </div>
        <nav className={frame.links} aria-label="Workspace pages">
          <a className={frame.linkBtn} href={`/?workspace=${workspace.id}`}>
            Projects
          </a>
          {workspace.kind === "team" ? (
            <a className={frame.linkBtn} href={`/teams/${workspace.id}`}>
              Team settings
            </a>
          ) : null}
        </nav>
      </header>
      <section className={styles.card} aria-labelledby="secrets-title">
        <h2 id="secrets-title">Provider keys</h2>
        <p className={styles.description}>
          Keys the agent uses for every project of this workspace. A key set here wins over the server&apos;s
          environment. Values are encrypted at rest and never shown again, not even to you.
        </p>
        {!canManage ? (
          <p className={styles.notice} role="note">
            Only owners and admins manage secrets. Ask one of them to set a provider key for this workspace.
          </p>
        ) : (
          <>
            <ul className={styles.list} aria-label="Workspace secrets">
              {SECRET_NAMES.map((name) => {
                const secret = byName.get(name);
                const fromServer = serverSet.includes(name);
                return (
                  <li key={name} className={styles.row} data-secret={name}>
                    <div className={styles.rowHead}>
                      <div className={styles.nameCell}>
                        <code className={styles.name}>{name}</code>
                        <span className={styles.provider}>{providers[name]}</span>
                      </div>
                      <div className={styles.state}>
                        {secret ? (
                          // The time is formatted in the browser's locale (the server's first render may differ).
                          <span className={styles.set} suppressHydrationWarning>
                            {describeSecret(secret)}
                          </span>
                        ) : fromServer ? (
                          <span className={styles.muted}>
                            not set here · the server environment&apos;s value applies
                          </span>
                        ) : (
                          <span className={styles.muted}>not set</span>
                        )}
                        {secret && fromServer ? (
                          <span className={styles.muted}> (overrides the server environment)</span>
                        ) : null}
                      </div>
                      <div className={styles.actions}>
                        {confirm === name || editing === name ? null : (
                          <>
                            <button
                              type="button"
                              className="btn btn-small"
                              aria-label={`${secret ? "Replace" : "Set"} ${name}`}
                              onClick={() => {
                                setEditing(name);
                                setValue("");
                                setConfirm(null);
                                setStatus(null);
                              }}
                            >
                              {secret ? "Replace…" : "Set…"}
                            </button>
                            {secret ? (
                              <button
                                type="button"
                                className="btn btn-small"
                                aria-label={`Delete ${name}`}
                                onClick={() => {
                                  setConfirm(name);
                                  setStatus(null);
                                  cancelEdit();
                                }}
                              >
                                Delete…
                              </button>
                            ) : null}
                          </>
                        )}
                      </div>
                    </div>
                    {confirm === name ? (
                      <fieldset className={styles.confirm} aria-label={`Confirm deleting ${name}`}>
                        <span>
                          Delete {name}? Runs in this workspace then use the server environment&apos;s key, if
                          any.
                        </span>
                        <button
                          type="button"
                          className="btn btn-small btn-danger"
                          disabled={busy}
                          onClick={() => void remove(name)}
                        >
                          Delete
                        </button>
                        <button type="button" className="btn btn-small" onClick={() => setConfirm(null)}>
                          Cancel
                        </button>
                      </fieldset>
                    ) : null}
                    {editing === name ? (
                      <form
                        className={styles.form}
                        onSubmit={(e) => void save(e, name)}
                        aria-label={`Set ${name}`}
                      >
                        <input
                          className={styles.input}
                          type="password"
                          name={`secret-${name}`}
                          aria-label={`New value for ${name}`}
                          placeholder={name.endsWith("_BASE_URL") ? "https://…/v1" : "Paste the key"}
                          autoComplete="off"
                          spellCheck={false}
                          maxLength={SECRET_VALUE_MAX}
                          value={value}
                          onChange={(e) => setValue(e.target.value)}
                          // biome-ignore lint/a11y/noAutofocus: the field just opened on the user's click.
                          autoFocus
                        />
                        <button
                          type="submit"
                          className="btn btn-small btn-primary"
                          disabled={busy || value === ""}
                        >
                          {busy ? "Saving…" : "Save"}
                        </button>
                        <button type="button" className="btn btn-small" onClick={cancelEdit}>
                          Cancel
                        </button>
                      </form>
                    ) : null}
                  </li>
                );
              })}
            </ul>
            {status ? (
              <p
                className={status.kind === "ok" ? styles.ok : styles.error}
                role={status.kind === "ok" ? "status" : "alert"}
              >
                {status.text}
              </p>
            ) : null}
          </>
        )}
      </section>
      {children}
    </main>
  );
}
