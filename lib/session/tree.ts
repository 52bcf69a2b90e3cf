/**
 * Pure tree views of a session (pi's `getTree`, label index, `getSessionName` and the entry rewrite of
 * `createBranchedSession` in session-manager.ts; pi's `session-manager.ts`).
 */
import type { CompactionEntry, LabelEntry, SessionEntry } from "./entries";

/** A node of `buildSessionTree` (pi `SessionTreeNode`). */
export interface SessionTreeNode {
  entry: SessionEntry;
  /** Oldest first (by entry timestamp). */
  children: SessionTreeNode[];
  /** Resolved label, if any. */
  label?: string;
  /** Timestamp of the label entry that set it. */
  labelTimestamp?: string;
}

/**
 * Labels by target id (pi's `session-manager.ts`): a `label` entry with a non-empty `label` sets it, empty/absent clears it;
 * the last one in file order wins.
 */
export function resolveLabels(
  entries: readonly SessionEntry[],
): Map<string, { label: string; timestamp: string }> {
  const labels = new Map<string, { label: string; timestamp: string }>();
  for (const e of entries) {
    if (e.type !== "label") continue;
    const l = e as LabelEntry;
    if (l.label) labels.set(l.targetId, { label: l.label, timestamp: l.timestamp });
    else labels.delete(l.targetId);
  }
  return labels;
}

/** Session name (pi's `session-manager.ts`): the last `session_info` entry's `name`, trimmed; empty or not a string → undefined. */
export function getSessionName(entries: readonly SessionEntry[]): string | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.type === "session_info") return (typeof e.name === "string" && e.name.trim()) || undefined;
  }
  return undefined;
}

/** pi `appendSessionInfo`'s sanitising: runs of CR/LF → one space, then trim. */
export function sanitizeSessionName(name: string): string {
  return name.replace(/[\r\n]+/g, " ").trim();
}

/**
 * pi `getTree()` over entries in file order (pi's `session-manager.ts`): entries whose `parentId` is null or their own id,
 * and orphans, are roots; children sorted by timestamp, oldest first (stable); labels resolved.
 */
export function buildSessionTree(entries: readonly SessionEntry[]): SessionTreeNode[] {
  const labels = resolveLabels(entries);
  const nodes = new Map<string, SessionTreeNode>();
  for (const entry of entries) {
    const l = labels.get(entry.id);
    nodes.set(entry.id, { entry, children: [], label: l?.label, labelTimestamp: l?.timestamp });
  }
  const roots: SessionTreeNode[] = [];
  for (const entry of entries) {
    const node = nodes.get(entry.id)!;
    const parent =
      entry.parentId === null || entry.parentId === entry.id ? undefined : nodes.get(entry.parentId);
    (parent ? parent.children : roots).push(node);
  }
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    node.children.sort(
      (a, b) => new Date(a.entry.timestamp).getTime() - new Date(b.entry.timestamp).getTime(),
    );
    stack.push(...node.children);
  }
  return roots;
}

/**
 * The entries of a session branched at a path (pi `createBranchedSession`, pi's `session-manager.ts`): the root→leaf `path`
 * without its `label` entries, re-parented into one chain (a compaction whose `firstKeptEntryId` was a
 * dropped label points at the entry that followed it), then one `label` entry per label (from the
 * source session's `labels`) whose target is kept, with the original label timestamp.
 */
export function branchedSessionEntries(
  path: readonly SessionEntry[],
  labels: ReadonlyMap<string, { label: string; timestamp: string }>,
  newId: (taken: Set<string>) => string,
): SessionEntry[] {
  const out: SessionEntry[] = [];
  const replacement = new Map<string, string>();
  const pendingLabels: string[] = [];
  let parentId: string | null = null;
  for (const entry of path) {
    if (entry.type === "label") {
      pendingLabels.push(entry.id);
      continue;
    }
    for (const id of pendingLabels) replacement.set(id, entry.id);
    pendingLabels.length = 0;
    if (entry.type === "compaction") {
      const c = entry as CompactionEntry;
      out.push({
        ...c,
        parentId,
        firstKeptEntryId:
          c.firstKeptEntryId === c.id ? c.id : (replacement.get(c.firstKeptEntryId) ?? c.firstKeptEntryId),
      });
    } else out.push({ ...entry, parentId } as SessionEntry);
    parentId = entry.id;
  }
  const ids = new Set(out.map((e) => e.id));
  for (const [targetId, { label, timestamp }] of labels) {
    if (!ids.has(targetId)) continue;
    const id = newId(ids);
    ids.add(id);
    const entry: LabelEntry = { type: "label", id, parentId, timestamp, targetId, label };
    out.push(entry);
    parentId = id;
  }
  return out;
}
