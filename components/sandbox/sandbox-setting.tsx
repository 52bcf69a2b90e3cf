"use client";

import { useState } from "react";
import { accountErrorMessage, callJson } from "@/components/account/auth-fetch";
import styles from "./sandbox.module.css";

type Status = { kind: "ok" | "error"; text: string } | null;

/**
 * The workspace settings page's "Run the project's code" card: what the sandbox lets the agent do, whether it is
 * on, and for the workspace's owner a switch (`PUT /api/workspaces/<id>/sandbox`). Others see the state and who
 * can change it.
 */
export function SandboxSetting({
  workspaceId,
  initial,
  canChange,
}: {
  workspaceId: string;
  initial: boolean;
  /** The caller owns the workspace. */
  canChange: boolean;
}) {
  const [enabled, setEnabled] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  const change = async (next: boolean) => {
    setBusy(true);
    setStatus(null);
    try {
      const answer = await callJson<{ enabled: boolean }>(
        `/api/workspaces/${encodeURIComponent(workspaceId)}/sandbox`,
        { enabled: next },
        "PUT",
      );
      setEnabled(answer.enabled);
      setStatus({
        kind: "ok",
        text: answer.enabled
          ? "Sandbox on. New prompts in this workspace's projects can run the project's code."
          : "Sandbox off. The agent's shell is the simulated one only.",
      });
    } catch (err) {
      setStatus({ kind: "error", text: accountErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.card} aria-labelledby="sandbox-title">
      <div className={styles.head}>
        <h2 id="sandbox-title">Run the project&apos;s code</h2>
        <label className={styles.switch}>
          <input
            type="checkbox"
            role="switch"
            aria-checked={enabled}
            aria-describedby="sandbox-what"
            checked={enabled}
            disabled={!canChange || busy}
            onChange={(e) => void change(e.target.checked)}
          />
          <span>{enabled ? "On" : "Off"}</span>
        </label>
      </div>
      <div id="sandbox-what" className={styles.description}>
        <p>
          When on, commands the agent&apos;s simulated shell lacks — <code>npm test</code>,{" "}
          <code>npx vitest</code>, <code>pytest</code>, <code>cargo test</code>, <code>make</code> — run in an
          isolated Linux sandbox on a copy of the project&apos;s files, so the agent can run the tests it just
          edited. Files they change are written back and checkpointed like the agent&apos;s edits.
        </p>
        <p>
          The sandbox has no network (no package downloads: commit <code>node_modules</code> or vendor what
          the tests need), sees none of the server&apos;s files or secrets, and is stopped at 5 minutes, 60 s
          of CPU, 512 MiB of memory per process and 16 MiB of output. Off by default.
        </p>
      </div>
      {canChange ? null : (
        <p className={styles.notice} role="note">
          Only the workspace&apos;s owner turns the sandbox on or off.
        </p>
      )}
      {status ? (
        <p
          className={status.kind === "ok" ? styles.ok : styles.error}
          role={status.kind === "ok" ? "status" : "alert"}
        >
          {status.text}
        </p>
      ) : null}
    </section>
  );
}
