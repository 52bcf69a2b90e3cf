"use client";

import { useEffect, useRef, useState } from "react";
import { describeError, type SessionSummary } from "@/components/api-client";
import { getSessionTree } from "@/components/chat/session-tree-client";
import { Notice } from "@/components/ui/notice";
import type { AgentMessage } from "@/lib/agent/messages";
import { userEntryFromEnd } from "./edit-message";
import { isOpenTreeKey } from "./keys";
import { type MoveResult, moveTo, undoRestore } from "./move-client";
import { TreePanel } from "./tree-panel";

/**
 * The chat's session tree: the panel (open from the session bar's "Tree" button or `Alt+T`), the "Undo restore"
 * offer after a restore, and `edit(index)` for the chat's "Edit" on a user message. `onMoved` gets every move's
 * answer (reload the conversation; `editorText` goes to the composer), `onForked` the new session and the text
 * for its composer.
 */
export function SessionTree({
  sessionId,
  sessionName,
  open,
  onOpenChange,
  busy,
  readOnly,
  refreshKey,
  onMoved,
  onForked,
  onRenamed,
  onCompacted,
  unsavedBuffers,
  onFilesChanged,
  projectId,
}: {
  /** The session's project (links to its files at a point). */
  projectId?: string;
  sessionId: string | null;
  sessionName: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  busy: boolean;
  readOnly: boolean;
  refreshKey?: unknown;
  onMoved: (result: MoveResult) => void;
  onForked: (session: SessionSummary, editorText?: string) => void;
  onRenamed: (session: SessionSummary) => void;
  onCompacted: () => void;
  /** The editor's unsaved buffers, kept by a restore before files change. */
  unsavedBuffers?: () => { path: string; content: string }[];
  /** A restore or fork changed these project files (reload them in the editor and the file tree). */
  onFilesChanged?: (paths: string[]) => void;
}) {
  const [restore, setRestore] = useState<{
    id: string;
    changed: number;
    /** The commit that kept what was there before (short id), if anything was kept. */
    kept: string | null;
    /** This restore was an undo of the previous one. */
    undo: boolean;
    /** The session the restore belongs to (a fork's: the new session). */
    sessionId: string;
    /** The restore switched the files for a fork into this session (the notice follows to it). */
    forkId?: string;
  } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const openRef = useRef(onOpenChange);
  openRef.current = onOpenChange;

  useEffect(() => {
    if (!sessionId) return;
    const onKey = (e: KeyboardEvent) => {
      if (!isOpenTreeKey(e)) return;
      e.preventDefault();
      openRef.current(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [sessionId]);
  // Another session forgets the last restore and error (a fork's restore follows into the fork).
  useEffect(() => {
    setRestore((r) => (r?.forkId && r.forkId === sessionId ? r : null));
    setError(null);
  }, [sessionId]);

  const moved = (result: MoveResult) => {
    if (!sessionId) return;
    setRestore(
      result.restoreId
        ? {
            id: result.restoreId,
            changed: result.changed?.length ?? 0,
            kept: result.keptCommit?.slice(0, 7) ?? null,
            undo: false,
            sessionId,
          }
        : null,
    );
    if (result.changed?.length) onFilesChanged?.(result.changed);
    onOpenChange(false);
    onMoved(result);
  };
  const undo = async () => {
    if (!sessionId || !restore) return;
    try {
      const result = await undoRestore(restore.sessionId, restore.id, unsavedBuffers?.());
      setRestore(
        result.restoreId
          ? {
              id: result.restoreId,
              changed: result.changed?.length ?? 0,
              kept: result.keptCommit?.slice(0, 7) ?? null,
              undo: !restore.undo,
              sessionId: restore.sessionId,
              forkId: restore.forkId,
            }
          : null,
      );
      if (result.changed?.length) onFilesChanged?.(result.changed);
      // A fork's undo changes only the files: this session's conversation stays as it is.
      if (!restore.forkId) onMoved(result);
    } catch (err) {
      setError(describeError(err));
    }
  };

  return (
    <>
      {error ? (
        <Notice
          kind="error"
          actions={
            <button type="button" className="btn btn-small" onClick={() => setError(null)}>
              Dismiss
            </button>
          }
        >
          {error}
        </Notice>
      ) : null}
      {restore ? (
        <Notice
          kind="info"
          title={
            restore.forkId
              ? restore.undo
                ? "Files put back as they were before the fork"
                : "Forked with the files of that point"
              : restore.undo
                ? "Restore undone: back where you were"
                : "Moved to another point of the session"
          }
          actions={
            <>
              <button type="button" className="btn btn-small" disabled={busy} onClick={() => void undo()}>
                {restore.undo ? "Redo restore" : "Undo restore"}
              </button>
              <button type="button" className="btn btn-small" onClick={() => setRestore(null)}>
                Dismiss
              </button>
            </>
          }
        >
          {restore.changed === 0
            ? "No file changed."
            : restore.changed === 1
              ? "1 file changed."
              : `${restore.changed} files changed.`}
          {restore.kept
            ? ` What the files held before, unsaved editor changes included, was kept as checkpoint ${restore.kept}; Undo restore brings it back.`
            : ""}
        </Notice>
      ) : null}
      {open && sessionId ? (
        <TreePanel
          sessionId={sessionId}
          sessionName={sessionName}
          busy={busy}
          readOnly={readOnly}
          refreshKey={refreshKey}
          onClose={() => onOpenChange(false)}
          onMoved={moved}
          unsavedBuffers={unsavedBuffers}
          projectId={projectId}
          onForked={(session, text, changed, restoreId) => {
            onOpenChange(false);
            if (changed?.length) onFilesChanged?.(changed);
            setRestore(
              restoreId
                ? {
                    id: restoreId,
                    changed: changed?.length ?? 0,
                    kept: null,
                    undo: false,
                    // The fork's file switch is a restore of the new session (lib/checkpoints/fork.ts).
                    sessionId: session.id,
                    forkId: session.id,
                  }
                : null,
            );
            onForked(session, text);
          }}
          onRenamed={onRenamed}
          onCompacted={onCompacted}
        />
      ) : null}
    </>
  );
}

/**
 * Edit the user message at `index` of the chat's `messages` (pi: select it in the tree): the leaf goes to its
 * parent and its text comes back (`editorText`). Resolves the move's answer.
 * @throws Error when the message cannot be found on the session's current path.
 */
export async function editUserMessage(
  sessionId: string,
  messages: readonly AgentMessage[],
  index: number,
): Promise<MoveResult> {
  const target = messages[index];
  if (target?.role !== "user") throw new Error("Only your own messages can be edited");
  let fromEnd = 0;
  for (let i = messages.length - 1; i > index; i--) if (messages[i]?.role === "user") fromEnd++;
  const text =
    typeof target.content === "string"
      ? target.content
      : target.content
          .filter((b) => b.type === "text")
          .map((b) => (b.type === "text" ? b.text : ""))
          .join(" ");
  const entryId = userEntryFromEnd(await getSessionTree(sessionId), fromEnd, text);
  if (!entryId)
    throw new Error("This message is not on the session's current path any more; open the tree to find it");
  return moveTo(sessionId, { entryId, mode: "conversation" });
}
