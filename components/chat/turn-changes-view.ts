/**
 * View model of the chat's change summaries and the diff view: where each turn's summary goes among the messages,
 * how a file's change reads (`M`, `+3 −1`), what a revert tells the user, and the diff view's file navigation.
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { BranchTurns, ChangesQuery, FileChange, TurnChanges } from "./checkpoints-client";

/**
 * The message index after which each turn's summary goes: the last message before the next user message (or the
 * last message) following the user message whose timestamp is the turn's. Turns whose user message is not shown
 * (compacted away, no timestamp) get no summary.
 */
export function placeTurnSummaries(
  messages: readonly AgentMessage[],
  turns: readonly TurnChanges[],
): Map<number, TurnChanges> {
  const users: number[] = [];
  messages.forEach((m, i) => {
    if (m.role === "user") users.push(i);
  });
  const out = new Map<number, TurnChanges>();
  for (const turn of turns) {
    if (turn.userTimestamp === null) continue;
    // The newest user message with that timestamp (a timestamp repeats only across identical resends).
    let k = users.length - 1;
    while (k >= 0 && (messages[users[k]] as { timestamp?: unknown }).timestamp !== turn.userTimestamp) k--;
    if (k < 0) continue;
    const end = k + 1 < users.length ? users[k + 1] - 1 : messages.length - 1;
    out.set(end, turn);
  }
  return out;
}

/** The one-letter status of a change, as git prints it. */
export function statusLetter(status: FileChange["status"]): "A" | "M" | "D" {
  return status === "added" ? "A" : status === "deleted" ? "D" : "M";
}

/** `+3 −1`; `binary` for a binary file; `large` when it was too large to count. */
export function countsLabel(file: FileChange): string {
  if (file.binary) return "binary";
  if (file.additions === null || file.deletions === null) return "large";
  return `+${file.additions} −${file.deletions}`;
}

/** Total `+/-` lines over files that were counted. */
export function totals(files: readonly FileChange[]): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const f of files) {
    additions += f.additions ?? 0;
    deletions += f.deletions ?? 0;
  }
  return { additions, deletions };
}

/** `a.txt`, `a.txt and b.txt`, `a.txt, b.txt and c.txt`. */
export function joinPaths(paths: readonly string[]): string {
  if (paths.length <= 1) return paths[0] ?? "";
  return `${paths.slice(0, -1).join(", ")} and ${paths[paths.length - 1]}`;
}

/** What the chat says after a successful revert. */
export function revertedText(paths: readonly string[]): string {
  return paths.length === 0 ? "Nothing needed reverting." : `Reverted ${joinPaths(paths)}.`;
}

/** What the chat says after a revert was undone. */
export function revertUndoneText(paths: readonly string[]): string {
  return `Revert undone: ${joinPaths(paths)} ${paths.length === 1 ? "has" : "have"} this turn's changes again.`;
}

/** The confirmation asked before undoing a revert of `paths`. */
export function undoRevertConfirmText(paths: readonly string[]): string {
  return `Undo the revert of ${joinPaths(paths)}? ${paths.length === 1 ? "It gets" : "They get"} this turn's changes back, as a new checkpoint; nothing is lost.`;
}

/** Each reverted path of a turn → the standing revert that reverted it last. */
export function revertedPaths(reverts: readonly { paths: readonly string[] }[]): Map<string, number> {
  const out = new Map<string, number>();
  reverts.forEach((r, i) => {
    for (const p of r.paths) out.set(p, i);
  });
  return out;
}

/** The confirmation asked before a revert of the turn (`path` unset) or one of its files. */
export function revertConfirmText(files: readonly FileChange[], path?: string): string {
  if (path !== undefined)
    return `Revert ${path} to what it was before this turn? The revert is a new checkpoint; nothing is lost.`;
  const n = files.length;
  return `Revert the ${n} file${n === 1 ? "" : "s"} this turn changed (${joinPaths(files.map((f) => f.path))})? The revert is a new checkpoint; nothing is lost.`;
}

/** The next file index for ArrowUp (-1) / ArrowDown (+1), staying within the list. */
export function stepIndex(current: number, delta: number, length: number): number {
  if (length === 0) return -1;
  return Math.min(length - 1, Math.max(0, current + delta));
}

/** What the diff view shows and how it is titled. */
export interface DiffTarget {
  query: ChangesQuery;
  title: string;
  /** The file selected first (default: the first changed file). */
  path?: string;
}

/** A turn's diff, at `path`. */
export function turnTarget(turn: TurnChanges, path?: string): DiffTarget {
  return { query: { from: turn.from ?? "", to: turn.to ?? "" }, title: "Changes of this turn", path };
}

/** One tool call's diff. */
export function toolCallTarget(toolCallId: string, name: string, path?: string): DiffTarget {
  return { query: { toolCallId }, title: `Changes of ${name}`, path };
}

/** The whole session's diff: from the first turn's start to the leaf; null when no turn changed files. */
export function sessionTarget(branch: BranchTurns | null): DiffTarget | null {
  const first = branch?.turns[0];
  if (!branch || !first?.from || !branch.leafId) return null;
  return { query: { from: first.from, to: branch.leafId }, title: "Session changes" };
}
