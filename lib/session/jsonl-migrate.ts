/**
 * pi's session file migrations (`migrateV1ToV2`, `migrateV2ToV3`, `migrateToCurrentVersion` in session-manager.ts),
 * in place on the parsed lines; used by `./jsonl.ts`.
 */
import { CURRENT_SESSION_VERSION } from "./entries";

type Mutable = Record<string, unknown>;

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
