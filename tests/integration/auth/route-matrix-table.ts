/**
 * The route authorisation matrix's table: one row per exported HTTP method of every route file under `app/`
 * (`route-matrix.test.ts` globs them on disk and fails, naming `METHOD /api/path`, for a method without a row).
 *
 * ROW FORMAT (other helpers add rows here: keep each row small, add yours in your own section, keys sorted by path):
 *
 *   "METHOD /api/path/[param]": {
 *     permission: "read" | "write" | "manage" | "delete" | "public" | "self",
 *     build: (ctx) => ({ params?, query?, json? | form? | bytes? + contentType? }),
 *     ok?: [201],                // statuses of an allowed call (default: any 2xx)
 *   },
 *
 * - The key is the method and the route file's path below `app/` with its `[segments]` as written on disk
 *   (`app/api/projects/[id]/file/route.ts` → `GET /api/projects/[id]/file`).
 * - `permission`: the least a caller's role in the resource's workspace must allow (lib/auth/roles.ts): `read`
 *   viewer+, `write` member+, `manage` admin+, `delete` owner. `self` = any signed-in caller, acting on their own
 *   things only (their agent dir, their account, their workspace list). `public` = anyone, signed in or not.
 * - The test calls each row as anonymous, outsider (a user with a workspace of their own), viewer, member, admin and
 *   owner of the fixture team and expects: anonymous 401 (`public` excepted); outsider 404 with the body a random id
 *   gets (`self`/`public` excepted); a role below `permission` 403; at or above it `ok` (default 2xx).
 * - `build(ctx)` runs once per caller, before the call, and returns the request: `params` (the `[segments]`),
 *   `query` (without `?`), and at most one body: `json` (sent as application/json), `form` (multipart) or `bytes`
 *   with `contentType`. It may create what the call needs through `ctx.fx` (fresh projects, sessions, uploads, files)
 *   or `ctx.scope` — a destructive method (DELETE, a rename) must act on something created for this call, so the
 *   order of the callers never matters. `ctx.n` is unique per call (for unique names); `ctx.caller` is the signed-in
 *   test user (null for anonymous).
 * - A route whose fixture needs more than `MatrixFixture` offers builds it in `build` with `ctx.scope` (and the team's
 *   ids in `ctx.fx`), or adds a field to `MatrixFixture` and its construction in route-matrix.test.ts.
 *
 * Better Auth's own routes (`app/api/auth/[...all]`) are not globbed: they are the library's (sign-up, sign-in,
 * organizations, tokens; its own checks and origin/CSRF protection, tested in tests/integration/auth/accounts.test.ts),
 * not Strata's authorisation layer, and one catch-all cannot be called per method. One row below asserts that
 * `GET /api/auth/get-session` without a cookie answers a null body (no session leaks to an anonymous caller).
 */
import { strToU8, zipSync } from "fflate";
import type { DbScope } from "@/lib/db/client";
import { commitAll, initRepository } from "@/lib/vfs/git";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import type { TestUser } from "../../helpers/auth";

export type MatrixPermission = "read" | "write" | "manage" | "delete" | "public" | "self";
export type MatrixRole = "anonymous" | "outsider" | "viewer" | "member" | "admin" | "owner";

/** The team's data every row may use (and that no denied body may contain). */
export interface MatrixFixture {
  /** The team workspace (owner, admin, member, viewer). */
  workspaceId: string;
  workspaceName: string;
  projectId: string;
  projectName: string;
  /** A file of the project (path relative to the project root) and its content. */
  filePath: string;
  fileContent: string;
  /** A session of the project with a user message (`entryId`) and an assistant answer. */
  sessionId: string;
  sessionTitle: string;
  entryId: string;
  /** A pi session file (JSONL text) that imports cleanly. */
  sessionFile: string;
  /** A fresh project of the team (with `filePath` and a session); its id. */
  newProject(): Promise<string>;
  /** A fresh session of the team project (one user message, one answer); its id. */
  newSession(): Promise<string>;
  /** A staged session upload of a fresh project holding `sessionFile` as part 0 (when `withPart`). */
  newUpload(withPart: boolean): Promise<{ projectId: string; uploadId: string; bytes: number }>;
  /** Write `content` at `path` (relative) in the team project. */
  writeFile(path: string, content: string): Promise<void>;
  /** Write `content` at `path` (relative to `/.pi/agent`) in `userId`'s agent dir. */
  writeAgentFile(userId: string, path: string, content: string): Promise<void>;
}

export interface MatrixContext {
  fx: MatrixFixture;
  scope: DbScope;
  role: MatrixRole;
  caller: TestUser | null;
  /** Unique per call. */
  n: number;
}

