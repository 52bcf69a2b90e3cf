/**
 * pi session JSONL ↔ entries, pure (catalog 16; pi's `loadEntriesFromFile`, `migrateToCurrentVersion`
 * and `_rewriteFile` in session-manager.ts). Import keeps every entry exactly as parsed (unknown types
 * too); export writes `JSON.stringify` of each stored object, one per line, so an imported pi file
 * comes back byte for byte. The whole-file checks (tree, unknown parents, header fields) are in
 * ./jsonl-checks.ts, re-exported here.
 */

import { StrataError } from "@/lib/errors/strata-error";
import { jsonDepthOverflow, MAX_JSON_DEPTH } from "@/lib/text/json-depth";
import type { SessionEntry, SessionHeader } from "./entries";
import { checkEntry } from "./entry-repair";
import { checkHeaderFields, findTreeProblems, findUnknownParents } from "./jsonl-checks";
import { migrateSessionEntries } from "./jsonl-migrate";
import { validateSessionEntry } from "./schema";

export { checkHeaderFields, findTreeProblems, findUnknownParents };

/** A problem found while parsing; the line is 1-based in the input text. */
export interface JsonlDiagnostic {
  line: number;
  kind:
    | "blank"
    | "invalid-json"
    | "torn-last-line"
    | "missing-final-newline"
    | "extra-header"
    | "schema"
    | "unknown-parent"
    | "repaired"
    | "invalid-entry"
    | "duplicate-id"
    | "self-parent"
    | "parent-cycle";
  message: string;
}

/** Diagnostics of a broken entry tree: {@link parseSessionJsonl} refuses the file ({@link InvalidSessionTreeError}). */
export const TREE_DIAGNOSTIC_KINDS: readonly JsonlDiagnostic["kind"][] = [
  "duplicate-id",
  "self-parent",
  "parent-cycle",
];

/** `parseSessionJsonl` result. */
export interface ParsedSessionJsonl {
  header: SessionHeader;
  /** The header's 1-based line in the file (1 unless blank or invalid lines come first). */
  headerLine: number;
  /** Entries in file order, migrated to v3 (the objects as parsed, mutated in place by migration). */
  entries: SessionEntry[];
  diagnostics: JsonlDiagnostic[];
  /** The file's version before migration (missing = 1). */
  fromVersion: number;
  /** Whether a v1→v2 / v2→v3 migration changed entries (pi then rewrites the file). */
  migrated: boolean;
}

/** pi's refusal of a non-empty file whose first parsed line is not a session header (16, reading rules). */
export class InvalidSessionFileError extends StrataError {
  constructor(path: string) {
    super(400, "invalid_session_file", `Session file is not a valid pi session: ${path}`);
    this.name = "InvalidSessionFileError";
  }
}

/**
 * A session file refused for its entries; the message names the file and lists `<path>:<line>: <kind>: <message>`
 * per refused entry; `diagnostics` holds every diagnostic of the parse (the refusing ones included), by line.
 */
export class InvalidSessionEntriesError extends InvalidSessionFileError {
  readonly diagnostics: JsonlDiagnostic[];
  constructor(
    path: string,
    diagnostics: JsonlDiagnostic[],
    kinds: JsonlDiagnostic["kind"] | readonly JsonlDiagnostic["kind"][],
    title = "Session file has entries that cannot be imported",
  ) {
    super(path);
    this.name = "InvalidSessionEntriesError";
    this.diagnostics = diagnostics;
    const refusing: readonly string[] = typeof kinds === "string" ? [kinds] : kinds;
    this.message = `${title}: ${path}\n${diagnostics
      .filter((d) => refusing.includes(d.kind))
      .map((d) => `${path}:${d.line}: ${d.kind}: ${d.message}`)
      .join("\n")}`;
  }
}

/**
 * A session file whose entries do not form a tree: an id used twice (the store keys entries by id, and pi's
 * lookup would silently hide the first), an entry that is its own parent, or a parent cycle (pi's branch walk
 * would not end). The message names the file and lists `<path>:<line>: <kind>: <message>` per problem;
 * `diagnostics` holds every diagnostic of the parse (the tree ones included), by line.
 */
export class InvalidSessionTreeError extends InvalidSessionEntriesError {
  constructor(path: string, diagnostics: JsonlDiagnostic[]) {
    super(path, diagnostics, TREE_DIAGNOSTIC_KINDS, "Session file entries do not form a tree");
    this.name = "InvalidSessionTreeError";
  }
}

type Mutable = Record<string, unknown>;

/**
 * Incremental parser of a pi session file, line by line, so a large upload can be parsed part by part without
 * building one string, and the caller can yield to the event loop between lines ({@link addLine}) and between
 * entries ({@link finishSteps}). {@link parseSessionJsonl} is the one-shot form; the rules are documented there.
 */
