/**
 * The one reading of a pi session file that every consumer shares — `strata session import`, the HTTP and IDE
 * import (`importSessionJsonl`, the staged upload's commit) and `strata preview` — so they accept the same files
 * and report the same diagnostics: {@link parseSessionParts} (the parser, `./jsonl.ts`: skipped lines, repairs,
 * schema notes, refusals), then {@link checkHeaderCwd} against the root the session will work in. Pure,
 * edge-safe.
 */
import { checkPathLimits } from "@/lib/vfs/limits";
import { isInsideRoot, normalizePosix } from "@/lib/vfs/paths";
import { InvalidSessionEntriesError, type JsonlDiagnostic, type ParsedSessionJsonl } from "./jsonl";
import { parseSessionParts, refuseCutFile } from "./session-upload";

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
 * Read a pi session file for a session working under `root`: parse it (yielding to the event loop while it works),
 * with `refuseTorn` refuse a torn last line (an upload cannot tell it from a cut transfer; a local file drops it as
 * pi does, with a `torn-last-line` diagnostic), and check the header's cwd against `root`.
 * @returns the parse; its `diagnostics` are the warnings every consumer reports (by line).
 * @throws InvalidSessionFileError (no pi header) and its subclasses: InvalidSessionEntriesError (refused entries,
 *   a header cwd over the path limits, a torn last line with `refuseTorn`), InvalidSessionTreeError.
 */
export async function readSessionFile(
  text: string,
  path: string,
  options: { root: string; refuseTorn?: boolean },
): Promise<ParsedSessionJsonl> {
  const parsed = await parseSessionParts([text], path);
  if (options.refuseTorn) refuseCutFile(parsed, path);
  checkHeaderCwd(parsed, options.root, path);
  return parsed;
}

/**
 * The first string `timestamp` of `entries` (file order), for naming the export of a file whose header has none.
 */
export function firstEntryTimestamp(entries: readonly { timestamp?: unknown }[]): string | undefined {
  for (const e of entries) if (typeof e.timestamp === "string") return e.timestamp;
  return undefined;
}
