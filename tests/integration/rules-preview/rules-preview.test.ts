/**
 * Previewing a team rules proposal in one's own session (issue 11, "The proposer can preview the proposal in their
 * own sessions before it is merged"): `PUT /api/sessions/:id/rules-preview` (author only, 404 for a proposal of
 * another workspace, 409 once decided), the proposal's files in the session's prompt and in
 * `GET /api/sessions/:id/resources` (scope, path, last change, preview), and the preview ending by itself when the
 * proposal is approved.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getResources } from "@/app/api/sessions/[id]/resources/route";
import { PUT as putPreview } from "@/app/api/sessions/[id]/rules-preview/route";
import { runPrompt } from "@/lib/agent-session/session-run";
import { insertProject } from "@/lib/projects/projects";
import { approveProposal, createProposal, lastChange, type RulesUser, writeRulesFiles } from "@/lib/rules";
import { createSession } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, authJson, createTestUser, type TestUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";

const stack = withMockStack({ reset: false });
let ada: TestUser;
let grace: TestUser;
let teamId: string;
let otherTeamId: string;
let sessionId: string;
let projectRoot: string;

const user = (u: TestUser): RulesUser => ({ userId: u.id, name: u.name, email: u.email });
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const SKILL = "---\nname: review\ndescription: Review a change.\n---\n\nLook twice.\n";

async function preview(as: TestUser, id: string, proposalId: string | null) {
  const res = await putPreview(
    asUser(as, `/api/sessions/${id}/rules-preview`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ proposalId }),
    }),
    params(id),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

interface View {
  provenance: Record<string, unknown>[];
  preview: { proposalId: string; title: string } | null;
}

async function resources(as: TestUser, id: string): Promise<View> {
  const res = await getResources(asUser(as, `/api/sessions/${id}/resources`), params(id));
  expect(res.status).toBe(200);
  return (await res.json()) as View;
}

beforeAll(async () => {
  ada = await createTestUser("Ada Lovelace");
  grace = await createTestUser("Grace Hopper");
  const team = await authJson<{ id: string }>(
    "/organization/create",
    { name: "Engines", slug: `engines-${ada.id}` },
    ada,
  );
  teamId = team.id;
  const invitation = await authJson<{ id: string }>(
    "/organization/invite-member",
    { email: grace.email, role: "member", organizationId: teamId },
    ada,
  );
  await authJson("/organization/accept-invitation", { invitationId: invitation.id }, grace);
  otherTeamId = (
    await authJson<{ id: string }>("/organization/create", { name: "Other", slug: `other-${ada.id}` }, ada)
  ).id;
  await writeRulesFiles(
    stack.scope,
    teamId,
    user(ada),
    [{ path: "AGENTS.md", content: "Main rule.\n" }],
    "Rules",
  );
  const project = await insertProject(stack.scope, { workspaceId: teamId, name: "engine", source: null });
  projectRoot = project.rootPath;
  const { vfs } = openWorkspaceVfs(teamId, stack.scope);
  await vfs.writeFile(`${projectRoot}/README.md`, "x\n");
  await vfs.flush();
  sessionId = (
    await createSession(stack.scope, { projectId: project.id, userId: grace.id, cwd: projectRoot })
  ).id;
});

describe("PUT /api/sessions/:id/rules-preview", () => {
  it("previews the author's open proposal, refuses others, and ends when the proposal is approved", async () => {
    const proposal = await createProposal(stack.scope, teamId, user(grace), {
      title: "Stricter reviews",
      changes: [
        { path: "AGENTS.md", content: "Proposed rule.\n" },
        { path: "skills/review/SKILL.md", content: SKILL },
      ],
    });

    // Not the author (Ada may write the session, but the proposal is Grace's).
    expect(await preview(ada, sessionId, proposal.id)).toEqual({
      status: 403,
      body: {
        error: {
          code: "forbidden",
          message:
            "Only the author of proposal “Stricter reviews” can preview it. Ask Grace Hopper to, or review its diff instead.",
        },
      },
    });
    // A proposal of another workspace, and an id that names nothing: the same 404.
    const foreign = await createProposal(stack.scope, otherTeamId, user(ada), {
      title: "Elsewhere",
      changes: [{ path: "AGENTS.md", content: "Other.\n" }],
    });
    for (const id of [foreign.id, "2f1f4a3e-0000-4000-8000-000000000000"])
      expect(await preview(grace, sessionId, id)).toEqual({
        status: 404,
        body: { error: { code: "not_found", message: `Proposal ${id} not found` } },
      });

    expect(await preview(grace, sessionId, proposal.id)).toEqual({
      status: 200,
      body: { preview: { proposalId: proposal.id, title: "Stricter reviews" } },
    });

    // The view: the proposal's files, their last change on the proposal branch.
    const view = await resources(grace, sessionId);
    expect(view.preview).toEqual({ proposalId: proposal.id, title: "Stricter reviews" });
    const onBranch = await lastChange(stack.scope, teamId, "AGENTS.md", { proposalId: proposal.id });
    expect(onBranch?.authorName).toBe("Grace Hopper");
    const iso = new Date(onBranch!.timestamp).toISOString();
    expect(view.provenance.filter((p) => p.scope === "team")).toEqual([
      {
        kind: "context",
        path: "/.team/AGENTS.md",
        filesystem: "team",
        scope: "team",
        trustGated: false,
        lastChangedBy: "Grace Hopper",
        lastChangedAt: iso,
      },
      {
        kind: "skill",
        path: "/.team/skills/review/SKILL.md",
        name: "review",
        filesystem: "team",
        scope: "team",
        trustGated: false,
        lastChangedBy: "Grace Hopper",
        lastChangedAt: iso,
      },
    ]);

    // The prompt of the previewing session carries the proposal's text, not main's.
    stack.mock.reset();
    stack.mock.enqueue({ text: "ok" });
    await runPrompt({ sessionId, text: "hi", env: stack.env, emit: async () => {} });
    const body = stack.mock.requests.filter((r) => r.path === "/v1/messages")[0].body as {
      system: { text: string }[];
    };
    const system = body.system.map((b) => b.text).join("");
    expect(system).toContain(
      '<project_instructions path="/.team/AGENTS.md">\nProposed rule.\n\n</project_instructions>',
    );
    expect(system).not.toContain("Main rule.");
    expect(system).toContain("<location>/.team/skills/review/SKILL.md</location>");

    // Approved: the session reads main (now the proposal's text) and the preview is gone without a PUT.
    await approveProposal(stack.scope, teamId, proposal.id, user(ada));
    const after = await resources(grace, sessionId);
    expect(after.preview).toBeNull();
    expect(await preview(grace, sessionId, proposal.id)).toEqual({
      status: 409,
      body: {
        error: {
          code: "invalid_state",
          message: "Proposal “Stricter reviews” is approved; only an open proposal can be previewed.",
        },
      },
    });
    expect(await preview(grace, sessionId, null)).toEqual({ status: 200, body: { preview: null } });
  });

  it("a personal workspace's session has no team rules and no proposal to preview", async () => {
    const project = await insertProject(stack.scope, {
      workspaceId: grace.workspaceId,
      name: "mine",
      source: null,
    });
    const mine = await createSession(stack.scope, {
      projectId: project.id,
      userId: grace.id,
      cwd: project.rootPath,
    });
    const view = await resources(grace, mine.id);
    expect(view.preview).toBeNull();
    expect(view.provenance.filter((p) => p.scope === "team")).toEqual([]);
    const proposal = await createProposal(stack.scope, teamId, user(grace), {
      title: "Again",
      changes: [{ path: "AGENTS.md", content: "Again.\n" }],
    });
    expect((await preview(grace, mine.id, proposal.id)).status).toBe(404);
  });
});
