/**
 * The one reading of a pi session file that every consumer shares — `strata session import`, the HTTP and IDE
 * import (`importSessionJsonl`, the staged upload's commit) and `strata preview` — so they accept the same files,
 * refuse the same files with the same messages and report the same diagnostics: {@link readSessionFile}, which is
 * {@link parseSessionParts} (the parser, `./jsonl.ts`: skipped lines, repairs, schema notes, unknown parents,
 * refusals), {@link refuseCutFile} for uploads, then {@link checkHeaderCwd} against the root the session will work
 * in. Pure, edge-safe.
 */
import { checkPathLimits } from "@/lib/vfs/limits";
import { isInsideRoot, normalizePosix } from "@/lib/vfs/paths";
import {
  InvalidSessionEntriesError,
  type JsonlDiagnostic,
  type ParsedSessionJsonl,
  SessionJsonlParser,
} from "./jsonl";

/** Longest stretch the parse runs without yielding to the event loop (ms). */
const SLICE_MS = 8;

const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Parse a session file given as chunks in order — UTF-8 bytes (any boundaries; a multi-byte character or a line
 * may span chunks) or text, yielding to the event loop every few milliseconds so other requests keep being served.
 * @returns the parse, as `parseSessionJsonl` returns it for the whole text.
 * @throws as `parseSessionJsonl`.
 */
export async function parseSessionParts(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  path: string,
): Promise<ParsedSessionJsonl> {
  const parser = new SessionJsonlParser(path);
  const decoder = new TextDecoder();
  let carry = "";
  let sliceStart = performance.now();
  const maybePause = async () => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    await pause();
    sliceStart = performance.now();
  };
  const feed = async (text: string) => {
    let start = 0;
    for (;;) {
      const end = text.indexOf("\n", start);
      if (end < 0) break;
      parser.addLine(carry ? carry + text.slice(start, end) : text.slice(start, end));
      carry = "";
      start = end + 1;
      await maybePause();
    }
    carry += text.slice(start);
  };
  for await (const chunk of chunks)
    await feed(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
  await feed(decoder.decode());
  if (carry !== "") parser.addLine(carry, true);
  const steps = parser.finishSteps();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await maybePause();
  }
}

/**
 * Refuse an import whose last line is incomplete JSON (`torn-last-line`): pi drops such a line when it reads a
 * file, but an import cannot tell a torn file from an upload that was cut, so nothing is stored.
 * @throws InvalidSessionEntriesError `Session file ends in an incomplete line (it was cut); nothing was
 *   imported: <path>` with `<path>:<line>: torn-last-line: Line <n> (last, no newline) is incomplete JSON`.
 */
export function refuseCutFile(parsed: ParsedSessionJsonl, path: string): void {
  const torn = parsed.diagnostics.find((d) => d.kind === "torn-last-line");
  if (!torn) return;
  const diagnostics: JsonlDiagnostic[] = parsed.diagnostics.map((d) =>
    d === torn ? { ...d, message: `Line ${d.line} (last, no newline) is incomplete JSON` } : d,
  );
  throw new InvalidSessionEntriesError(
    path,
    diagnostics,
    "torn-last-line",
    "Session file ends in an incomplete line (it was cut); nothing was imported",
  );
}

/**
 * Refuse a header whose `cwd`, once mapped into the project (an absolute path inside the project root; any other
 * cwd becomes the root), passes the VFS path limits below the root (`MAX_PATH_DEPTH` 64 levels, `MAX_PATH_LENGTH`
 * 4096 bytes): the session's shell would resolve every path against it. A header without a string cwd passes (pi
 * reads it; the session works in the root).
 * @throws InvalidSessionEntriesError `Session file has entries that cannot be imported: <path>` and (at the header's
 *   line, 1 in a well-formed file) `<path>:1: invalid-entry: Line 1: the header's cwd is over the path limits below the project root (Path is 2001 levels deep;
 *   the limit is 64. …)`.
 */
export function checkHeaderCwd(parsed: ParsedSessionJsonl, root: string, path: string): void {
  const cwd = parsed.header.cwd;
  if (typeof cwd !== "string" || !cwd.startsWith("/")) return;
  const wanted = normalizePosix(cwd);
  const r = normalizePosix(root);
  if (wanted === r || !isInsideRoot(r, wanted)) return;
  try {
    checkPathLimits(r === "/" ? wanted.slice(1) : wanted.slice(r.length + 1));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const line = parsed.headerLine;
    const refusal: JsonlDiagnostic = {
      line,
      kind: "invalid-entry",
      message: `Line ${line}: the header's cwd is over the path limits below the project root (${reason}) Set the header's cwd to a shallower folder, or remove it, and import again.`,
    };
    const diagnostics = [...parsed.diagnostics, refusal].sort((a, b) => a.line - b.line);
    throw new InvalidSessionEntriesError(path, diagnostics, "invalid-entry");
  }
}

/**
 * Read a pi session file — the one validation every reader shares: the IDE/HTTP import (one request, and the staged
 * upload's commit), `strata session import` and `strata preview`. It parses `input` (the whole text, or its chunks
 * in order: UTF-8 bytes with any boundaries, or text), yielding to the event loop while it works; with `refuseTorn`
 * it refuses a torn last line (an upload cannot tell it from a cut transfer; a local file drops it as pi does, with
 * a `torn-last-line` diagnostic); with `root` it checks the header's cwd against the root the session will work in
 * ({@link checkHeaderCwd}; `strata preview` passes its `/workspace`, an import the project's root — the upload's
 * commit checks it when it stores).
 * @returns the parse; its `diagnostics` are the warnings every consumer reports (by line), with the same texts:
 *   `blank`, `invalid-json`, `torn-last-line`, `missing-final-newline`, `extra-header`, `schema` (entries and
 *   header fields of a wrong type), `repaired`, `unknown-parent`.
 * @throws InvalidSessionFileError (no pi header: `Session file is not a valid pi session: <path>`) and its
 *   subclasses: InvalidSessionEntriesError (refused entries, a header cwd over the path limits, a torn last line
 *   with `refuseTorn`), InvalidSessionTreeError (duplicate id, self-parent, parent cycle).
 */
export async function readSessionFile(
  input: string | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  path: string,
  options: { root?: string; refuseTorn?: boolean } = {},
): Promise<ParsedSessionJsonl> {
  const parsed = await parseSessionParts(typeof input === "string" ? [input] : input, path);
  if (options.refuseTorn) refuseCutFile(parsed, path);
  if (options.root !== undefined) checkHeaderCwd(parsed, options.root, path);
  return parsed;
}

/**
 * The first string `timestamp` of `entries` (file order), for naming the export of a file whose header has none.
 */
export function firstEntryTimestamp(entries: readonly { timestamp?: unknown }[]): string | undefined {
  for (const e of entries) if (typeof e.timestamp === "string") return e.timestamp;
  return undefined;
}
