/**
 * Forking a share (docs/sharing.md): a second user's fork is a new project of their workspace holding the shared files
 * byte for byte in one commit, a session holding the shared path with every entry bound to that commit, the owner's
 * workspace untouched; a prompt in the fork runs and sees the files. A signed-out form post is sent to sign in, and
 * coming back signed in forks at once (the fork intent), while a link to that page from elsewhere forks nothing.
 */
import { describe, expect, it } from "vitest";
import * as resume from "@/app/s/[token]/fork/route";
import { runPrompt } from "@/lib/agent-session/session-run";
import { DbScope } from "@/lib/db/client";
import { entryCommits } from "@/lib/session/checkpoint-rows";
import { loadAllEntries } from "@/lib/session/context-load";
import { getSession } from "@/lib/session/store";
import { log } from "@/lib/vfs/git";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, createTestUser } from "../../helpers/auth";
import { routes, share } from "./helpers";
import {
  call,
  createTeam,
  mock,
  mockEnv,
  ownerProject,
  prompt,
  scope,
  withShareStack,
} from "./share-fixture";

withShareStack();

/** A fingerprint of a workspace's VFS rows and a session's entries. */
async function stateOf(workspaceId: string, sessionId: string) {
  const nodes = await scope.query<{ path: string; version: string; size: string }>(
    "SELECT path, version::text, size::text FROM vfs_nodes WHERE workspace_id = $1 ORDER BY path",
    [workspaceId],
  );
  const entries = await scope.query(
    "SELECT id, commit_oid FROM session_entries WHERE session_id = $1 ORDER BY seq",
    [sessionId],
  );
  return { nodes, entries };
}

describe("fork a share", () => {
  it("makes a project with the shared files in one commit and a session bound to it; the owner's is untouched", async () => {
    const f = await ownerProject(scope, { "src/app.ts": "export const app = 1;\n", "run.sh": "echo hi\n" });
    await prompt(mock, f, "add notes", [
      { name: "write", input: { path: "docs/notes.md", content: "# Notes\nshared notes\n" } },
    ]);
    const leafId = (await getSession(scope, f.session.id))!.leafId!;
    const { token, preview } = await share(f.owner, f.session.id, { leafId, includeFiles: true });
    const ownerBefore = await stateOf(f.owner.workspaceId, f.session.id);

    const forker = await createTestUser("Fork User");
    const res = await call(
      routes.fork.POST,
      forker,
      `/api/s/${token}/fork`,
      { token },
      { json: { name: "My fork" } },
    );
    expect(res.status).toBe(201);
    const { project, session } = JSON.parse(res.body) as {
      project: { id: string; workspaceId: string; name: string; rootPath: string };
      session: { id: string; cwd: string; leafId: string };
    };
    expect([project.workspaceId, project.name, session.cwd]).toEqual([
      forker.workspaceId,
      "My fork",
      project.rootPath,
    ]);

    const { vfs, scope: vs } = openWorkspaceVfs(forker.workspaceId, new DbScope());
    const texts: Record<string, string> = {};
    for (const p of Object.keys(preview.fileTexts)) texts[p] = await vfs.readText(`${project.rootPath}/${p}`);
    expect(texts).toEqual(preview.fileTexts);
    expect(Object.keys(texts).sort()).toEqual(["docs/notes.md", "run.sh", "src/app.ts"]);
    const history = await log(vfs, project.rootPath);
    await vs.release();
    expect(history.map((c) => [c.message.trim(), c.author.name, c.author.email])).toEqual([
      [`Forked from shared session "${preview.snapshot.title}"`, "Fork User", forker.email],
    ]);
    const entries = await loadAllEntries(scope, session.id);
    expect(entries).toEqual(preview.snapshot.entries);
    const commits = await entryCommits(scope, session.id);
    expect(entries.map((e) => commits.get(e.id))).toEqual(entries.map(() => history[0].oid));
    expect(session.leafId).toBe(entries.at(-1)!.id);

    expect(await stateOf(f.owner.workspaceId, f.session.id)).toEqual(ownerBefore);

    // A prompt in the fork runs and reads the shared file.
    mock.enqueue(
      { toolCalls: [{ id: "r_1", name: "read", input: { path: "docs/notes.md" } }] },
      { text: "Read it." },
    );
    const events: { type: string }[] = [];
    await runPrompt({
      sessionId: session.id,
      text: "read the notes",
      env: mockEnv(mock),
      author: { name: forker.name, email: forker.email },
      userId: forker.id,
      emit: async (e) => void events.push(e),
    });
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    const after = await loadAllEntries(scope, session.id);
    const result = after.findLast(
      (e) => e.type === "message" && (e.message as { role: string }).role === "toolResult",
    ) as { message: { content: { text: string }[] } } | undefined;
    expect(result?.message.content[0].text).toContain("shared notes");
  });

  it("without files makes an empty project; a signed-out form post is sent to sign in, a JSON call gets 401", async () => {
    const f = await ownerProject(scope, { "a.txt": "a\n" });
    await prompt(mock, f, "hi", []);
    const leafId = (await getSession(scope, f.session.id))!.leafId!;
    const { token } = await share(f.owner, f.session.id, { leafId });
    const signedOut = await call(routes.fork.POST, null, `/api/s/${token}/fork`, { token }, { form: {} });
    expect([signedOut.status, signedOut.headers.get("location")]).toEqual([
      303,
      `/sign-in?next=${encodeURIComponent(`/s/${token}/fork`)}`,
    ]);
    expect(signedOut.headers.get("set-cookie")).toBe(
      `strata_fork_intent=${token}; Path=/s/${token}; Max-Age=1800; HttpOnly; SameSite=Lax`,
    );
    const json = await call(routes.fork.POST, null, `/api/s/${token}/fork`, { token }, { json: {} });
    expect(json.status).toBe(401);
    const forker = await createTestUser("Form forker");
    const form = await call(routes.fork.POST, forker, `/api/s/${token}/fork`, { token }, { form: {} });
    expect(form.status).toBe(303);
    const projectId = /^\/projects\/([0-9a-f-]{36})$/.exec(form.headers.get("location") ?? "")![1];
    const [row] = await scope.query<{ workspace_id: string; root_path: string }>(
      "SELECT workspace_id, root_path FROM projects WHERE id = $1",
      [projectId],
    );
    expect(row.workspace_id).toBe(forker.workspaceId);
    const files = await scope.query<{ path: string }>(
      "SELECT path FROM vfs_nodes WHERE workspace_id = $1 AND starts_with(path, $2) AND kind = 'file' AND path NOT LIKE '%/.git/%'",
      [forker.workspaceId, `${row.root_path}/`],
    );
    expect(files).toEqual([]);
  });

  it("a form post that fails answers an HTML page with the status, the message and a link back to the share", async () => {
    const f = await ownerProject(scope, { "a.txt": "a\n" });
    await prompt(mock, f, "hi", []);
    const leafId = (await getSession(scope, f.session.id))!.leafId!;
    const { token } = await share(f.owner, f.session.id, { leafId });
    const viewer = await createTestUser("Team viewer");
    const teamId = await createTeam(scope, "Read-only team", [[viewer, "viewer"]]);
    const projectsBefore = await scope.query("SELECT id FROM projects WHERE workspace_id = $1", [teamId]);
    const res = await call(
      routes.fork.POST,
      viewer,
      `/api/s/${token}/fork`,
      { token },
      { form: { workspaceId: teamId } },
    );
    expect([res.status, res.headers.get("content-type"), res.headers.get("cache-control")]).toEqual([
      403,
      "text/html; charset=utf-8",
      "no-store",
    ]);
    expect(res.body).toContain("<h1>Could not fork this share</h1>");
    expect(res.body).toContain(
      "<p>Your role in this workspace (viewer) cannot change files, sessions or projects here. Ask an owner or admin of the workspace to change your role.</p>",
    );
    expect(res.body).toContain(`<a href="/s/${token}">Back to the shared conversation</a>`);
    expect(await scope.query("SELECT id FROM projects WHERE workspace_id = $1", [teamId])).toEqual(
      projectsBefore,
    );
  });
});

