"use client";

import { type ReactNode, useMemo, useState } from "react";
import { DiffView } from "@/components/diff/diff-view";
import { Notice } from "@/components/ui/notice";
import type { AgentMessage } from "@/lib/agent/messages";
import type { RevertResult } from "./checkpoints-client";
import {
  type DiffTarget,
  placeTurnSummaries,
  sessionTarget,
  toolCallTarget,
  turnTarget,
} from "./turn-changes-view";
import { TurnSummary } from "./turn-summary";
import { useTurnChanges } from "./use-turn-changes";

/** What the chat panel wires in for issue 14 ("See and undo what the agent did"). */
export interface TurnChangesUi {
  /** The summary to show after message `index`, or null. */
  afterMessage(index: number): ReactNode;
  /** Tool call id → files it changed (its block offers the diff). */
  toolChanges: Record<string, string[]>;
  openToolDiff(toolCallId: string, name: string): void;
  /** The session bar's "Session changes" button. */
  sessionButton: ReactNode;
  /** A failure to read the turns, with Retry; null when none. */
  notice: ReactNode;
  /** The diff view overlay when open. */
  overlay: ReactNode;
}

/**
 * The chat's change summaries, the diff view and reverts, for `messages` of `sessionId`. `refreshKey` changes when
 * a run ended (the turns are read again); `onReverted` reloads the conversation and the files after a revert.
 */
export function useTurnChangesUi({
  sessionId,
  messages,
  refreshKey,
  busy,
  readOnly,
  onReverted,
}: {
  sessionId: string | null;
  messages: readonly AgentMessage[];
  refreshKey: unknown;
  busy: boolean;
  readOnly: boolean;
  onReverted: (result: RevertResult) => void;
}): TurnChangesUi {
  const turns = useTurnChanges(sessionId, refreshKey, onReverted);
  const [target, setTarget] = useState<DiffTarget | null>(null);
  const list = turns.data?.turns;
  const places = useMemo(() => placeTurnSummaries(messages, list ?? []), [messages, list]);
  const toolChanges = useMemo(() => Object.assign({}, ...(list ?? []).map((t) => t.toolCalls)), [list]);
  const whole = sessionTarget(turns.data);

  const afterMessage = (index: number): ReactNode => {
    const turn = places.get(index);
    if (!turn) return null;
    return (
      <TurnSummary
        turn={turn}
        feedback={turns.feedback}
        reverting={turns.reverting}
        busy={busy}
        readOnly={readOnly}
        onOpen={(path) => setTarget(turnTarget(turn, path))}
        onRevert={(path) => void turns.revert(turn, path)}
        onUndoRevert={(standing) => void turns.undoRevert(turn, standing)}
      />
    );
  };

  return {
    afterMessage,
    toolChanges,
    openToolDiff: (id, name) => setTarget(toolCallTarget(id, name)),
    sessionButton: (
      <button
        type="button"
        className="btn btn-small"
        disabled={!whole}
        aria-busy={turns.loading}
        title={
          whole
            ? "Every file this session changed, from its start"
            : turns.loading
              ? "Reading the files this session changed…"
              : "No turn changed files yet"
        }
        onClick={() => setTarget(whole)}
      >
        Session changes
      </button>
    ),
    notice: turns.error ? (
      <Notice
        kind="error"
        title="Could not load the files changed"
        actions={
          <button type="button" className="btn btn-small" onClick={turns.retry}>
            Retry
          </button>
        }
      >
        {turns.error}
      </Notice>
    ) : null,
    overlay:
      target && sessionId ? (
        <DiffView sessionId={sessionId} target={target} onClose={() => setTarget(null)} />
      ) : null,
  };
}
