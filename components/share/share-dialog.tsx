"use client";

/**
 * Sharing one branch of a session by link (docs/sharing.md), the owner's side: this modal previews exactly what the
 * link will show — the root→leaf path ending at `leafId` (the session's current leaf when null), optionally the files
 * of that point's checkpoint and the system prompt with its rules (both off by default) — with the preview's counts
 * and a table of every redaction (where, rule, kind, redacted excerpt). The owner adds their own strings to redact
 * (chips; each change previews again), picks an expiry and publishes the previewed digest; the link then shows with
 * Copy and Open, above the session's live links (each revocable). `share-api.ts` makes the calls, `view-model.ts`
 * words them, `share-list.tsx` lists shares (also used by Settings → Shared links). Every failure is shown in the
 * dialog with what to do next; the owner's strings and choices survive any error. A modal: it keeps the keyboard
 * (`useFocusTrap`) and gives focus back to its opener (or `returnFocusTo`) on close.
 */
import { type RefObject, useCallback, useEffect, useId, useRef, useState } from "react";
import { getSessionTree } from "@/components/chat/session-tree-client";
import { Spinner } from "@/components/ui/spinner";
import { useFocusTrap } from "@/components/ui/use-focus-trap";
import { RedactionTable } from "./redaction-table";
import styles from "./share.module.css";
import {
  listSessionShares,
  previewShare,
  publishShare,
  type SharePreview,
  type ShareSummary,
} from "./share-api";
import { ShareList } from "./share-list";
import { ShareLinkResult } from "./share-result";
import {
  EXPIRY_CHOICES,
  type ExpiryChoice,
  expiresAtFor,
  previewCounts,
  redactionInputProblem,
  sharedFileLine,
  shareErrorMessage,
} from "./view-model";

