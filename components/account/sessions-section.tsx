"use client";

import { useCallback, useEffect, useState } from "react";
import { formatDateTime } from "@/components/ui/format";
import { AccountError, accountErrorMessage, callJson } from "./auth-fetch";
import styles from "./settings.module.css";
import { SettingsCard, StatusLine } from "./settings-card";
import { markSignedOut, signOut } from "./sign-out";
import { describeUserAgent } from "./user-agent";

/** A signed-in browser as `GET /api/auth/list-sessions` lists it. */
export interface DeviceSession {
  id: string;
  token?: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
}

type Status = { kind: "ok" | "error"; text: string } | null;

/** Signs this browser out locally after the server ended every session, and goes to the sign-in page. */
function leave() {
  markSignedOut();
  window.location.assign("/sign-in");
}

/**
 * Active sessions: every browser signed in to this account (device, address, signed in, last active; this one
 * marked), "Sign out" for one other device, "Sign out of all other devices" and "Sign out everywhere".
 */
export function SessionsSection({ currentSessionId }: { currentSessionId: string | null }) {
  const [sessions, setSessions] = useState<DeviceSession[] | null>(null);
  const [loadError, setLoadError] = useState<AccountError | Error | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmAll, setConfirmAll] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  const load = useCallback(async () => {
    try {
      const list = await callJson<DeviceSession[]>("/api/auth/list-sessions");
      list.sort((a, b) =>
        a.id === currentSessionId
          ? -1
          : b.id === currentSessionId
            ? 1
            : b.updatedAt.localeCompare(a.updatedAt),
      );
      setSessions(list);
      setLoadError(null);
    } catch (err) {
      setLoadError(err instanceof Error ? err : new Error(String(err)));
    }
  }, [currentSessionId]);
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (path: string, body: unknown, done: string) => {
    setBusy(true);
    setStatus(null);
    try {
      await callJson(path, body);
      setStatus({ kind: "ok", text: done });
      await load();
    } catch (err) {
      setStatus({ kind: "error", text: accountErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  const everywhere = async () => {
    setBusy(true);
    setStatus(null);
    try {
      await callJson("/api/auth/revoke-sessions", {});
      leave();
    } catch (err) {
      setStatus({ kind: "error", text: accountErrorMessage(err) });
      setBusy(false);
    }
  };
  const others = sessions?.filter((s) => s.id !== currentSessionId).length ?? 0;
  const stale = loadError instanceof AccountError && loadError.code === "SESSION_NOT_FRESH";

  return (
    <SettingsCard
      id="sessions"
      title="Sessions"
      description="Browsers signed in to your account. Sign out any you do not recognise, then change your password."
      footer={
        <>
          <StatusLine status={status} />
          <span className={styles.footerActions}>
            <button
              type="button"
              className="btn"
              disabled={busy || others === 0}
              onClick={() =>
                void act("/api/auth/revoke-other-sessions", {}, "Signed out of all other devices.")
              }
            >
              Sign out of all other devices
            </button>
            {confirmAll ? (
              <span className={styles.confirm}>
                <span>Sign out here too?</span>
                <button
                  type="button"
                  className="btn btn-danger"
                  disabled={busy}
                  onClick={() => void everywhere()}
                >
                  Sign out everywhere
                </button>
                <button type="button" className="btn" onClick={() => setConfirmAll(false)}>
                  Cancel
                </button>
              </span>
            ) : (
              <button
                type="button"
                className="btn btn-danger"
                disabled={busy}
                onClick={() => setConfirmAll(true)}
              >
                Sign out everywhere…
              </button>
            )}
          </span>
        </>
      }
    >
      {loadError ? (
        <div className={styles.inlineError} role="alert">
          {stale
            ? "For your security, the list of sessions needs a recent sign-in (this one is more than a day old)."
            : `Could not load your sessions: ${accountErrorMessage(loadError)}`}{" "}
          {stale ? (
            <button
              type="button"
              className="btn btn-small"
              onClick={() =>
                signOut("/settings#sessions").catch((err: unknown) =>
                  setStatus({ kind: "error", text: accountErrorMessage(err) }),
                )
              }
            >
              Sign in again
            </button>
          ) : (
            <button type="button" className="btn btn-small" onClick={() => void load()}>
              Retry
            </button>
          )}
        </div>
      ) : sessions === null ? (
        <p className={styles.hint}>Loading sessions…</p>
      ) : (
        <ul className={styles.list} aria-label="Signed-in devices">
          {sessions.map((s) => (
            <li key={s.id} className={styles.row}>
              <span className={styles.deviceIcon} aria-hidden="true">
                {/Android|iPhone|iPad/.test(s.userAgent ?? "") ? "▯" : "▭"}
              </span>
              <span className={styles.rowMain}>
                <span className={styles.rowTitle}>
                  {describeUserAgent(s.userAgent)}
                  {s.id === currentSessionId ? <span className={styles.current}>This device</span> : null}
                </span>
                <span className={styles.rowMeta}>
                  {s.ipAddress ? `${s.ipAddress} · ` : ""}Signed in {formatDateTime(s.createdAt)} · Last
                  active {formatDateTime(s.updatedAt)}
                </span>
              </span>
              {s.id !== currentSessionId && s.token ? (
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={busy}
                  aria-label={`Sign out ${describeUserAgent(s.userAgent)} signed in ${formatDateTime(s.createdAt)}`}
                  onClick={() =>
                    void act("/api/auth/revoke-session", { token: s.token }, "Device signed out.")
                  }
                >
                  Sign out
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </SettingsCard>
  );
}
