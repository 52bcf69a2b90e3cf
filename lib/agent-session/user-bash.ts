/**
 * The user's own shell commands in the chat: `!command` (its output joins the model's context) and
 * `!!command` (shown and stored, never sent to the model). pi's `AgentSession.executeBash` +
 * `bash-executor.ts`, running in Strata's just-bash shell on the project VFS instead of a host process.
 */

import type { BashExecutionMessage } from "@/lib/agent/messages";
import { runCommand, truncationOf } from "@/lib/tools/bash";
import type { ToolContext } from "@/lib/tools/types";

/** A parsed `!` / `!!` input. */
export interface UserBashCommand {
  command: string;
  excludeFromContext: boolean;
}

/**
 * `!cmd` → `{ command: "cmd", excludeFromContext: false }`, `!!cmd` → `{ …, excludeFromContext: true }`
 * (pi's interactive editor rule, applied before the input pipeline); anything else, or a bare `!` / `!!`
 * with nothing after it, → undefined.
 */
export function parseUserBash(text: string): UserBashCommand | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("!")) return undefined;
  const excludeFromContext = trimmed.startsWith("!!");
  const command = trimmed.slice(excludeFromContext ? 2 : 1).trim();
  return command ? { command, excludeFromContext } : undefined;
}

/**
 * Run `command` in the session's cwd and build the `bashExecution` message pi stores for it: output is
 * stdout then stderr, tail-truncated to pi's 2000 lines / 50KB (`truncated` set); an abort gives
 * `cancelled: true` and no `exitCode`. `fullOutputPath` is never set (Strata keeps no temp files). A command the
 * execution service stopped at a limit ends its output with the kill message (`Command stopped: …`), exit code 137.
 * `onWait` gets the message so far when the service queues the command behind others' (its output is the wait
 * notice, `waitNotice` of lib/exec/limits.ts; no exit code yet).
 */
export async function executeUserBash(
  ctx: ToolContext,
  input: UserBashCommand,
  options: {
    signal?: AbortSignal;
    now?: () => number;
    onWait?: (partial: BashExecutionMessage) => void;
  } = {},
): Promise<BashExecutionMessage> {
  const now = options.now ?? Date.now;
  const { onWait } = options;
  const run = await runCommand(ctx, input.command, {
    signal: options.signal,
    ...(onWait && {
      onWait: (notice: string) =>
        onWait({
          role: "bashExecution",
          command: input.command,
          output: notice,
          cancelled: false,
          truncated: false,
          ...(input.excludeFromContext ? { excludeFromContext: true } : {}),
          timestamp: now(),
        }),
    }),
  });
  // A command the execution service stopped at a limit: what it printed, then why it was stopped.
  const output = run.killed
    ? `${run.output}${run.output && !run.output.endsWith("\n") ? "\n" : ""}${run.killed.message}\n`
    : run.output;
  const truncation = truncationOf(output, run.killed ? undefined : run.tail);
  return {
    role: "bashExecution",
    command: input.command,
    output: truncation.truncated ? truncation.content : output,
    ...(run.aborted ? {} : { exitCode: run.exitCode }),
    cancelled: run.aborted,
    truncated: truncation.truncated,
    ...(input.excludeFromContext ? { excludeFromContext: true } : {}),
    ...(run.sandboxed ? { sandbox: true as const } : {}),
    timestamp: now(),
  };
}
