"use client";

import { useCallback, useEffect, useId, useMemo, useState } from "react";
import { describeError, type SessionSummary } from "@/components/api-client";
import { Notice } from "@/components/ui/notice";
import { PanelToggle } from "@/components/ui/panel-toggle";
import { Spinner } from "@/components/ui/spinner";
import { type BranchFailure, BranchFailureNotice, branchFailureOf } from "./branch-failure";
import {
  type BranchResponse,
  branchSession,
  type CompactResponse,
  compactSession,
  forkSession,
  getSessionTree,
  type SessionTreeNode,
  type SessionTreeResponse,
} from "./session-tree-client";

/** Display indent: a level per branch point (a linear run of entries stays at one level, as in pi's /tree). */
function indents(nodes: SessionTreeNode[]): Map<string, number> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  for (const n of nodes) {
    const parent = n.parentId ? byId.get(n.parentId) : undefined;
    out.set(n.id, parent ? (out.get(parent.id) ?? 0) + (parent.childCount > 1 ? 1 : 0) : 0);
  }
  return out;
}

/** Ids on the path from the root to `leafId`. */
function activePath(nodes: SessionTreeNode[], leafId: string | null): Set<string> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const path = new Set<string>();
  let current = leafId ? byId.get(leafId) : undefined;
  while (current && !path.has(current.id)) {
    path.add(current.id);
    current = current.parentId ? byId.get(current.parentId) : undefined;
  }
  return path;
}

const SETTINGS_TYPES = new Set(["model_change", "thinking_level_change", "label", "session_info", "custom"]);

/**
 * "History": the session's entry tree (pi's /tree). "Go here" moves the leaf (optionally summarizing
 * the branch left behind), "Fork" copies the path up to an entry into a new session, "Compact" runs
 * pi's /compact. Not wired yet: render it next to the chat with the selected session and reload the
 * conversation in `onNavigated` / `onCompacted`, select the new session in `onForked`.
 */