export interface MatrixCall {
  params?: Record<string, string>;
  query?: string;
  json?: unknown;
  form?: FormData;
  bytes?: Uint8Array;
  contentType?: string;
}

export interface MatrixRow {
  permission: MatrixPermission;
  build: (ctx: MatrixContext) => MatrixCall | Promise<MatrixCall>;
  /** Statuses of an allowed call (default: any 2xx). */
  ok?: number[];
}

const project = (ctx: MatrixContext) => ({ id: ctx.fx.projectId });
const session = (ctx: MatrixContext) => ({ id: ctx.fx.sessionId });

/** A fresh project of the team with one commit and a session in it (what a merge needs): the session's params. */
async function repoSession(ctx: MatrixContext): Promise<{ id: string }> {
  const projectId = await ctx.fx.newProject();
  const [p] = await ctx.scope.query<{ root_path: string }>("SELECT root_path FROM projects WHERE id = $1", [
    projectId,
  ]);
  const { vfs } = openWorkspaceVfs(ctx.fx.workspaceId, ctx.scope);
  await initRepository(vfs, p.root_path);
  await vfs.writeFile(`${p.root_path}/m.txt`, "main\n");
  await commitAll(vfs, p.root_path, { message: "init", author: { name: "t", email: "t@x" } });
  await vfs.flush();
  const [s] = await ctx.scope.query<{ id: string }>(
    "INSERT INTO sessions (project_id, cwd) VALUES ($1, $2) RETURNING id",
    [projectId, p.root_path],
  );
  return { id: s.id };
}

/** A zip archive of `files` (path → text), for `POST /api/projects`. */
const zip = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])));

