/**
 * `!command` / `!!command` in the chat: a placeholder `bashExecution` message is added when the command is
 * sent and replaced by the server's message (`message_start`/`message_end` of the command's own stream).
 * These actions never touch the open message of a run, so a command can run beside the agent.
 */
import type { AgentMessage, BashExecutionMessage } from "@/lib/agent/messages";

export type ShellStatus = "running" | "done" | "failed";

export interface ShellRun {
  /** Index of the command's message in the chat's list. */
  index: number;
  status: ShellStatus;
  /** The server sent the command's message. */
  received: boolean;
}

/** A `!command` of this tab is still running (its card is local until the server stores it). */
export const shellOpen = (state: { shells: Record<string, ShellRun> }) =>
  Object.values(state.shells).some((s) => s.status === "running");

export type ShellAction =
  | { type: "shell_start"; id: string; command: string; excludeFromContext: boolean; timestamp: number }
  | { type: "shell_message"; id: string; message: BashExecutionMessage; final: boolean }
  | { type: "shell_closed"; id: string };

interface ShellSlice {
  messages: AgentMessage[];
  shells: Record<string, ShellRun>;
}

/** Splits `!cmd` / `!!cmd`; null when the text is not a shell command (or the command is empty). */
export function parseShellCommand(text: string): { command: string; excludeFromContext: boolean } | null {
  const t = text.trim();
  if (!t.startsWith("!")) return null;
  const excludeFromContext = t.startsWith("!!");
  const command = t.slice(excludeFromContext ? 2 : 1).trim();
  return command ? { command, excludeFromContext } : null;
}

export function reduceShell<S extends ShellSlice>(state: S, action: ShellAction): S {
  switch (action.type) {
    case "shell_start": {
      const message: BashExecutionMessage = {
        role: "bashExecution",
        command: action.command,
        output: "",
        cancelled: false,
        truncated: false,
        ...(action.excludeFromContext ? { excludeFromContext: true } : {}),
        timestamp: action.timestamp,
      };
      return {
        ...state,
        messages: [...state.messages, message],
        shells: {
          ...state.shells,
          [action.id]: { index: state.messages.length, status: "running", received: false },
        },
      };
    }
    case "shell_message": {
      const run = state.shells[action.id];
      const status: ShellStatus = action.final ? "done" : (run?.status ?? "running");
      if (!run || state.messages[run.index]?.role !== "bashExecution") {
        // Unknown (the list was re-read meanwhile): show it at the end.
        const index = state.messages.length;
        return {
          ...state,
          messages: [...state.messages, action.message],
          shells: { ...state.shells, [action.id]: { index, status, received: true } },
        };
      }
      const messages = state.messages.slice();
      messages[run.index] = action.message;
      return {
        ...state,
        messages,
        shells: { ...state.shells, [action.id]: { ...run, status, received: true } },
      };
    }
    case "shell_closed": {
      const run = state.shells[action.id];
      if (run?.status !== "running") return state;
      const status: ShellStatus = run.received ? "done" : "failed";
      return { ...state, shells: { ...state.shells, [action.id]: { ...run, status } } };
    }
  }
}

/** Status of each command message by its index in the list. */
export function shellStatusByIndex(shells: Record<string, ShellRun>): Map<number, ShellStatus> {
  const map = new Map<number, ShellStatus>();
  for (const run of Object.values(shells)) map.set(run.index, run.status);
  return map;
}
