"use client";

import { useCallback, useEffect, useId, useRef, useState } from "react";
import { describeError, type SessionSummary } from "@/components/api-client";
import { type BranchFailure, BranchFailureNotice, branchFailureOf } from "@/components/chat/branch-failure";
import {
  compactSession,
  forkSession,
  getSessionTree,
  labelEntry,
  type SessionTreeResponse,
} from "@/components/chat/session-tree-client";
import { renameSession } from "@/components/projects/lifecycle-client";
import { ShareDialog } from "@/components/share/share-dialog";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { useFocusTrap } from "@/components/ui/use-focus-trap";
import { treeAction } from "./keys";
import { InlineInput, MoveChooser } from "./move-chooser";
import { type MoveInput, type MoveResult, moveTo } from "./move-client";
import styles from "./session-tree.module.css";
import { TreeActions } from "./tree-actions";
import { TreeRowView } from "./tree-row";
import { useTreeView } from "./use-tree-view";
import { FILTER_MODES, FILTER_TAGS, type FilterMode, nodeText } from "./view-model";
import { WindowedList } from "./windowed-list";

const ROW_HEIGHT = 24;
const MODE_LABELS: Record<FilterMode, string> = {
  default: "Default",
  "no-tools": "No tools",
  "user-only": "User",
  "labeled-only": "Labeled",
  all: "All",
};

type Footer = { kind: "move" } | { kind: "label" } | { kind: "rename" } | null;

/**
 * pi's `/tree` in the browser: the whole session tree (windowed), the root→leaf path marked `•` and the leaf
 * `← active`, labels, checkpoints (`◆`: files changed there), pi's filters, search, folds and keys. Enter on a node
 * offers the move choices; Fork, Label (Shift+L), Rename, Compact, "Share this branch…" and the branch's
 * downloads act from here (`tree-actions.tsx`). `busy`: a run holds the
 * session (actions disabled); `readOnly`: only looking. A modal (`useFocusTrap`); the share dialog it opens stacks
 * its own trap on top and gives focus back to "Share this branch…" when it closes.
 */
