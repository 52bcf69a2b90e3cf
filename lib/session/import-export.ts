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
  parseSessionJsonl,
  serializeSessionJsonl,
} from "./jsonl";
import { getSessionHeader, insertImportedSession, type SessionRow } from "./store";
import { getSessionName } from "./tree";

/**
 * Import a pi session file into project `projectId`: a new session with the file's entries (ids,
 * parentIds, timestamps and unknown entry types preserved; v1/v2 files migrated as pi does), the header
 * kept, leaf = the last entry, title = the session name (7.22) if any.
 * @returns the session and the parse diagnostics (skipped/torn lines with line numbers, schema notes).
 * @throws InvalidSessionFileError for a text without a valid header; Error on a parent cycle.
 */
export async function importSessionJsonl(
  scope: DbScope,
  projectId: string,
  text: string,
  options: { path?: string; userId?: string | null } = {},
): Promise<{ session: SessionRow; diagnostics: JsonlDiagnostic[]; migrated: boolean }> {
  const parsed = parseSessionJsonl(text, options.path);
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
