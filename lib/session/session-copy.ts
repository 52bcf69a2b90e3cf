/**
 * New sessions made from entries: a fork's branched session, a clone, an imported session file (pi's
 * `SessionManager.createBranchedSession` and session import), inserted in one transaction each.
 */

import type { DbScope } from "@/lib/db/client";
import { isInsideRoot, normalizePosix } from "@/lib/vfs/paths";
import { type DerivedColumns, deriveColumns } from "./append";
import { loadAllEntries, loadBranch } from "./context-load";
import { CURRENT_SESSION_VERSION, generateEntryId, type SessionEntry, type SessionHeader } from "./entries";
import { SessionNotFoundError } from "./errors";
import { getSession, iso, type Query, type RawSession, type SessionRow, toSession } from "./session-row";
import { branchedSessionEntries, resolveLabels } from "./tree";

/**
 * Insert `entries` (file order) into `sessionId` with their derived columns, in chunks. `commits`: entry id → the
 * commit it keeps (a fork or clone copies its source's binding); the others inherit their parent's.
 */
async function insertEntries(
  q: Query,
  sessionId: string,
  entries: readonly SessionEntry[],
  commits: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const derived = new Map<string, DerivedColumns>();
  const derive = (entry: SessionEntry): DerivedColumns => {
    const chain: SessionEntry[] = [];
    const seen = new Set<string>();
    let current: SessionEntry | undefined = entry;
    while (current && !derived.has(current.id)) {
      if (seen.has(current.id)) throw new Error(`Entry ${current.id} is part of a parent cycle`);
      seen.add(current.id);
      chain.push(current);
      current = current.parentId && current.parentId !== current.id ? byId.get(current.parentId) : undefined;
    }
    let parent = current ? derived.get(current.id)! : null;
    for (let i = chain.length - 1; i >= 0; i--) {
      parent = deriveColumns(chain[i], parent);
      const commit = commits.get(chain[i].id);
      if (commit) parent.commitOid = commit;
      derived.set(chain[i].id, parent);
    }
    return derived.get(entry.id)!;
  };
  // Statements of at most 1000 rows and about 512 KiB of entry JSON: an import of large entries never builds
  // one huge parameter (on the edge runtime the driver encodes each in JavaScript, ~0.1 s per MB, on the event loop).
  const CHUNK = 1000;
  const CHUNK_CHARS = 512 * 1024;
  for (let start = 0; start < entries.length; ) {
    const cols: unknown[][] = [[], [], [], [], [], [], [], [], []];
    let chars = 0;
    for (; start < entries.length && cols[0].length < CHUNK && chars < CHUNK_CHARS; start++) {
      const e = entries[start];
      const d = derive(e);
      const json = JSON.stringify(e);
      chars += json.length;
      cols[0].push(e.id);
      cols[1].push(e.parentId);
      cols[2].push(e.type);
      cols[3].push(json);
      cols[4].push(d.compactionId);
      cols[5].push(d.thinkingLevel);
      cols[6].push(d.modelProvider);
      cols[7].push(d.modelId);
      cols[8].push(d.commitOid);
    }
    await q(
      `INSERT INTO session_entries
         (session_id, id, parent_id, type, entry, compaction_id, thinking_level, model_provider, model_id, commit_oid)
       SELECT $1, t.id, t.parent_id, t.type, t.entry::json, t.c, t.tl, t.mp, t.mi, t.co
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
           WITH ORDINALITY AS t(id, parent_id, type, entry, c, tl, mp, mi, co, n)
        ORDER BY t.n`,
      [sessionId, ...cols],
    );
  }
}

/**
 * pi `createBranchedSession(leafId)` (pi's `session-manager.ts`): a new session in the same project holding only the
 * root→`leafId` path (labels dropped from the chain and re-added at its end for kept targets); its
 * header's `parentSession` is the source session id; leaf = the last entry; title `Fork of <title>` (Strata's
 * session list; pi's sessions have no title). `leafId` null: an empty session
 * with that header (pi's fork before a root user message: `newSession({ parentSession })`).
 * @throws Error `Entry <id> not found`.
 */
