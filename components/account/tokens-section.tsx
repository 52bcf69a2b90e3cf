"use client";

import { useCallback, useEffect, useState } from "react";
import { formatDateTime } from "@/components/ui/format";
import { accountErrorMessage, callJson } from "./auth-fetch";
import styles from "./settings.module.css";
import { Field, SettingsCard, StatusLine } from "./settings-card";
import { TokenReveal, tokenUsage } from "./token-reveal";

/** A personal access token as `GET /api/auth/api-key/list` lists it (never the secret itself). */
export interface AccessToken {
  id: string;
  name: string | null;
  start: string | null;
  createdAt: string;
  expiresAt: string | null;
  lastRequest: string | null;
  enabled?: boolean;
}

/** Longest expiry in days (lib/auth/server.ts `keyExpiration.maxExpiresIn`). */
export const MAX_TOKEN_DAYS = 366;
/** Longest token name (lib/auth/server.ts `maximumNameLength`). */
export const MAX_TOKEN_NAME = 64;

/**
 * The create request for a token named `name` that expires after `days` (blank = never), or the sentence saying
 * what is wrong: a name is required (≤ 64 characters); days must be a whole number from 1 to 366.
 */
export function tokenRequest(
  name: string,
  days: string,
): { name: string; expiresIn: number | null } | string {
  const n = name.trim();
  if (!n) return "Give the token a name, e.g. the machine or script that will use it.";
  if (n.length > MAX_TOKEN_NAME) return `The name is too long: at most ${MAX_TOKEN_NAME} characters.`;
  const d = days.trim();
  if (!d) return { name: n, expiresIn: null };
  const value = Number(d);
  if (!Number.isInteger(value) || value < 1 || value > MAX_TOKEN_DAYS)
    return `Expiry must be a whole number of days from 1 to ${MAX_TOKEN_DAYS}, or empty for no expiry.`;
  return { name: n, expiresIn: value * 86_400 };
}

/** "strata_abcd…" from a token's stored start. */
export function tokenPreview(start: string | null): string {
  return start ? `${start}…` : "strata_…";
}

type Status = { kind: "ok" | "error"; text: string } | null;

/**
 * Personal access tokens: create (name, optional expiry in days) → the token shown once; the list (name, start,
 * created, expires, last used); revoke with a confirmation. Also how to use one (CLI, `Authorization: Bearer`).
 */
export function TokensSection({ origin }: { origin: string }) {
  const [tokens, setTokens] = useState<AccessToken[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [days, setDays] = useState("");
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const body = await callJson<{ apiKeys: AccessToken[] }>("/api/auth/api-key/list");
      setTokens([...body.apiKeys].sort((a, b) => b.createdAt.localeCompare(a.createdAt)));
      setLoadError(null);
    } catch (err) {
      setLoadError(accountErrorMessage(err));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    const request = tokenRequest(name, days);
    if (typeof request === "string") {
      setStatus({ kind: "error", text: request });
      return;
    }
    setBusy(true);
    setStatus(null);
    try {
      const key = await callJson<{ key: string; name: string }>("/api/auth/api-key/create", request);
      setCreated({ name: request.name, key: key.key });
      setName("");
      setDays("");
      await load();
    } catch (err) {
      setStatus({ kind: "error", text: accountErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (token: AccessToken) => {
    setBusy(true);
    setStatus(null);
    try {
      await callJson("/api/auth/api-key/delete", { keyId: token.id });
      setConfirm(null);
      setStatus({
        kind: "ok",
        text: `Token “${token.name ?? tokenPreview(token.start)}” revoked; it no longer works.`,
      });
      await load();
    } catch (err) {
      setStatus({ kind: "error", text: accountErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  const usage = tokenUsage(origin, "<token>");

  return (
    <SettingsCard
      id="tokens"
      title="Access tokens"
      description={
        <>
          Personal access tokens for the CLI and scripts. A token acts as you, with your access to every
          workspace you are in. Send it as <code>Authorization: Bearer &lt;token&gt;</code>.
        </>
      }
    >
      {created ? (
        <TokenReveal
          name={created.name}
          token={created.key}
          origin={origin}
          onDone={() => setCreated(null)}
        />
      ) : null}
      <form className={styles.tokenForm} onSubmit={create} aria-label="Create a token">
        <Field
          id="token-name"
          label="Token name"
          type="text"
          placeholder="e.g. laptop CLI"
          value={name}
          maxLength={MAX_TOKEN_NAME}
          onChange={(e) => setName(e.target.value)}
        />
        <Field
          id="token-days"
          label="Expires after (days)"
          className={styles.daysField}
          type="number"
          min={1}
          max={MAX_TOKEN_DAYS}
          placeholder="Never"
          value={days}
          onChange={(e) => setDays(e.target.value)}
        />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy && !confirm ? "Creating…" : "Create token"}
        </button>
      </form>
      <StatusLine status={status} />
      {loadError ? (
        <div className={styles.inlineError} role="alert">
          Could not load your tokens: {loadError}{" "}
          <button type="button" className="btn btn-small" onClick={() => void load()}>
            Retry
          </button>
        </div>
      ) : tokens === null ? (
        <p className={styles.hint}>Loading tokens…</p>
      ) : tokens.length === 0 ? (
        <p className={styles.empty}>No tokens yet.</p>
      ) : (
        <table className={styles.table} aria-label="Personal access tokens">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Token</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className={styles.srOnly}>Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => {
              const label = t.name ?? tokenPreview(t.start);
              const expired = t.expiresAt !== null && new Date(t.expiresAt).getTime() < Date.now();
              return (
                <tr key={t.id}>
                  <td className={styles.tokenName}>{label}</td>
                  <td>
                    <code>{tokenPreview(t.start)}</code>
                  </td>
                  <td>{formatDateTime(t.createdAt)}</td>
                  <td className={expired ? styles.errorText : undefined}>
                    {t.expiresAt ? `${expired ? "Expired " : ""}${formatDateTime(t.expiresAt)}` : "Never"}
                  </td>
                  <td>{t.lastRequest ? formatDateTime(t.lastRequest) : "Never"}</td>
                  <td className={styles.actionsCell}>
                    {confirm === t.id ? (
                      <span className={styles.confirm}>
                        <button
                          type="button"
                          className="btn btn-small btn-danger"
                          disabled={busy}
                          onClick={() => void revoke(t)}
                        >
                          Revoke
                        </button>
                        <button type="button" className="btn btn-small" onClick={() => setConfirm(null)}>
                          Cancel
                        </button>
                      </span>
                    ) : (
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={`Revoke token ${label}`}
                        onClick={() => setConfirm(t.id)}
                      >
                        Revoke…
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <details className={styles.usage}>
        <summary>How to use a token</summary>
        <pre className={styles.code}>{usage.cli}</pre>
        <pre className={styles.code}>{usage.curl}</pre>
        <p className={styles.hint}>
          Or set <code>STRATA_SERVER</code> and <code>STRATA_TOKEN</code> in the environment and leave out the
          flags.
        </p>
      </details>
    </SettingsCard>
  );
}