export function TreePanel({
  sessionId,
  sessionName,
  busy,
  readOnly,
  refreshKey,
  onClose,
  onMoved,
  onForked,
  onRenamed,
  onCompacted,
  unsavedBuffers,
  projectId,
}: {
  sessionId: string;
  sessionName: string | null;
  busy: boolean;
  readOnly: boolean;
  refreshKey?: unknown;
  onClose: () => void;
  onMoved: (result: MoveResult) => void;
  onForked: (session: SessionSummary, editorText?: string, changed?: string[], restoreId?: string) => void;
  onRenamed: (session: SessionSummary) => void;
  onCompacted: () => void;
  /** The editor's unsaved buffers, sent with a move or fork that changes files (kept first). */
  unsavedBuffers?: () => { path: string; content: string }[];
  /** The session's project: "Download files" of a point links to its archive at the point's commit. */
  projectId?: string;
}) {
  const [tree, setTree] = useState<SessionTreeResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const [footer, setFooter] = useState<Footer>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** The last failed move, with Retry (and Go without summary), until dismissed or another action starts. */
  /** The leaf whose branch the share dialog shares, while it is open. */
  const [sharing, setSharing] = useState<string | null>(null);
  const [failure, setFailure] = useState<(BranchFailure & { input: MoveInput }) | null>(null);
  const view = useTreeView(tree);
  const list = useRef<HTMLDivElement | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  useFocusTrap(panel);
  const listId = useId();
  const row = view.rows[view.selected];
  const canAct = !busy && !readOnly && !working;

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        setTree(await getSessionTree(sessionId, signal));
        setError(null);
      } catch (err) {
        if (!signal?.aborted) setError(describeError(err));
      }
    },
    [sessionId],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey only triggers a reload
  useEffect(() => {
    const ctrl = new AbortController();
    void load(ctrl.signal);
    return () => ctrl.abort();
  }, [load, refreshKey]);
  useEffect(() => list.current?.focus(), []);

  const act = async (fn: () => Promise<void>, onError?: (err: unknown) => void) => {
    setWorking(true);
    setError(null);
    setNotice(null);
    setFailure(null);
    try {
      await fn();
    } catch (err) {
      if (onError) onError(err);
      else setError(describeError(err));
    } finally {
      setWorking(false);
    }
  };
  const closeFooter = () => {
    setFooter(null);
    list.current?.focus();
  };
  const move = (input: MoveInput) =>
    act(
      async () => {
        const buffers = input.mode === "conversation" ? undefined : unsavedBuffers?.();
        const result = await moveTo(sessionId, { ...input, buffers });
        if (result.aborted) {
          setNotice("The summary was cancelled: nothing changed.");
          return;
        }
        onMoved(result);
      },
      (err) => {
        setFooter(null);
        setFailure({ ...branchFailureOf(input.entryId, input.summarize ?? false, err), input });
      },
    );
  const fork = () =>
    row &&
    act(async () => {
      const before = row.node.type === "message" && row.node.role === "user";
      const forked = await forkSession(sessionId, row.node.id, before ? "before" : "at", unsavedBuffers?.());
      onForked(forked.session, forked.editorText, forked.changed, forked.restoreId);
    });
  const saveLabel = (text: string) =>
    row &&
    act(async () => {
      await labelEntry(sessionId, row.node.id, text);
      closeFooter();
      await load();
    });
  const rename = (text: string) =>
    act(async () => {
      onRenamed(await renameSession(sessionId, text));
      closeFooter();
    });
  const compact = () =>
    act(async () => {
      const result = await compactSession(sessionId);
      setNotice(
        result.status === "compacted"
          ? "Compacted: older messages are now a summary."
          : result.status === "pending"
            ? "Tool calls are still running; compact again when they finish."
            : "Nothing to compact.",
      );
      onCompacted();
      await load();
    });
  const openMove = () => {
    if (!row) return;
    if (!canAct) {
      // Never silent: say why Enter offers no move (a run holds the session has its own notice).
      if (!busy)
        setNotice(readOnly ? "Read-only: moving needs write access." : "Wait for the current action to end.");
      return;
    }
    if (row.isLeaf) setNotice("This is where the session is already.");
    else setFooter({ kind: "move" });
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const action = treeAction(e);
    if (!action) return;
    e.preventDefault();
    setNotice(null);
    const todo = view.apply(action);
    if (todo === "cancel") onClose();
    else if (todo === "select") openMove();
    else if (todo === "editLabel" && canAct) setFooter({ kind: "label" });
  };

  const tag = FILTER_TAGS[view.mode];
  const count = view.rows.length;
  const status = `(${count === 0 ? 0 : view.selected + 1}/${count})${tag ? ` ${tag}` : ""}${view.showLabelTimes ? " [+label time]" : ""}`;
  const optionId = (k: number) => `${listId}-row-${k}`;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop closes, as Escape does
    <div className={styles.backdrop} onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={panel} className={styles.panel} role="dialog" aria-modal="true" aria-label="Session tree">
        <header className={styles.header}>
          <h2 className={styles.title}>Session tree</h2>
          <span className={styles.name} title="Session name">
            {sessionName?.trim() || <em className="muted">unnamed</em>}
          </span>
          {readOnly ? null : (
            <button
              type="button"
              className="btn btn-small"
              disabled={!canAct}
              onClick={() => setFooter({ kind: "rename" })}
            >
              Rename
            </button>
          )}
          <span className={styles.spacer} />
          {readOnly ? null : (
            <button type="button" className="btn btn-small" disabled={!canAct} onClick={() => void compact()}>
              Compact
            </button>
          )}
          <button
            type="button"
            className="btn btn-small"
            onClick={onClose}
            aria-label="Close the session tree"
          >
            Close
          </button>
        </header>
        <div className={styles.toolbar}>
          <fieldset className={styles.modes} aria-label="Filter">
            {FILTER_MODES.map((m) => (
              <button
                key={m}
                type="button"
                className={`btn btn-small${view.mode === m ? ` ${styles.modeOn}` : ""}`}
                aria-pressed={view.mode === m}
                onClick={() => {
                  view.setMode(m);
                  list.current?.focus();
                }}
              >
                {MODE_LABELS[m]}
              </button>
            ))}
          </fieldset>
          <input
            className={styles.search}
            type="search"
            aria-label="Search the tree"
            placeholder="Type to search"
            value={view.query}
            onChange={(e) => view.setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (["ArrowUp", "ArrowDown", "Enter", "PageUp", "PageDown"].includes(e.key)) onKeyDown(e);
              else if (e.key === "Escape") {
                e.preventDefault();
                if (view.query) view.setQuery("");
                else onClose();
              }
            }}
          />
          {tree ? (
            <span className={styles.status} aria-live="polite">
              {status}
            </span>
          ) : null}
        </div>
        {error ? <Notice kind="error">{error}</Notice> : null}
        {notice ? <Notice kind="info">{notice}</Notice> : null}
        {busy && !readOnly ? (
          <Notice kind="info">A run holds the session: moving, forking and labels wait until it ends.</Notice>
        ) : null}
        {tree === null && !error ? <Spinner label="Loading the tree" /> : null}
        {tree !== null && count === 0 ? <p className={`muted ${styles.empty}`}>No entries found</p> : null}
        <WindowedList
          scrollerRef={list}
          className={styles.list}
          role="listbox"
          aria-label="Session entries"
          aria-activedescendant={count > 0 ? optionId(view.selected) : undefined}
          tabIndex={0}
          count={count}
          rowHeight={ROW_HEIGHT}
          selected={view.selected}
          onPageSize={view.setPageSize}
          onKeyDown={onKeyDown}
          renderRow={(k, style) => (
            <TreeRowView
              key={view.rows[k].node.id}
              row={view.rows[k]}
              id={optionId(k)}
              selected={k === view.selected}
              showLabelTime={view.showLabelTimes}
              style={style}
              onClick={() => {
                view.select(k);
                list.current?.focus();
              }}
              onDoubleClick={() => {
                view.select(k);
                openMove();
              }}
            />
          )}
        />
        {failure ? (
          <BranchFailureNotice
            failure={failure}
            busy={working || busy}
            onRetry={() => void move(failure.input)}
            onWithoutSummary={() =>
              void move({ ...failure.input, summarize: false, customInstructions: undefined })
            }
            onDismiss={() => setFailure(null)}
          />
        ) : null}
        {footer?.kind === "move" && row ? (
          <MoveChooser
            entryId={row.node.id}
            target={nodeText(row.node)}
            userMessage={
              (row.node.type === "message" && row.node.role === "user") || row.node.type === "custom_message"
            }
            busy={working}
            onMove={(input) => void move(input)}
            onCancel={closeFooter}
          />
        ) : footer?.kind === "label" && row ? (
          <InlineInput
            label="Label (empty to remove):"
            initial={row.node.label ?? ""}
            busy={working}
            onSave={saveLabel}
            onCancel={closeFooter}
          />
        ) : footer?.kind === "rename" ? (
          <InlineInput
            label="Session name:"
            initial={sessionName ?? ""}
            busy={working}
            onSave={rename}
            onCancel={closeFooter}
          />
        ) : (
          <TreeActions
            row={row}
            sessionId={sessionId}
            projectId={projectId}
            canAct={canAct}
            readOnly={readOnly}
            onMove={openMove}
            onFork={() => void fork()}
            onLabel={() => setFooter({ kind: "label" })}
            onShare={setSharing}
            onDownloaded={(name) => {
              setError(null);
              setNotice(`Downloaded ${name}.`);
            }}
            onError={(message) => {
              setNotice(null);
              setError(message);
            }}
          />
        )}
      </div>
      {sharing ? (
        <ShareDialog sessionId={sessionId} leafId={sharing} onClose={() => setSharing(null)} />
      ) : null}
    </div>
  );
}
