"use client";

import { Fragment, type ReactNode, useEffect, useMemo, useRef } from "react";
import { indexToolResults } from "./message-utils";
import { MessageView } from "./message-view";
import { type ChatState, noticesFor } from "./reduce-events";
import { RequestNotice } from "./request-notice";
import { RetryNotice } from "./retry-notice";
import { shellStatusByIndex } from "./shell-state";
import { turnPlaces } from "./turn-error-view";

/** The empty chat's line: what a prompt does, or (no model configured) what still works. */
export function emptyChatText(hasModel: boolean): string {
  return hasModel
    ? "Ask the agent to do something."
    : "No model is configured: !commands run in the project shell; see the note below the chat to configure one.";
}

/**
 * The conversation, following the bottom while new content streams in. A failed last turn gets a Retry button
 * (`onRetry`) while nothing runs; a failed turn that a later answer follows (retried) is one muted line; pi's
 * auto-retry wait shows with a Cancel button (`onCancelRetry`). `hasModel` false: the empty chat says what works;
 * `readOnly` (the caller cannot prompt): it says only that there is nothing yet.
 */
export function MessageList({
  state,
  onRetry,
  onCancelRetry,
  cancelling,
  hasModel = true,
  readOnly = false,
  changes,
  onEditUser,
  authors,
}: {
  state: ChatState;
  /** Who wrote each user message: its `timestamp` → the author's name (shown above the message). */
  authors?: Record<string, string>;
  /** Issue 14: what follows a message (a turn's changed files) and the tool calls that changed files. */
  changes?: {
    afterMessage: (index: number) => ReactNode;
    toolChanges: Record<string, string[]>;
    openToolDiff: (toolCallId: string, name: string) => void;
  };
  /** "Edit" on a user message (its index): the session moves back to before it and its text goes to the composer. */
  onEditUser?: (index: number) => void;
  hasModel?: boolean;
  readOnly?: boolean;
  onRetry?: () => void;
  onCancelRetry?: () => void;
  cancelling?: boolean;
}) {
  const { messages, tools, running, errors, openIndex, shells, retry, notices } = state;
  const places = useMemo(() => turnPlaces(messages, running), [messages, running]);
  const { results, callIds } = useMemo(() => indexToolResults(messages), [messages]);
  const shellStatus = useMemo(() => shellStatusByIndex(shells), [shells]);
  const toolChanges = changes?.toolChanges;
  const onToolDiff = changes?.openToolDiff;
  const ctx = useMemo(
    () => ({ results, tools, chatRunning: running, toolChanges, onToolDiff }),
    [results, tools, running, toolChanges, onToolDiff],
  );
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  // A message the user just sent brings the view to the end, even when they had scrolled up to read.
  const lastUser = useMemo(() => {
    for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === "user") return i;
    return -1;
  }, [messages]);
  const seenUser = useRef(lastUser);
  if (lastUser > seenUser.current) stick.current = true;
  seenUser.current = lastUser;

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the content changes
  useEffect(() => {
    const el = scroller.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [messages, errors, running, retry, notices]);

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
        <p className="muted chat-empty">
          {readOnly ? "No messages in this session yet." : emptyChatText(hasModel)}
        </p>
      ) : null}
      {messages.map((m, i) => {
        if (m.role === "toolResult" && callIds.has(m.toolCallId)) {
          const after = changes?.afterMessage(i);
          // biome-ignore lint/suspicious/noArrayIndexKey: messages are append-only; the index is their identity
          return after ? <Fragment key={i}>{after}</Fragment> : null;
        }
        const systemHead = m.role === "system" && i === messages.findIndex((x) => x.role === "system");
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: messages are append-only; the index is their identity
          <Fragment key={i}>
            <RequestNotice lines={noticesFor(notices, m)} />
            <MessageView
              message={m}
              streaming={running && i === openIndex}
              ctx={ctx}
              shellStatus={shellStatus.get(i)}
              superseded={places.get(i)?.superseded}
              onRetry={places.get(i)?.canRetry ? onRetry : undefined}
              systemHead={systemHead}
              author={m.role === "user" ? authors?.[String(m.timestamp)] : undefined}
              onEdit={onEditUser && m.role === "user" && !running ? () => onEditUser(i) : undefined}
            />
            {changes?.afterMessage(i)}
          </Fragment>
        );
      })}
      <RequestNotice lines={notices.pending} />
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
