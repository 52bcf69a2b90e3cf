import type { BashExecutionMessage } from "@/lib/agent/messages";
import type { ShellStatus } from "./shell-state";

function statusText(message: BashExecutionMessage, status: ShellStatus | undefined): string {
  if (status === "running") return "running…";
  if (message.cancelled) return "cancelled";
  if (message.exitCode === undefined) return "no exit code";
  return `exit ${message.exitCode}`;
}

/**
 * A `!command` the user ran (a `bashExecution` message): the command, its output and exit code, and
 * whether it was kept out of the model's context (`!!command`). `status` is set for commands sent from
 * this page: running, or failed before the server answered (then nothing is shown).
 */
export function ShellBlock({ message, status }: { message: BashExecutionMessage; status?: ShellStatus }) {
  if (status === "failed") return null;
  const failed = !message.cancelled && message.exitCode !== undefined && message.exitCode !== 0;
  const state = status === "running" ? "running" : message.cancelled ? "cancelled" : failed ? "failed" : "ok";
  return (
    <article
      className={`message message-shell shell-${state}`}
      data-testid="message-bashExecution"
      data-status={state}
      data-exit-code={message.exitCode}
      aria-label="Shell command"
      aria-busy={status === "running" || undefined}
    >
      <header className="shell-header">
        <code className="shell-command">
          <span className="shell-prompt" aria-hidden="true">
            ${" "}
          </span>
          {message.command}
        </code>
        {message.excludeFromContext ? (
          <span className="badge shell-excluded" title="Run with !!: the model does not see it">
            excluded from context
          </span>
        ) : null}
        {message.truncated ? <span className="badge badge-warn">truncated</span> : null}
        <span className={`shell-status shell-status-${state}`}>{statusText(message, status)}</span>
      </header>
      {status === "running" && message.output === "" ? null : (
        <pre className="shell-output">{message.output || "(no output)"}</pre>
      )}
    </article>
  );
}
