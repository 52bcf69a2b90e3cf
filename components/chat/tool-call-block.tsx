import styles from "@/components/diff/diff.module.css";
import type { ToolCall, ToolResultMessage } from "@/lib/llm/types";
import { toolMainArg, toolResultText } from "./message-utils";
import type { ToolRun } from "./reduce-events";
import { SandboxBadge } from "./shell-block";

export type ToolCallStatus = "pending" | "running" | "done" | "error" | "interrupted";

export function toolCallStatus(
  result: ToolResultMessage | undefined,
  run: ToolRun | undefined,
  chatRunning: boolean,
): ToolCallStatus {
  if (result) return result.isError ? "error" : "done";
  if (run) {
    if (run.status === "running") return chatRunning ? "running" : "interrupted";
    return run.status;
  }
  return chatRunning ? "pending" : "interrupted";
}

const STATUS_LABEL: Record<ToolCallStatus, string> = {
  pending: "pending",
  running: "running…",
  done: "done",
  error: "error",
  interrupted: "no result",
};

/** Whether a bash call ran in the real sandbox (its result's `details.sandbox`, set whether it failed or not). */
function ranInSandbox(result: ToolResultMessage | undefined): boolean {
  return (result?.details as { sandbox?: unknown } | undefined)?.sandbox === true;
}

/**
 * A tool call and its result, collapsed by default: the header shows the tool name, its main
 * argument, status and, while it runs, its last partial result (the bash tool's wait notice); expanding shows the arguments as JSON and the result text. A call that changed files
 * (`changed`) offers their diff (`onDiff`).
 */
export function ToolCallBlock({
  call,
  result,
  run,
  chatRunning,
  changed,
  onDiff,
}: {
  call: ToolCall;
  result?: ToolResultMessage;
  run?: ToolRun;
  chatRunning: boolean;
  changed?: string[];
  onDiff?: () => void;
}) {
  const status = toolCallStatus(result, run, chatRunning);
  const mainArg = toolMainArg(call.arguments);
  const text = result
    ? toolResultText(result)
    : run?.result !== undefined
      ? toolResultText(run.result)
      : null;
  // While it runs: its last partial result, one line (e.g. "Waiting for a free execution worker: …").
  const progress = status === "running" ? toolResultText(run?.partial).trim() : "";
  return (
    <details
      className={`tool-call status-${status}`}
      data-testid="tool-call"
      data-tool-name={call.name}
      data-status={status}
    >
      <summary>
        <span className="tool-name">{call.name}</span>
        {mainArg ? <span className="tool-arg mono">{mainArg}</span> : null}
        {ranInSandbox(result) ? <SandboxBadge /> : null}
        {progress ? (
          <span className="tool-progress" data-testid="tool-progress" title={progress}>
            {progress}
          </span>
        ) : null}
        <span className={`tool-status status-${status}`}>{STATUS_LABEL[status]}</span>
        {changed && onDiff ? (
          <button
            type="button"
            className={`btn btn-small ${styles.toolDiff}`}
            title={`Show what this call changed: ${changed.join(", ")}`}
            onClick={(e) => {
              e.preventDefault();
              onDiff();
            }}
          >
            Diff
          </button>
        ) : null}
      </summary>
      <div className="tool-body">
        <div className="tool-section-label">Arguments</div>
        <pre className="tool-args">{JSON.stringify(call.arguments, null, 2)}</pre>
        {text !== null ? (
          <>
            <div className="tool-section-label">{status === "error" ? "Error" : "Result"}</div>
            <pre className={status === "error" ? "tool-result tool-error" : "tool-result"}>
              {text || "(empty)"}
            </pre>
          </>
        ) : null}
      </div>
    </details>
  );
}

/** A tool result whose call is not in the list (shown on its own). */
export function OrphanToolResult({ message }: { message: ToolResultMessage }) {
  return (
    <details
      className={`tool-call status-${message.isError ? "error" : "done"}`}
      data-testid="tool-call"
      data-tool-name={message.toolName}
    >
      <summary>
        <span className="tool-name">{message.toolName}</span>
        <span className={`tool-status status-${message.isError ? "error" : "done"}`}>
          {message.isError ? "error" : "result"}
        </span>
      </summary>
      <pre className={message.isError ? "tool-result tool-error" : "tool-result"}>
        {toolResultText(message)}
      </pre>
    </details>
  );
}
