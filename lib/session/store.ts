/**
 * Sessions and their append-only entry tree in Postgres (pi's `SessionManager`, `session-manager.ts`): the one
 * import for callers, over the rows (session-row.ts), appends (append.ts), the tree's other writes
 * (entry-writes.ts) and sessions made from entries (session-copy.ts).
 * Entries are never updated; each append is one transaction that locks the session row, inserts the
 * entry under the current leaf and moves the leaf to it. Each row also stores, derived from its parent
 * at insert, the newest compaction on its root path and the effective model / thinking level there, so
 * `loadSessionContext` (context-load.ts) reads only the entries the projection needs: a walk back from the leaf
 * that stops at the latest compaction's `firstKeptEntryId` (the whole branch when there is no compaction).
 */

export { appendEntry, type DerivedColumns, deriveColumns } from "./append";
export * from "./entry-writes";
export * from "./session-copy";
export {
  CompactionPendingError,
  createSession,
  getSession,
  getSessionHeader,
  LeafMovedError,
  listSessions,
  type SessionRow,
  setSessionTitle,
} from "./session-row";