export class SessionJsonlParser {
  readonly diagnostics: JsonlDiagnostic[] = [];
  private readonly parsed: { line: number; value: Mutable }[] = [];
  /** Lines refused before parsing (nested deeper than {@link MAX_JSON_DEPTH}); they refuse the file. */
  private readonly tooDeep: JsonlDiagnostic[] = [];
  private lineCount = 0;
  private bytes = 0;

  /** @param path name used in error texts (default `"<input>"`). */
  constructor(readonly path = "<input>") {}

  /** Lines seen so far. */
  get lines(): number {
    return this.lineCount;
  }

  /** Characters of line content seen so far (without the newlines). */
  get characters(): number {
    return this.bytes;
  }

  /**
   * Add the next line, without its `\n` (a trailing `\r` is ignored). `last` marks the final line of a text
   * that does not end in `\n` (kept when it parses, else dropped as `torn-last-line`).
   */
  addLine(raw: string, last = false): void {
    const line = ++this.lineCount;
    this.bytes += raw.length;
    const content = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (!content.trim()) {
      if (!last) this.diagnostics.push({ line, kind: "blank", message: `Line ${line} is blank; skipped` });
      return;
    }
    // Before JSON.parse: a line nested millions of levels deep would stall the parse for seconds, and a few
    // thousand levels overflow the stack of the recursive code that touches an entry later (repair, stringify).
    const over = jsonDepthOverflow(content);
    if (over >= 0) {
      this.tooDeep.push({
        line,
        kind: "invalid-entry",
        message: `Line ${line}: JSON nested more than ${MAX_JSON_DEPTH} levels deep (at character ${over + 1}); the limit is ${MAX_JSON_DEPTH} (pi entries nest fewer than 10). Remove or flatten the entry and import again.`,
      });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      this.diagnostics.push(
        last
          ? {
              line,
              kind: "torn-last-line",
              message: `Line ${line} (last, no newline) is incomplete JSON; dropped`,
            }
          : {
              line,
              kind: "invalid-json",
              message: `Line ${line} is not valid JSON (${(error as Error).message}); skipped`,
            },
      );
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.diagnostics.push({
        line,
        kind: "invalid-json",
        message: `Line ${line} is not a JSON object; skipped`,
      });
      return;
    }
    if (last)
      this.diagnostics.push({
        line,
        kind: "missing-final-newline",
        message: `Line ${line} has no final newline`,
      });
    this.parsed.push({ line, value: value as Mutable });
  }

  /**
   * The checks after the last line, as a generator that yields every {@link FINISH_STEP} entries (drive it with
   * {@link finish}, or await between steps). Returns the parse result.
   * @throws as {@link parseSessionJsonl}.
   */
  *finishSteps(): Generator<void, ParsedSessionJsonl> {
    const { path, parsed, diagnostics } = this;
    if (this.tooDeep.length > 0) {
      diagnostics.push(...this.tooDeep);
      diagnostics.sort((a, b) => a.line - b.line);
      throw new InvalidSessionEntriesError(path, diagnostics, "invalid-entry");
    }
    const first = parsed[0]?.value;
    if (first?.type !== "session" || typeof first.id !== "string") throw new InvalidSessionFileError(path);
    const kept = [parsed[0]];
    for (const p of parsed.slice(1)) {
      if (p.value.type === "session")
        diagnostics.push({
          line: p.line,
          kind: "extra-header",
          message: `Line ${p.line} is a second session header; skipped`,
        });
      else kept.push(p);
    }
    diagnostics.push(...checkHeaderFields(first, parsed[0].line));
    const fileEntries = kept.map((p) => p.value);
    const fromVersion = (first.version as number | undefined) ?? 1;
    const migrated = migrateSessionEntries(fileEntries);
    const refused: JsonlDiagnostic[] = [];
    for (let i = 1; i < kept.length; i++) {
      if (i % FINISH_STEP === 0) yield;
      const p = kept[i];
      const check = checkEntry(p.value);
      if (check.problem) {
        refused.push({ line: p.line, kind: "invalid-entry", message: `Line ${p.line}: ${check.problem}` });
        continue;
      }
      if (check.entry !== p.value) {
        p.value = check.entry;
        fileEntries[i] = check.entry;
      }
      for (const note of check.notes)
        diagnostics.push({ line: p.line, kind: "repaired", message: `Line ${p.line}: ${note}` });
      const valid = validateSessionEntry(p.value);
      if (!valid.success)
        diagnostics.push({
          line: p.line,
          kind: "schema",
          message: `Line ${p.line}: ${valid.error.replace(/\n/g, "; ")}`,
        });
    }
    if (refused.length > 0) {
      diagnostics.push(...refused);
      diagnostics.sort((a, b) => a.line - b.line);
      throw new InvalidSessionEntriesError(path, diagnostics, "invalid-entry");
    }
    yield;
    const tree = findTreeProblems(kept.slice(1));
    diagnostics.push(...tree);
    if (tree.length === 0) diagnostics.push(...findUnknownParents(kept.slice(1)));
    diagnostics.sort((a, b) => a.line - b.line);
    if (tree.length > 0) throw new InvalidSessionTreeError(path, diagnostics);
    return {
      header: first as unknown as SessionHeader,
      headerLine: parsed[0].line,
      entries: fileEntries.slice(1) as unknown as SessionEntry[],
      diagnostics,
      fromVersion,
      migrated,
    };
  }