/** Every row: `METHOD /api/path` → how to call it and what it needs. */
export const ROUTE_MATRIX: Record<string, MatrixRow> = {
  // ── projects, sessions, agent dir, account (helper A1) ──
  // The catch-all: every unknown /api path is a JSON 404 for everyone.
  "GET /api/[...path]": { permission: "public", ok: [404], build: () => ({ params: { path: "nope" } }) },
  "POST /api/[...path]": { permission: "public", ok: [404], build: () => ({ params: { path: "nope" } }) },
  "PUT /api/[...path]": { permission: "public", ok: [404], build: () => ({ params: { path: "nope" } }) },
  "PATCH /api/[...path]": { permission: "public", ok: [404], build: () => ({ params: { path: "nope" } }) },
  "DELETE /api/[...path]": { permission: "public", ok: [404], build: () => ({ params: { path: "nope" } }) },

  "GET /api/agent/file": {
    permission: "self",
    build: async (ctx) => {
      if (ctx.caller) await ctx.fx.writeAgentFile(ctx.caller.id, "mine.md", "agent note");
      return { query: "path=mine.md" };
    },
  },
  "PUT /api/agent/file": { permission: "self", build: () => ({ json: { path: "put.md", content: "x" } }) },
  "DELETE /api/agent/file": {
    permission: "self",
    build: async (ctx) => {
      if (ctx.caller) await ctx.fx.writeAgentFile(ctx.caller.id, `del-${ctx.n}.md`, "x");
      return { query: `path=del-${ctx.n}.md` };
    },
  },
  "GET /api/agent/tree": { permission: "self", build: () => ({}) },
  "GET /api/config": { permission: "self", build: () => ({}) },
  "GET /api/me": { permission: "self", build: () => ({}) },
  "GET /api/workspaces": { permission: "self", build: () => ({}) },

  "GET /api/projects": {
    permission: "read",
    build: (ctx) => ({ query: `workspaceId=${ctx.fx.workspaceId}` }),
  },
  "POST /api/projects": {
    permission: "write",
    ok: [201],
    build: (ctx) => {
      const form = new FormData();
      form.set("file", new File([zip({ "README.md": "hello\n" }) as BlobPart], "upload.zip"));
      form.set("name", `Imported ${ctx.n}`);
      form.set("workspaceId", ctx.fx.workspaceId);
      return { form };
    },
  },
  "GET /api/projects/[id]": { permission: "read", build: (ctx) => ({ params: project(ctx) }) },
  "PATCH /api/projects/[id]": {
    permission: "write",
    build: async (ctx) => ({ params: { id: await ctx.fx.newProject() }, json: { name: `Renamed ${ctx.n}` } }),
  },
  "DELETE /api/projects/[id]": {
    permission: "write",
    build: async (ctx) => ({ params: { id: await ctx.fx.newProject() } }),
  },
  "POST /api/projects/[id]/entries": {
    permission: "write",
    ok: [201],
    build: (ctx) => ({ params: project(ctx), json: { path: `new-${ctx.n}.txt`, kind: "file" } }),
  },
  "GET /api/projects/[id]/git": { permission: "read", build: (ctx) => ({ params: project(ctx) }) },
  "GET /api/projects/[id]/file": {
    permission: "read",
    build: (ctx) => ({ params: project(ctx), query: `path=${ctx.fx.filePath}` }),
  },
  "PUT /api/projects/[id]/file": {
    permission: "write",
    build: (ctx) => ({ params: project(ctx), json: { path: `w-${ctx.n}.txt`, content: "written" } }),
  },
  "DELETE /api/projects/[id]/file": {
    permission: "write",
    build: async (ctx) => {
      await ctx.fx.writeFile(`gone-${ctx.n}.txt`, "x");
      return { params: project(ctx), query: `path=gone-${ctx.n}.txt` };
    },
  },
  "GET /api/projects/[id]/sessions": { permission: "read", build: (ctx) => ({ params: project(ctx) }) },
  "POST /api/projects/[id]/sessions": {
    permission: "write",
    ok: [201],
    build: (ctx) => ({ params: project(ctx), json: {} }),
  },
  "POST /api/projects/[id]/sessions/import": {
    permission: "write",
    ok: [201],
    build: (ctx) => ({
      params: project(ctx),
      bytes: new TextEncoder().encode(ctx.fx.sessionFile),
      contentType: "application/x-ndjson",
    }),
  },
  "POST /api/projects/[id]/sessions/import/uploads": {
    permission: "write",
    ok: [201],
    build: async (ctx) => ({ params: { id: await ctx.fx.newProject() }, json: { name: "s.jsonl" } }),
  },
  "POST /api/projects/[id]/sessions/import/uploads/[uploadId]": {
    permission: "write",
    ok: [201],
    build: async (ctx) => {
      const up = await ctx.fx.newUpload(true);
      return { params: { id: up.projectId, uploadId: up.uploadId }, json: { parts: 1, bytes: up.bytes } };
    },
  },
  "DELETE /api/projects/[id]/sessions/import/uploads/[uploadId]": {
    permission: "write",
    build: async (ctx) => {
      const up = await ctx.fx.newUpload(true);
      return { params: { id: up.projectId, uploadId: up.uploadId } };
    },
  },
  "PUT /api/projects/[id]/sessions/import/uploads/[uploadId]/parts/[part]": {
    permission: "write",
    build: async (ctx) => {
      const up = await ctx.fx.newUpload(false);
      return {
        params: { id: up.projectId, uploadId: up.uploadId, part: "0" },
        bytes: new TextEncoder().encode(ctx.fx.sessionFile),
        contentType: "application/octet-stream",
      };
    },
  },
  "GET /api/projects/[id]/tree": { permission: "read", build: (ctx) => ({ params: project(ctx) }) },
  "POST /api/projects/[id]/trust": {
    permission: "write",
    build: (ctx) => ({ params: project(ctx), json: { choice: "trust" } }),
  },

  "GET /api/sessions/[id]": { permission: "read", build: (ctx) => ({ params: session(ctx) }) },
  "PATCH /api/sessions/[id]": {
    permission: "write",
    build: async (ctx) => ({
      params: { id: await ctx.fx.newSession() },
      json: { title: `Renamed ${ctx.n}` },
    }),
  },
  "DELETE /api/sessions/[id]": {
    permission: "write",
    build: async (ctx) => ({ params: { id: await ctx.fx.newSession() } }),
  },
  "POST /api/sessions/[id]/abort": { permission: "write", build: (ctx) => ({ params: session(ctx) }) },
  "POST /api/sessions/[id]/branch": {
    permission: "write",
    build: (ctx) => ({ params: session(ctx), json: { entryId: ctx.fx.entryId } }),
  },
  "POST /api/sessions/[id]/compact": {
    permission: "write",
    build: (ctx) => ({ params: session(ctx), json: {} }),
  },
  "GET /api/sessions/[id]/export": { permission: "read", build: (ctx) => ({ params: session(ctx) }) },
  "POST /api/sessions/[id]/fork": {
    permission: "write",
    ok: [201],
    build: (ctx) => ({ params: session(ctx), json: { entryId: ctx.fx.entryId } }),
  },
  "POST /api/sessions/[id]/labels": {
    permission: "write",
    build: (ctx) => ({ params: session(ctx), json: { entryId: ctx.fx.entryId, label: `l${ctx.n}` } }),
  },
  "PUT /api/sessions/[id]/model": {
    permission: "write",
    build: (ctx) => ({ params: session(ctx), json: { model: "anthropic/claude-sonnet-4-5" } }),
  },
  "POST /api/sessions/[id]/prompt": {
    permission: "write",
    build: (ctx) => ({ params: session(ctx), json: { text: `hello ${ctx.n}` } }),
  },
  "POST /api/sessions/[id]/preview": {
    permission: "read",
    build: (ctx) => ({ params: session(ctx), json: { text: "hello" } }),
  },
  "GET /api/sessions/[id]/resources": { permission: "read", build: (ctx) => ({ params: session(ctx) }) },
  "GET /api/sessions/[id]/tools": { permission: "read", build: (ctx) => ({ params: session(ctx) }) },
  "PUT /api/sessions/[id]/tools": {
    permission: "write",
    build: (ctx) => ({ params: session(ctx), json: { active: ["read", "grep"] } }),
  },
  "POST /api/sessions/[id]/retry": {
    permission: "write",
    build: (ctx) => ({ params: session(ctx), json: {} }),
  },
  "GET /api/sessions/[id]/tree": { permission: "read", build: (ctx) => ({ params: session(ctx) }) },

  // --- share pages and exports (issue 15, render): public ones need a live share (teamShare, below) ---
  "GET /api/s/[token]/export": {
    permission: "public",
    build: async (ctx) => ({ params: { token: (await teamShare(ctx)).token }, query: "format=html" }),
  },
  "GET /api/sessions/[id]/branch-export": {
    permission: "read",
    build: (ctx) => ({ params: session(ctx), query: `leaf=${ctx.fx.entryId}&format=jsonl` }),
  },
  "GET /s/[token]": {
    permission: "public",
    build: async (ctx) => ({ params: { token: (await teamShare(ctx)).token } }),
  },
  // Where sign-in returns after a signed-out "Fork to my workspace": without the fork intent cookie, the share page.
  "GET /s/[token]/fork": {
    permission: "public",
    ok: [303],
    build: async (ctx) => ({ params: { token: (await teamShare(ctx)).token } }),
  },
  "GET /s/[token]/files/[...path]": {
    permission: "public",
    build: async (ctx) => ({ params: { token: (await teamShare(ctx)).token, path: "shared/note.txt" } }),
  },

  // ── checkpoints (issue 14, lead): branches bound to file state, docs/checkpoints.md ──
  "POST /api/sessions/[id]/restore": {
    permission: "write",
    build: (ctx) => ({ params: session(ctx), json: { entryId: ctx.fx.entryId, mode: "conversation" } }),
  },
  "POST /api/sessions/[id]/restores/[restoreId]/undo": {
    permission: "write",
    build: async (ctx) => {
      const id = await ctx.fx.newSession();
      const [row] = await ctx.scope.query<{ id: string }>(
        `INSERT INTO session_restores (session_id, mode, from_leaf_id, to_leaf_id)
         SELECT id, 'conversation', leaf_id, leaf_id FROM sessions WHERE id = $1 RETURNING id`,
        [id],
      );
      return { params: { id, restoreId: row.id }, json: {} };
    },
  },
  "GET /api/sessions/[id]/changes": {
    permission: "read",
    build: (ctx) => ({ params: session(ctx), query: `from=${ctx.fx.entryId}&to=${ctx.fx.entryId}` }),
  },
  "GET /api/sessions/[id]/turns": { permission: "read", build: (ctx) => ({ params: session(ctx) }) },
  "POST /api/sessions/[id]/revert": {
    permission: "write",
    // A fresh project with a repository: one commit adds a file, the next changes it; the revert undoes the change.
    build: async (ctx) => {
      const projectId = await ctx.fx.newProject();
      const [p] = await ctx.scope.query<{ root_path: string }>(
        "SELECT root_path FROM projects WHERE id = $1",
        [projectId],
      );
      const [s] = await ctx.scope.query<{ id: string }>(
        "INSERT INTO sessions (project_id, cwd) VALUES ($1, $2) RETURNING id",
        [projectId, p.root_path],
      );
      const { vfs } = openWorkspaceVfs(ctx.fx.workspaceId, ctx.scope);
      const author = { name: "t", email: "t@x" };
      await initRepository(vfs, p.root_path);
      await vfs.writeFile(`${p.root_path}/r.txt`, "before\n");
      const from = await commitAll(vfs, p.root_path, { message: "a", author });
      await vfs.writeFile(`${p.root_path}/r.txt`, "after\n");
      const to = await commitAll(vfs, p.root_path, { message: "b", author });
      await vfs.flush();
      return { params: { id: s.id }, json: { from, to, path: "r.txt" } };
    },
  },

  // ── a working tree per session (issue 28): merging into main, the session's change feed ──
  "GET /api/sessions/[id]/merge": {
    permission: "read",
    build: async (ctx) => ({ params: await repoSession(ctx) }),
  },
  "POST /api/sessions/[id]/merge": {
    permission: "write",
    build: async (ctx) => ({ params: await repoSession(ctx), json: {} }),
  },
  "GET /api/sessions/[id]/merge-request": {
    permission: "read",
    build: async (ctx) => ({ params: await repoSession(ctx) }),
  },
  // Rejecting an open request (made here for this call): owners and admins only.
  "POST /api/sessions/[id]/merge-request": {
    permission: "manage",
    build: async (ctx) => {
      const params = await repoSession(ctx);
      await ctx.scope.query(
        `INSERT INTO merge_requests (session_id, author_user_id, tip_oid, main_oid, resolutions)
         VALUES ($1, (SELECT user_id FROM workspace_members WHERE workspace_id = $2 LIMIT 1), $3, $3, '{}')`,
        [params.id, ctx.fx.workspaceId, "0".repeat(40)],
      );
      return { params, json: { action: "reject", tip: "0".repeat(40) } };
    },
  },
  "GET /api/sessions/[id]/pull-main": {
    permission: "read",
    build: async (ctx) => ({ params: await repoSession(ctx) }),
  },
  "POST /api/sessions/[id]/pull-main": {
    permission: "write",
    build: async (ctx) => ({ params: await repoSession(ctx), json: {} }),
  },
  "GET /api/sessions/[id]/version": { permission: "read", build: (ctx) => ({ params: session(ctx) }) },

  // ── runs owned by the server (issue 12, RUNS helper): a finished run of the team session replays and closes ──
  "GET /api/sessions/[id]/runs/[runId]/events": {
    permission: "read",
    build: async (ctx) => {
      const [run] = await ctx.scope.query<{ id: string }>(
        `INSERT INTO session_runs (session_id, finished_at, outcome, last_seq) VALUES ($1, now(), 'done', 1) RETURNING id`,
        [ctx.fx.sessionId],
      );
      await ctx.scope.query(
        `INSERT INTO run_events (run_id, seq, type, data) VALUES ($1, 1, 'run_end', '{"type":"run_end","outcome":"done"}')`,
        [run.id],
      );
      return { params: { id: ctx.fx.sessionId, runId: run.id } };
    },
  },

  // ── team rules preview (helper B2): stopping a preview is a write on the session ──
  "PUT /api/sessions/[id]/rules-preview": {
    permission: "write",
    build: (ctx) => ({ params: session(ctx), json: { proposalId: null } }),
  },

  // ── other helpers' sections below (workspace secrets, rules, invite links, …), one comment line each ──
  // ── workspace sandbox switch (issue 12, sandbox helper; owner only) ──
  "GET /api/workspaces/[id]/sandbox": {
    permission: "read",
    build: (ctx) => ({ params: { id: ctx.fx.workspaceId } }),
  },
  "PUT /api/workspaces/[id]/sandbox": {
    permission: "delete",
    build: (ctx) => ({ params: { id: ctx.fx.workspaceId }, json: { enabled: false } }),
  },
  "GET /api/workspaces/[id]/merge-approval": {
    permission: "read",
    build: (ctx) => ({ params: { id: ctx.fx.workspaceId } }),
  },
  "PUT /api/workspaces/[id]/merge-approval": {
    permission: "manage",
    build: (ctx) => ({ params: { id: ctx.fx.workspaceId }, json: { enabled: false } }),
  },
  // ── workspace secrets (helper C); tests/setup-env.ts sets STRATA_SECRETS_KEY ──
  "GET /api/workspaces/[id]/secrets": {
    permission: "manage",
    build: (ctx) => ({ params: { id: ctx.fx.workspaceId } }),
  },
  "PUT /api/workspaces/[id]/secrets/[name]": {
    permission: "manage",
    build: (ctx) => ({
      params: { id: ctx.fx.workspaceId, name: "MISTRAL_API_KEY" },
      json: { value: `matrix-secret-${ctx.n}` },
    }),
  },
  "DELETE /api/workspaces/[id]/secrets/[name]": {
    permission: "manage",
    build: async (ctx) => {
      // Stored afresh for each call (the row is keyed by workspace and name), so every allowed caller deletes one.
      const { setSecret } = await import("@/lib/secrets/store");
      const [owner] = await ctx.scope.query<{ user_id: string }>(
        "SELECT user_id FROM workspace_members WHERE workspace_id = $1 AND role = 'owner' LIMIT 1",
        [ctx.fx.workspaceId],
      );
      await setSecret(
        ctx.scope,
        ctx.fx.workspaceId,
        "GOOGLE_GENERATIVE_AI_API_KEY",
        `matrix-${ctx.n}`,
        owner.user_id,
      );
      return { params: { id: ctx.fx.workspaceId, name: "GOOGLE_GENERATIVE_AI_API_KEY" } };
    },
  },
  // ── getting work out (issue 14, export helper): archive, push, pull, git credentials ──
  "GET /api/projects/[id]/archive": { permission: "read", build: (ctx) => ({ params: project(ctx) }) },
  "GET /api/projects/[id]/git-remote": {
    permission: "read",
    build: (ctx) => ({ params: project(ctx), query: "url=https%3A%2F%2Fgit.example.com%2Fteam%2Frepo.git" }),
  },
  // Push and pull need a git server: the allowed call is refused by validation after authorisation (a URL with
  // credentials in it answers 400 credentials_in_url without any network); tests/integration/git/remote.test.ts
  // pushes and pulls for real.
  "POST /api/projects/[id]/push": {
    permission: "write",
    ok: [400],
    build: (ctx) => ({
      params: project(ctx),
      json: { url: "https://u:p@git.example.com/r.git", branch: "x" },
    }),
  },
  "POST /api/projects/[id]/pull": {
    permission: "write",
    ok: [400],
    build: (ctx) => ({ params: project(ctx), json: { url: "https://u:p@git.example.com/r.git" } }),
  },
  "GET /api/workspaces/[id]/git-credentials": {
    permission: "manage",
    build: (ctx) => ({ params: { id: ctx.fx.workspaceId } }),
  },
  "PUT /api/workspaces/[id]/git-credentials/[host]": {
    permission: "manage",
    build: (ctx) => ({
      params: { id: ctx.fx.workspaceId, host: "git.example.com" },
      json: { username: "matrix", password: `matrix-token-${ctx.n}` },
    }),
  },
  "DELETE /api/workspaces/[id]/git-credentials/[host]": {
    permission: "manage",
    build: async (ctx) => {
      // Stored afresh for each call, so every allowed caller deletes one.
      const { setGitCredential } = await import("@/lib/secrets/git-credentials");
      const [owner] = await ctx.scope.query<{ user_id: string }>(
        "SELECT user_id FROM workspace_members WHERE workspace_id = $1 AND role = 'owner' LIMIT 1",
        [ctx.fx.workspaceId],
      );
      const credential = { username: "matrix", password: `matrix-${ctx.n}` };
      await setGitCredential(ctx.scope, ctx.fx.workspaceId, "del.example.com", credential, owner.user_id);
      return { params: { id: ctx.fx.workspaceId, host: "del.example.com" } };
    },
  },
  // ── team rules (helper B1): /.team of the fixture team; a proposal made fresh for each call by rulesProposal ──
  "GET /api/workspaces/[id]/rules": {
    permission: "read",
    build: (ctx) => ({ params: { id: ctx.fx.workspaceId } }),
  },
  "GET /api/workspaces/[id]/rules/file": {
    permission: "read",
    build: async (ctx) => {
      const { writeRulesFiles } = await import("@/lib/rules");
      const author = { name: "Matrix", email: "matrix@example.test" };
      await writeRulesFiles(
        ctx.scope,
        ctx.fx.workspaceId,
        author,
        [{ path: "AGENTS.md", content: "rules" }],
        "m",
      );
      return { params: { id: ctx.fx.workspaceId }, query: "path=AGENTS.md" };
    },
  },
  "PUT /api/workspaces/[id]/rules/file": {
    permission: "manage",
    build: (ctx) => ({
      params: { id: ctx.fx.workspaceId },
      query: `path=put-${ctx.n}.md`,
      json: { content: "x" },
    }),
  },
  "DELETE /api/workspaces/[id]/rules/file": {
    permission: "manage",
    build: async (ctx) => {
      const { writeRulesFiles } = await import("@/lib/rules");
      const author = { name: "Matrix", email: "matrix@example.test" };
      await writeRulesFiles(
        ctx.scope,
        ctx.fx.workspaceId,
        author,
        [{ path: `del-${ctx.n}.md`, content: "x" }],
        "m",
      );
      return { params: { id: ctx.fx.workspaceId }, query: `path=del-${ctx.n}.md` };
    },
  },
  "GET /api/workspaces/[id]/rules/log": {
    permission: "read",
    build: (ctx) => ({ params: { id: ctx.fx.workspaceId } }),
  },
  "GET /api/workspaces/[id]/rules/proposals": {
    permission: "read",
    build: (ctx) => ({ params: { id: ctx.fx.workspaceId } }),
  },
  "POST /api/workspaces/[id]/rules/proposals": {
    permission: "write",
    ok: [201],
    build: (ctx) => ({
      params: { id: ctx.fx.workspaceId },
      json: { title: `Matrix ${ctx.n}`, changes: [{ path: `proposed-${ctx.n}.md`, content: "x" }] },
    }),
  },
  "GET /api/workspaces/[id]/rules/proposals/[pid]": {
    permission: "read",
    build: async (ctx) => ({ params: { id: ctx.fx.workspaceId, pid: await rulesProposal(ctx) } }),
  },
  "PATCH /api/workspaces/[id]/rules/proposals/[pid]": {
    permission: "write",
    build: async (ctx) => ({
      params: { id: ctx.fx.workspaceId, pid: await rulesProposal(ctx) },
      json: { changes: [{ path: `proposal-${ctx.n}.md`, content: "updated" }] },
    }),
  },
  "POST /api/workspaces/[id]/rules/proposals/[pid]/comments": {
    permission: "write",
    ok: [201],
    build: async (ctx) => ({
      params: { id: ctx.fx.workspaceId, pid: await rulesProposal(ctx) },
      json: { body: "Looks good" },
    }),
  },
  "POST /api/workspaces/[id]/rules/proposals/[pid]/approve": {
    permission: "manage",
    build: async (ctx) => ({ params: { id: ctx.fx.workspaceId, pid: await rulesProposal(ctx) } }),
  },
  "POST /api/workspaces/[id]/rules/proposals/[pid]/reject": {
    permission: "manage",
    build: async (ctx) => ({
      params: { id: ctx.fx.workspaceId, pid: await rulesProposal(ctx) },
      json: { reason: "No" },
    }),
  },
  // ── invite links (helper D2): a link made fresh for each DELETE; accept joins a fresh team, never the fixture's ──
  "GET /api/workspaces/[id]/invite-links": {
    permission: "manage",
    build: (ctx) => ({ params: { id: ctx.fx.workspaceId } }),
  },
  "POST /api/workspaces/[id]/invite-links": {
    permission: "manage",
    ok: [201],
    build: (ctx) => ({ params: { id: ctx.fx.workspaceId }, json: { role: "viewer", expiresInDays: 7 } }),
  },
  "DELETE /api/workspaces/[id]/invite-links/[linkId]": {
    permission: "manage",
    build: async (ctx) => {
      const { link } = await inviteLink(ctx, ctx.fx.workspaceId);
      return { params: { id: ctx.fx.workspaceId, linkId: link.id } };
    },
  },
  "POST /api/invite-links/[token]/accept": {
    permission: "self",
    build: async (ctx) => {
      const [team] = await ctx.scope.query<{ id: string }>(
        "INSERT INTO workspaces (name, slug, kind) VALUES ($1, $2, 'team') RETURNING id",
        [`Matrix link team ${ctx.n}`, `matrix-link-${ctx.n}-${crypto.randomUUID()}`],
      );
      return { params: { token: (await inviteLink(ctx, team.id)).token } };
    },
  },
  // ── account (helper D1): a first password; the caller's password is removed first so each allowed call sets one ──
  "POST /api/account/password": {
    permission: "self",
    build: async (ctx) => {
      if (ctx.caller)
        await ctx.scope.query("DELETE FROM auth_accounts WHERE user_id = $1 AND provider_id = 'credential'", [
          ctx.caller.id,
        ]);
      return { json: { newPassword: `matrix password ${ctx.n}` } };
    },
  },
  // ── the IDE around files (issue 14, files helper): move/rename an entry made for the call, search, change feed ──
  "PATCH /api/projects/[id]/entries": {
    permission: "write",
    build: async (ctx) => {
      await ctx.fx.writeFile(`mv-${ctx.n}.txt`, "x");
      return { params: project(ctx), json: { from: `mv-${ctx.n}.txt`, to: `moved/mv-${ctx.n}.txt` } };
    },
  },
  "GET /api/projects/[id]/search": {
    permission: "read",
    build: (ctx) => ({ params: project(ctx), query: "q=matrix&regex=0&case=0" }),
  },
  "GET /api/projects/[id]/tree/version": { permission: "read", build: (ctx) => ({ params: project(ctx) }) },
  // --- shares (issue 15, core): a share made for the call by the team's owner (so revoke is admin+ or its creator) ---
  "POST /api/s/[token]/fork": {
    permission: "self",
    ok: [201],
    build: async (ctx) => ({ params: { token: (await teamShare(ctx)).token }, json: {} }),
  },
  "GET /api/s/[token]": {
    permission: "public",
    build: async (ctx) => ({ params: { token: (await teamShare(ctx)).token } }),
  },
  "GET /api/s/[token]/files/[...path]": {
    permission: "public",
    build: async (ctx) => ({
      params: { token: (await teamShare(ctx)).token, path: "shared/note.txt" },
    }),
  },
  "GET /api/sessions/[id]/shares": { permission: "read", build: (ctx) => ({ params: session(ctx) }) },
  "POST /api/sessions/[id]/shares": {
    permission: "write",
    ok: [201],
    build: async (ctx) => {
      const { buildSharePreview } = await import("@/lib/share/build");
      const { getSession } = await import("@/lib/session/store");
      const row = (await getSession(ctx.scope, ctx.fx.sessionId))!;
      const options = { leafId: ctx.fx.entryId, includeFiles: true, includeSystem: false, redact: [] };
      const { digest } = await buildSharePreview(ctx.scope, row, options);
      return { params: session(ctx), json: { leafId: ctx.fx.entryId, includeFiles: true, digest } };
    },
  },
  "POST /api/sessions/[id]/shares/preview": {
    permission: "write",
    build: (ctx) => ({ params: session(ctx), json: { leafId: ctx.fx.entryId, includeFiles: true } }),
  },
  "GET /api/shares": { permission: "self", build: () => ({}) },
  "DELETE /api/shares/[shareId]": {
    permission: "manage",
    ok: [204],
    build: async (ctx) => ({ params: { shareId: (await teamShare(ctx)).id } }),
  },
};

