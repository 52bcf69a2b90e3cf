/**
 * pi JSONL files ↔ stored sessions (catalog 16). `importSessionJsonl` parses, migrates and stores a file
 * as a new session; `exportSessionJsonl` writes a session back in pi's format — an imported pi file comes
 * back byte for byte (entries are stored as their JSON text, key order included).
 */
import type { DbScope } from "@/lib/db/client";
import { loadAllEntries } from "./context-load";
import {
  defaultSessionFileName,
  type JsonlDiagnostic,
  type ParsedSessionJsonl,
  serializeSessionJsonl,
} from "./jsonl";
import { checkHeaderCwd, firstEntryTimestamp, readSessionFile } from "./session-file";
import { getSessionHeader, insertImportedSession, type SessionRow } from "./store";
import { getSessionName } from "./tree";

/**
 * Import a pi session file into project `projectId`: a new session with the file's entries (ids,
 * parentIds, timestamps and unknown entry types preserved; v1/v2 files migrated as pi does), the header
 * kept, leaf = the last entry, title = the session name (pi's `session-manager.ts`) if any. The parse yields to the event loop
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
  const [project] = await scope.query<{ root_path: string }>("SELECT root_path FROM projects WHERE id = $1", [
    projectId,
  ]);
  if (!project) throw new Error(`Project ${projectId} not found`);
  // The reading `strata preview` shares (./session-file.ts): the same files, the same diagnostics.
  const parsed = await readSessionFile(text, path, {
    root: project.root_path,
    refuseTorn: options.refuseTorn,
  });
  return storeParsedSession(scope, projectId, parsed, { ...options, path });
}

export { checkHeaderCwd };

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
 * file name for it (`<header timestamp with : and . → ->_<header id>.jsonl`, without pi's cwd folder). A header
 * without a timestamp (pi reads such files) is exported as it is; its name takes the first entry's timestamp, or
 * is `<header id>.jsonl` when no entry has one.
 * @throws Error `Session <id> not found`.
 */
export async function exportSessionFile(
  scope: DbScope,
  sessionId: string,
): Promise<{ fileName: string; text: string }> {
  const header = await getSessionHeader(scope, sessionId);
  const entries = await loadAllEntries(scope, sessionId);
  const text = serializeSessionJsonl(header, entries);
  const path = defaultSessionFileName(header, firstEntryTimestamp(entries));
  return { fileName: path.slice(path.lastIndexOf("/") + 1), text };
}
