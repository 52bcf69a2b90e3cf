/**
 * Strata's Postgres schema (Drizzle, pg-core). One schema for every driver mode: Neon, a plain Postgres
 * through the local WebSocket proxy, and the embedded PGlite default.
 */

import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** `bytea` mapped to `Uint8Array`. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType() {
    return "bytea";
  },
});

/**
 * People (Better Auth's `user` model, lib/auth). `email` is unique and the sign-in name; the embedded default's
 * local owner is `owner@strata.localhost`.
 */
export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A VFS root and the unit of access: a user's personal workspace, a team's, or a user's agent workspace (kind
 * `agent`: pi's home, holding the agent dir `/.pi/agent`; never holds projects). Projects are directories of the
 * others. Better Auth's organization model (lib/auth): every workspace has members with a role
 * (`workspace_members`); a personal and an agent workspace have exactly one, its owner.
 */
export const workspaces = pgTable("workspaces", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  /** URL name, unique (Better Auth's organization slug); personal and agent workspaces get `personal-<id>` / `agent-<id>`. */
  slug: text("slug").notNull().unique(),
  logo: text("logo"),
  metadata: text("metadata"),
  kind: text("kind", { enum: ["personal", "team", "agent"] })
    .notNull()
    .default("team"),
  ownerUserId: uuid("owner_user_id").references(() => users.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** Whether the agent may run commands in the real sandbox (lib/exec/sandbox): off by default, set by an owner. */
  sandboxEnabled: boolean("sandbox_enabled").notNull().default(false),
  /**
   * Whether a member's merge of a session into a project's main line waits for an admin's approval
   * (lib/checkpoints/merge-requests.ts): off by default, set by an owner or admin of a team workspace.
   */
  mergeApproval: boolean("merge_approval").notNull().default(false),
});

export const projects = pgTable(
  "projects",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Absolute VFS path of the project directory, e.g. "/strata". */
    rootPath: text("root_path").notNull(),
    source: jsonb("source").$type<{ kind: "git"; url: string } | { kind: "archive"; fileName: string }>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the project moved to a working tree per session (lib/vfs/worktree-migrate.ts): its shared working tree
     * committed as main, each session given its leaf's files. Null = not yet (done on first open); a new project has
     * its time of creation (the column's default; rows older than the column have none).
     */
    worktreesAt: timestamp("worktrees_at", { withTimezone: true }).defaultNow(),
  },
  (t) => [index("projects_workspace_root_idx").on(t.workspaceId, t.rootPath)],
);

/**
 * One row per VFS node (file, directory or symlink), `.git` objects included. `version` increments on
 * every change and is compared on write (optimistic concurrency).
 */
export const vfsNodes = pgTable(
  "vfs_nodes",
  {
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    parent: text("parent").notNull(),
    kind: text("kind", { enum: ["file", "dir", "symlink"] }).notNull(),
    mode: integer("mode").notNull(),
    size: bigint("size", { mode: "number" }).notNull().default(0),
    data: bytea("data"),
    version: bigint("version", { mode: "number" }).notNull().default(1),
    mtimeMs: bigint("mtime_ms", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.path] }),
    index("vfs_nodes_parent_idx").on(t.workspaceId, t.parent),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id),
    title: text("title"),
    /** Absolute VFS cwd of the session. */
    cwd: text("cwd").notNull(),
    /** Current leaf entry id; null = empty session or reset leaf. */
    leafId: text("leaf_id"),
    /**
     * The pi session header (16.1) as imported or created, kept verbatim for export; null = a native
     * session (export synthesises one from id, created_at and cwd).
     */
    header: json("header").$type<Record<string, unknown>>(),
    /**
     * Project trust chosen "for this session only" (pi 2.11 `Trust (this session only)` = true,
     * `Do not trust (this session only)` = false); null = none, the stored decision applies.
     */
    trustOverride: boolean("trust_override"),
    /**
     * A team rules proposal this session previews (lib/rules): its branch's files stand in for the team rules
     * root in this session's context; null = the merged rules. Only the proposal's author may set it.
     */
    rulesPreviewProposalId: uuid("rules_preview_proposal_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sessions_project_idx").on(t.projectId, t.updatedAt)],
);

