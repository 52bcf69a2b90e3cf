/**
 * What a live run of the session is, in the words the chat shows for it: the running indicator's label and the
 * notice of a run this tab follows (started in another tab, or by this tab before a reload). Pure: unit-tested in
 * tests/unit/components/run-label.test.ts.
 */
import type { RunMode } from "./events";

/** The live run as the server names it (`session_runs.kind` / `mode`, the `run_start` event). */
export interface LiveRun {
  /** `prompt` | `compaction` | `branch_summary` | `bash` (any other value reads as a prompt run). */
  kind: string;
  mode: RunMode | null;
}

/** An agent run (prompt or retry): prompts typed meanwhile steer it or follow it up. */
export function isAgentRun(run: LiveRun | null): boolean {
  return run === null || (run.mode !== "bash" && run.kind !== "bash" && !isSessionOp(run));
}

const isSessionOp = (run: LiveRun) => run.kind === "compaction" || run.kind === "branch_summary";

/**
 * The indicator's label: "Shell command running" (a `!command`, mode or kind `bash`), "Compacting…",
 * "Summarising branch…", else "Agent is running" (prompt and retry runs, and an unknown run).
 */
export function runLabel(run: LiveRun | null): string {
  if (run?.mode === "bash" || run?.kind === "bash") return "Shell command running";
  if (run?.kind === "compaction") return "Compacting…";
  if (run?.kind === "branch_summary") return "Summarising branch…";
  return "Agent is running";
}

/**
 * The notice over the composer while this tab follows a run it is not streaming itself: `origin` `reload` (this
 * tab started it before a reload) or `elsewhere` (another tab). Null for any other origin. Agent runs add how
 * typed prompts reach them (Enter steers, Alt+Enter queues).
 */
export function runNotice(
  origin: "elsewhere" | "reload" | "resumed" | null,
  run: LiveRun | null,
): string | null {
  if (origin !== "elsewhere" && origin !== "reload") return null;
  const here = origin === "reload";
  if (run?.mode === "bash" || run?.kind === "bash")
    return here
      ? "The shell command this tab started before it was reloaded is still running. Abort stops it."
      : "A shell command started in another tab is running on this session. Abort stops it.";
  if (run && isSessionOp(run)) {
    const what = run.kind === "compaction" ? "compacted" : "summarised at a branch move";
    return here
      ? `This session is still being ${what} (started by this tab before it was reloaded).`
      : `This session is being ${what} from another tab.`;
  }
  return `${
    here
      ? "The agent is still working on what this tab sent before it was reloaded."
      : "The agent is working on this session in another tab."
  } Enter steers it, Alt+Enter queues a follow-up.`;
}
