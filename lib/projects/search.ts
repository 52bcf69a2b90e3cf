/**
 * Searching a project's files from the IDE (the Search panel): the agent `grep` tool's engine — the same
 * files (`walkSearchable`: `.gitignore` respected, `.git` and `node_modules` skipped, binary files skipped), the
 * same pattern syntax (`compileGrepPattern`) and the same lines (`grepLines`) — answered as structured hits
 * grouped by file, with the matched ranges for highlighting.
 */
import { compileGrepPattern, grepLines, isGrepBinary } from "@/lib/tools/grep";
import { walkSearchable } from "@/lib/tools/search-walk";
import { GREP_MAX_LINE_LENGTH } from "@/lib/tools/truncate";
import { timeSlicer } from "@/lib/vfs/archive-limits";
import type { FileSystem } from "@/lib/vfs/types";

/** Matching lines one search returns at most. */
export const SEARCH_MAX_MATCHES = 500;
/** Time one search may spend matching, ms (a slow pattern on a large project stops with what it found). */
export const SEARCH_TIME_BUDGET_MS = 5_000;
/** Longest query accepted, characters. */
export const SEARCH_MAX_QUERY = 1_000;
/** Highlighted ranges kept per line. */
const MAX_RANGES_PER_LINE = 50;

/** One matching line. */
export interface SearchHit {
  /** 1-based line number. */
  line: number;
  /** 1-based column (UTF-16 code units, as the editor counts) of the first match. */
  column: number;
  /** The line as shown: at most 500 characters around the first match, `…` where it was cut. */
  text: string;
  /** `[start, end)` of each match within `text` (UTF-16 code units), in order. */
  ranges: [number, number][];
}

/** The matching lines of one file, in line order. */
export interface SearchFileResult {
  /** Project-relative path. */
  path: string;
  hits: SearchHit[];
}

/** What {@link searchProject} found. */
export interface SearchResult {
  /** Files with matches, in path order (the tree's walk order). */
  files: SearchFileResult[];
  /** Matching lines in all (at most `SEARCH_MAX_MATCHES`). */
  matches: number;
  /** Files searched. */
  searched: number;
  /** Why the search stopped early, or null when every file was searched. */
  capped: null | { reason: "matches" | "time"; message: string };
}

export interface SearchOptions {
  query: string;
  /** The query is a regular expression (JavaScript syntax, as the grep tool); otherwise a literal string. */
  regex: boolean;
  caseSensitive: boolean;
  /** Default `SEARCH_MAX_MATCHES`. */
  maxMatches?: number;
  /** Default `SEARCH_TIME_BUDGET_MS`. */
  timeBudgetMs?: number;
  /** Clock, ms (tests). */
  now?: () => number;
}

/** Thrown for a query that is not a valid regular expression (the route answers 400 `invalid_regex`). */
export class SearchPatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SearchPatternError";
  }
}

/**
 * Search the text files below `root` for `query`.
 * @param fs the workspace filesystem; `root` the absolute project root (e.g. `/strata`).
 * @returns the matching lines grouped by file; `capped` says when the match limit or the time budget stopped it.
 * @throws SearchPatternError `regex parse error: …` for an invalid regular expression.
 */
export async function searchProject(
  fs: FileSystem,
  root: string,
  options: SearchOptions,
): Promise<SearchResult> {
  const maxMatches = options.maxMatches ?? SEARCH_MAX_MATCHES;
  const budget = options.timeBudgetMs ?? SEARCH_TIME_BUDGET_MS;
  const now = options.now ?? Date.now;
  let pattern: RegExp;
  try {
    pattern = compileGrepPattern(options.query, !options.regex, !options.caseSensitive);
  } catch (error) {
    throw new SearchPatternError(error instanceof Error ? error.message : String(error));
  }
  const all = new RegExp(pattern.source, `${pattern.flags}g`);
  const started = now();
  const paths = (await walkSearchable({ fs, cwd: root, projectRoot: root }, root))
    .filter((e) => e.stat.kind === "file")
    .map((e) => e.path);
  const contents = await fs.readFiles(paths);
  const decoder = new TextDecoder();
  const files: SearchFileResult[] = [];
  let matches = 0;
  let searched = 0;
  let capped: SearchResult["capped"] = null;
  // The budget is checked before every line, and the event loop gets a turn every 10 ms: one slow pattern over a big
  // file held the whole server for as long as that file took (only one line's match can still hold it).
  const slice = timeSlicer();
  const timeUp = () => ({
    reason: "time" as const,
    message: `The search stopped after ${budget / 1000} s with ${searched} of ${paths.length} files searched. Use a simpler or more specific pattern.`,
  });
  scan: for (const path of paths) {
    if (matches >= maxMatches) {
      capped = {
        reason: "matches",
        message: `Showing the first ${maxMatches} matching lines; there are more. Refine the search.`,
      };
      break;
    }
    if (now() - started > budget) {
      capped = timeUp();
      break;
    }
    const bytes = contents.get(path);
    if (!bytes || isGrepBinary(bytes)) {
      searched++;
      continue;
    }
    const hits: SearchHit[] = [];
    const lines = grepLines(decoder.decode(bytes));
    for (let i = 0; i < lines.length && matches < maxMatches; i++) {
      await slice();
      if (now() - started > budget) {
        if (hits.length > 0) files.push({ path: path.slice(root.length + 1), hits });
        capped = timeUp();
        break scan;
      }
      if (!pattern.test(lines[i])) continue;
      matches++;
      hits.push(hitOf(lines[i].replace(/\r$/, ""), i + 1, all));
    }
    searched++; // a file the budget cut short is not counted
    if (hits.length > 0) files.push({ path: path.slice(root.length + 1), hits });
  }
  return { files, matches, searched, capped };
}

/** The hit of a matching line: its ranges, and a window of at most 500 characters around the first one. */
function hitOf(line: string, lineNumber: number, all: RegExp): SearchHit {
  const ranges: [number, number][] = [];
  all.lastIndex = 0;
  for (let m = all.exec(line); m && ranges.length < MAX_RANGES_PER_LINE; m = all.exec(line)) {
    ranges.push([m.index, m.index + m[0].length]);
    if (m[0].length === 0) all.lastIndex++;
  }
  const first = ranges[0]?.[0] ?? 0;
  if (line.length <= GREP_MAX_LINE_LENGTH) return { line: lineNumber, column: first + 1, text: line, ranges };
  const start = first > GREP_MAX_LINE_LENGTH - 100 ? first - 100 : 0;
  const end = start + GREP_MAX_LINE_LENGTH;
  const lead = start > 0 ? "…" : "";
  const text = `${lead}${line.slice(start, end)}${end < line.length ? "…" : ""}`;
  const shifted = ranges
    .filter(([s]) => s >= start && s < end)
    .map(([s, e]): [number, number] => [s - start + lead.length, Math.min(e, end) - start + lead.length]);
  return { line: lineNumber, column: first + 1, text, ranges: shifted };
}