/**
 * A fresh share published by the fixture team's owner, of a fresh session of the team project retitled
 * `Matrix share <n>` (a share is public: nothing of the fixture's may be in it), holding one file `shared/note.txt`.
 */
async function teamShare(ctx: MatrixContext): Promise<{ id: string; token: string }> {
  const { buildSharePreview } = await import("@/lib/share/build");
  const { publishShare } = await import("@/lib/share/store");
  const { getSession, setSessionTitle } = await import("@/lib/session/store");
  const { getProject } = await import("@/lib/projects/projects");
  const [owner] = await ctx.scope.query<{ user_id: string }>(
    "SELECT user_id FROM workspace_members WHERE workspace_id = $1 AND role = 'owner' LIMIT 1",
    [ctx.fx.workspaceId],
  );
  const sessionId = await ctx.fx.newSession();
  await setSessionTitle(ctx.scope, sessionId, `Matrix share ${ctx.n}`);
  const session = (await getSession(ctx.scope, sessionId))!;
  const project = (await getProject(ctx.scope, ctx.fx.projectId))!;
  const options = { leafId: session.leafId!, includeFiles: true, includeSystem: false, redact: [] };
  const preview = await buildSharePreview(ctx.scope, session, options);
  preview.snapshot.files = [{ path: "shared/note.txt", size: 11, mode: "100644" }];
  preview.fileTexts = { "shared/note.txt": "shared note" };
  const share = await publishShare(ctx.scope, {
    session,
    project,
    userId: owner.user_id,
    preview,
    options,
    expiresAt: null,
  });
  return { id: share.id, token: share.url.slice("/s/".length) };
}