  /**
   * Run the checks after the last line in one go.
   * @throws as {@link parseSessionJsonl}.
   */
  finish(): ParsedSessionJsonl {
    const steps = this.finishSteps();
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }
}

/** Entries checked between two yields of {@link SessionJsonlParser.finishSteps}. */
export const FINISH_STEP = 500;

/**
 * Parse a pi session file. Blank lines and lines that are not JSON are skipped and reported with their
 * line number; a last line without `\n` is kept when it parses (reported as `missing-final-newline`;
 * pi repairs it) and otherwise reported as `torn-last-line` and dropped — it is never joined to
 * anything. The first parsed line must be a header (`type:"session"`, string `id`); later header lines
 * are skipped. Entries are migrated v1→v2→v3 exactly as pi does, then checked by `checkEntry`
 * (`./entry-repair.ts`): an entry without a usable `id`, `parentId`, `type` or (for `message` entries) message
 * refuses the file (`invalid-entry`); broken content parts are dropped and reported as `repaired` (the entry is
 * stored repaired); then each entry is checked against `./schema.ts` (mismatches are reported as `schema` and
 * the entry is kept as it is). A line nested more than `MAX_JSON_DEPTH` (64) levels is refused before it is
 * parsed (`invalid-entry`, "JSON nested more than 64 levels deep"). The entries must form a tree ({@link findTreeProblems}): a duplicate id, a
 * self-parent or a parent cycle refuses the file.
 * @param path name used in the error text (default `"<input>"`).
 * @throws InvalidSessionFileError (`Session file is not a valid pi session: <path>`) when the text has
 *   no valid header (an empty text included); its subclasses InvalidSessionEntriesError (`Session file has
 *   entries that cannot be imported: <path>` and one `<path>:<line>: invalid-entry: <message>` line per entry)
 *   and InvalidSessionTreeError (`Session file entries do not form a tree: <path>` and one
 *   `<path>:<line>: <kind>: <message>` line per problem).
 */
export function parseSessionJsonl(text: string, path = "<input>"): ParsedSessionJsonl {
  const parser = new SessionJsonlParser(path);
  const endsWithNewline = text.endsWith("\n");
  let start = 0;
  for (;;) {
    const end = text.indexOf("\n", start);
    if (end < 0) break;
    parser.addLine(text.slice(start, end));
    start = end + 1;
  }
  if (!endsWithNewline) parser.addLine(text.slice(start), true);
  return parser.finish();
}

/** The file text pi writes for `header` + `entries`: `JSON.stringify` of each, one per line, each ending in `\n`. */
export function serializeSessionJsonl(header: SessionHeader, entries: readonly SessionEntry[]): string {
  let out = `${JSON.stringify(header)}\n`;
  for (const e of entries) out += `${JSON.stringify(e)}\n`;
  return out;
}

/**
 * pi's default file location for a session (16): `--<cwd without leading slash, / \ : → ->--/<ISO
 * timestamp with : and . → ->_<sessionId>.jsonl`, relative to `~/.pi/agent/sessions/`. pi reads headers
 * without `timestamp` or `cwd` (only `type` and a string `id` are checked): a header without a string timestamp
 * takes `fallbackTimestamp` (the export passes the first entry's), and without that the name is `<id>.jsonl`;
 * a header without a string cwd gets the folder `----`.
 */
export function defaultSessionFileName(
  header: Pick<SessionHeader, "cwd" | "timestamp" | "id">,
  fallbackTimestamp?: string,
): string {
  const cwd = typeof header.cwd === "string" ? header.cwd : "";
  const dir = `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
  const timestamp = typeof header.timestamp === "string" ? header.timestamp : fallbackTimestamp;
  return timestamp === undefined
    ? `${dir}/${header.id}.jsonl`
    : `${dir}/${timestamp.replace(/[:.]/g, "-")}_${header.id}.jsonl`;
}
