/**
 * Appending to a session's entry tree (pi's `SessionManager.appendEntry`): each append is one transaction that locks
 * the session row, inserts the entry under the current leaf and moves the leaf to it, with the derived columns
 * (latest compaction, model, thinking level on the root path) computed from the parent; an append under the leaf
 * this process last appended is one statement (`appendFast`).
 */

import type { AgentMessage } from "@/lib/agent/messages";
import type { DbScope } from "@/lib/db/client";
import { generateEntryId, type NewEntry, type SessionEntry } from "./entries";
import { SessionNotFoundError } from "./errors";
import { LeafMovedError, type Query } from "./session-row";

/** Columns derived from the parent row (see the module doc). */
export interface DerivedColumns {
  compactionId: string | null;
  thinkingLevel: string | null;
  modelProvider: string | null;
  modelId: string | null;
  /** The project commit in effect (docs/checkpoints.md): the parent's unless the append names one. */
  commitOid: string | null;
}

/** The derived columns of `entry` given its parent's (null for a root or a missing parent). */
export function deriveColumns(entry: SessionEntry, parent: DerivedColumns | null): DerivedColumns {
  const d: DerivedColumns = parent
    ? { ...parent }
    : { compactionId: null, thinkingLevel: null, modelProvider: null, modelId: null, commitOid: null };
  // Fields pi may lack (or hold as another type) read as null, as `getSessionContextSettings` reads them.
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  if (entry.type === "compaction") d.compactionId = entry.id;
  else if (entry.type === "thinking_level_change") d.thinkingLevel = str(entry.thinkingLevel);
  else if (entry.type === "model_change") {
    d.modelProvider = str(entry.provider);
    d.modelId = str(entry.modelId);
  } else if (entry.type === "message") {
    const m = entry.message as AgentMessage;
    if (m.role === "assistant") {
      d.modelProvider = str(m.provider);
      d.modelId = str(m.model);
    }
  }
  return d;
}

const INSERT_ENTRY = `INSERT INTO session_entries
  (session_id, id, parent_id, type, entry, compaction_id, thinking_level, model_provider, model_id, commit_oid,
   author_user_id)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::uuid) ON CONFLICT (session_id, id) DO NOTHING RETURNING id`;

/**
 * How an entry is appended: `expectedLeaf` (when not undefined) must equal the stored leaf; `now` its timestamp;
 * `commit` the project commit in effect for it (docs/checkpoints.md; omitted: the parent's); `author` the user who
 * wrote it (a user message, a `!command`; omitted: none).
 */
export interface AppendOptions {
  expectedLeaf?: string | null;
  now?: Date;
  commit?: string;
  author?: string | null;
}

/** Fields first for `custom`/`custom_message` (pi builds those objects that way), base fields first otherwise. */
function orderEntry(
  type: string,
  id: string,
  parentId: string | null,
  timestamp: string,
  fields: Record<string, unknown>,
): SessionEntry {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return (
    type === "custom" || type === "custom_message"
      ? { type, ...defined, id, parentId, timestamp }
      : { type, id, parentId, timestamp, ...defined }
  ) as SessionEntry;
}

interface AppendContext {
  q: Query;
  leafId: string | null;
  timestamp: string;
}

/**
 * The one append path: lock the session row, let `build` validate and describe the entry (it may
 * choose another parent), insert it with a fresh id and move the leaf to it.
 */
export async function appendWith(
  scope: DbScope,
  sessionId: string,
  build: (ctx: AppendContext) => Promise<{
    type: string;
    fields: Record<string, unknown>;
    parentId?: string | null;
    selfField?: string;
  }>,
  options: AppendOptions = {},
): Promise<SessionEntry> {
  let derived: DerivedColumns | undefined;
  const appended = await scope.transaction(async (q) => {
    const [session] = await q<{ leaf_id: string | null }>(
      "SELECT leaf_id FROM sessions WHERE id = $1 FOR UPDATE",
      [sessionId],
    );
    if (!session) throw new SessionNotFoundError(sessionId);
    if (options.expectedLeaf !== undefined && options.expectedLeaf !== session.leaf_id) {
      throw new LeafMovedError(sessionId);
    }
    const timestamp = (options.now ?? new Date()).toISOString();
    const spec = await build({ q, leafId: session.leaf_id, timestamp });
    const parentId = spec.parentId !== undefined ? spec.parentId : session.leaf_id;
    let parent: DerivedColumns | null = null;
    if (parentId !== null) {
      const [p] = await q<{
        compaction_id: string | null;
        thinking_level: string | null;
        model_provider: string | null;
        model_id: string | null;
        commit_oid: string | null;
      }>(
        "SELECT compaction_id, thinking_level, model_provider, model_id, commit_oid FROM session_entries WHERE session_id = $1 AND id = $2",
        [sessionId, parentId],
      );
      if (p)
        parent = {
          compactionId: p.compaction_id,
          thinkingLevel: p.thinking_level,
          modelProvider: p.model_provider,
          modelId: p.model_id,
          commitOid: p.commit_oid,
        };
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      const id = generateEntryId(() => false);
      const fields = spec.selfField ? { ...spec.fields, [spec.selfField]: id } : spec.fields;
      const entry = orderEntry(spec.type, id, parentId, timestamp, fields);
      const d = deriveColumns(entry, parent);
      if (options.commit) d.commitOid = options.commit;
      const inserted = await q(INSERT_ENTRY, [
        sessionId,
        id,
        parentId,
        spec.type,
        JSON.stringify(entry),
        d.compactionId,
        d.thinkingLevel,
        d.modelProvider,
        d.modelId,
        d.commitOid,
        options.author ?? null,
      ]);
      if (inserted.length === 0) continue;
      await q("UPDATE sessions SET leaf_id = $2, updated_at = now() WHERE id = $1", [sessionId, id]);
      derived = d;
      return entry;
    }
    throw new Error(`Could not allocate a unique entry id in session ${sessionId}`);
  });
  if (derived) rememberLeaf(sessionId, appended.id, derived);
  return appended;
}

