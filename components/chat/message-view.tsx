import "./system-message.css";
import type { AgentMessage } from "@/lib/agent/messages";
import type { AssistantMessage, SystemMessage, ToolResultMessage } from "@/lib/llm/types";
import { MessageImages, textBlocksOf } from "./attachments-message";
import { Markdown } from "./markdown";
import { contentBlocks, contentText } from "./message-utils";
import type { ToolRun } from "./reduce-events";
import { ShellBlock } from "./shell-block";
import type { ShellStatus } from "./shell-state";
import { systemMessageDisplay } from "./system-message-view";
import { OrphanToolResult, ToolCallBlock } from "./tool-call-block";
import { TurnError } from "./turn-error";

export interface MessageContext {
  results: Map<string, ToolResultMessage>;
  tools: Record<string, ToolRun>;
  chatRunning: boolean;
  /** Tool call id → the files it changed (its block offers their diff). */
  toolChanges?: Record<string, string[]>;
  onToolDiff?: (toolCallId: string, name: string) => void;
}

/** One AgentMessage, by role. */
export function MessageView({
  message,
  streaming,
  ctx,
  shellStatus,
  superseded,
  onRetry,
  systemHead,
  onEdit,
  author,
}: {
  message: AgentMessage;
  /** For a user message: who sent it (a teammate's steer included), when known. */
  author?: string;
  /** For a user message: "Edit" (pi's /tree selection of it: the text comes back, a new branch follows). */
  onEdit?: () => void;
  streaming: boolean;
  ctx: MessageContext;
  /** For a `!command` sent from this page: whether it is still running (or failed to start). */
  shellStatus?: ShellStatus;
  /** For a failed assistant turn: a later assistant message follows it (it was retried), so it shows compactly. */
  superseded?: boolean;
  /** For the failed last turn while nothing runs: re-run it (the Retry button). */
  onRetry?: () => void;
  /** For a system message: it is the transcript's first (the whole prompt), not a later patch. */
  systemHead?: boolean;
}) {
  switch (message.role) {
    case "user":
      return (
        <>
          {author ? (
            <div className="message-author" data-testid="user-author">
              {author}
            </div>
          ) : null}
          <article className="message message-user" data-testid="message-user" aria-label={author ?? "You"}>
            <div className="message-text">{contentText(textBlocksOf(message.content))}</div>
            <MessageImages content={message.content} />
          </article>
          {onEdit ? (
            <button
              type="button"
              className="btn btn-small message-edit"
              onClick={onEdit}
              title="Go back to before this message and edit it; what follows stays in the tree"
            >
              Edit
            </button>
          ) : null}
        </>
      );
    case "assistant":
      return (
        <AssistantView
          message={message}
          streaming={streaming}
          ctx={ctx}
          superseded={superseded}
          onRetry={onRetry}
        />
      );
    case "toolResult":
      return (
        <article className="message message-tool" data-testid="message-toolResult" aria-label="Tool result">
          <OrphanToolResult message={message} />
        </article>
      );
    case "system":
      return <SystemMessageView message={message} head={systemHead ?? false} />;
    case "bashExecution":
      return <ShellBlock message={message} status={shellStatus} />;
    case "custom":
      if (!message.display) return null;
      return (
        <article className="message message-meta" data-testid="message-custom">
          <div className="muted">{message.customType}</div>
          <div className="message-text">{contentText(message.content)}</div>
        </article>
      );
    case "branchSummary":
    case "compactionSummary":
      return (
        <article className="message message-meta" data-testid={`message-${message.role}`}>
          <details>
            <summary>{message.role === "branchSummary" ? "Branch summary" : "Compaction summary"}</summary>
            <Markdown text={message.summary} />
          </details>
        </article>
      );
    default:
      return null;
  }
}

/**
 * A system message: the transcript's first is the whole prompt (pi `getSystemMessageText`: its text and sections); a
 * later one is a patch (pi's SystemMessage diff: changed sections, tools added or removed), shown with what changed
 * and pi's rendered update, so a change of the rules never passes silently (system-message-view.ts).
 */
function SystemMessageView({ message, head }: { message: SystemMessage; head: boolean }) {
  const view = systemMessageDisplay(message, head);
  return (
    <article className="message message-meta message-system" data-testid="message-system">
      <details>
        <summary>{view.summary}</summary>
        {view.text ? (
          <pre className="system-text">{view.text}</pre>
        ) : (
          <p className="muted system-empty">{view.emptyText}</p>
        )}
        {view.toolsAdded.length > 0 ? (
          <p className="system-tools" data-testid="system-tools-added">
            {head ? "Tools: " : "Tools added: "}
            {view.toolsAdded.join(", ")}
          </p>
        ) : null}
        {view.toolsRemoved.length > 0 ? (
          <p className="system-tools" data-testid="system-tools-removed">
            Tools removed: {view.toolsRemoved.join(", ")}
          </p>
        ) : null}
      </details>
    </article>
  );
}

function AssistantView({
  message,
  streaming,
  ctx,
  superseded,
  onRetry,
}: {
  message: AssistantMessage;
  streaming: boolean;
  ctx: MessageContext;
  superseded?: boolean;
  onRetry?: () => void;
}) {
  const failed = message.stopReason === "aborted" || message.stopReason === "error";
  const retried = superseded && message.stopReason === "error";
  // Total over whatever a stored message holds: null or malformed parts are skipped.
  const blocks = contentBlocks(message.content);
  return (
    <article
      className={`message message-assistant${retried ? " stop-retried" : failed ? ` stop-${message.stopReason}` : ""}`}
      data-testid="message-assistant"
      data-stop-reason={message.stopReason}
      aria-label="Assistant"
      aria-busy={streaming || undefined}
    >
      {blocks.map((block, i) => {
        const key = `${i}-${block.type}`;
        if (block.type === "text")
          return typeof block.text === "string" && block.text ? (
            <Markdown key={key} text={block.text} />
          ) : null;
        if (block.type === "thinking") {
          if (typeof block.thinking !== "string" || (!block.thinking && !block.redacted)) return null;
          return (
            <details key={key} className="thinking">
              <summary>Thinking</summary>
              <div className="thinking-text">{block.redacted ? "(redacted)" : block.thinking}</div>
            </details>
          );
        }
        if (block.type !== "toolCall" || typeof block.id !== "string") return null;
        return (
          <ToolCallBlock
            key={`${key}-${block.id}`}
            call={block}
            result={ctx.results.get(block.id)}
            run={ctx.tools[block.id]}
            chatRunning={ctx.chatRunning}
            changed={ctx.toolChanges?.[block.id]}
            onDiff={ctx.onToolDiff ? () => ctx.onToolDiff?.(block.id, block.name) : undefined}
          />
        );
      })}
      {streaming && blocks.length === 0 ? <span className="typing muted">…</span> : null}
      {failed ? <TurnError message={message} superseded={superseded} onRetry={onRetry} /> : null}
      {message.stopReason === "length" && typeof message.errorMessage === "string" && message.errorMessage ? (
        // A turn cut at Strata's output cap (lib/llm/stream-guards.ts): what happened and what to do next.
        <div className="stop-marker stop-length" role="note">
          {message.errorMessage}
        </div>
      ) : null}
    </article>
  );
}
