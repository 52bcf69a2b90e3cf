/**
 * pi JSONL files ↔ stored sessions (catalog 16). `importSessionJsonl` parses, migrates and stores a file
 * as a new session; `exportSessionJsonl` writes a session back in pi's format — an imported pi file comes
 * back byte for byte (entries are stored as their JSON text, key order included).
 */
import type { DbScope } from "@/lib/db/client";
import { checkPathLimits } from "@/lib/vfs/limits";
import { isInsideRoot, normalizePosix } from "@/lib/vfs/paths";
import { loadAllEntries } from "./context-load";
import {
  defaultSessionFileName,
  InvalidSessionEntriesError,
  type JsonlDiagnostic,
  type ParsedSessionJsonl,
  serializeSessionJsonl,
} from "./jsonl";
import { parseSessionParts, refuseCutFile } from "./session-upload";
import { getSessionHeader, insertImportedSession, type SessionRow } from "./store";
import { getSessionName } from "./tree";

/**
 * Import a pi session file into project `projectId`: a new session with the file's entries (ids,
 * parentIds, timestamps and unknown entry types preserved; v1/v2 files migrated as pi does), the header
 * kept, leaf = the last entry, title = the session name (7.22) if any. The parse yields to the event loop
 * while it works; the entries are stored in one transaction (all or none).
 * @returns the session and the parse diagnostics (skipped lines with line numbers, repairs, schema notes).
 * `refuseTorn` (uploads): a last line that is not complete JSON refuses the file — an upload that was cut looks
 * exactly like that; without it (a local file, as pi reads it) the line is dropped with a diagnostic.
 * @throws InvalidSessionFileError for a text without a valid header, and its subclasses for refused entries,
 *   entries that are not a tree and (with `refuseTorn`) a torn last line.
 */
export async function importSessionJsonl(
  scope: DbScope,
  projectId: string,
  text: string,
  options: { path?: string; userId?: string | null; refuseTorn?: boolean } = {},
): Promise<{ session: SessionRow; diagnostics: JsonlDiagnostic[]; migrated: boolean }> {
  const path = options.path ?? "<input>";
  const parsed = await parseSessionParts([text], path);
  if (options.refuseTorn) refuseCutFile(parsed, path);
  return storeParsedSession(scope, projectId, parsed, { ...options, path });
}

/**
 * Refuse a header whose `cwd`, once mapped into the project (an absolute path inside the project root; any other
 * cwd becomes the root), passes the VFS path limits below the root (`MAX_PATH_DEPTH` 64 levels, `MAX_PATH_LENGTH`
 * 4096 bytes): the session's shell would resolve every path against it.
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
 * Store an already parsed session file as a new session of `projectId` (see {@link importSessionJsonl}), in one
 * transaction, after {@link checkHeaderCwd} (`options.path` names the file in its error; default `"<input>"`).
 * @returns the session, the parse's diagnostics and whether it was migrated.
 * @throws InvalidSessionEntriesError for a header cwd over the path limits; Error when the project is gone.
 */
export async function storeParsedSession(
  scope: DbScope,
  projectId: string,
  parsed: ParsedSessionJsonl,
  options: { userId?: string | null; path?: string } = {},
): Promise<{ session: SessionRow; diagnostics: JsonlDiagnostic[]; migrated: boolean }> {
  const [project] = await scope.query<{ root_path: string }>("SELECT root_path FROM projects WHERE id = $1", [
    projectId,
  ]);
  if (!project) throw new Error(`Project ${projectId} not found`);
  checkHeaderCwd(parsed, project.root_path, options.path ?? "<input>");
  const session = await insertImportedSession(scope, projectId, parsed.header, parsed.entries, {
    userId: options.userId,
    title: getSessionName(parsed.entries) ?? null,
  });
  return { session, diagnostics: parsed.diagnostics, migrated: parsed.migrated };
}

/**
 * The session as a pi JSONL file: its header (stored, or synthesised for native sessions) and every
 * entry in insertion order, `JSON.stringify` per line, each line ending in `\n`.
 * @throws Error `Session <id> not found`.
 */
export async function exportSessionJsonl(scope: DbScope, sessionId: string): Promise<string> {
  const header = await getSessionHeader(scope, sessionId);
  return serializeSessionJsonl(header, await loadAllEntries(scope, sessionId));
}

/**
 * The session as a pi file: `text` as `exportSessionJsonl` writes it and `fileName`, pi's default
 * file name for it (`<header timestamp with : and . → ->_<header id>.jsonl`, without pi's cwd folder).
 * @throws Error `Session <id> not found`.
 */
export async function exportSessionFile(
  scope: DbScope,
  sessionId: string,
): Promise<{ fileName: string; text: string }> {
  const header = await getSessionHeader(scope, sessionId);
  const text = serializeSessionJsonl(header, await loadAllEntries(scope, sessionId));
  const path = defaultSessionFileName(header);
  return { fileName: path.slice(path.lastIndexOf("/") + 1), text };
}
