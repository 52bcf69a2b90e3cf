/**
 * Reading a session's branch and the entries its context projection needs (pi `SessionManager.getBranch` /
 * `buildSessionContext` for a stored session): one recursive query from the leaf, stopping at the latest
 * compaction's first kept entry, with a per-instance cache of the last loaded path (see `context-cache.ts`).
 */
import type { DbScope, Query } from "@/lib/db/client";
import type { ThinkingLevel } from "@/lib/llm/types";
import { ContextPathCache, joinCachedPath } from "./context-cache";
import type { SessionEntry } from "./entries";
import { projectPath, type SessionContext, type SessionContextSettings } from "./projection";

/**
 * The root→leaf entries of the branch ending at `leafId` (`null` → `[]`), by a recursive walk over
 * `(session_id, id)` — O(branch length), independent of the session's size.
 */
export async function loadBranch(
  scope: DbScope,
  sessionId: string,
  leafId: string | null,
): Promise<SessionEntry[]> {
  if (leafId === null) return [];
  return branchQuery((t, p) => scope.query(t, p), sessionId, leafId);
}

async function branchQuery(q: Query, sessionId: string, leafId: string): Promise<SessionEntry[]> {
  const rows = await q<{ entry: SessionEntry }>(
    `WITH RECURSIVE branch AS (
       SELECT id, parent_id, entry, 0 AS depth FROM session_entries WHERE session_id = $1 AND id = $2
       UNION ALL
       SELECT e.id, e.parent_id, e.entry, b.depth + 1 FROM branch b
         JOIN session_entries e ON e.session_id = $1 AND e.id = b.parent_id
     ) SELECT entry FROM branch ORDER BY depth DESC`,
    [sessionId, leafId],
  );
  return rows.map((r) => r.entry);
}

/** Every entry of a session in insertion (file) order. */
export async function loadAllEntries(scope: DbScope, sessionId: string): Promise<SessionEntry[]> {
  const rows = await scope.query<{ entry: SessionEntry }>(
    "SELECT entry FROM session_entries WHERE session_id = $1 ORDER BY seq",
    [sessionId],
  );
  return rows.map((r) => r.entry);
}

/** What the projection of a leaf needs: the path suffix it reads, and the settings of the whole branch. */
export interface ContextPath {
  /** Root→leaf entries starting at the latest compaction's first kept entry (the whole branch without one). */
  path: SessionEntry[];
  settings: SessionContextSettings;
}

/**
 * One round trip: the leaf (given, or the session's current leaf when `leafId` is undefined), the
 * settings stored on its row, and the walk back from it that stops at the latest compaction's
 * `firstKeptEntryId` (the root when there is no compaction, or when that id is not on the path).
 */
export async function contextQuery(
  q: Query,
  sessionId: string,
  leafId: string | null | undefined,
  stopAt?: string,
): Promise<ContextPath & { firstKept: string | null }> {
  const [row] = await q<{
    entries: SessionEntry[] | null;
    first_kept: string | null;
    thinking_level: string | null;
    model_provider: string | null;
    model_id: string | null;
  }>(
    `WITH RECURSIVE start AS (
       SELECT CASE WHEN $3 THEN (SELECT leaf_id FROM sessions WHERE id = $1) ELSE $2 END AS id
     ), leaf AS (
       SELECT e.compaction_id, e.thinking_level, e.model_provider, e.model_id FROM start
         JOIN session_entries e ON e.session_id = $1 AND e.id = start.id
     ), stop AS (
       SELECT c.entry->>'firstKeptEntryId' AS first_kept FROM leaf
         JOIN session_entries c ON c.session_id = $1 AND c.id = leaf.compaction_id
     ), walk AS (
       SELECT e.id, e.parent_id, e.entry, 0 AS depth FROM start
         JOIN session_entries e ON e.session_id = $1 AND e.id = start.id
       UNION ALL
       SELECT e.id, e.parent_id, e.entry, w.depth + 1 FROM walk w
         JOIN session_entries e ON e.session_id = $1 AND e.id = w.parent_id
        WHERE w.id IS DISTINCT FROM (SELECT first_kept FROM stop) AND w.id IS DISTINCT FROM $4
     )
     SELECT (SELECT json_agg(entry ORDER BY depth DESC) FROM walk) AS entries,
            (SELECT first_kept FROM stop) AS first_kept,
            l.thinking_level, l.model_provider, l.model_id FROM leaf l`,
    [sessionId, leafId ?? null, leafId === undefined, stopAt ?? null],
  );
  return {
    path: row?.entries ?? [],
    firstKept: row?.first_kept ?? null,
    settings: {
      thinkingLevel: (row?.thinking_level ?? "off") as ThinkingLevel,
      model:
        row?.model_provider != null && row.model_id != null
          ? { provider: row.model_provider, modelId: row.model_id }
          : null,
    },
  };
}

/** Context paths this instance loaded last (see `context-cache.ts`). */
export const contextPathCache = new ContextPathCache();

/**
 * The entries and settings `loadSessionContext` projects, for `leafId` (default: the session's leaf).
 * One query; reads the entries from the leaf back to the latest compaction's `firstKeptEntryId` — or only
 * back to the leaf this instance loaded last for the session, reusing that path (`options.cache`, default true).
 */
export async function loadContextPath(
  scope: DbScope,
  sessionId: string,
  leafId?: string | null,
  options: { cache?: boolean } = {},
): Promise<ContextPath> {
  if (leafId === null) return { path: [], settings: { thinkingLevel: "off", model: null } };
  const q: Query = (t, p) => scope.query(t, p);
  const cached = options.cache === false ? undefined : contextPathCache.get(sessionId);
  const result = await contextQuery(q, sessionId, leafId, cached?.leafId);
  let path = result.path;
  if (cached && path[0]?.id === cached.leafId && path[0].id !== result.firstKept) {
    const joined = joinCachedPath(cached, path, result.firstKept);
    path = joined ?? (await contextQuery(q, sessionId, leafId)).path;
  }
  if (options.cache !== false) contextPathCache.set(sessionId, path);
  return { path, settings: result.settings };
}

/**
 * pi's `buildSessionContext()` for a stored session: `{ messages, thinkingLevel, model }` of `leafId`
 * (default: the session's leaf; null → empty), equal to `buildSessionContext(allEntries, leafId)` but
 * reading only the entries the projection needs (see `loadContextPath`; `options.cache: false` reads the whole
 * path without this instance's cached prefix).
 */
export async function loadSessionContext(
  scope: DbScope,
  sessionId: string,
  leafId?: string | null,
  options: { cache?: boolean } = {},
): Promise<SessionContext> {
  const { path, settings } = await loadContextPath(scope, sessionId, leafId, options);
  const { messages, thinkingLevel, model } = projectPath(path, settings);
  return { messages, thinkingLevel, model };
}
