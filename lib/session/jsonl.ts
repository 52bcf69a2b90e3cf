/**
 * pi session JSONL ↔ entries, pure (catalog 16; pi's `loadEntriesFromFile`, `migrateToCurrentVersion`
 * and `_rewriteFile` in session-manager.ts). Import keeps every entry exactly as parsed (unknown types
 * too); export writes `JSON.stringify` of each stored object, one per line, so an imported pi file
 * comes back byte for byte.
 */
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "./entries";
import { validateSessionEntry } from "./schema";

/** A problem found while parsing; the line is 1-based in the input text. */
export interface JsonlDiagnostic {
  line: number;
  kind: "blank" | "invalid-json" | "torn-last-line" | "missing-final-newline" | "extra-header" | "schema";
  message: string;
}

/** `parseSessionJsonl` result. */
export interface ParsedSessionJsonl {
  header: SessionHeader;
  /** Entries in file order, migrated to v3 (the objects as parsed, mutated in place by migration). */
  entries: SessionEntry[];
  diagnostics: JsonlDiagnostic[];
  /** The file's version before migration (missing = 1). */
  fromVersion: number;
  /** Whether a v1→v2 / v2→v3 migration changed entries (pi then rewrites the file). */
  migrated: boolean;
}

/** pi's refusal of a non-empty file whose first parsed line is not a session header (16, reading rules). */
export class InvalidSessionFileError extends Error {
  constructor(path: string) {
    super(`Session file is not a valid pi session: ${path}`);
    this.name = "InvalidSessionFileError";
  }
}

/**
 * pi's id generator over a set of taken ids (first 8 hex of a random UUID; full UUID after 100 tries).
 */
function generateId(taken: Set<string>): string {
  for (let i = 0; i < 100; i++) {
    const id = crypto.randomUUID().slice(0, 8);
    if (!taken.has(id)) return id;
  }
  return crypto.randomUUID();
}

type Mutable = Record<string, unknown>;

/**
 * v1 → v2 (pi `migrateV1ToV2`, in place): header `version = 2`; every entry gets a fresh `id` and
 * `parentId` = the previous entry (a linear chain; keys appended after the existing ones, as pi's
 * assignment does); compaction `firstKeptEntryIndex` (index into the file's lines **including the
 * header**) becomes `firstKeptEntryId` and is deleted.
 */
export function migrateV1ToV2(fileEntries: Mutable[]): void {
  const ids = new Set<string>();
  let prevId: string | null = null;
  for (const entry of fileEntries) {
    if (entry.type === "session") {
      entry.version = 2;
      continue;
    }
    entry.id = generateId(ids);
    entry.parentId = prevId;
    prevId = entry.id as string;
    if (entry.type === "compaction" && typeof entry.firstKeptEntryIndex === "number") {
      const target = fileEntries[entry.firstKeptEntryIndex];
      if (target && target.type !== "session") entry.firstKeptEntryId = target.id;
      delete entry.firstKeptEntryIndex;
    }
  }
}

/** v2 → v3 (pi `migrateV2ToV3`, in place): header `version = 3`; message role `hookMessage` → `custom`. */
export function migrateV2ToV3(fileEntries: Mutable[]): void {
  for (const entry of fileEntries) {
    if (entry.type === "session") {
      entry.version = 3;
      continue;
    }
    const message = entry.message as Mutable | undefined;
    if (entry.type === "message" && message && message.role === "hookMessage") message.role = "custom";
  }
}

/**
 * Bring header + entries to v3 in place (pi `migrateToCurrentVersion`). `version` missing = v1.
 * @returns whether anything was migrated.
 */
export function migrateSessionEntries(fileEntries: Mutable[]): boolean {
  const header = fileEntries.find((e) => e.type === "session");
  const version = (header?.version as number | undefined) ?? 1;
  if (version >= CURRENT_SESSION_VERSION) return false;
  if (version < 2) migrateV1ToV2(fileEntries);
  if (version < 3) migrateV2ToV3(fileEntries);
  return true;
}

/**
 * Parse a pi session file. Blank lines and lines that are not JSON are skipped and reported with their
 * line number; a last line without `\n` is kept when it parses (reported as `missing-final-newline`;
 * pi repairs it) and otherwise reported as `torn-last-line` and dropped — it is never joined to
 * anything. The first parsed line must be a header (`type:"session"`, string `id`); later header lines
 * are skipped. Entries are migrated v1→v2→v3 exactly as pi does, then checked against `./schema.ts`
 * (mismatches are reported as `schema` and the entry is kept as it is).
 * @param path name used in the error text (default `"<input>"`).
 * @throws InvalidSessionFileError (`Session file is not a valid pi session: <path>`) when the text has
 *   no valid header (an empty text included).
 */
export function parseSessionJsonl(text: string, path = "<input>"): ParsedSessionJsonl {
  const diagnostics: JsonlDiagnostic[] = [];
  const lines = text.split("\n");
  const endsWithNewline = text.endsWith("\n");
  if (endsWithNewline) lines.pop();
  const parsed: { line: number; value: Mutable }[] = [];
  lines.forEach((raw, i) => {
    const line = i + 1;
    const last = i === lines.length - 1 && !endsWithNewline;
    const content = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (!content.trim()) {
      if (!last) diagnostics.push({ line, kind: "blank", message: `Line ${line} is blank; skipped` });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      diagnostics.push(
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
      diagnostics.push({ line, kind: "invalid-json", message: `Line ${line} is not a JSON object; skipped` });
      return;
    }
    if (last)
      diagnostics.push({ line, kind: "missing-final-newline", message: `Line ${line} has no final newline` });
    parsed.push({ line, value: value as Mutable });
  });
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
  const fileEntries = kept.map((p) => p.value);
  const fromVersion = (first.version as number | undefined) ?? 1;
  const migrated = migrateSessionEntries(fileEntries);
  for (const p of kept.slice(1)) {
    const check = validateSessionEntry(p.value);
    if (!check.success)
      diagnostics.push({
        line: p.line,
        kind: "schema",
        message: `Line ${p.line}: ${check.error.replace(/\n/g, "; ")}`,
      });
  }
  diagnostics.sort((a, b) => a.line - b.line);
  return {
    header: first as unknown as SessionHeader,
    entries: fileEntries.slice(1) as unknown as SessionEntry[],
    diagnostics,
    fromVersion,
    migrated,
  };
}

/** The file text pi writes for `header` + `entries`: `JSON.stringify` of each, one per line, each ending in `\n`. */
export function serializeSessionJsonl(header: SessionHeader, entries: readonly SessionEntry[]): string {
  let out = `${JSON.stringify(header)}\n`;
  for (const e of entries) out += `${JSON.stringify(e)}\n`;
  return out;
}

/**
 * pi's default file location for a session (16): `--<cwd without leading slash, / \ : → ->--/<ISO
 * timestamp with : and . → ->_<sessionId>.jsonl`, relative to `~/.pi/agent/sessions/`.
 */
export function defaultSessionFileName(header: Pick<SessionHeader, "cwd" | "timestamp" | "id">): string {
  const dir = `--${header.cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
  return `${dir}/${header.timestamp.replace(/[:.]/g, "-")}_${header.id}.jsonl`;
}