describe("signing in from a share page", () => {
  it("forks at once on the way back with the fork intent; without it (another site's link) forks nothing", async () => {
    const f = await ownerProject(scope, { "a.txt": "a\n" });
    await prompt(mock, f, "hi", []);
    const leafId = (await getSession(scope, f.session.id))!.leafId!;
    const { token } = await share(f.owner, f.session.id, { leafId, includeFiles: true });
    const forker = await createTestUser("Returning forker");
    const url = `http://127.0.0.1:3000/s/${token}/fork`;
    const back = (cookie: string) =>
      resume.GET(asUser({ cookie }, url), { params: Promise.resolve({ token }) });
    const projectsOf = async () =>
      (
        await scope.query<{ n: number }>("SELECT count(*)::int AS n FROM projects WHERE workspace_id = $1", [
          forker.workspaceId,
        ])
      )[0].n;

    // No intent (a link from anywhere): the share page, nothing forked.
    const plain = await back(forker.cookie);
    expect([plain.status, plain.headers.get("location"), await projectsOf()]).toEqual([
      303,
      `/s/${token}`,
      0,
    ]);
    // An intent for another share does not count.
    const other = await back(`${forker.cookie}; strata_fork_intent=${"x".repeat(32)}`);
    expect([other.status, other.headers.get("location"), await projectsOf()]).toEqual([
      303,
      `/s/${token}`,
      0,
    ]);
    // Still signed out with the intent: back to sign in, the intent kept.
    const anonymous = await back(`strata_fork_intent=${token}`);
    expect([
      anonymous.status,
      anonymous.headers.get("location"),
      anonymous.headers.get("set-cookie"),
    ]).toEqual([
      303,
      `/sign-in?next=${encodeURIComponent(`/s/${token}/fork`)}`,
      `strata_fork_intent=${token}; Path=/s/${token}; Max-Age=1800; HttpOnly; SameSite=Lax`,
    ]);
    // Signed in with the intent: forked, sent to the project, the intent cleared.
    const forked = await back(`${forker.cookie}; strata_fork_intent=${token}`);
    expect(forked.status).toBe(303);
    expect(forked.headers.get("location")).toMatch(/^\/projects\/[0-9a-f-]{36}$/);
    expect(forked.headers.get("set-cookie")).toBe(
      `strata_fork_intent=; Path=/s/${token}; Max-Age=0; HttpOnly; SameSite=Lax`,
    );
    expect(await projectsOf()).toBe(1);
  });
});
