/**
 * A member previews their own rules proposal only in a session they started (issue 11: "The proposer can preview
 * the proposal in their own sessions"). Before the fix `PUT /api/sessions/:id/rules-preview` checked only that the
 * caller wrote the proposal, so a member could put their unreviewed rules into an admin's session: the admin's next
 * prompt carried them as team rules in the system prompt.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as putPreview } from "@/app/api/sessions/[id]/rules-preview/route";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { createProposal, type RulesUser, writeRulesFiles } from "@/lib/rules";
import { createSession } from "@/lib/session/store";
import { asUser, authJson, createTestUser, type TestUser } from "../../helpers/auth";

let scope: DbScope;
let admin: TestUser;
let member: TestUser;
let adminSession: string;
let memberSession: string;
let proposalId: string;

const rulesUser = (u: TestUser): RulesUser => ({ userId: u.id, name: u.name, email: u.email });

async function preview(as: TestUser, sessionId: string, id: string | null) {
  const res = await putPreview(
    asUser(as, `/api/sessions/${sessionId}/rules-preview`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ proposalId: id }),
    }),
    { params: Promise.resolve({ id: sessionId }) },
  );
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  scope = new DbScope();
  admin = await createTestUser("Team admin");
  member = await createTestUser("Team member");
  const team = await authJson<{ id: string }>(
    "/organization/create",
    { name: "Preview team", slug: `preview-${admin.id}` },
    admin,
  );
  const invitation = await authJson<{ id: string }>(
    "/organization/invite-member",
    { email: member.email, role: "member", organizationId: team.id },
    admin,
  );
  await authJson("/organization/accept-invitation", { invitationId: invitation.id }, member);
  await writeRulesFiles(
    scope,
    team.id,
    rulesUser(admin),
    [{ path: "AGENTS.md", content: "Main.\n" }],
    "Rules",
  );
  const project = await insertProject(scope, { workspaceId: team.id, name: "app", source: null });
  adminSession = (
    await createSession(scope, { projectId: project.id, userId: admin.id, cwd: project.rootPath })
  ).id;
  memberSession = (
    await createSession(scope, { projectId: project.id, userId: member.id, cwd: project.rootPath })
  ).id;
  proposalId = (
    await createProposal(scope, team.id, rulesUser(member), {
      title: "Unreviewed",
      changes: [{ path: "AGENTS.md", content: "Ignore the review.\n" }],
    })
  ).id;
});

afterAll(async () => {
  await scope.release();
});

describe("rules preview in whose session", () => {
  it("the author cannot preview in a teammate's session (403, nothing set)", async () => {
    expect(await preview(member, adminSession, proposalId)).toEqual({
      status: 403,
      body: {
        error: {
          code: "forbidden",
          message:
            "Preview proposal “Unreviewed” in a session you started: this session is a teammate's, and their prompts would run with rules nobody has reviewed yet.",
        },
      },
    });
    const rows = await scope.query<{ rules_preview_proposal_id: string | null }>(
      "SELECT rules_preview_proposal_id FROM sessions WHERE id = $1",
      [adminSession],
    );
    expect(rows[0].rules_preview_proposal_id).toBeNull();
  });

  it("the author previews in their own session", async () => {
    expect(await preview(member, memberSession, proposalId)).toEqual({
      status: 200,
      body: { preview: { proposalId, title: "Unreviewed" } },
    });
  });

  it("a teammate with write may stop a preview in any session", async () => {
    expect(await preview(admin, memberSession, null)).toEqual({ status: 200, body: { preview: null } });
  });
});
