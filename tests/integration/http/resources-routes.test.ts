/**
 * The resources and trust route handlers against the real Postgres: `GET /api/sessions/:id/resources`
 * (provenance, diagnostics, trust), `POST /api/projects/:id/trust` (validation and errors), and the
 * agent dir file API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getAgentFile, PUT as putAgentFile } from "@/app/api/agent/file/route";
import { GET as getAgentTree } from "@/app/api/agent/tree/route";
import { POST as postTrust } from "@/app/api/projects/[id]/trust/route";
import { GET as getResources } from "@/app/api/sessions/[id]/resources/route";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { createSession } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, signedInUser } from "../../helpers/auth";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

let scope: DbScope;
beforeAll(() => {
  scope = new DbScope();
});
afterAll(async () => {
  await scope.release();
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const json = (body: unknown) =>
  asUser(signedIn.user, "http://x/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function project(files: Record<string, string>) {
  const actor = await signedIn.actor();
  const p = await insertProject(scope, { workspaceId: actor.workspaceId, name: "res", source: null });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(actor.workspaceId, s);
  for (const [path, c] of Object.entries(files)) await vfs.writeFile(`${p.rootPath}/${path}`, c);
  await vfs.flush();
  await s.release();
  const session = await createSession(scope, { projectId: p.id, cwd: p.rootPath });
  return { p, session };
}

describe("resources and trust routes", () => {
  it("reports gated resources, then diagnostics once trusted", async () => {
    const { p, session } = await project({
      "AGENTS.md": "Rules.\n",
      ".pi/skills/good/SKILL.md": "---\nname: good\ndescription: Good.\n---\nBody\n",
      ".pi/skills/bad/SKILL.md": "---\nname: [unclosed\n---\nBody\n",
      ".pi/skills/nodesc/SKILL.md": "---\nname: nodesc\n---\nBody\n",
    });
    let res = await getResources(asUser(signedIn.user, "http://x/"), params(session.id));
    expect(res.status).toBe(200);
    let view = await res.json();
    expect(view.trust).toMatchObject({
      trusted: false,
      needsDecision: true,
      withheld: [`${p.rootPath}/.pi/skills`],
    });
    expect(view.provenance).toEqual([
      {
        kind: "context",
        path: `${p.rootPath}/AGENTS.md`,
        filesystem: "project",
        scope: "project",
        trustGated: false,
        // No git history for the file: its mtime, and no author.
        lastChangedBy: "—",
        lastChangedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);

    res = await postTrust(json({ choice: "trust", sessionId: session.id }), params(p.id));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      trusted: true,
      cwd: p.rootPath,
      updates: [{ path: p.rootPath, decision: true }],
    });

    view = await (await getResources(asUser(signedIn.user, "http://x/"), params(session.id))).json();
    expect(view.trust).toMatchObject({ trusted: true, needsDecision: false, withheld: [] });
    expect(view.provenance.filter((x: { kind: string }) => x.kind === "skill")).toEqual([
      {
        kind: "skill",
        path: `${p.rootPath}/.pi/skills/good/SKILL.md`,
        name: "good",
        filesystem: "project",
        scope: "project",
        trustGated: true,
        lastChangedBy: "—",
        lastChangedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    const paths = view.diagnostics.map((d: { path?: string }) => d.path);
    expect(paths).toContain(`${p.rootPath}/.pi/skills/bad/SKILL.md`);
    expect(paths).toContain(`${p.rootPath}/.pi/skills/nodesc/SKILL.md`);
  });

  it("lists a project settings file that is skipped once the project is trusted (pi reads it only then)", async () => {
    const { p, session } = await project({ ".pi/settings.json": '{ "retry": { "maxRetries": 2 }, }' });
    const settingsPath = `${p.rootPath}/.pi/settings.json`;
    const onSettings = (view: { diagnostics: { path?: string }[] }) =>
      view.diagnostics.filter((d) => d.path === settingsPath);
    let view = await (await getResources(asUser(signedIn.user, "http://x/"), params(session.id))).json();
    expect(onSettings(view)).toEqual([]);
    await postTrust(json({ choice: "session_only", sessionId: session.id }), params(p.id));
    view = await (await getResources(asUser(signedIn.user, "http://x/"), params(session.id))).json();
    let reason = "";
    try {
      JSON.parse('{ "retry": { "maxRetries": 2 }, }');
    } catch (error) {
      reason = (error as Error).message;
    }
    expect(onSettings(view)).toEqual([
      {
        type: "warning",
        message: `Settings file skipped (${reason}); its settings do not apply until it is a valid JSON object`,
        path: settingsPath,
      },
    ]);
  });

  it("rejects bad choices: unknown choice 400, session choice without a session 400, unknown ids 404", async () => {
    const { p, session } = await project({ ".pi/SYSTEM.md": "S" });
    let res = await postTrust(json({ choice: "always" }), params(p.id));
    expect(res.status).toBe(400);
    res = await postTrust(json({ choice: "session_only" }), params(p.id));
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe("Choice session_only needs a sessionId");
    res = await postTrust(json({ choice: "trust" }), params("00000000-0000-0000-0000-000000000000"));
    expect(res.status).toBe(404);
    res = await postTrust(json({ choice: "trust", sessionId: "nope" }), params(p.id));
    expect(res.status).toBe(404);
    res = await getResources(asUser(signedIn.user, "http://x/"), params("nope"));
    expect(res.status).toBe(404);
    res = await postTrust(json({ choice: "do_not_trust_session", sessionId: session.id }), params(p.id));
    expect(await res.json()).toMatchObject({ trusted: false, updates: [] });
    const view = await (await getResources(asUser(signedIn.user, "http://x/"), params(session.id))).json();
    expect(view.trust).toMatchObject({ trusted: false, needsDecision: false, sessionOverride: false });
  });

  it("agent dir files: write, list, read", async () => {
    const put = await putAgentFile(
      asUser(signedIn.user, "http://x/", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path: "prompts/hi.md", content: "Hi $1" }),
      }),
    );
    expect(put.status).toBe(200);
    const tree = await (await getAgentTree(asUser(signedIn.user, "http://127.0.0.1/api/agent/tree"))).json();
    expect(tree.root).toBe("/.pi/agent");
    expect(tree.entries).toEqual(expect.arrayContaining([{ path: "prompts/hi.md", kind: "file", size: 5 }]));
    const file = await (await getAgentFile(asUser(signedIn.user, "http://x/?path=prompts/hi.md"))).json();
    expect(file.content).toBe("Hi $1");
    const outside = await getAgentFile(asUser(signedIn.user, "http://x/?path=../../etc"));
    expect(outside.status).toBe(400);
    // Clean up: the local user's agent dir is shared by other test files.
    const s = new DbScope();
    const { userId } = await signedIn.actor();
    const [{ id }] = await s.query<{ id: string }>(
      "SELECT id FROM workspaces WHERE owner_user_id = $1 AND kind = 'agent'",
      [userId],
    );
    await s.query("DELETE FROM vfs_nodes WHERE workspace_id = $1", [id]);
    await s.release();
  });
});
