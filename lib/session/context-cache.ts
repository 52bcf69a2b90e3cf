/**
 * A per-instance cache of context paths (the entries `loadSessionContext` projects), keyed by session. Entries
 * are append-only and never updated, so the path to a cached leaf stays valid forever: a later load walks
 * back from the new leaf only until it meets the cached leaf and reuses the rest, instead of reading and
 * parsing the whole branch again (a 2,000-message branch is ~3 MB of JSON). Bounded LRU; entries in it are
 * shared and must be treated as immutable.
 */
import type { SessionEntry } from "./entries";

interface CachedPath {
  leafId: string;
  path: SessionEntry[];
}

/** Least-recently-used map of session id → its last loaded context path. */
export class ContextPathCache {
  private readonly map = new Map<string, CachedPath>();

  /** @param maxSessions how many sessions' paths are kept (default 16). */
  constructor(private readonly maxSessions = 16) {}

  get(sessionId: string): CachedPath | undefined {
    const hit = this.map.get(sessionId);
    if (hit) {
      this.map.delete(sessionId);
      this.map.set(sessionId, hit);
    }
    return hit;
  }

  /** Remember `path` (root or first-kept entry → leaf); an empty path is not cached. */
  set(sessionId: string, path: SessionEntry[]): void {
    const leaf = path[path.length - 1];
    this.map.delete(sessionId);
    if (!leaf) return;
    this.map.set(sessionId, { leafId: leaf.id, path });
    while (this.map.size > this.maxSessions) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }

  clear(): void {
    this.map.clear();
  }
}

/**
 * Join a walk that stopped at the cached leaf with the cached path: `walk` is oldest first and starts with
 * the cached leaf; the result starts at `firstKept` when the newest compaction keeps from inside the
 * cached path. Returns undefined when the two cannot be joined (the caller reads the whole path).
 */
export function joinCachedPath(
  cached: CachedPath,
  walk: SessionEntry[],
  firstKept: string | null,
): SessionEntry[] | undefined {
  if (walk[0]?.id !== cached.leafId) return undefined;
  const joined = cached.path.concat(walk.slice(1));
  if (firstKept === null) return joined;
  const start = joined.findIndex((e) => e.id === firstKept);
  return start < 0 ? undefined : joined.slice(start);
}
