/**
 * A three-way merge of two commits' trees over their merge base, as git merges (docs/checkpoints.md, "Merging into
 * main"): a path only one side changed takes that side; both changed alike, either; both changed differently, the
 * text files are merged line by line with `node-diff3` (`diff3Merge`, false conflicts excluded) and a clash is a
 * conflict carrying the file with git's markers; a binary file, a symlink, or a change on one side and a delete on the
 * other is a conflict of the whole file. A resolution given for a conflicting path (its text, or null: deleted)
 * replaces it. The result is what to write over `ours`' files, path by path.
 */
import { diff3Merge } from "node-diff3";
import type { TreeFile, TreeSnapshot } from "@/lib/vfs/worktree";

/** One conflicting file: each side's text (null: absent on that side, or binary) and the marked merge. */
export interface MergeConflict {
  path: string;
  base: string | null;
  ours: string | null;
  theirs: string | null;
  /** The file with git's conflict markers (`<<<<<<< ours` … `=======` … `>>>>>>> theirs`); null when not text. */
  marked: string | null;
  /** Why it is a conflict: both edited the same lines, one side deleted it, or it is not text. */
  reason: "edited" | "deleted" | "binary";
}

/** What to write over `ours` at one path: bytes and mode, a blob of a side, or null (delete). */
export type MergeWrite = { blob: TreeFile } | { text: string; mode: string } | null;

/** {@link threeWay}'s answer: the writes (project-relative path → write) and the conflicts left unresolved. */
export interface ThreeWayResult {
  writes: Map<string, MergeWrite>;
  conflicts: MergeConflict[];
}

/** Reads a blob's bytes by id (the VFS's object store). */
export type BlobReader = (oid: string) => Promise<Uint8Array>;

const decoder = new TextDecoder("utf-8", { fatal: false });
const same = (a?: TreeFile, b?: TreeFile) => a?.oid === b?.oid && a?.mode === b?.mode;
const isText = (bytes: Uint8Array) => !bytes.subarray(0, 8000).includes(0);
/** Lines with their endings, so joining them gives the text back exactly. */
const lines = (text: string) => text.split(/(?<=\n)/);

/**
 * Merge `theirs` into `ours` over `base` (flattened trees, lib/vfs/worktree.ts `commitSnapshot`).
 * @param labels the names in the conflict markers (default `ours` / `theirs`).
 * @param resolutions path → the text to take (null: delete it), for conflicting paths; others are ignored.
 */
export async function threeWay(
  trees: { base: TreeSnapshot; ours: TreeSnapshot; theirs: TreeSnapshot },
  readBlob: BlobReader,
  options: {
    labels?: { ours: string; theirs: string };
    resolutions?: ReadonlyMap<string, string | null>;
  } = {},
): Promise<ThreeWayResult> {
  const { base, ours, theirs } = trees;
  const writes = new Map<string, MergeWrite>();
  const conflicts: MergeConflict[] = [];
  const paths = [...new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])].sort();
  for (const path of paths) {
    const [b, o, t] = [base.get(path), ours.get(path), theirs.get(path)];
    if (same(t, b) || same(o, t)) continue;
    if (same(o, b)) {
      writes.set(path, t ? { blob: t } : null);
      continue;
    }
    const resolution = options.resolutions?.get(path);
    if (resolution !== undefined) {
      writes.set(path, resolution === null ? null : { text: resolution, mode: (t ?? o)?.mode ?? "100644" });
      continue;
    }
    const merged = await mergeFile(
      path,
      { b, o, t },
      readBlob,
      options.labels ?? { ours: "ours", theirs: "theirs" },
    );
    if ("conflict" in merged) conflicts.push(merged.conflict);
    else writes.set(path, { text: merged.text, mode: (t as TreeFile).mode });
  }
  return { writes, conflicts };
}

/** Both sides changed `path` differently: its line merge, or the conflict. */
async function mergeFile(
  path: string,
  sides: { b?: TreeFile; o?: TreeFile; t?: TreeFile },
  readBlob: BlobReader,
  labels: { ours: string; theirs: string },
): Promise<{ text: string } | { conflict: MergeConflict }> {
  const read = async (f?: TreeFile) => (f ? readBlob(f.oid) : null);
  const [b, o, t] = await Promise.all([read(sides.b), read(sides.o), read(sides.t)]);
  const text = (bytes: Uint8Array | null) => (bytes && isText(bytes) ? decoder.decode(bytes) : null);
  const texts = { base: text(b), ours: text(o), theirs: text(t) };
  const links = [sides.b, sides.o, sides.t].some((f) => f?.mode === "120000");
  if (!o || !t) return { conflict: { path, ...texts, marked: null, reason: "deleted" } };
  if (links || texts.ours === null || texts.theirs === null || (b && texts.base === null))
    return { conflict: { path, ...texts, marked: null, reason: "binary" } };
  const regions = diff3Merge(lines(texts.ours), lines(texts.base ?? ""), lines(texts.theirs), {
    excludeFalseConflicts: true,
  });
  let out = "";
  let clash = false;
  for (const r of regions) {
    if (r.ok) out += r.ok.join("");
    else if (r.conflict) {
      clash = true;
      const side = (s: string[]) => {
        const joined = s.join("");
        return joined === "" || joined.endsWith("\n") ? joined : `${joined}\n`;
      };
      out += `<<<<<<< ${labels.ours}\n${side(r.conflict.a)}=======\n${side(r.conflict.b)}>>>>>>> ${labels.theirs}\n`;
    }
  }
  return clash ? { conflict: { path, ...texts, marked: out, reason: "edited" } } : { text: out };
}