/**
 * A session's working tree (docs/checkpoints.md, "Sessions and the main line"): copy-on-write over the project's
 * main working tree (`vfs_nodes` under the project root). A row is a node the session changed — a file, directory or
 * symlink with its content, or a `whiteout` for a path of main the session deleted; every path without a row reads
 * as main's. When main moves (a merge), the nodes it changes are first pinned here for every session lacking its own
 * row, so a session never sees main move under it. `.git` is never in a working tree (the repository is shared).
 */
export const worktreeNodes = pgTable(
  "worktree_nodes",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    parent: text("parent").notNull(),
    kind: text("kind", { enum: ["file", "dir", "symlink", "whiteout"] }).notNull(),
    mode: integer("mode").notNull(),
    size: bigint("size", { mode: "number" }).notNull().default(0),
    data: bytea("data"),
    version: bigint("version", { mode: "number" }).notNull().default(1),
    mtimeMs: bigint("mtime_ms", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.path] }),
    index("worktree_nodes_parent_idx").on(t.sessionId, t.parent),
  ],
);

/**
 * Who has a session open (live across tabs and people, lib/session/session-version.ts): each open tab's poll of the
 * session's version stamps its user here; the users seen in the last few seconds are the session's viewers.
 */
export const sessionViewers = pgTable(
  "session_viewers",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    seenAt: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.userId] })],
);

/** Append-only session tree entries in pi's format; `entry` is the whole pi JSONL line object. */
export const sessionEntries = pgTable(
  "session_entries",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    parentId: text("parent_id"),
    type: text("type").notNull(),
    entry: json("entry").$type<Record<string, unknown>>().notNull(),
    /**
     * Derived at insert from the parent row, so a context load needs no walk to the root: the newest
     * compaction on the root→entry path (inclusive), and the effective settings there (pi 7.4: last
     * thinking_level_change; last model_change or assistant provider/model). Null = none on the path.
     */
    compactionId: text("compaction_id"),
    thinkingLevel: text("thinking_level"),
    modelProvider: text("model_provider"),
    modelId: text("model_id"),
    /**
     * The project repository's commit in effect when the entry was written (docs/checkpoints.md): named by the
     * append (a run after a checkpoint, a restore, a revert) or derived from the parent row. Null = unknown
     * (entries written before file binding, imported pi sessions): readers fall back to an ancestor's.
     */
    commitOid: text("commit_oid"),
    /**
     * Who wrote the entry (a user message: who sent it, a steer or follow-up queued by a teammate included; a
     * `!command`: who ran it); null for entries the agent wrote and entries written before authorship was kept.
     * Shown on each user message; never in the pi entry, so exports and shares do not carry it.
     */
    authorUserId: uuid("author_user_id"),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.id] }),
    index("session_entries_parent_idx").on(t.sessionId, t.parentId),
    index("session_entries_seq_idx").on(t.sessionId, t.seq),
  ],
);

/** One agent run on a session: at most one unfinished run per session; `abortRequested` is polled by the run. */
export const sessionRuns = pgTable(
  "session_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    abortRequested: boolean("abort_requested").notNull().default(false),
    /** What holds the session: `prompt` (an agent run), `compaction`, `branch_summary` or `bash`. */
    kind: text("kind").notNull().default("prompt"),
    /** The session's leaf when the run started: a tab attaching mid-run shows the path to it, then replays the run's events. */
    startLeafId: text("start_leaf_id"),
    /** `prompt` (a new prompt), `retry` (the Retry button) or `bash` (a `!command`): how a replaying tab starts its view. */
    mode: text("mode").notNull().default("prompt"),
    /** Seq of the last event stored in `run_events` (0: none yet). */
    lastSeq: integer("last_seq").notNull().default(0),
    /** How it ended: `done`, `aborted`, `error` or `taken_over` (null while live). */
    outcome: text("outcome"),
    /** Last time a tab streamed this run (an attached viewer): queued texts are handed back only to a watched run. */
    watchedAt: timestamp("watched_at", { withTimezone: true }),
  },
  (t) => [index("session_runs_session_idx").on(t.sessionId, t.finishedAt)],
);

/**
 * The event log of a run (lib/runs): every `RunEvent` it emitted, in order, so any tab on any app instance can
 * replay a run from a cursor (`Last-Event-ID`) and then follow it live. Consecutive token deltas are merged
 * into one row. Postgres is the source of truth; rows go with their run (and the run with its session).
 */
