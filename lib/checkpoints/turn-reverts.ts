/**
 * Which reverts stand on a branch (docs/checkpoints.md, "Revert"): a revert is a `strata.checkpoint` custom entry
 * (`kind: "revert"`, the change `from`→`to` it undid) whose commit sits on the revert's base. Undoing a revert is
 * itself a revert — of the change base→commit — so a revert stands unless a later standing revert undid it. A turn's
 * card shows its standing reverts (what they reverted, "Undo revert") after a reload as right after the click.
 */

/** A revert that stands on the branch: its entry, its commit and that commit's base, the files it reverted. */
export interface StandingRevert {
  entryId: string;
  commit: string;
  /** The commit the revert was made on (undoing the revert = reverting base→commit). */
  base: string;
  /** Project-relative paths it reverted. */
  paths: string[];
}

interface RevertEntry {
  id: string;
  from: string | null;
  to: string;
  commit: string;
  base: string;
  paths: string[];
}

/** The `data` of a revert entry, or null for any other entry. */
function revertData(
  entry: { type: string; customType?: string; data?: unknown },
  customType: string,
): { from: string | null; to: string; commit: string; paths: string[] } | null {
  if (entry.type !== "custom" || entry.customType !== customType) return null;
  const d = entry.data as { kind?: unknown; from?: unknown; to?: unknown; commit?: unknown; paths?: unknown };
  if (d?.kind !== "revert" || typeof d.to !== "string" || typeof d.commit !== "string") return null;
  const paths = Array.isArray(d.paths) ? d.paths.filter((p): p is string => typeof p === "string") : [];
  return { from: typeof d.from === "string" ? d.from : null, to: d.to, commit: d.commit, paths };
}

/**
 * The standing reverts of `path` (root→leaf entries), keyed `<from>..<to>` of the change each undid.
 * @param baseOf a revert commit → the commit it was made on (its checkpoint row's parent); a revert whose base is
 *   unknown is left out.
 */
export function standingReverts(
  path: readonly { id: string; type: string; customType?: string; data?: unknown }[],
  customType: string,
  baseOf: ReadonlyMap<string, string | null>,
): Map<string, StandingRevert[]> {
  const reverts: RevertEntry[] = [];
  for (const e of path) {
    const d = revertData(e, customType);
    const base = d ? baseOf.get(d.commit) : undefined;
    if (d && base) reverts.push({ id: e.id, ...d, base });
  }
  // Newest first: a revert stands unless a later standing one undid it (reverted its base→commit).
  const undone = new Set<string>();
  const out = new Map<string, StandingRevert[]>();
  for (let i = reverts.length - 1; i >= 0; i--) {
    const r = reverts[i];
    if (undone.has(r.id)) continue;
    const target = reverts.slice(0, i).find((t) => t.base === r.from && t.commit === r.to);
    if (target) {
      undone.add(target.id);
      continue;
    }
    const key = `${r.from}..${r.to}`;
    out.set(key, [
      { entryId: r.id, commit: r.commit, base: r.base, paths: r.paths },
      ...(out.get(key) ?? []),
    ]);
  }
  return out;
}