export function SessionHistory({
  sessionId,
  busy = false,
  refreshKey,
  onNavigated,
  onForked,
  onCompacted,
}: {
  sessionId: string | null;
  /** A run is live: actions are disabled. */
  busy?: boolean;
  /** Change it to reload the tree (e.g. after a run). */
  refreshKey?: unknown;
  onNavigated?: (result: BranchResponse) => void;
  onForked?: (session: SessionSummary) => void;
  onCompacted?: (result: CompactResponse) => void;
}) {
  const [tree, setTree] = useState<SessionTreeResponse | null>(null);
  /** Reading the tree failed. */
  const [error, setError] = useState<string | null>(null);
  /** The last action (compact, fork) failed: kept when the tree reloads afterwards. */
  const [actionError, setActionError] = useState<string | null>(null);
  const [working, setWorking] = useState<string | null>(null);
  const [summarize, setSummarize] = useState(false);
  const [showSettings, setShowSettings] = useState(false);
  // Collapsed by default: the conversation needs the room; the entry count says what is inside.
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const [notice, setNotice] = useState<string | null>(null);
  /** The last failed "Go here", shown under its entry until dismissed, retried or another action starts. */
  const [branchFailure, setBranchFailure] = useState<BranchFailure | null>(null);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      if (!sessionId) {
        setTree(null);
        return;
      }
      try {
        setTree(await getSessionTree(sessionId, signal));
        setError(null);
      } catch (err) {
        if (!signal?.aborted) setError(describeError(err));
      }
    },
    [sessionId],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey only triggers a reload.
  useEffect(() => {
    const ctrl = new AbortController();
    void load(ctrl.signal);
    return () => ctrl.abort();
  }, [load, refreshKey]);

  const nodes = tree?.nodes ?? [];
  const indent = useMemo(() => indents(nodes), [nodes]);
  const onPath = useMemo(() => activePath(nodes, tree?.leafId ?? null), [nodes, tree?.leafId]);
  const shown = showSettings ? nodes : nodes.filter((n) => !SETTINGS_TYPES.has(n.type));

  const act = async (label: string, fn: () => Promise<void>, onError?: (err: unknown) => void) => {
    setWorking(label);
    setNotice(null);
    setActionError(null);
    setBranchFailure(null);
    try {
      await fn();
    } catch (err) {
      if (onError) onError(err);
      else setActionError(describeError(err));
    } finally {
      setWorking(null);
      await load();
    }
  };

  /** "Go here" (pi /tree): on failure the notice goes under the entry, nothing changed on the server. */
  const goTo = (entryId: string, withSummary: boolean) =>
    void act(
      entryId,
      async () => {
        const result = await branchSession(sessionId ?? "", { entryId, summarize: withSummary });
        onNavigated?.(result);
      },
      (err) => setBranchFailure(branchFailureOf(entryId, withSummary, err)),
    );

  if (!sessionId) return null;
  const compactButton = (
    <button
      type="button"
      className="btn btn-small"
      disabled={busy || working !== null}
      onClick={() =>
        void act("compact", async () => {
          const result = await compactSession(sessionId);
          setNotice(
            result.status === "compacted"
              ? "Compacted: older messages are now a summary."
              : result.status === "pending"
                ? "Tool calls are still running; compact again when they finish."
                : "Nothing to compact.",
          );
          onCompacted?.(result);
        })
      }
    >
      {working === "compact" ? "Compacting…" : "Compact"}
    </button>
  );
  return (
    <section className="session-history" aria-label="History">
      <div className="context-header">
        <PanelToggle label="History" open={open} controls={bodyId} onToggle={() => setOpen((o) => !o)} />
        {tree ? (
          <span className="muted">
            {shown.length} entr{shown.length === 1 ? "y" : "ies"}
          </span>
        ) : null}
        <span className="session-history-spacer" />
        {compactButton}
      </div>
      {error ? <Notice kind="error">{error}</Notice> : null}
      {actionError ? <Notice kind="error">{actionError}</Notice> : null}
      {notice ? <Notice kind="info">{notice}</Notice> : null}
      {open ? (
        <div id={bodyId} className="session-history-body">
          <div className="session-history-options">
            <label>
              <input type="checkbox" checked={summarize} onChange={(e) => setSummarize(e.target.checked)} />{" "}
              Summarize the branch I leave
            </label>
            <label>
              <input
                type="checkbox"
                checked={showSettings}
                onChange={(e) => setShowSettings(e.target.checked)}
              />{" "}
              Show settings entries
            </label>
          </div>
          {tree === null && !error ? <Spinner label="Loading history" /> : null}
          <ul className="session-history-list">
            {shown.map((n) => {
              const isLeaf = n.id === tree?.leafId;
              const what = n.preview || n.type;
              return (
                <li
                  key={n.id}
                  className={onPath.has(n.id) ? "on-branch" : undefined}
                  style={{ paddingLeft: `${(indent.get(n.id) ?? 0) * 14}px` }}
                  aria-current={isLeaf ? "true" : undefined}
                >
                  <span className="session-history-role">{n.role ?? n.type}</span>{" "}
                  <span className="session-history-preview" title={`${n.id} · ${n.timestamp}`}>
                    {what}
                  </span>
                  {n.label ? <span className="session-history-label"> [{n.label}]</span> : null}
                  {isLeaf ? <em> (current)</em> : null}{" "}
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`Go to: ${what}`}
                    disabled={busy || working !== null || isLeaf}
                    onClick={() => goTo(n.id, summarize)}
                  >
                    {working === n.id ? (summarize ? "Summarizing…" : "Moving…") : "Go here"}
                  </button>{" "}
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`Fork from: ${what}`}
                    disabled={busy || working !== null}
                    onClick={() =>
                      void act(`fork:${n.id}`, async () => {
                        const session = await forkSession(sessionId, n.id);
                        onForked?.(session);
                      })
                    }
                  >
                    Fork
                  </button>
                  {branchFailure?.entryId === n.id ? (
                    <BranchFailureNotice
                      failure={branchFailure}
                      busy={busy || working !== null}
                      onRetry={() => goTo(n.id, branchFailure.summarize)}
                      onWithoutSummary={() => goTo(n.id, false)}
                      onDismiss={() => setBranchFailure(null)}
                    />
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