export const runEvents = pgTable(
  "run_events",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => sessionRuns.id, { onDelete: "cascade" }),
    /** 1, 2, 3… per run, assigned by the run's owner. */
    seq: integer("seq").notNull(),
    type: text("type").notNull(),
    /** The event as sent on the wire (the SSE `data:` JSON). */
    data: text("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

/**
 * Messages queued for a session's live run from other requests (pi `steer` / `followUp` across tabs and
 * server instances), and shell results waiting for the run to end (`append`). The run claims steer and
 * follow-up rows at pi's delivery points (after a tool batch; when it would stop); `POST /abort` cancels the
 * unclaimed ones and hands their texts back. Rows are inserted only while the session row is locked and a
 * run is live, and a run finishes only after seeing no unclaimed row under the same lock: nothing is lost.
 */
export const sessionQueue = pgTable(
  "session_queue",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    id: uuid("id").notNull().unique().defaultRandom(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    /** `steer`, `followUp` or `append` (a message persisted after the run, e.g. a `!command` result). */
    kind: text("kind").notNull(),
    /** What the user typed (handed back on abort). */
    inputText: text("input_text").notNull(),
    /** Who queued it (the author of the entry it becomes); null for rows queued before authorship was kept. */
    userId: uuid("user_id"),
    /** The AgentMessage to deliver (after `input` hooks, `/skill:` and template expansion). */
    message: json("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set when a run took the message (delivered) or an abort handed it back (cancelled). */
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    cancelled: boolean("cancelled").notNull().default(false),
  },
  (t) => [index("session_queue_pending_idx").on(t.sessionId, t.claimedAt)],
);

/**
 * Project files a run is about to flush to the VFS and has not yet committed in a checkpoint: recorded
 * before the flush, deleted once the checkpoint commit is stored. What a run that died (or ended on a
 * database error) leaves here is committed as a recovery checkpoint by the session's next prompt run.
 */
export const sessionPendingPaths = pgTable(
  "session_pending_paths",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    /** Absolute VFS path of a project file (or a deleted one). */
    path: text("path").notNull(),
    /** The `session_runs` row of the writer; null for a writer without a run lock. */
    runId: uuid("run_id"),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.path] })],
);

/**
 * One checkpoint commit of a session (docs/checkpoints.md): who made it and why, and the files it changed. The commit
 * itself lives in the project repository on the VFS; this row makes a session's checkpoints listable without walking
 * git history, and ties a commit to the tool calls and entry it belongs to.
 */
