"use client";

import { useCallback, useEffect, useState } from "react";
import { listMyShares, type ShareSummary } from "@/components/share/share-api";
import { ShareList } from "@/components/share/share-list";
import { shareErrorMessage } from "@/components/share/view-model";
import styles from "./settings.module.css";
import { SettingsCard } from "./settings-card";

/**
 * Shared links: every live share the caller may revoke (theirs, and those of workspaces they administer) — title,
 * project, created, expiry, redactions, the link — each with Revoke (after a confirmation). Shares are made from a
 * session's "⋯" menu or its tree ("Share this branch…").
 */
export function SharesSection() {
  const [shares, setShares] = useState<ShareSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (signal?: AbortSignal) => {
    try {
      setShares(await listMyShares(signal));
      setError(null);
    } catch (err) {
      if (!signal?.aborted) setError(shareErrorMessage("load", err));
    }
  }, []);
  useEffect(() => {
    const ctrl = new AbortController();
    void load(ctrl.signal);
    return () => ctrl.abort();
  }, [load]);

  return (
    <SettingsCard
      id="shares"
      title="Shared links"
      description="Read-only links to one branch of a session. Anyone with a link can read it and fork it; revoking one makes every URL of it answer “not found”. Share from a session’s ⋯ menu or its tree."
    >
      {error ? (
        <div className={styles.inlineError} role="alert">
          {error}{" "}
          <button type="button" className="btn btn-small" onClick={() => void load()}>
            Retry
          </button>
        </div>
      ) : shares === null ? (
        <p className={styles.hint}>Loading shared links…</p>
      ) : shares.length === 0 ? (
        <p className={styles.hint}>No live shared links.</p>
      ) : (
        <ShareList
          label="Shared links"
          shares={shares}
          showProject
          onRevoked={(id) => setShares((prev) => prev?.filter((s) => s.id !== id) ?? null)}
        />
      )}
    </SettingsCard>
  );
}
