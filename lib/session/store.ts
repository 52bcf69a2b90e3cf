/**
 * Sessions and their append-only entry tree in Postgres (pi's `SessionManager`, catalog 7 and 16).
 * Entries are never updated; each append is one transaction that locks the session row, inserts the
 * entry under the current leaf and moves the leaf to it. Each row also stores, derived from its parent
 * at insert, the newest compaction on its root path and the effective model / thinking level there, so
 * `loadSessionContext` (context-load.ts) reads only the entries the projection needs: a walk back from the leaf
 * that stops at the latest compaction's `firstKeptEntryId` (the whole branch when there is no compaction).
 */

import type { AgentMessage } from "@/lib/agent/messages";
import type { DbScope } from "@/lib/db/client";
import { StrataError } from "@/lib/errors/strata-error";
import type { Usage } from "@/lib/llm/types";
import { getCurrentSystemMessage } from "@/lib/prompt/system-message";
import { isInsideRoot, normalizePosix } from "@/lib/vfs/paths";
import {
  type CompactionPreparation,
  type CompactionSettings,
  prepareCompaction,
} from "./compaction/compaction";
import { contextQuery, loadAllEntries, loadBranch, loadContextPath } from "./context-load";
import {
  type CompactionEntry,
  type ContextEditEntry,
  CURRENT_SESSION_VERSION,
  generateEntryId,
  type NewEntry,
  type SessionEntry,
  type SessionHeader,
} from "./entries";
import { SessionNotFoundError } from "./errors";
import { getUnansweredToolCalls, projectPath } from "./projection";
import {
  branchedSessionEntries,
  buildSessionTree,
  resolveLabels,
  type SessionTreeNode,
  sanitizeSessionName,
} from "./tree";

/** A `sessions` row: `leafId` null = empty session or reset leaf; timestamps ISO-8601. */
export interface SessionRow {
  id: string;
  projectId: string;
  userId: string | null;
  title: string | null;
  cwd: string;
  leafId: string | null;
  createdAt: string;
  updatedAt: string;
  /** "This session only" trust (true / false), null = none: the user's stored decision applies. */
  trustOverride: boolean | null;
  /** The open rules proposal whose team rules this session previews, or null (lib/projects/team-rules-resources.ts). */
  rulesPreviewProposalId: string | null;
}

interface RawSession {
  id: string;
  project_id: string;
  user_id: string | null;
  title: string | null;
  cwd: string;
  leaf_id: string | null;
  header: Record<string, unknown> | null;
  created_at: Date | string;
  updated_at: Date | string;
  trust_override?: boolean | null;
  rules_preview_proposal_id?: string | null;
}

type Query = <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<R[]>;

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

function toSession(r: RawSession): SessionRow {
  return {
    id: r.id,
    projectId: r.project_id,
    userId: r.user_id,
    title: r.title,
    cwd: r.cwd,
    leafId: r.leaf_id,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    trustOverride: r.trust_override ?? null,
    rulesPreviewProposalId: r.rules_preview_proposal_id ?? null,
  };
}

/** Thrown when another writer moved the leaf between read and append. */
export class LeafMovedError extends StrataError {
  constructor(sessionId: string) {
    super(409, "conflict", `Session ${sessionId} changed concurrently (its leaf moved); reload and retry`);
    this.name = "LeafMovedError";
  }
}

/**
 * Thrown by `appendCompaction` while tool calls of the branch's newest assistant message have no result
 * yet: a compaction entry must never land between a tool call and its result. The caller waits for the
 * results to be stored (the tool batch to finish) and retries. `toolCallIds` lists the unanswered calls.
 */
export class CompactionPendingError extends StrataError {
  constructor(readonly toolCallIds: string[]) {
    super(
      409,
      "compaction_pending",
      `Cannot compact while tool calls are unanswered: ${toolCallIds.join(", ")}; retry after their results`,
    );
    this.name = "CompactionPendingError";
  }
}

/** Create an empty session for a project. `header` = a pi header to keep for export (pi's `session-manager.ts`). */
export async function createSession(
  scope: DbScope,
  input: {
    projectId: string;
    userId?: string | null;
    cwd: string;
    title?: string | null;
    header?: SessionHeader | null;
  },
): Promise<SessionRow> {
  const [row] = await scope.query<RawSession>(
    "INSERT INTO sessions (project_id, user_id, cwd, title, header) VALUES ($1, $2, $3, $4, $5) RETURNING *",
    [
      input.projectId,
      input.userId ?? null,
      input.cwd,
      input.title ?? null,
      input.header ? JSON.stringify(input.header) : null,
    ],
  );
  return toSession(row);
}

