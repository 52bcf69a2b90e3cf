/**
 * The quick open's fuzzy matching of file paths (pure): the query's characters must appear in the path in order
 * (case-insensitive); among the ways they do, the best scoring one is kept. Consecutive characters, characters in
 * the file name (the part after the last `/`) and characters at the start of a word score higher.
 */

/** A path that matches, with its score (higher is better) and the matched character indexes (for highlighting). */
export interface FuzzyMatch {
  path: string;
  score: number;
  /** Indexes into `path` (UTF-16 code units), ascending. */
  positions: number[];
}

const BASE = 1;
const CONSECUTIVE = 6;
const WORD_START = 4;
const IN_BASENAME = 3;
const BASENAME_PREFIX = 10;
const GAP = 0.05;

function isWordStart(path: string, i: number): boolean {
  if (i === 0) return true;
  const prev = path[i - 1];
  if (prev === "/" || prev === "." || prev === "_" || prev === "-" || prev === " ") return true;
  const c = path[i];
  return prev.toLowerCase() === prev && c.toUpperCase() === c && c.toLowerCase() !== c;
}

/**
 * Score `path` against `query` (spaces in the query are ignored).
 * @returns the best match, or null when the query's characters do not all appear in order.
 */
export function fuzzyMatch(query: string, path: string): FuzzyMatch | null {
  const q = query.replace(/\s+/g, "").toLowerCase();
  if (q === "") return { path, score: 0, positions: [] };
  const t = path.toLowerCase();
  const n = t.length;
  const m = q.length;
  if (m > n) return null;
  const baseStart = path.lastIndexOf("/") + 1;
  const bonus = (j: number) =>
    BASE + (isWordStart(path, j) ? WORD_START : 0) + (j >= baseStart ? IN_BASENAME : 0);
  // score[i][j]: best score with query[i] matched at path[j]; from[i][j]: where query[i-1] was matched.
  const NONE = Number.NEGATIVE_INFINITY;
  const score: Float64Array[] = [];
  const from: Int32Array[] = [];
  for (let i = 0; i < m; i++) {
    const row = new Float64Array(n).fill(NONE);
    const back = new Int32Array(n).fill(-1);
    // Best of score[i-1][k] + GAP * k for k < j - 1, i.e. a non-consecutive predecessor (gap penalised).
    let bestPrev = NONE;
    let bestPrevAt = -1;
    for (let j = 0; j < n; j++) {
      if (i > 0 && j >= 2) {
        const cand = score[i - 1][j - 2] + GAP * (j - 2);
        if (cand > bestPrev) {
          bestPrev = cand;
          bestPrevAt = j - 2;
        }
      }
      if (t[j] !== q[i]) continue;
      if (i === 0) {
        row[j] = bonus(j) - GAP * j * 0.2;
        continue;
      }
      const consecutive = j >= 1 ? score[i - 1][j - 1] + CONSECUTIVE : NONE;
      const gapped = bestPrev === NONE ? NONE : bestPrev - GAP * (j - 1);
      if (consecutive === NONE && gapped === NONE) continue;
      if (consecutive >= gapped) {
        row[j] = consecutive + bonus(j);
        back[j] = j - 1;
      } else {
        row[j] = gapped + bonus(j);
        back[j] = bestPrevAt;
      }
    }
    score.push(row);
    from.push(back);
  }
  let end = -1;
  let best = NONE;
  for (let j = 0; j < n; j++) {
    if (score[m - 1][j] > best) {
      best = score[m - 1][j];
      end = j;
    }
  }
  if (end === -1) return null;
  const positions = new Array<number>(m);
  for (let i = m - 1, j = end; i >= 0; i--) {
    positions[i] = j;
    j = from[i][j];
  }
  if (path.slice(baseStart).toLowerCase().startsWith(q)) best += BASENAME_PREFIX;
  return { path, score: best, positions };
}

/**
 * The paths matching `query`, best first (ties: shorter path, then path order), at most `limit`.
 * An empty query keeps the paths' order.
 */
export function fuzzyFilter(query: string, paths: readonly string[], limit = 50): FuzzyMatch[] {
  const out: FuzzyMatch[] = [];
  for (const path of paths) {
    const match = fuzzyMatch(query, path);
    if (match) out.push(match);
  }
  if (query.trim() === "") return out.slice(0, limit);
  out.sort((a, b) => b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : 1));
  return out.slice(0, limit);
}

/** `text` cut into runs of matched and unmatched characters, for rendering highlights. */
export function highlightRuns(text: string, positions: readonly number[], offset = 0): [string, boolean][] {
  const marked = new Set(positions.map((p) => p - offset));
  const runs: [string, boolean][] = [];
  for (let i = 0; i < text.length; i++) {
    const hit = marked.has(i);
    const last = runs[runs.length - 1];
    if (last && last[1] === hit) last[0] += text[i];
    else runs.push([text[i], hit]);
  }
  return runs;
}
