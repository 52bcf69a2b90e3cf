/**
 * git's diff output between two snapshots: the unified patch (`diff --git` headers, `index` line, hunks with
 * 3 lines of context and the function-name hint after `@@`, computed with jsdiff's `structuredPatch`),
 * `--stat` (git's widths and scaled graph for 80 columns), `--shortstat`, `--numstat`, `--name-only` and
 * `--name-status`. Paths are shown from the repository's top, as git does.
 */
import { structuredPatch } from "diff";
import { NULL_OID, quotePath, short } from "./format";
import type { FileState, Snapshot } from "./repo";

/** One changed path: its old and new state (undefined = absent) and loaders of their bytes. */
export interface FilePair {
  path: string;
  /** The source path of an exact rename (same blob): `path` is its destination. */
  from?: string;
  old?: FileState;
  new?: FileState;
  oldBytes(): Promise<Uint8Array>;
  newBytes(): Promise<Uint8Array>;
}

/** How to load the bytes of a side: by blob id (a tree or the index) or by path (the working tree). */
export type Loader = (path: string, state: FileState) => Promise<Uint8Array>;

/** The paths whose blob or mode differ between `a` and `b` (that `match`), sorted as git sorts them. */
export function changedPairs(
  a: Snapshot,
  b: Snapshot,
  loadA: Loader,
  loadB: Loader,
  match: (path: string) => boolean = () => true,
): FilePair[] {
  const paths = new Set([...a.keys(), ...b.keys()]);
  const out: FilePair[] = [];
  for (const path of [...paths].sort(byteOrder)) {
    if (!match(path)) continue;
    const o = a.get(path);
    const n = b.get(path);
    if (o && n && o.oid === n.oid && o.mode === n.mode) continue;
    const empty = async () => new Uint8Array(0);
    out.push({
      path,
      old: o,
      new: n,
      oldBytes: o ? () => loadA(path, o) : empty,
      newBytes: n ? () => loadB(path, n) : empty,
    });
  }
  return detectRenames(out);
}

/**
 * git's exact rename detection (diff.renames, on by default for porcelain commands): a deleted and an added path
 * with the same blob become one rename, placed where the added path was; a same-named source is preferred.
 * Renames with edits (git's similarity ≥ 50%) stay a deletion and an addition here.
 */
export function detectRenames(pairs: FilePair[]): FilePair[] {
  const deleted = new Map<string, FilePair[]>();
  for (const p of pairs) if (p.old && !p.new) deleted.set(p.old.oid, [...(deleted.get(p.old.oid) ?? []), p]);
  if (deleted.size === 0) return pairs;
  const used = new Set<FilePair>();
  const renamed = new Map<FilePair, FilePair>();
  for (const p of pairs) {
    if (p.old || !p.new) continue;
    const candidates = (deleted.get(p.new.oid) ?? []).filter((d) => !used.has(d));
    if (candidates.length === 0) continue;
    const base = (x: string) => x.slice(x.lastIndexOf("/") + 1);
    const source = candidates.find((d) => base(d.path) === base(p.path)) ?? candidates[0];
    used.add(source);
    renamed.set(p, { ...p, from: source.path, old: source.old, oldBytes: source.oldBytes });
  }
  return pairs.filter((p) => !used.has(p)).map((p) => renamed.get(p) ?? p);
}

/** A rename as git's --stat and summaries name it: `lib/{a.txt => b.txt}`, or `a => b` with nothing shared. */
export function renameName(from: string, to: string): string {
  let pfx = 0;
  for (let i = 0; i < Math.min(from.length, to.length) && from[i] === to[i]; i++)
    if (from[i] === "/") pfx = i + 1;
  let sfx = 0;
  for (
    let i = 1;
    i <= Math.min(from.length, to.length) - pfx && from[from.length - i] === to[to.length - i];
    i++
  )
    if (from[from.length - i] === "/") sfx = i;
  if (pfx === 0 && sfx === 0) return `${from} => ${to}`;
  return `${from.slice(0, pfx)}{${from.slice(pfx, from.length - sfx)} => ${to.slice(pfx, to.length - sfx)}}${from.slice(from.length - sfx)}`;
}