/**
 * The leaf this instance appended last per session, with its derived columns (entries are immutable, so they
 * stay true). Lets the next append skip reading them: see {@link appendFast}. Bounded; oldest forgotten first.
 */
const lastAppended = new Map<string, { leafId: string; derived: DerivedColumns }>();
const LAST_APPENDED_MAX = 512;

function rememberLeaf(sessionId: string, leafId: string, derived: DerivedColumns): void {
  lastAppended.delete(sessionId);
  lastAppended.set(sessionId, { leafId, derived });
  if (lastAppended.size > LAST_APPENDED_MAX) {
    const oldest = lastAppended.keys().next().value;
    if (oldest !== undefined) lastAppended.delete(oldest);
  }
}

const APPEND_UNDER_LEAF = `WITH ok AS (
    SELECT id FROM sessions WHERE id = $1 AND leaf_id = $3 FOR UPDATE
  ), ins AS (
    INSERT INTO session_entries
      (session_id, id, parent_id, type, entry, compaction_id, thinking_level, model_provider, model_id, commit_oid,
       author_user_id)
    SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::uuid FROM ok
    ON CONFLICT (session_id, id) DO NOTHING RETURNING id
  ), upd AS (
    UPDATE sessions SET leaf_id = $2, updated_at = now() WHERE id = $1 AND EXISTS (SELECT 1 FROM ins) RETURNING id
  ) SELECT (SELECT count(*)::int FROM upd) + (
    SELECT count(*)::int FROM session_entries WHERE session_id = $1 AND id = $2 AND entry::text = $5::text
  ) AS n`;

/**
 * One-statement append under a known leaf: inserts and moves the leaf only if the session's leaf is still
 * `known.leafId` (checked under the row lock, so a concurrent append or branch move makes it a no-op).
 * Safe to repeat after a dropped connection: when an earlier run of the same statement was committed (this
 * entry, id and timestamp included, is stored byte for byte), it answers success again instead of appending twice.
 * @returns the entry, or undefined when the leaf moved (or the id collided): the caller takes the full path.
 */
async function appendFast(
  scope: DbScope,
  sessionId: string,
  type: string,
  fields: Record<string, unknown>,
  known: { leafId: string; derived: DerivedColumns },
  options: AppendOptions,
): Promise<SessionEntry | undefined> {
  const id = generateEntryId(() => false);
  const entry = orderEntry(type, id, known.leafId, (options.now ?? new Date()).toISOString(), fields);
  const d = deriveColumns(entry, known.derived);
  if (options.commit) d.commitOid = options.commit;
  const [row] = await scope.query<{ n: number }>(
    APPEND_UNDER_LEAF,
    [
      sessionId,
      id,
      known.leafId,
      type,
      JSON.stringify(entry),
      d.compactionId,
      d.thinkingLevel,
      d.modelProvider,
      d.modelId,
      d.commitOid,
      options.author ?? null,
    ],
    { repeatable: true },
  );
  if (row?.n !== 1) return undefined;
  rememberLeaf(sessionId, id, d);
  return entry;
}

/**
 * Append one entry (message, model_change, thinking_level_change, usage, custom, custom_message) under
 * the current leaf and move the leaf to it, atomically; keys are ordered as pi writes them. When this instance
 * appended the session's current leaf itself, that is one statement (see `appendFast`), else one transaction.
 * `options`: see {@link AppendOptions}.
 * @throws LeafMovedError when the leaf moved concurrently; Error when the session does not exist.
 */
export async function appendEntry(
  scope: DbScope,
  sessionId: string,
  entry: NewEntry,
  options: AppendOptions = {},
): Promise<SessionEntry> {
  const { type, ...fields } = entry;
  const known = lastAppended.get(sessionId);
  if (known && (options.expectedLeaf === undefined || options.expectedLeaf === known.leafId)) {
    const fast = await appendFast(scope, sessionId, type, fields, known, options);
    if (fast) return fast;
  }
  return appendWith(scope, sessionId, async () => ({ type, fields }), options);
}

export async function entryExists(
  q: Query,
  sessionId: string,
  id: string,
): Promise<SessionEntry | undefined> {
  const [row] = await q<{ entry: SessionEntry }>(
    "SELECT entry FROM session_entries WHERE session_id = $1 AND id = $2",
    [sessionId, id],
  );
  return row?.entry;
}

export async function onBranch(
  q: Query,
  sessionId: string,
  leafId: string | null,
  targetId: string,
): Promise<boolean> {
  if (leafId === null) return false;
  const rows = await q(
    `WITH RECURSIVE w AS (
       SELECT id, parent_id FROM session_entries WHERE session_id = $1 AND id = $2
       UNION ALL
       SELECT e.id, e.parent_id FROM w JOIN session_entries e ON e.session_id = $1 AND e.id = w.parent_id
        WHERE w.id <> $3
     ) SELECT 1 FROM w WHERE id = $3`,
    [sessionId, leafId, targetId],
  );
  return rows.length > 0;
}