export async function createBranchedSession(
  scope: DbScope,
  sessionId: string,
  leafId: string | null,
): Promise<SessionRow> {
  const source = await getSession(scope, sessionId);
  if (!source) throw new SessionNotFoundError(sessionId);
  // A fork shows as one in the session list, not as a second session of the same name.
  const titled = { ...source, title: source.title ? `Fork of ${source.title}`.slice(0, 200) : null };
  if (leafId === null) return createSessionWithEntries(scope, titled, [], sessionId);
  const path = await loadBranch(scope, sessionId, leafId);
  if (path.length === 0) throw new Error(`Entry ${leafId} not found`);
  const labels = resolveLabels(await loadAllEntries(scope, sessionId));
  const entries = branchedSessionEntries(path, labels, (taken) => generateEntryId((id) => taken.has(id)));
  return createSessionWithEntries(scope, titled, entries, sessionId);
}

/**
 * Clone a session (pi `forkFrom`, pi's `session-manager.ts`): a new session with every entry copied unchanged and the same
 * leaf; header `parentSession` = the source session id.
 */
export async function cloneSession(scope: DbScope, sessionId: string): Promise<SessionRow> {
  const source = await getSession(scope, sessionId);
  if (!source) throw new SessionNotFoundError(sessionId);
  return createSessionWithEntries(
    scope,
    source,
    await loadAllEntries(scope, sessionId),
    sessionId,
    source.leafId,
  );
}

async function createSessionWithEntries(
  scope: DbScope,
  source: SessionRow,
  entries: SessionEntry[],
  parentSession: string,
  leafId: string | null = entries[entries.length - 1]?.id ?? null,
): Promise<SessionRow> {
  return scope.transaction(async (q) => {
    const [row] = await q<RawSession>(
      "INSERT INTO sessions (project_id, user_id, cwd, title) VALUES ($1, $2, $3, $4) RETURNING *",
      [source.projectId, source.userId, source.cwd, source.title],
    );
    const header: SessionHeader = {
      type: "session",
      version: CURRENT_SESSION_VERSION,
      id: row.id,
      timestamp: iso(row.created_at),
      cwd: source.cwd,
      parentSession,
    };
    // The copy keeps each entry's file state (docs/checkpoints.md).
    const bound = await q<{ id: string; commit_oid: string }>(
      "SELECT id, commit_oid FROM session_entries WHERE session_id = $1 AND commit_oid IS NOT NULL",
      [parentSession],
    );
    await insertEntries(q, row.id, entries, new Map(bound.map((b) => [b.id, b.commit_oid])));
    const [updated] = await q<RawSession>(
      "UPDATE sessions SET leaf_id = $2, header = $3 WHERE id = $1 RETURNING *",
      [row.id, leafId, JSON.stringify(header)],
    );
    return toSession(updated);
  });
}

/**
 * Store parsed pi entries as a new session of `projectId`: ids, parentIds, timestamps and every field
 * kept; the header kept for export; leaf = the last entry (pi's leaf after loading); cwd from the header.
 * `options.commitOid`: every entry is bound to that commit of the project (a fork of a share with its files).
 * @throws Error when parent links form a cycle.
 */
export async function insertImportedSession(
  scope: DbScope,
  projectId: string,
  header: SessionHeader,
  entries: readonly SessionEntry[],
  options: { userId?: string | null; title?: string | null; commitOid?: string | null } = {},
): Promise<SessionRow> {
  const commits = new Map(options.commitOid ? entries.map((e) => [e.id, options.commitOid!]) : []);
  return scope.transaction(async (q) => {
    // The header's cwd is a path of the machine that wrote the file: the session works in the project,
    // in that directory only when it lies inside the project (the header itself is kept for export).
    const [project] = await q<{ root_path: string }>("SELECT root_path FROM projects WHERE id = $1", [
      projectId,
    ]);
    if (!project) throw new Error(`Project ${projectId} not found`);
    const wanted =
      typeof header.cwd === "string" && header.cwd.startsWith("/") ? normalizePosix(header.cwd) : "";
    const cwd = wanted && isInsideRoot(project.root_path, wanted) ? wanted : project.root_path;
    const [row] = await q<RawSession>(
      "INSERT INTO sessions (project_id, user_id, cwd, title, header) VALUES ($1, $2, $3, $4, $5) RETURNING *",
      [projectId, options.userId ?? null, cwd, options.title ?? null, JSON.stringify(header)],
    );
    await insertEntries(q, row.id, entries, commits);
    const [updated] = await q<RawSession>("UPDATE sessions SET leaf_id = $2 WHERE id = $1 RETURNING *", [
      row.id,
      entries[entries.length - 1]?.id ?? null,
    ]);
    return toSession(updated);
  });
}