/** A fresh viewer invite link of `workspaceId`, made by the fixture team's owner. */
async function inviteLink(ctx: MatrixContext, workspaceId: string) {
  const { createInviteLink } = await import("@/lib/auth/invite-links");
  const [owner] = await ctx.scope.query<{ user_id: string }>(
    "SELECT user_id FROM workspace_members WHERE workspace_id = $1 AND role = 'owner' LIMIT 1",
    [ctx.fx.workspaceId],
  );
  return createInviteLink(ctx.scope, {
    workspaceId,
    createdBy: owner.user_id,
    role: "viewer",
    expiresInDays: 1,
    maxUses: null,
  });
}

/**
 * A fresh open proposal of the fixture team for one call (its own path `proposal-<n>.md`), authored by the caller (so
 * an allowed PATCH is the author's), or by the team's owner for an anonymous call.
 */
async function rulesProposal(ctx: MatrixContext): Promise<string> {
  const { createProposal } = await import("@/lib/rules");
  let author = ctx.caller ? { userId: ctx.caller.id, name: ctx.caller.name, email: ctx.caller.email } : null;
  if (!author) {
    const [owner] = await ctx.scope.query<{ id: string; name: string; email: string }>(
      `SELECT u.id, u.name, u.email FROM workspace_members m JOIN users u ON u.id = m.user_id
       WHERE m.workspace_id = $1 AND m.role = 'owner' LIMIT 1`,
      [ctx.fx.workspaceId],
    );
    author = { userId: owner.id, name: owner.name, email: owner.email };
  }
  const proposal = await createProposal(ctx.scope, ctx.fx.workspaceId, author, {
    title: `Matrix proposal ${ctx.n}`,
    changes: [{ path: `proposal-${ctx.n}.md`, content: "proposed" }],
  });
  return proposal.id;
}

/** Not a route file of Strata's: Better Auth's session endpoint without a cookie must answer a null body. */
export const BETTER_AUTH_GET_SESSION = "GET /api/auth/get-session";