export function ShareDialog({
  sessionId,
  leafId,
  onClose,
  returnFocusTo,
}: {
  sessionId: string;
  /** The last entry of the branch to share; null: the session's current leaf. */
  leafId: string | null;
  onClose: () => void;
  /** Where focus goes on close when the opener is gone (a menu item); default: the opener. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const titleId = useId();
  const [leaf, setLeaf] = useState<string | null>(leafId);
  const [includeFiles, setIncludeFiles] = useState(false);
  const [includeSystem, setIncludeSystem] = useState(false);
  const [expiry, setExpiry] = useState<ExpiryChoice>("never");
  const [redact, setRedact] = useState<string[]>([]);
  const [draft, setDraft] = useState("");
  const [draftProblem, setDraftProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<SharePreview | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [previewKey, setPreviewKey] = useState(0);
  /** Why the preview (or finding the leaf) failed; cleared when a preview starts. */
  const [error, setError] = useState<string | null>(null);
  /** Why publishing failed; kept until the next publish (a stale one's new preview shows meanwhile). */
  const [publishError, setPublishError] = useState<string | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [published, setPublished] = useState<ShareSummary | null>(null);
  const [shares, setShares] = useState<ShareSummary[] | null>(null);
  const [sharesError, setSharesError] = useState<string | null>(null);
  const dialog = useRef<HTMLDivElement>(null);

  useFocusTrap(dialog, { returnFocusTo });
  useEffect(() => dialog.current?.focus(), []);

  // The session's current leaf, when none was picked.
  useEffect(() => {
    if (leaf !== null) return;
    const ctrl = new AbortController();
    getSessionTree(sessionId, ctrl.signal).then(
      (tree) =>
        tree.leafId
          ? setLeaf(tree.leafId)
          : setError("This session has no messages yet: there is nothing to share. Send a message first."),
      (err: unknown) => {
        if (!ctrl.signal.aborted) setError(shareErrorMessage("preview", err));
      },
    );
    return () => ctrl.abort();
  }, [leaf, sessionId]);

  // Preview again whenever the options or the owner's strings change (or Retry asks).
  // biome-ignore lint/correctness/useExhaustiveDependencies: previewKey only triggers a retry
  useEffect(() => {
    if (leaf === null) return;
    const ctrl = new AbortController();
    setPreviewing(true);
    setError(null);
    previewShare(sessionId, { leafId: leaf, includeFiles, includeSystem, redact }, ctrl.signal).then(
      (p) => {
        setPreview(p);
        setPreviewing(false);
      },
      (err: unknown) => {
        if (ctrl.signal.aborted) return;
        setPreview(null);
        setPreviewing(false);
        setError(shareErrorMessage("preview", err));
      },
    );
    return () => ctrl.abort();
  }, [sessionId, leaf, includeFiles, includeSystem, redact, previewKey]);

  const loadShares = useCallback(
    async (signal?: AbortSignal) => {
      try {
        setShares(await listSessionShares(sessionId, signal));
        setSharesError(null);
      } catch (err) {
        if (!signal?.aborted) setSharesError(shareErrorMessage("load", err));
      }
    },
    [sessionId],
  );
  useEffect(() => {
    const ctrl = new AbortController();
    void loadShares(ctrl.signal);
    return () => ctrl.abort();
  }, [loadShares]);

  const addDraft = () => {
    const problem = redactionInputProblem(draft, redact);
    setDraftProblem(problem);
    if (problem) return;
    setRedact([...redact, draft.trim()]);
    setDraft("");
  };

  const publish = async () => {
    if (!preview || leaf === null) return;
    setPublishing(true);
    setPublishError(null);
    try {
      const share = await publishShare(sessionId, {
        leafId: leaf,
        includeFiles,
        includeSystem,
        redact,
        digest: preview.digest,
        expiresAt: expiresAtFor(expiry, new Date()),
      });
      setPublished(share);
      setDraftProblem(null);
      setShares((prev) => [share, ...(prev ?? []).filter((s) => s.id !== share.id)]);
    } catch (err) {
      setPublishError(shareErrorMessage("publish", err));
      // A stale preview: show the new one at once (the owner reviews it, then publishes again).
      if (err instanceof Error && "code" in err && err.code === "preview_stale") setPreviewKey((k) => k + 1);
    } finally {
      setPublishing(false);
    }
  };

  const busy = previewing || publishing;
  return (
    <div className="modal-backdrop">
      <div
        ref={dialog}
        className={`modal ${styles.dialog}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={(e) => {
          if (e.key === "Escape" && !publishing) onClose();
        }}
      >
        <h2 id={titleId}>Share this branch</h2>
        <p className={styles.lead}>
          The link shows the conversation from its start to this point only, with tool calls and results.
          Anyone with the link can read it and fork it into their own workspace. Secrets are redacted; check
          the list below before publishing.
        </p>
        <div className={styles.options}>
          <label className={styles.check}>
            <input
              type="checkbox"
              checked={includeFiles}
              disabled={publishing}
              onChange={(e) => setIncludeFiles(e.target.checked)}
            />
            Include files at this checkpoint
          </label>
          <label className={styles.check}>
            <input
              type="checkbox"
              checked={includeSystem}
              disabled={publishing}
              onChange={(e) => setIncludeSystem(e.target.checked)}
            />
            Include system prompt and rules
          </label>
          <label className={styles.expiry}>
            Expires
            <select
              value={expiry}
              disabled={publishing}
              onChange={(e) => setExpiry(e.target.value as ExpiryChoice)}
            >
              {EXPIRY_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
        </div>

        <section className={styles.preview} aria-label="Preview" aria-busy={previewing}>
          <h3 className={styles.sectionTitle}>
            Preview
            {preview ? <span className={styles.counts}>{previewCounts(preview.snapshot)}</span> : null}
          </h3>
          {previewing ? <Spinner label="Building the preview (redacting secrets)…" /> : null}
          {preview ? (
            <>
              <p className={styles.previewTitle}>
                Title: <strong>{preview.snapshot.title}</strong>
              </p>
              <RedactionTable redactions={preview.snapshot.redactions} />
              {preview.snapshot.files ? (
                <details className={styles.fileList}>
                  <summary>
                    Files shared: the project as it was at this point&apos;s checkpoint (edits made since, and
                    edits not yet followed by a prompt, are not in it)
                  </summary>
                  {preview.snapshot.files.length === 0 ? (
                    <p>No files: this point of the conversation has no checkpoint.</p>
                  ) : (
                    <ul aria-label="Files shared">
                      {preview.snapshot.files.map((f) => (
                        <li key={f.path}>{sharedFileLine(f)}</li>
                      ))}
                    </ul>
                  )}
                </details>
              ) : null}
            </>
          ) : null}
        </section>

        <div className={styles.redactInput}>
          <label htmlFor={`${titleId}-redact`}>Also redact (your own text, at least 4 characters)</label>
          <div className={styles.redactRow}>
            <input
              id={`${titleId}-redact`}
              type="text"
              value={draft}
              maxLength={1000}
              disabled={publishing}
              aria-invalid={draftProblem !== null}
              aria-describedby={draftProblem ? `${titleId}-redact-problem` : undefined}
              onChange={(e) => {
                setDraft(e.target.value);
                setDraftProblem(null);
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  addDraft();
                }
              }}
            />
            <button type="button" className="btn btn-small" disabled={publishing} onClick={addDraft}>
              Add
            </button>
          </div>
          {draftProblem ? (
            <span id={`${titleId}-redact-problem`} className={styles.error} role="alert">
              {draftProblem}
            </span>
          ) : null}
          {redact.length > 0 ? (
            <ul className={styles.chips} aria-label="Your redactions">
              {redact.map((text) => (
                <li key={text} className={styles.chip}>
                  <code>{text}</code>
                  <button
                    type="button"
                    aria-label={`Stop redacting ${text}`}
                    disabled={publishing}
                    onClick={() => setRedact(redact.filter((t) => t !== text))}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>

        {error ? (
          <div className={styles.errorBox} role="alert">
            {error}{" "}
            {!previewing && !preview && leaf !== null ? (
              <button type="button" className="btn btn-small" onClick={() => setPreviewKey((k) => k + 1)}>
                Preview again
              </button>
            ) : null}
          </div>
        ) : null}
        {publishError ? (
          <div className={styles.errorBox} role="alert">
            {publishError}
          </div>
        ) : null}
        {published ? <ShareLinkResult share={published} /> : null}

        <div className="delete-choices">
          <button type="button" className="btn" disabled={publishing} onClick={onClose}>
            Close
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy || !preview}
            onClick={() => void publish()}
          >
            {publishing ? "Publishing…" : published ? "Publish another link" : "Publish link"}
          </button>
        </div>

        <section className={styles.live} aria-label="Live links of this session">
          <h3 className={styles.sectionTitle}>Live links of this session</h3>
          {sharesError ? (
            <div className={styles.errorBox} role="alert">
              {sharesError}{" "}
              <button type="button" className="btn btn-small" onClick={() => void loadShares()}>
                Retry
              </button>
            </div>
          ) : shares === null ? (
            <p className={styles.muted}>Loading…</p>
          ) : shares.length === 0 ? (
            <p className={styles.muted}>No live links.</p>
          ) : (
            <ShareList
              label="Live links of this session"
              shares={shares}
              onRevoked={(id) => {
                setShares((prev) => prev?.filter((s) => s.id !== id) ?? null);
                if (published?.id === id) setPublished(null);
              }}
            />
          )}
        </section>
      </div>
    </div>
  );
}
