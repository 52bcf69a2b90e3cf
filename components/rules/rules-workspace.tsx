"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { describeError } from "@/components/api-client";
import { ConfirmDeleteDialog } from "@/components/projects/lifecycle-dialogs";
import { formatDateTime } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { ProposalList } from "./proposal-list";
import { ProposeDialog } from "./propose-dialog";
import styles from "./rules.module.css";
import {
  changeDate,
  createProposal,
  deleteRulesFile,
  listProposals,
  listRules,
  type ProposalSummary,
  type RulesChange,
  type RulesListing,
  writeRulesFile,
} from "./rules-api";
import { RulesEditor, type RulesMode } from "./rules-editor";
import { changeLine, RulesFileList } from "./rules-file-list";
import { isChanged, useRulesDraft } from "./use-rules-draft";

export interface RulesWorkspaceProps {
  workspaceId: string;
  teamName: string;
  role: "owner" | "admin" | "member" | "viewer";
}

/**
 * A team's rules root: its files (who changed each, when), Monaco for the selected one, and its proposals.
 * Owners and admins commit directly; members edit a draft and propose it for review; viewers read.
 */
export function RulesWorkspace({ workspaceId, teamName, role }: RulesWorkspaceProps) {
  const router = useRouter();
  const mode: RulesMode =
    role === "owner" || role === "admin" ? "commit" : role === "member" ? "propose" : "read";
  const draft = useRulesDraft(workspaceId);
  const [listing, setListing] = useState<RulesListing | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [proposals, setProposals] = useState<ProposalSummary[] | null>(null);
  const [proposalsError, setProposalsError] = useState<string | null>(null);
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<{ title: string; text: string } | null>(null);
  const [lastCommit, setLastCommit] = useState<{ path: string; change: RulesChange | null } | null>(null);
  const [proposing, setProposing] = useState(false);
  const [proposeError, setProposeError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);

  const refresh = useCallback(
    async (signal?: AbortSignal) => {
      try {
        setListing(await listRules(workspaceId, signal));
        setListError(null);
      } catch (err) {
        if (!signal?.aborted) setListError(describeError(err));
      }
      try {
        setProposals(await listProposals(workspaceId, signal));
        setProposalsError(null);
      } catch (err) {
        if (!signal?.aborted) setProposalsError(describeError(err));
      }
    },
    [workspaceId],
  );

  useEffect(() => {
    const ctrl = new AbortController();
    void refresh(ctrl.signal);
    document.title = `Rules · ${teamName} · Strata`;
    return () => ctrl.abort();
  }, [refresh, teamName]);

  // Typed text is never lost silently: leaving with changes asks first.
  const dirty = draft.changed.length > 0;
  useEffect(() => {
    if (!dirty) return;
    const onLeave = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", onLeave);
    return () => window.removeEventListener("beforeunload", onLeave);
  }, [dirty]);

  const active = draft.active;
  const serverFile = listing?.files.find((f) => f.path === active?.path);

  const save = async () => {
    if (!active || !isChanged(active)) return;
    setBusy(true);
    setActionError(null);
    const { path, content } = active;
    try {
      const change = await writeRulesFile(workspaceId, path, content, message.trim() || undefined);
      draft.committed(path, content);
      setLastCommit({ path, change });
      setMessage("");
      await refresh();
    } catch (err) {
      setActionError({
        title: `Could not save ${path}`,
        text: `${describeError(err)}. Your text is still in the editor: fix the problem and save again.`,
      });
    } finally {
      setBusy(false);
    }
  };

  const remove = async (path: string) => {
    setBusy(true);
    setActionError(null);
    try {
      const change = await deleteRulesFile(workspaceId, path, message.trim() || undefined);
      draft.committed(path, null);
      setConfirmDelete(null);
      setLastCommit({ path, change });
      setMessage("");
      await refresh();
    } catch (err) {
      setConfirmDelete(null);
      setActionError({
        title: `Could not delete ${path}`,
        text: `${describeError(err)}. Nothing was deleted.`,
      });
    } finally {
      setBusy(false);
    }
  };

  const propose = async (title: string, description: string) => {
    setBusy(true);
    setProposeError(null);
    try {
      const p = await createProposal(workspaceId, { title, description, changes: draft.changes });
      draft.clear();
      setProposing(false);
      router.push(`/teams/${encodeURIComponent(workspaceId)}/rules/proposals/${encodeURIComponent(p.id)}`);
    } catch (err) {
      setProposeError(`${describeError(err)}. Your draft is kept; change it or try again.`);
    } finally {
      setBusy(false);
    }
  };

  const lastChangeText = serverFile ? changeLine(serverFile) : active?.saved === null ? "not saved yet" : "";
  const toolbar =
    active?.status === "ready" && !active.binary ? (
      <div className={styles.toolbarActions}>{renderToolbar()}</div>
    ) : null;

  function renderToolbar() {
    if (!active) return null;
    const changed = isChanged(active);
    if (mode === "read") return <span className="badge">Read-only</span>;
    const deleteButton =
      active.saved !== null ? (
        <button
          type="button"
          className="btn btn-small"
          disabled={busy}
          onClick={() =>
            mode === "commit" ? setConfirmDelete(active.path) : draft.toggleDeleted(active.path)
          }
        >
          {active.deleted ? "Undo delete" : mode === "commit" ? "Delete…" : "Delete in draft"}
        </button>
      ) : null;
    const discardButton = changed ? (
      <button
        type="button"
        className="btn btn-small"
        disabled={busy}
        onClick={() => draft.discard(active.path)}
      >
        Discard
      </button>
    ) : null;
    if (mode === "commit") {
      return (
        <>
          {discardButton}
          {deleteButton}
          <input
            type="text"
            className={styles.message}
            aria-label="Commit message"
            placeholder="Commit message (optional)"
            value={message}
            disabled={busy}
            onChange={(e) => setMessage(e.target.value)}
          />
          {busy ? <Spinner label="Saving" /> : null}
          <button
            type="button"
            className="btn btn-small btn-primary"
            disabled={busy || !changed || active.deleted}
            onClick={() => void save()}
          >
            Save
          </button>
        </>
      );
    }
    return (
      <>
        {discardButton}
        {deleteButton}
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={busy || draft.changed.length === 0}
          onClick={() => {
            setProposeError(null);
            setProposing(true);
          }}
          title="Send every changed file of your draft for review"
        >
          Propose change…{draft.changed.length > 1 ? ` (${draft.changed.length} files)` : ""}
        </button>
      </>
    );
  }

  return (
    <div className={`workspace ${styles.rulesWorkspace}`}>
      <header className="workspace-header">
        <Link href="/" className="brand">
          Strata
        </Link>
        <span className="sep">/</span>
        <Link href={`/teams/${encodeURIComponent(workspaceId)}`}>{teamName}</Link>
        <span className="sep">/</span>
        <h1 className="project-name">Team rules</h1>
        {listing ? <span className="muted mono">{listing.root}</span> : null}
        <span className={`badge ${styles.roleBadge}`}>{role}</span>
        <Link href={`/teams/${encodeURIComponent(workspaceId)}`} className="header-link">
          Team settings
        </Link>
      </header>
      <nav className="tree-pane" aria-label="Rules files">
        <div className="pane-title">
          <span>Files</span>
          <button
            type="button"
            className="btn-icon"
            title="Refresh"
            aria-label="Refresh"
            onClick={() => void refresh()}
          >
            ⟳
          </button>
        </div>
        {listError ? (
          <Notice kind="error" title="Could not list the rules">
            {listError}. Use ⟳ to try again.
          </Notice>
        ) : null}
        {listing ? (
          <RulesFileList
            files={listing.files}
            draft={draft.files}
            selected={draft.activePath}
            canCreate={mode !== "read"}
            onOpen={draft.open}
            onCreate={draft.create}
          />
        ) : listError ? null : (
          <Spinner label="Loading files" />
        )}
        {mode === "propose" && draft.changed.length > 0 ? (
          <div className={styles.draftBox} role="status">
            <strong>Your draft</strong>: {draft.changed.length} changed file
            {draft.changed.length === 1 ? "" : "s"}, not yet proposed.
          </div>
        ) : null}
      </nav>
      <section className="editor-pane" aria-label="Editor">
        <div className={styles.paneNotices}>
          {mode === "read" ? (
            <Notice kind="info" title="Read-only">
              You are a viewer of {teamName}: you can read the team rules but not change or propose them. Ask
              an owner or admin for the member role to propose changes.
            </Notice>
          ) : mode === "propose" ? (
            <Notice kind="info" title="Changes go through review">
              Members cannot change the rules root directly. Edit any files here, then use “Propose change…”:
              an owner or admin reviews and approves it.
            </Notice>
          ) : null}
          {actionError ? (
            <Notice
              kind="error"
              title={actionError.title}
              actions={
                <button type="button" className="btn btn-small" onClick={() => setActionError(null)}>
                  Dismiss
                </button>
              }
            >
              {actionError.text}
            </Notice>
          ) : null}
          {lastCommit && !actionError ? (
            <CommitNotice
              path={lastCommit.path}
              change={
                lastCommit.change ??
                listing?.files.find((f) => f.path === lastCommit.path)?.lastChange ??
                null
              }
              onDismiss={() => setLastCommit(null)}
            />
          ) : null}
        </div>
        <RulesEditor
          workspaceId={workspaceId}
          file={active}
          mode={mode}
          lastChange={lastChangeText}
          onEdit={draft.edit}
          onRetry={(p) => void draft.reload(p)}
          toolbar={toolbar}
        />
      </section>
      <aside className={styles.proposalsPane} aria-label="Proposals">
        <div className="pane-title">
          <span>Proposals</span>
        </div>
        {proposalsError ? (
          <Notice kind="error" title="Could not list the proposals">
            {proposalsError}. Use ⟳ to try again.
          </Notice>
        ) : null}
        {proposals ? (
          <ProposalList workspaceId={workspaceId} proposals={proposals} />
        ) : proposalsError ? null : (
          <Spinner label="Loading proposals" />
        )}
      </aside>
      {proposing ? (
        <ProposeDialog
          changes={draft.changes}
          busy={busy}
          error={proposeError}
          onSubmit={(t, d) => void propose(t, d)}
          onCancel={() => setProposing(false)}
        />
      ) : null}
      {confirmDelete ? (
        <ConfirmDeleteDialog
          title="Delete rules file?"
          subject={<span className="mono">{confirmDelete}</span>}
          confirmLabel="Delete"
          busy={busy}
          error={null}
          onConfirm={() => void remove(confirmDelete)}
          onCancel={() => setConfirmDelete(null)}
        >
          <p>
            The deletion is a commit of the rules repository; it reaches every member&rsquo;s next request.
          </p>
        </ConfirmDeleteDialog>
      ) : null}
    </div>
  );
}

function CommitNotice({
  path,
  change,
  onDismiss,
}: {
  path: string;
  change: RulesChange | null;
  onDismiss: () => void;
}) {
  const who = change ? change.authorName || change.authorEmail : null;
  return (
    <Notice
      kind="info"
      title={`Committed ${path}`}
      actions={
        <button type="button" className="btn btn-small" onClick={onDismiss}>
          Dismiss
        </button>
      }
    >
      <span data-testid="rules-commit">
        {change
          ? `Commit ${change.oid ? `${change.oid.slice(0, 7)} ` : ""}by ${who} · ${formatDateTime(changeDate(change.timestamp).toISOString())}. Members get it in their next request.`
          : "Saved. Members get it in their next request."}
      </span>
    </Notice>
  );
}
