"use client";

import { useEffect, useMemo, useRef } from "react";
import { indexToolResults } from "./message-utils";
import { MessageView } from "./message-view";
import type { ChatState } from "./reduce-events";
import { RetryNotice } from "./retry-notice";
import { shellStatusByIndex } from "./shell-state";

/**
 * The conversation, following the bottom while new content streams in. A failed last turn gets a Retry button
 * (`onRetry`) while nothing runs; pi's auto-retry wait shows with a Cancel button (`onCancelRetry`).
 */
export function MessageList({
  state,
  onRetry,
  onCancelRetry,
  cancelling,
}: {
  state: ChatState;
  onRetry?: () => void;
  onCancelRetry?: () => void;
  cancelling?: boolean;
}) {
  const { messages, tools, running, errors, openIndex, shells, retry } = state;
  const last = messages[messages.length - 1];
  const retryable =
    !running && last?.role === "assistant" && (last.stopReason === "error" || last.stopReason === "aborted");
  const { results, callIds } = useMemo(() => indexToolResults(messages), [messages]);
  const shellStatus = useMemo(() => shellStatusByIndex(shells), [shells]);
  const ctx = useMemo(() => ({ results, tools, chatRunning: running }), [results, tools, running]);
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the content changes
  useEffect(() => {
    const el = scroller.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [messages, errors, running, retry]);

  return (
    <div
      className="message-list"
      ref={scroller}
      role="log"
      aria-label="Conversation"
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
    >
      {messages.length === 0 && !running ? (
        <p className="muted chat-empty">Ask the agent to do something.</p>
      ) : null}
      {messages.map((m, i) => {
        if (m.role === "toolResult" && callIds.has(m.toolCallId)) return null;
        return (
          <MessageView
            // biome-ignore lint/suspicious/noArrayIndexKey: messages are append-only; the index is their identity
            key={i}
            message={m}
            streaming={running && i === openIndex}
            ctx={ctx}
            shellStatus={shellStatus.get(i)}
            onRetry={retryable && i === messages.length - 1 ? onRetry : undefined}
          />
        );
      })}
      {retry ? <RetryNotice wait={retry} onCancel={onCancelRetry} cancelling={cancelling} /> : null}
      {running && openIndex === null && !retry ? (
        <p className="muted working" role="status">
          Working…
        </p>
      ) : null}
      {errors.map((e, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: errors are append-only
        <p key={i} className="chat-error" role="alert">
          {e}
        </p>
      ))}
    </div>
  );
}
