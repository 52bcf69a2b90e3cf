"use client";

import { useEffect, useId, useRef, useState } from "react";
import { describeError } from "@/components/api-client";
import { formatDateTime } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { useFocusTrap } from "@/components/ui/use-focus-trap";
import styles from "./rules.module.css";
import { listProjectSessions, listTeamProjects, setRulesPreview, type TeamSession } from "./rules-api";

interface Choice {
  session: TeamSession;
  projectName: string;
}

/**
 * "Preview in a session": the caller's sessions in the team's projects; the chosen one reads this proposal's
 * files instead of the merged team rules (PUT /api/sessions/:id/rules-preview) until the preview is stopped.
 */
export function PreviewDialog({
  workspaceId,
  proposalId,
  userId,
  onClose,
}: {
  workspaceId: string;
  proposalId: string;
  userId: string;
  onClose: () => void;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  useFocusTrap(dialog);
  const [choices, setChoices] = useState<Choice[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ choice: Choice; on: boolean } | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const projects = await listTeamProjects(workspaceId);
        const lists = await Promise.all(
          projects.map(async (p) =>
            (await listProjectSessions(p.id)).map((session) => ({ session, projectName: p.name })),
          ),
        );
        const mine = lists
          .flat()
          .filter((c) => !c.session.userId || c.session.userId === userId)
          .sort((a, b) => String(b.session.updatedAt).localeCompare(String(a.session.updatedAt)));
        if (live) setChoices(mine);
      } catch (err) {
        if (live) setLoadError(`${describeError(err)}. Close this dialog and try again.`);
      }
    })();
    return () => {
      live = false;
    };
  }, [workspaceId, userId]);

  const apply = async (choice: Choice, on: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await setRulesPreview(choice.session.id, on ? proposalId : null);
      setDone({ choice, on });
    } catch (err) {
      setError(`${describeError(err)}. The session was not changed.`);
    } finally {
      setBusy(false);
    }
  };

  const current = choices?.find((c) => c.session.id === picked) ?? null;
  return (
    <div className="modal-backdrop">
      <div
        ref={dialog}
        className={`modal ${styles.dialog}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(e) => {
          if (e.key === "Escape" && !busy) onClose();
        }}
      >
        <h2 id={titleId}>Preview in a session</h2>
        <p className="muted">
          The session you pick reads this proposal&rsquo;s files instead of the team rules, from its next
          request on. Nobody else is affected.
        </p>
        {loadError ? (
          <Notice kind="error" title="Could not list your sessions">
            {loadError}
          </Notice>
        ) : choices === null ? (
          <Spinner label="Loading sessions" />
        ) : choices.length === 0 ? (
          <Notice kind="info" title="No session yet">
            You have no session in this team&rsquo;s projects. Open a team project, start a session, then come
            back.
          </Notice>
        ) : (
          <ul className={styles.sessionList} aria-label="Your sessions">
            {choices.map((c) => (
              <li key={c.session.id}>
                <label>
                  <input
                    type="radio"
                    name="preview-session"
                    value={c.session.id}
                    checked={picked === c.session.id}
                    onChange={() => setPicked(c.session.id)}
                  />
                  <span>
                    <strong>{c.session.title || "Untitled session"}</strong>{" "}
                    <span className="muted">
                      · {c.projectName} · {formatDateTime(c.session.updatedAt)}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {done ? (
          <Notice kind="info" title={done.on ? "Preview on" : "Preview off"}>
            {done.on ? (
              <>
                “{done.choice.session.title || "Untitled session"}” now uses this proposal&rsquo;s rules.{" "}
                <a href={`/projects/${encodeURIComponent(done.choice.session.projectId)}`}>
                  Open its project
                </a>
                .
              </>
            ) : (
              `“${done.choice.session.title || "Untitled session"}” is back on the team rules.`
            )}
          </Notice>
        ) : null}
        {error ? (
          <p className="delete-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="delete-choices">
          <button type="button" className="btn" disabled={busy} onClick={onClose}>
            Close
          </button>
          <button
            type="button"
            className="btn"
            disabled={busy || !current}
            onClick={() => current && void apply(current, false)}
          >
            Stop preview
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy || !current}
            onClick={() => current && void apply(current, true)}
          >
            {busy ? "Applying…" : "Preview"}
          </button>
        </div>
      </div>
    </div>
  );
}