/** A session by id, or null. */
export async function getSession(scope: DbScope, id: string): Promise<SessionRow | null> {
  const rows = await scope.query<RawSession>("SELECT * FROM sessions WHERE id = $1", [id]);
  return rows[0] ? toSession(rows[0]) : null;
}

/** A project's sessions, most recently updated first. */
export async function listSessions(scope: DbScope, projectId: string): Promise<SessionRow[]> {
  const rows = await scope.query<RawSession>(
    "SELECT * FROM sessions WHERE project_id = $1 ORDER BY updated_at DESC, created_at DESC",
    [projectId],
  );
  return rows.map(toSession);
}

/** Set the session's display title. */
export async function setSessionTitle(scope: DbScope, id: string, title: string): Promise<void> {
  await scope.query("UPDATE sessions SET title = $2, updated_at = now() WHERE id = $1", [id, title]);
}

/**
 * The session's pi header (pi's `session-manager.ts`): the stored one (imported or branched sessions), else one synthesised
 * as `{type:"session", version:3, id, timestamp: created_at, cwd}`.
 * @throws Error `Session <id> not found`.
 */
export async function getSessionHeader(scope: DbScope, sessionId: string): Promise<SessionHeader> {
  const [row] = await scope.query<RawSession>("SELECT * FROM sessions WHERE id = $1", [sessionId]);
  if (!row) throw new SessionNotFoundError(sessionId);
  if (row.header) return row.header as unknown as SessionHeader;
  return {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id: row.id,
    timestamp: iso(row.created_at),
    cwd: row.cwd,
  };
}

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
  (session_id, id, parent_id, type, entry, compaction_id, thinking_level, model_provider, model_id, commit_oid)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (session_id, id) DO NOTHING RETURNING id`;

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
async function appendWith(
  scope: DbScope,
  sessionId: string,
  build: (ctx: AppendContext) => Promise<{
    type: string;
    fields: Record<string, unknown>;
    parentId?: string | null;
    selfField?: string;
  }>,
  options: { expectedLeaf?: string | null; now?: Date; commit?: string } = {},
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
      (session_id, id, parent_id, type, entry, compaction_id, thinking_level, model_provider, model_id, commit_oid)
    SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 FROM ok
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
  now?: Date,
  commit?: string,
): Promise<SessionEntry | undefined> {
  const id = generateEntryId(() => false);
  const entry = orderEntry(type, id, known.leafId, (now ?? new Date()).toISOString(), fields);
  const d = deriveColumns(entry, known.derived);
  if (commit) d.commitOid = commit;
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
 * `expectedLeaf` (when not undefined) must equal the stored leaf. `commit`: the project commit in effect for the
 * entry (docs/checkpoints.md); omitted, it is the parent's.
 * @throws LeafMovedError when the leaf moved concurrently; Error when the session does not exist.
 */
export async function appendEntry(
  scope: DbScope,
  sessionId: string,
  entry: NewEntry,
  options: { expectedLeaf?: string | null; now?: Date; commit?: string } = {},
): Promise<SessionEntry> {
  const { type, ...fields } = entry;
  const known = lastAppended.get(sessionId);
  if (known && (options.expectedLeaf === undefined || options.expectedLeaf === known.leafId)) {
    const fast = await appendFast(scope, sessionId, type, fields, known, options.now, options.commit);
    if (fast) return fast;
  }
  return appendWith(scope, sessionId, async () => ({ type, fields }), options);
}

async function entryExists(q: Query, sessionId: string, id: string): Promise<SessionEntry | undefined> {
  const [row] = await q<{ entry: SessionEntry }>(
    "SELECT entry FROM session_entries WHERE session_id = $1 AND id = $2",
    [sessionId, id],
  );
  return row?.entry;
}

async function onBranch(
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

/**
 * pi `branch(id)` (pi's `session-manager.ts`): move the leaf to an existing entry; the next append starts a new branch there.
 * @throws Error `Entry <id> not found`.
 */
export async function branch(scope: DbScope, sessionId: string, entryId: string): Promise<void> {
  await scope.transaction(async (q) => {
    if (!(await entryExists(q, sessionId, entryId))) throw new Error(`Entry ${entryId} not found`);
    await q("UPDATE sessions SET leaf_id = $2, updated_at = now() WHERE id = $1", [sessionId, entryId]);
  });
}

/** pi `resetLeaf()` (pi's `session-manager.ts`): leaf = null, so the next entry is a new root. */
export async function resetLeaf(scope: DbScope, sessionId: string): Promise<void> {
  await scope.query("UPDATE sessions SET leaf_id = NULL, updated_at = now() WHERE id = $1", [sessionId]);
}

/**
 * pi `branchWithSummary(fromEntryId, summary, details?, fromHook?, usage?)` (pi's `session-manager.ts`): append a
 * `branch_summary` with `parentId = fromEntryId` (null = a new root) and `fromId` = the previous leaf
 * (`"root"` when it was null); the leaf moves to the new entry.
 * @throws Error `Entry <id> not found`.
 */
export async function branchWithSummary(
  scope: DbScope,
  sessionId: string,
  fromEntryId: string | null,
  summary: string,
  extra: { details?: unknown; usage?: Usage; fromHook?: boolean } = {},
): Promise<SessionEntry> {
  return appendWith(scope, sessionId, async ({ q, leafId }) => {
    if (fromEntryId !== null && !(await entryExists(q, sessionId, fromEntryId)))
      throw new Error(`Entry ${fromEntryId} not found`);
    return {
      type: "branch_summary",
      parentId: fromEntryId,
      fields: {
        fromId: leafId ?? "root",
        summary,
        details: extra.details,
        usage: extra.usage,
        fromHook: extra.fromHook,
      },
    };
  });
}

/**
 * pi `appendLabelChange(targetId, label)` (pi's `session-manager.ts`): a `label` entry; empty/undefined clears the label.
 * @throws Error `Entry <id> not found`.
 */
export async function appendLabel(
  scope: DbScope,
  sessionId: string,
  targetId: string,
  label: string | undefined,
): Promise<SessionEntry> {
  return appendWith(scope, sessionId, async ({ q }) => {
    if (!(await entryExists(q, sessionId, targetId))) throw new Error(`Entry ${targetId} not found`);
    return { type: "label", fields: { targetId, label } };
  });
}

/**
 * pi `appendSessionInfo(name)` (pi's `session-manager.ts`): a `session_info` entry with CR/LF runs replaced by a space and
 * trimmed; the session title follows a non-empty name, in the same transaction (both or neither are stored).
 */
export async function appendSessionInfo(
  scope: DbScope,
  sessionId: string,
  name: string,
): Promise<SessionEntry> {
  const sanitized = sanitizeSessionName(name);
  // The title is set in the append's transaction: when the entry cannot be stored, the title is not changed, and
  // when the title cannot be, no entry is left behind.
  return appendWith(scope, sessionId, async ({ q }) => {
    if (sanitized)
      await q("UPDATE sessions SET title = $2, updated_at = now() WHERE id = $1", [sessionId, sanitized]);
    return { type: "session_info", fields: { name: sanitized } };
  });
}

/**
 * pi `appendContextEdit(targetId, replacement)` (pi's `session-manager.ts`). Assistant/toolResult string replacements are
 * stored as `[{type:"text", text}]`.
 * @throws Error `Context edit replacement must be null or contain string/array content`,
 *   `Entry <id> not found`, `Entry <id> is not on the active branch`,
 *   `Entry <id> does not contribute editable model content` (checked in that order).
 */
export async function appendContextEdit(
  scope: DbScope,
  sessionId: string,
  targetId: string,
  replacement: { content: unknown } | null,
): Promise<SessionEntry> {
  if (
    replacement !== null &&
    (typeof replacement !== "object" ||
      !("content" in replacement) ||
      (typeof replacement.content !== "string" && !Array.isArray(replacement.content)))
  ) {
    throw new Error("Context edit replacement must be null or contain string/array content");
  }
  return appendWith(scope, sessionId, async ({ q, leafId }) => {
    const target = await entryExists(q, sessionId, targetId);
    if (!target) throw new Error(`Entry ${targetId} not found`);
    if (!(await onBranch(q, sessionId, leafId, targetId)))
      throw new Error(`Entry ${targetId} is not on the active branch`);
    const role =
      target.type === "message"
        ? (target.message as AgentMessage).role
        : target.type === "custom_message"
          ? "custom"
          : undefined;
    if (
      !(target.type === "custom_message" || role === "user" || role === "assistant" || role === "toolResult")
    )
      throw new Error(`Entry ${targetId} does not contribute editable model content`);
    const normalized: ContextEditEntry["replacement"] =
      replacement !== null &&
      (role === "assistant" || role === "toolResult") &&
      typeof replacement.content === "string"
        ? { content: [{ type: "text", text: replacement.content }] }
        : (replacement as ContextEditEntry["replacement"]);
    return { type: "context_edit", fields: { targetId, replacement: normalized } };
  });
}

/**
 * pi `appendCompaction(summary, firstKeptEntryId, tokensBefore, details?, fromHook?, usage?)` (pi's `session-manager.ts`):
 * `firstKeptEntryId` null = the entry's own id (keep nothing); `systemMessage` = the replayed current
 * system message of the current projection, stamped with the compaction time (omitted when none).
 *
 * Strata's contract (not pi's): refused with `CompactionPendingError` while tool calls of the branch's
 * newest assistant message are unanswered — store their results, then call again. So a compaction
 * entry never sits between a tool call and its result.
 */
export async function appendCompaction(
  scope: DbScope,
  sessionId: string,
  input: {
    summary: string;
    firstKeptEntryId: string | null;
    tokensBefore: number;
    details?: unknown;
    fromHook?: boolean;
    usage?: Usage;
  },
  options: { expectedLeaf?: string | null; now?: Date } = {},
): Promise<CompactionEntry> {
  const entry = await appendWith(
    scope,
    sessionId,
    async ({ q, leafId, timestamp }) => {
      const { path, settings } =
        leafId === null ? { path: [], settings: undefined } : await contextQuery(q, sessionId, leafId);
      const pending = getUnansweredToolCalls(path);
      if (pending.length > 0) throw new CompactionPendingError(pending);
      const current = getCurrentSystemMessage(projectPath(path, settings).messages);
      return {
        type: "compaction",
        fields: {
          summary: input.summary,
          firstKeptEntryId: input.firstKeptEntryId ?? undefined,
          tokensBefore: input.tokensBefore,
          details: input.details,
          usage: input.usage,
          fromHook: input.fromHook,
          systemMessage: current ? { ...current, timestamp: new Date(timestamp).getTime() } : undefined,
        },
        selfField: input.firstKeptEntryId === null ? "firstKeptEntryId" : undefined,
      };
    },
    options,
  );
  return entry as CompactionEntry;
}

/** `prepareSessionCompaction` result: retry after the tool results (`pending`), nothing to do, or ready. */
export type SessionCompactionPlan =
  | { status: "pending"; toolCallIds: string[] }
  | { status: "nothing" }
  | { status: "ready"; leafId: string; preparation: CompactionPreparation };

/**
 * Plan a compaction of the session's current branch (pi `prepareCompaction` over the entries the
 * projection reads). The contract with `appendCompaction`: while the newest assistant message has
 * unanswered tool calls the plan is `pending` — run the tools, store their results, then plan again;
 * `ready` carries the leaf it was planned on, to pass as `expectedLeaf` when appending the result.
 */
export async function prepareSessionCompaction(
  scope: DbScope,
  sessionId: string,
  settings: CompactionSettings,
): Promise<SessionCompactionPlan> {
  const session = await getSession(scope, sessionId);
  if (!session) throw new SessionNotFoundError(sessionId);
  if (session.leafId === null) return { status: "nothing" };
  const { path } = await loadContextPath(scope, sessionId, session.leafId);
  const pending = getUnansweredToolCalls(path);
  if (pending.length > 0) return { status: "pending", toolCallIds: pending };
  const preparation = prepareCompaction(path, settings);
  return preparation ? { status: "ready", leafId: session.leafId, preparation } : { status: "nothing" };
}

/**
 * pi `getTree()` (pi's `session-manager.ts`) for a stored session: roots (null/self parent, orphans), children oldest first,
 * labels resolved. Reads every entry of the session.
 */
export async function getTree(scope: DbScope, sessionId: string): Promise<SessionTreeNode[]> {
  return buildSessionTree(await loadAllEntries(scope, sessionId));
}

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
