/**
 * Where compaction cuts the branch (the cut-point half of pi's `compaction/compaction.ts`: `findTurnStartIndex`,
 * `findCutPoint`, `isSplitTurn`, `findProjectedCutPoint`): the first entry kept verbatim, and the start of the turn
 * the cut splits, if any, over stored entries or over projected ones (edits applied).
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { SessionEntry } from "../entries";
import { type ProjectedEntry, sessionEntryToContextMessages } from "../projection";
import { estimateTokens } from "./token-estimate";

const CUT_POINT_ROLES = new Set([
  "user",
  "assistant",
  "bashExecution",
  "custom",
  "branchSummary",
  "compactionSummary",
]);
const TURN_START_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

function isTurnStartEntry(entry: SessionEntry): boolean {
  if (entry.type === "compaction") return false;
  return sessionEntryToContextMessages(entry).some((m) => TURN_START_ROLES.has(m.role));
}

/** Index of the turn start (user-like entry) at or before `entryIndex`, not before `startIndex`; -1 if none. */
export function findTurnStartIndex(
  entries: readonly SessionEntry[],
  entryIndex: number,
  startIndex: number,
): number {
  for (let i = entryIndex; i >= startIndex; i--) if (isTurnStartEntry(entries[i])) return i;
  return -1;
}

/** `findCutPoint` result (indices into the entries passed). */
export interface CutPointResult {
  firstKeptEntryIndex: number;
  /** Turn start of a split turn, else -1. */
  turnStartIndex: number;
  isSplitTurn: boolean;
}

/** The indexes in `[start, end)` where a cut may fall: not a compaction, holding a message of a cut-point role. */
function cutPointsIn(
  start: number,
  end: number,
  notCompaction: (i: number) => boolean,
  messagesAt: (i: number) => readonly { role: string }[],
): number[] {
  const out: number[] = [];
  for (let i = start; i < end; i++)
    if (notCompaction(i) && messagesAt(i).some((m) => CUT_POINT_ROLES.has(m.role))) out.push(i);
  return out;
}

/**
 * pi's walk back from the newest entry, summing estimated tokens until `keep` is reached: the cut is the first cut
 * point at or after that entry (the last one when none is), else the first cut point; `exceeded` when `keep` was.
 */
function keptFrom(
  start: number,
  end: number,
  cutPoints: number[],
  keep: number,
  messagesAt: (i: number) => readonly Parameters<typeof estimateTokens>[0][],
): { cutIndex: number; exceeded: boolean } {
  let accumulated = 0;
  for (let i = end - 1; i >= start; i--) {
    const tokens = messagesAt(i).reduce((s, m) => s + estimateTokens(m), 0);
    if (tokens === 0) continue;
    accumulated += tokens;
    if (accumulated >= keep)
      return { cutIndex: cutPoints.find((c) => c >= i) ?? cutPoints[cutPoints.length - 1], exceeded: true };
  }
  return { cutIndex: cutPoints[0], exceeded: false };
}

/**
 * pi's `compaction/compaction.ts` (pi `findCutPoint`): within `[startIndex, endIndex)`, walk back from the newest entry summing
 * message estimates; once the sum reaches `keepRecentTokens`, cut at the first valid cut point at or
 * after that entry (or the last cut point when none is — a trailing tool result keeps its call). Valid
 * cut points contribute user, assistant, bashExecution, custom or summary messages — never a tool
 * result, never a compaction. The cut then extends backwards over context-free entries (settings,
 * labels…), stopping at a compaction or a context-visible entry. `isSplitTurn` = the cut entry is not
 * a turn start and a turn start exists before it.
 */
export function findCutPoint(
  entries: readonly SessionEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
): CutPointResult {
  const messagesAt = (i: number) => sessionEntryToContextMessages(entries[i]);
  const cutPoints = cutPointsIn(startIndex, endIndex, (i) => entries[i].type !== "compaction", messagesAt);
  if (cutPoints.length === 0)
    return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
  let { cutIndex } = keptFrom(startIndex, endIndex, cutPoints, keepRecentTokens, messagesAt);
  while (cutIndex > startIndex) {
    const prev = entries[cutIndex - 1];
    if (prev.type === "compaction" || sessionEntryToContextMessages(prev).length > 0) break;
    cutIndex--;
  }
  const startsTurn = isTurnStartEntry(entries[cutIndex]);
  const turnStartIndex = startsTurn ? -1 : findTurnStartIndex(entries, cutIndex, startIndex);
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}

/** pi's `compaction/compaction.ts`: whether `findCutPoint` at `cutIndex` splits a turn (the cut entry is not a turn start and one precedes it). */
export function isSplitTurn(entries: readonly SessionEntry[], cutIndex: number, startIndex = 0): boolean {
  return !isTurnStartEntry(entries[cutIndex]) && findTurnStartIndex(entries, cutIndex, startIndex) !== -1;
}

function isProjectedTurnStart(entry: ProjectedEntry): boolean {
  return entry.sourceEntry.type !== "compaction" && entry.messages.some((m) => TURN_START_ROLES.has(m.role));
}

/** pi `findProjectedCutPoint`: `findCutPoint` over projected entries (edits applied), with its recovery-omission rule. */
export function findProjectedCutPoint(
  entries: readonly ProjectedEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
): CutPointResult {
  const messagesAt = (i: number) => entries[i].messages;
  const cutPoints = cutPointsIn(
    startIndex,
    endIndex,
    (i) => entries[i].sourceEntry.type !== "compaction",
    messagesAt,
  );
  if (cutPoints.length === 0)
    return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
  let { cutIndex, exceeded } = keptFrom(startIndex, endIndex, cutPoints, keepRecentTokens, messagesAt);
  const suffix = entries.slice(cutIndex + 1, endIndex);
  const visible = (e: ProjectedEntry) =>
    e.sourceEntry.type !== "context_edit" && sessionEntryToContextMessages(e.sourceEntry).length > 0;
  const omitted = (e: ProjectedEntry) => visible(e) && e.messages.length === 0;
  const omittedIds = new Set(suffix.filter(omitted).map((e) => e.sourceEntry.id));
  const externalReplacement = suffix.some(
    (e) =>
      e.sourceEntry.type === "context_edit" &&
      e.sourceEntry.replacement !== null &&
      !omittedIds.has(e.sourceEntry.targetId as string),
  );
  if (
    exceeded &&
    !externalReplacement &&
    suffix.some(
      (e) =>
        e.sourceEntry.type === "message" &&
        (e.sourceEntry.message as AgentMessage).role === "assistant" &&
        omitted(e),
    ) &&
    suffix.every((e) => e.sourceEntry.type !== "compaction" && (!visible(e) || omitted(e)))
  ) {
    cutIndex++;
  }
  while (cutIndex > startIndex) {
    const prev = entries[cutIndex - 1];
    if (prev.sourceEntry.type === "compaction" || prev.messages.length > 0) break;
    cutIndex--;
  }
  const startsTurn = isProjectedTurnStart(entries[cutIndex]);
  let turnStartIndex = -1;
  if (!startsTurn)
    for (let i = cutIndex; i >= startIndex; i--)
      if (isProjectedTurnStart(entries[i])) {
        turnStartIndex = i;
        break;
      }
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}
