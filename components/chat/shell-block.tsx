import type { BashExecutionMessage } from "@/lib/agent/messages";
import type { ShellStatus } from "./shell-state";

function statusText(message: BashExecutionMessage, status: ShellStatus | undefined): string {
  if (status === "running") return "running…";
  if (message.cancelled) return "cancelled";
  if (message.exitCode === undefined) return "no exit code";
  return `exit ${message.exitCode}`;
}

/** What the chat adds under a command the simulated shell lacks (exit 127 with Strata's not-found note). */
export const SANDBOX_HINT =
  "npm, npx, pytest and other programs run in the workspace's sandbox once a workspace owner turns it on: Workspace settings → Run the project's code. Then run the command again (or prefix it with sandbox).";

/** Whether `message` is a command the simulated shell does not have (bash's exit 127 plus Strata's note). */
export function sandboxHint(message: BashExecutionMessage): boolean {
  return message.exitCode === 127 && message.output.includes("Strata's shell is simulated:");
}

/** The mark of a command that ran in the real sandbox (a tool call's or a `!command`'s header). */
export function SandboxBadge() {
  return (
    <span
      className="badge badge-sandbox"
      data-testid="ran-in-sandbox"
      title="Ran in the workspace's sandbox: an isolated Linux container on a copy of the project's files, without network; the files it changed were written back"
    >
      sandbox
    </span>
  );
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
        {message.sandbox ? <SandboxBadge /> : null}
        <span className={`shell-status shell-status-${state}`}>{statusText(message, status)}</span>
      </header>
      {status === "running" && message.output === "" ? null : (
        <pre className="shell-output">{message.output || "(no output)"}</pre>
      )}
      {sandboxHint(message) ? (
        <p className="shell-hint" data-testid="shell-sandbox-hint">
          {SANDBOX_HINT}
        </p>
      ) : null}
    </article>
  );
}