const encoder = new TextEncoder();
/** Code-unit order of the UTF-8 bytes, as git sorts paths. */
export function byteOrder(x: string, y: string): number {
  if (/^[\x00-\x7f]*$/.test(x + y)) return x < y ? -1 : x > y ? 1 : 0;
  const a = encoder.encode(x);
  const b = encoder.encode(y);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** git's binary test: a NUL byte in the first 8000 bytes. */
const isBinary = (bytes: Uint8Array) => bytes.subarray(0, 8000).includes(0);
const decoder = new TextDecoder();

/** git's default function-name hint: the nearest line before `index` starting with a letter, `_` or `$`. */
function funcName(lines: string[], index: number): string {
  for (let i = index - 1; i >= 0; i--) {
    if (/^[A-Za-z_$]/.test(lines[i]))
      return encoder.encode(lines[i]).length > 80 ? truncate80(lines[i]) : lines[i].trimEnd();
  }
  return "";
}
function truncate80(line: string): string {
  return decoder
    .decode(encoder.encode(line).subarray(0, 80))
    .replace(/\uFFFD$/, "")
    .trimEnd();
}

interface Counted {
  pair: FilePair;
  binary: boolean;
  added: number;
  deleted: number;
  oldSize: number;
  newSize: number;
  hunks: ReturnType<typeof structuredPatch>["hunks"];
  oldLines: string[];
}

async function count(pair: FilePair, context = 3): Promise<Counted> {
  const [a, b] = await Promise.all([pair.oldBytes(), pair.newBytes()]);
  const base = { pair, oldSize: a.length, newSize: b.length, added: 0, deleted: 0, hunks: [], oldLines: [] };
  if (pair.old?.mode === "160000" || pair.new?.mode === "160000") return { ...base, binary: false };
  if (isBinary(a) || isBinary(b)) return { ...base, binary: true };
  const oldText = decoder.decode(a);
  const { hunks } = structuredPatch("a", "b", oldText, decoder.decode(b), "", "", { context });
  let added = 0;
  let deleted = 0;
  for (const h of hunks)
    for (const l of h.lines) {
      if (l[0] === "+") added++;
      else if (l[0] === "-") deleted++;
    }
  return { ...base, binary: false, added, deleted, hunks, oldLines: oldText.split("\n") };
}

const range = (start: number, lines: number) =>
  lines === 1 ? `${start}` : `${lines === 0 ? start - 1 : start},${lines}`;

/** The unified patch of `pairs`, as `git diff` prints it, with `context` lines around each change (`-U<n>`). */
export async function formatPatch(pairs: FilePair[], context = 3): Promise<string> {
  let out = "";
  for (const pair of pairs) {
    const c = await count(pair, context);
    const { old: o, new: n } = pair;
    const a = quotePath(`a/${pair.from ?? pair.path}`);
    const b = quotePath(`b/${pair.path}`);
    out += `diff --git ${a} ${b}\n`;
    if (!o) out += `new file mode ${n!.mode}\n`;
    else if (!n) out += `deleted file mode ${o.mode}\n`;
    else if (o.mode !== n.mode) out += `old mode ${o.mode}\nnew mode ${n.mode}\n`;
    if (pair.from)
      out += `similarity index 100%\nrename from ${quotePath(pair.from)}\nrename to ${quotePath(pair.path)}\n`;
    const sameContent = o && n && o.oid === n.oid;
    if (sameContent) continue;
    const modeSuffix = o && n && o.mode === n.mode ? ` ${o.mode}` : "";
    out += `index ${short(o?.oid ?? NULL_OID)}..${short(n?.oid ?? NULL_OID)}${modeSuffix}\n`;
    // git ends a ---/+++ name that has a space with a tab (so patch tools find where it ends).
    const tab = (name: string) => (name.includes(" ") ? "\t" : "");
    const from = o ? `${a}${tab(pair.from ?? pair.path)}` : "/dev/null";
    const to = n ? `${b}${tab(pair.path)}` : "/dev/null";
    if (c.binary) {
      out += `Binary files ${o ? a : "/dev/null"} and ${n ? b : "/dev/null"} differ\n`;
      continue;
    }
    if (c.hunks.length === 0) continue;
    out += `--- ${from}\n+++ ${to}\n`;
    for (const h of c.hunks) {
      const fn = funcName(c.oldLines, h.oldStart - 1);
      out += `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@${fn ? ` ${fn}` : ""}\n`;
      for (const l of h.lines) out += `${l}\n`;
    }
  }
  return out;
}

/** ` N files changed, X insertions(+), Y deletions(-)` (git's print_stat_summary), with its newline. */
export function statSummary(files: number, insertions: number, deletions: number): string {
  if (files === 0) return " 0 files changed\n";
  let s = ` ${files} file${files === 1 ? "" : "s"} changed`;
  if (insertions || !deletions) s += `, ${insertions} insertion${insertions === 1 ? "" : "s"}(+)`;
  if (deletions || !insertions) s += `, ${deletions} deletion${deletions === 1 ? "" : "s"}(-)`;
  return `${s}\n`;
}

/** Totals of `pairs`: files, insertions, deletions. */
export async function shortStat(
  pairs: FilePair[],
): Promise<{ files: number; insertions: number; deletions: number }> {
  let insertions = 0;
  let deletions = 0;
  for (const p of pairs) {
    const c = await count(p);
    insertions += c.added;
    deletions += c.deleted;
  }
  return { files: pairs.length, insertions, deletions };
}

const scale = (it: number, width: number, max: number) =>
  it === 0 ? 0 : 1 + Math.floor((it * (width - 1)) / max);

/** `git diff --stat` for 80 columns (git's show_stats), summary line included. */
export async function formatStat(pairs: FilePair[], width = 80): Promise<string> {
  const counted = await Promise.all(pairs.map(count));
  if (counted.length === 0) return "";
  const names = counted.map((c) =>
    c.pair.from ? renameName(quotePath(c.pair.from), quotePath(c.pair.path)) : quotePath(c.pair.path),
  );
  const maxLen = Math.max(...names.map((n) => n.length));
  const maxChange = Math.max(...counted.map((c) => (c.binary ? 0 : c.added + c.deleted)));
  const binWidth = Math.max(
    0,
    ...counted.filter((c) => c.binary).map((c) => `Bin ${c.oldSize} -> ${c.newSize} bytes`.length),
  );
  const numberWidth = Math.max(String(maxChange).length, binWidth > 0 ? 3 : 0);
  let graphWidth = maxChange + 4 > binWidth ? maxChange : binWidth - 4;
  let nameWidth = maxLen;
  if (nameWidth + numberWidth + 6 + graphWidth > width) {
    if (graphWidth > Math.floor((width * 3) / 8) - numberWidth - 6)
      graphWidth = Math.max(6, Math.floor((width * 3) / 8) - numberWidth - 6);
    if (nameWidth > width - numberWidth - 6 - graphWidth) nameWidth = width - numberWidth - 6 - graphWidth;
    else graphWidth = width - numberWidth - 6 - nameWidth;
  }
  let out = "";
  let insertions = 0;
  let deletions = 0;
  counted.forEach((c, i) => {
    let name = names[i];
    if (name.length > nameWidth) {
      const keep = nameWidth - 3;
      let tail = name.slice(name.length - keep);
      const slash = tail.indexOf("/");
      if (slash >= 0) tail = tail.slice(slash);
      name = `...${tail}`;
    }
    if (c.binary) {
      out += ` ${name.padEnd(nameWidth)} | ${"Bin".padStart(numberWidth)} ${c.oldSize} -> ${c.newSize} bytes\n`;
      return;
    }
    insertions += c.added;
    deletions += c.deleted;
    let add = c.added;
    let del = c.deleted;
    if (graphWidth <= maxChange) {
      let total = scale(add + del, graphWidth, maxChange);
      if (total < 2 && add && del) total = 2;
      if (add < del) {
        add = scale(add, graphWidth, maxChange);
        del = total - add;
      } else {
        del = scale(del, graphWidth, maxChange);
        add = total - del;
      }
    }
    const n = c.added + c.deleted;
    out += ` ${name.padEnd(nameWidth)} | ${String(n).padStart(numberWidth)}${n ? " " : ""}${"+".repeat(add)}${"-".repeat(del)}\n`;
  });
  return out + statSummary(counted.length, insertions, deletions);
}

/** `--numstat`: `added<TAB>deleted<TAB>path` (`-` for binary files). */
export async function formatNumstat(pairs: FilePair[]): Promise<string> {
  let out = "";
  for (const p of pairs) {
    const c = await count(p);
    const name = p.from ? renameName(quotePath(p.from), quotePath(p.path)) : quotePath(p.path);
    out += c.binary ? `-\t-\t${name}\n` : `${c.added}\t${c.deleted}\t${name}\n`;
  }
  return out;
}

/** `--name-status` letter: A added, D deleted, M modified (content or mode). */
export const statusLetter = (p: FilePair) => (p.from ? "R100" : !p.old ? "A" : !p.new ? "D" : "M");

/** `--name-only` / `--name-status` lines. */
export function formatNames(pairs: FilePair[], withStatus: boolean): string {
  return pairs
    .map((p) =>
      withStatus && p.from
        ? `${statusLetter(p)}\t${quotePath(p.from)}\t${quotePath(p.path)}\n`
        : `${withStatus ? `${statusLetter(p)}\t` : ""}${quotePath(p.path)}\n`,
    )
    .join("");
}