export const sessionCheckpoints = pgTable(
  "session_checkpoints",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    commitOid: text("commit_oid").notNull(),
    /** The commit it was made on (the leaf's commit when it was made); null = a root commit. */
    parentOid: text("parent_oid"),
    /** `agent`, `user` (edits between turns), `kept` (before a restore), `revert`, `restore`, `recovery`, `shell`. */
    kind: text("kind").notNull(),
    /** Project-relative paths the commit changed, sorted. */
    paths: json("paths").$type<string[]>().notNull(),
    /** Tool call id → project-relative paths that call changed (agent checkpoints). */
    toolCalls: json("tool_calls").$type<Record<string, string[]>>(),
    authorUserId: uuid("author_user_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.commitOid] })],
);

/**
 * A move between points of a session that changed its files or its leaf (docs/checkpoints.md, "Moving between
 * points"): where it came from (the leaf and the commit kept of the working tree) and where it went, so it can be
 * undone; `undoneBy` = the restore that undid it.
 */
export const sessionRestores = pgTable(
  "session_restores",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    /** `both`, `conversation` or `files`. */
    mode: text("mode").notNull(),
    fromLeafId: text("from_leaf_id"),
    /** The working tree before the restore (its kept commit); null for a conversation-only move. */
    fromCommit: text("from_commit"),
    toLeafId: text("to_leaf_id"),
    toCommit: text("to_commit"),
    undoneBy: uuid("undone_by"),
    userId: uuid("user_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("session_restores_session_idx").on(t.sessionId, t.createdAt)],
);

/**
 * A session's work waiting for an admin's approval before it is merged into main (lib/checkpoints/merge-requests.ts;
 * the review flow of team rules: a request, comments, approve or reject). `tipOid`: the session's work as asked
 * (its working tree committed then); `resolutions`: the texts the member chose for conflicting files. `status`:
 * `open`, `approved` (merged: `mergedOid` is the merge commit), `rejected` or `withdrawn`. At most one open per session.
 */
export const mergeRequests = pgTable(
  "merge_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    authorUserId: uuid("author_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tipOid: text("tip_oid").notNull(),
    mainOid: text("main_oid").notNull(),
    resolutions: json("resolutions").$type<Record<string, string | null>>().notNull(),
    status: text("status").notNull().default("open"),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    mergedOid: text("merged_oid"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("merge_requests_session_idx").on(t.sessionId, t.createdAt),
    uniqueIndex("merge_requests_one_open").on(t.sessionId).where(sql`status = 'open'`),
  ],
);

/** A review comment on a {@link mergeRequests} row. */
export const mergeRequestComments = pgTable(
  "merge_request_comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => mergeRequests.id, { onDelete: "cascade" }),
    authorUserId: uuid("author_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("merge_request_comments_request_idx").on(t.requestId, t.createdAt)],
);

/**
 * A session file being imported in parts (`/api/projects/:id/sessions/import/uploads`): files larger than one
 * request may carry are sent as byte ranges, staged here, and imported in one transaction by the commit, which
 * deletes the upload. Nothing reaches `sessions` before the commit; an upload never committed is deleted after
 * an hour (`lib/session/session-upload.ts`).
 */
export const sessionUploads = pgTable(
  "session_uploads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** The file name, for error texts. */
    name: text("name").notNull(),
    /** `open` (parts may be sent) or `committing` (claimed by one commit; parts, deletes and other commits get 409). */
    state: text("state").notNull().default("open"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("session_uploads_project_idx").on(t.projectId, t.createdAt)],
);

/** One byte range of a {@link sessionUploads} file (`part` from 0; the commit concatenates them in order). */
export const sessionUploadParts = pgTable(
  "session_upload_parts",
  {
    uploadId: uuid("upload_id")
      .notNull()
      .references(() => sessionUploads.id, { onDelete: "cascade" }),
    part: integer("part").notNull(),
    data: bytea("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.part] })],
);

/**
 * Stored project trust decisions (pi `trust.json`, 2.12), per user and workspace, keyed by canonical
 * absolute VFS directory. A lookup takes the decision of the directory or its nearest ancestor.
 */
export const projectTrust = pgTable(
  "project_trust",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** Canonical absolute VFS directory, e.g. "/team/proj". */
    dir: text("dir").notNull(),
    trusted: boolean("trusted").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.workspaceId, t.dir] })],
);

/**
 * A published share of one session branch (lib/share, docs/sharing.md): an immutable, redacted snapshot of a
 * root→leaf path under an unguessable `token`. Revoking deletes the row (and its files); the foreign keys to the
 * session, project and creator are RESTRICT, so deleting any of them must revoke its shares first (a forgotten
 * path fails loudly instead of cascading a share away unrevoked).
 */
export const sessionShares = pgTable(
  "session_shares",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** ≥128 random bits, base64url; the whole capability of a share link. */
    token: text("token").notNull(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "restrict" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "restrict" }),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "restrict" }),
    /** The shared leaf (an entry id of the session; never served). */
    leafEntryId: text("leaf_entry_id").notNull(),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Null = no expiry. An expired share is revoked (deleted) when next looked up. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    title: text("title").notNull(),
    includeFiles: boolean("include_files").notNull(),
    includeSystem: boolean("include_system").notNull(),
    entryCount: integer("entry_count").notNull(),
    redactionCount: integer("redaction_count").notNull(),
    /** The `ShareSnapshot` (lib/share/types.ts), redacted. */
    snapshot: jsonb("snapshot").notNull(),
    /** SHA-256 hex of the canonical preview the owner approved. */
    digest: text("digest").notNull(),
  },
  (t) => [
    uniqueIndex("session_shares_token_idx").on(t.token),
    index("session_shares_session_idx").on(t.sessionId),
    index("session_shares_project_idx").on(t.projectId),
    index("session_shares_workspace_idx").on(t.workspaceId),
    index("session_shares_created_by_idx").on(t.createdBy),
  ],
);

/** The redacted text of each file of a share (only files not omitted); gone with the share. */
export const sessionShareFiles = pgTable(
  "session_share_files",
  {
    shareId: uuid("share_id")
      .notNull()
      .references(() => sessionShares.id, { onDelete: "cascade" }),
    /** Project-relative path. */
    path: text("path").notNull(),
    text: text("text").notNull(),
    /** Bytes of the original blob. */
    size: bigint("size", { mode: "number" }).notNull(),
    mode: text("mode").notNull(),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.path] })],
);

export * from "./auth-schema";
