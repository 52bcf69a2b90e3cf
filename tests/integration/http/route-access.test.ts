/**
 * The authorisation layer as the route handlers answer it, with exact bodies: no caller → 401 `unauthenticated`;
 * another user's project → 404 with the body a nonexistent id gets; a viewer's write → 403 `forbidden`; the prompt
 * rate limit → 429 `rate_limited` with Retry-After; GET /api/me, GET /api/workspaces and `workspaceId` on projects.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getMe } from "@/app/api/me/route";
import { PUT as putFile } from "@/app/api/projects/[id]/file/route";
import { GET as getProject } from "@/app/api/projects/[id]/route";
import { GET as listProjects } from "@/app/api/projects/route";
import { POST as postPrompt } from "@/app/api/sessions/[id]/prompt/route";
import { GET as getWorkspaces } from "@/app/api/workspaces/route";
import { openAgentVfs } from "@/lib/projects/agent-dir";
import { insertProject } from "@/lib/projects/projects";
import { createSession } from "@/lib/session/store";
import { asUser, authJson, createTestUser, type TestUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";

const stack = withMockStack({ reset: false, processEnv: true });
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  alice = await createTestUser("Alice");
  bob = await createTestUser("Bob");
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const answer = async (res: Response) => ({ status: res.status, body: await res.json() });

describe("the one authorisation layer at the routes", () => {
  it("no cookie or token: 401 unauthenticated", async () => {
    const project = await insertProject(stack.scope, {
      workspaceId: alice.workspaceId,
      name: "a",
      source: null,
    });
    const unauthenticated = {
      status: 401,
      body: {
        error: {
          code: "unauthenticated",
          message:
            "Sign in to continue (or send a valid personal access token as `Authorization: Bearer …`).",
        },
      },
    };
    expect(await answer(await getProject(asUser(null, "/x"), params(project.id)))).toEqual(unauthenticated);
    expect(await answer(await listProjects(asUser(null, "/api/projects")))).toEqual(unauthenticated);
    expect(await answer(await getMe(asUser(null, "/api/me")))).toEqual(unauthenticated);
  });

  it("a personal access token (Authorization: Bearer) is a caller; a wrong one is 401 token_invalid", async () => {
    const project = await insertProject(stack.scope, {
      workspaceId: alice.workspaceId,
      name: "By token",
      source: null,
    });
    const { key } = await authJson<{ key: string }>("/api-key/create", { name: "cli" }, alice);
    const bearer = (token: string) =>
      new Request(`http://127.0.0.1:3000/api/projects/${project.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
    const ok = await answer(await getProject(bearer(key), params(project.id)));
    expect(ok.status).toBe(200);
    expect(ok.body.project).toMatchObject({ id: project.id, name: "By token" });
    expect(await answer(await getProject(bearer(`${key}x`), params(project.id)))).toEqual({
      status: 401,
      body: {
        error: {
          code: "token_invalid",
          message:
            "The personal access token is invalid, revoked or expired. Create a new one in Settings → Access tokens.",
        },
      },
    });
  });

  it("another user's project: 404 with the same body as a nonexistent id", async () => {
    const project = await insertProject(stack.scope, {
      workspaceId: alice.workspaceId,
      name: "Secret",
      source: null,
    });
    const missing = crypto.randomUUID();
    const theirs = await answer(await getProject(asUser(bob, "/x"), params(project.id)));
    const none = await answer(await getProject(asUser(bob, "/x"), params(missing)));
    expect(theirs).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: `Project ${project.id} not found` } },
    });
    expect(none).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: `Project ${missing} not found` } },
    });
    const mine = await answer(await getProject(asUser(alice, "/x"), params(project.id)));
    expect(mine.status).toBe(200);
    expect(mine.body.project).toMatchObject({ id: project.id, name: "Secret" });
    // Listing someone else's workspace is the same 404 as an unknown one.
    expect(
      await answer(await listProjects(asUser(bob, `/api/projects?workspaceId=${alice.workspaceId}`))),
    ).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: `Workspace ${alice.workspaceId} not found` } },
    });
  });

  it("a team viewer reads but a write answers 403 forbidden; workspaces list personal first", async () => {
    const team = await authJson<{ id: string }>(
      "/organization/create",
      { name: "Access Team", slug: `access-${alice.id}` },
      alice,
    );
    const invitation = await authJson<{ id: string }>(
      "/organization/invite-member",
      { email: bob.email, role: "viewer", organizationId: team.id },
      alice,
    );
    await authJson("/organization/accept-invitation", { invitationId: invitation.id }, bob);
    const project = await insertProject(stack.scope, {
      workspaceId: team.id,
      name: "Team project",
      source: null,
    });
    expect((await getProject(asUser(bob, "/x"), params(project.id))).status).toBe(200);
    const write = asUser(bob, "/x", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "a.txt", content: "x" }),
    });
    expect(await answer(await putFile(write, params(project.id)))).toEqual({
      status: 403,
      body: {
        error: {
          code: "forbidden",
          message:
            "Your role in this workspace (viewer) cannot change files, sessions or projects here. Ask an owner or admin of the workspace to change your role.",
        },
      },
    });
    const listed = await answer(await listProjects(asUser(bob, `/api/projects?workspaceId=${team.id}`)));
    expect(listed.body.projects.map((p: { name: string }) => p.name)).toEqual(["Team project"]);
    expect(await answer(await getWorkspaces(asUser(bob, "/api/workspaces")))).toEqual({
      status: 200,
      body: {
        workspaces: [
          {
            id: bob.workspaceId,
            name: "Personal",
            slug: `personal-${bob.id}`,
            kind: "personal",
            role: "owner",
          },
          { id: team.id, name: "Access Team", slug: `access-${alice.id}`, kind: "team", role: "viewer" },
        ],
      },
    });
    expect(await answer(await getMe(asUser(bob, "/api/me")))).toEqual({
      status: 200,
      body: { user: { id: bob.id, email: bob.email, name: "Bob" }, mode: "accounts" },
    });
  });

  it("a member's prompt in a session the owner created loads the member's agent dir, never the owner's", async () => {
    const member = await createTestUser("Member");
    const team = await authJson<{ id: string }>(
      "/organization/create",
      { name: "Prompt Team", slug: `prompt-${alice.id}` },
      alice,
    );
    const invitation = await authJson<{ id: string }>(
      "/organization/invite-member",
      { email: member.email, role: "member", organizationId: team.id },
      alice,
    );
    await authJson("/organization/accept-invitation", { invitationId: invitation.id }, member);
    for (const [user, note] of [
      [alice, "OWNER-PRIVATE-NOTE"],
      [member, "MEMBER-OWN-NOTE"],
    ] as const) {
      const { vfs } = await openAgentVfs(stack.scope, user.id);
      await vfs.writeFile("/.pi/agent/AGENTS.md", note);
      await vfs.flush();
    }
    const project = await insertProject(stack.scope, { workspaceId: team.id, name: "Shared", source: null });
    const session = await createSession(stack.scope, {
      projectId: project.id,
      cwd: project.rootPath,
      userId: alice.id,
    });
    stack.mock.reset();
    const res = await postPrompt(
      asUser(member, `/api/sessions/${session.id}/prompt`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: "hi" }),
      }),
      params(session.id),
    );
    expect(res.status).toBe(200);
    await res.text();
    const sent = JSON.stringify(
      stack.mock.requests.filter((r) => r.path === "/v1/messages").map((r) => r.body),
    );
    expect(sent).toContain("MEMBER-OWN-NOTE");
    expect(sent).not.toContain("OWNER-PRIVATE-NOTE");
  });

  it("the prompt rate limit: 429 rate_limited with Retry-After, nothing stored", async () => {
    const saved = {
      limit: process.env.STRATA_PROMPT_RATE_LIMIT,
      window: process.env.STRATA_PROMPT_RATE_WINDOW,
    };
    process.env.STRATA_PROMPT_RATE_LIMIT = "2";
    process.env.STRATA_PROMPT_RATE_WINDOW = "60";
    try {
      const carol = await createTestUser("Carol");
      const project = await insertProject(stack.scope, {
        workspaceId: carol.workspaceId,
        name: "rl",
        source: null,
      });
      const session = await createSession(stack.scope, {
        projectId: project.id,
        cwd: project.rootPath,
        userId: carol.id,
      });
      const prompt = () =>
        postPrompt(
          asUser(carol, `/api/sessions/${session.id}/prompt`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ text: "hi" }),
          }),
          params(session.id),
        );
      for (let i = 0; i < 2; i++) {
        const ok = await prompt();
        expect(ok.status).toBe(200);
        await ok.text();
      }
      const messages = async () =>
        (
          await stack.scope.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM session_entries WHERE session_id = $1",
            [session.id],
          )
        )[0].n;
      const before = await messages();
      const refused = await prompt();
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(await refused.json()).toEqual({
        error: {
          code: "rate_limited",
          message: `Too many prompts: the limit is 2 per 60 s. Try again in ${retryAfter} s; your message is kept in the composer.`,
        },
      });
      expect(await messages()).toBe(before);
    } finally {
      for (const [k, v] of [
        ["STRATA_PROMPT_RATE_LIMIT", saved.limit],
        ["STRATA_PROMPT_RATE_WINDOW", saved.window],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
