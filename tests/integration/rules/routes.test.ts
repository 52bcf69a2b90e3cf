/** The rules routes as a browser calls them: roles, 401/403/404, the member's propose → admin approves flow. */
import { beforeAll, describe, expect, it } from "vitest";
import * as fileRoute from "@/app/api/workspaces/[id]/rules/file/route";
import * as logRoute from "@/app/api/workspaces/[id]/rules/log/route";
import * as approveRoute from "@/app/api/workspaces/[id]/rules/proposals/[pid]/approve/route";
import * as commentsRoute from "@/app/api/workspaces/[id]/rules/proposals/[pid]/comments/route";
import * as rejectRoute from "@/app/api/workspaces/[id]/rules/proposals/[pid]/reject/route";
import * as proposalRoute from "@/app/api/workspaces/[id]/rules/proposals/[pid]/route";
import * as proposalsRoute from "@/app/api/workspaces/[id]/rules/proposals/route";
import * as rulesRoute from "@/app/api/workspaces/[id]/rules/route";
import { asUser, type TestUser } from "../../helpers/auth";
import { createTeam, type Team } from "./team";

let team: Team;
beforeAll(async () => {
  team = await createTeam();
});

const ctx = <T>(value: T) => ({ params: Promise.resolve(value) });
const json = (body: unknown): RequestInit => ({
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

async function call(
  handler: (req: Request, c: { params: Promise<never> }) => Promise<Response>,
  user: TestUser | null,
  url: string,
  params: Record<string, string>,
  init: RequestInit = {},
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely in these tests
): Promise<{ status: number; body: any }> {
  const res = await handler(asUser(user, url, init), ctx(params) as { params: Promise<never> });
  return { status: res.status, body: await res.json() };
}

describe("rules routes", () => {
  it("owner writes AGENTS.md directly; everyone in the team reads it with its author; outsider 404, anonymous 401", async () => {
    const base = `/api/workspaces/${team.id}/rules`;
    const put = await call(
      fileRoute.PUT,
      team.owner,
      `${base}/file?path=AGENTS.md`,
      { id: team.id },
      {
        method: "PUT",
        ...json({ content: "Be brief.\n", message: "Team style" }),
      },
    );
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      path: "AGENTS.md",
      changed: true,
      lastChange: { authorName: "Olive Owner" },
    });
    const list = await call(rulesRoute.GET, team.viewer, base, { id: team.id });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      root: "/.team",
      files: [
        {
          path: "AGENTS.md",
          size: 10,
          lastChange: {
            oid: put.body.oid,
            authorName: "Olive Owner",
            authorEmail: team.owner.email,
            timestamp: put.body.lastChange.timestamp,
          },
        },
      ],
    });
    const file = await call(fileRoute.GET, team.member, `${base}/file?path=AGENTS.md`, { id: team.id });
    expect(file.body).toMatchObject({ path: "AGENTS.md", content: "Be brief.\n" });
    const log = await call(logRoute.GET, team.viewer, `${base}/log?limit=5`, { id: team.id });
    expect(log.body.commits.map((c: { message: string }) => c.message)).toEqual([
      "Team style",
      "Create the team rules repository",
    ]);
    const outsider = await call(rulesRoute.GET, team.outsider, base, { id: team.id });
    expect(outsider).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: `Workspace ${team.id} not found` } },
    });
    expect((await call(rulesRoute.GET, null, base, { id: team.id })).status).toBe(401);
  });

  it("member and viewer cannot change the rules directly (403 with what to do); viewer cannot propose", async () => {
    const url = `/api/workspaces/${team.id}/rules/file?path=AGENTS.md`;
    const put = (user: TestUser) =>
      call(fileRoute.PUT, user, url, { id: team.id }, { method: "PUT", ...json({ content: "x" }) });
    expect(await put(team.member)).toEqual({
      status: 403,
      body: {
        error: {
          code: "forbidden",
          message: "Only owners and admins change the team rules directly; propose the change instead.",
        },
      },
    });
    expect(await put(team.viewer)).toEqual({
      status: 403,
      body: {
        error: {
          code: "forbidden",
          message:
            "Your role in this workspace (viewer) cannot change the team rules. Ask an owner or admin of the workspace to change your role.",
        },
      },
    });
    const del = await call(fileRoute.DELETE, team.member, url, { id: team.id }, { method: "DELETE" });
    expect(del.status).toBe(403);
    const propose = await call(
      proposalsRoute.POST,
      team.viewer,
      `/api/workspaces/${team.id}/rules/proposals`,
      { id: team.id },
      { method: "POST", ...json({ title: "t", changes: [{ path: "AGENTS.md", content: "y" }] }) },
    );
    expect(propose.status).toBe(403);
    expect(propose.body.error.code).toBe("forbidden");
    const outsider = await call(
      proposalsRoute.POST,
      team.outsider,
      `/api/workspaces/${team.id}/rules/proposals`,
      { id: team.id },
      { method: "POST", ...json({ title: "t", changes: [{ path: "AGENTS.md", content: "y" }] }) },
    );
    expect(outsider.status).toBe(404);
  });

  it("member proposes, comments; member cannot approve; admin approves; the file changes on main with the member as author", async () => {
    const base = `/api/workspaces/${team.id}/rules/proposals`;
    const created = await call(
      proposalsRoute.POST,
      team.member,
      base,
      { id: team.id },
      {
        method: "POST",
        ...json({
          title: "Be briefer",
          description: "Shorter answers",
          changes: [{ path: "AGENTS.md", content: "Be very brief.\n" }],
        }),
      },
    );
    expect(created.status).toBe(201);
    const pid = created.body.proposal.id as string;
    const listed = await call(proposalsRoute.GET, team.viewer, `${base}?status=open`, { id: team.id });
    expect(
      listed.body.proposals.map((p: { id: string; authorName: string }) => [p.id, p.authorName]),
    ).toEqual([[pid, "Mia Member"]]);
    const comment = await call(
      commentsRoute.POST,
      team.admin,
      `${base}/${pid}/comments`,
      { id: team.id, pid },
      {
        method: "POST",
        ...json({ body: "Looks good" }),
      },
    );
    expect(comment.status).toBe(201);
    expect(
      (
        await call(
          commentsRoute.POST,
          team.viewer,
          `${base}/${pid}/comments`,
          { id: team.id, pid },
          {
            method: "POST",
            ...json({ body: "me too" }),
          },
        )
      ).status,
    ).toBe(403);
    const shown = await call(proposalRoute.GET, team.viewer, `${base}/${pid}`, { id: team.id, pid });
    expect(shown.status).toBe(200);
    expect(shown.body.diff).toEqual([
      {
        path: "AGENTS.md",
        status: "modified",
        before: "Be brief.\n",
        after: "Be very brief.\n",
        patch: "--- a/AGENTS.md\n+++ b/AGENTS.md\n@@ -1,1 +1,1 @@\n-Be brief.\n+Be very brief.\n",
      },
    ]);
    expect(shown.body.comments.map((c: { body: string }) => c.body)).toEqual(["Looks good"]);
    const byMember = await call(
      approveRoute.POST,
      team.member,
      `${base}/${pid}/approve`,
      { id: team.id, pid },
      {
        method: "POST",
      },
    );
    expect(byMember.status).toBe(403);
    const approved = await call(
      approveRoute.POST,
      team.admin,
      `${base}/${pid}/approve`,
      { id: team.id, pid },
      {
        method: "POST",
      },
    );
    expect(approved.status).toBe(200);
    expect(approved.body.proposal).toMatchObject({ status: "approved", decidedByName: "Adam Admin" });
    const file = await call(
      fileRoute.GET,
      team.viewer,
      `/api/workspaces/${team.id}/rules/file?path=AGENTS.md`,
      {
        id: team.id,
      },
    );
    expect(file.body).toMatchObject({
      content: "Be very brief.\n",
      lastChange: { authorName: "Mia Member" },
    });
  });

  it("reject and withdraw through the routes; another workspace's proposal id is 404", async () => {
    const base = `/api/workspaces/${team.id}/rules/proposals`;
    const make = async (title: string) =>
      (
        await call(
          proposalsRoute.POST,
          team.member,
          base,
          { id: team.id },
          {
            method: "POST",
            ...json({ title, changes: [{ path: `${title}.md`, content: "x\n" }] }),
          },
        )
      ).body.proposal.id as string;
    const a = await make("a");
    const rejected = await call(
      rejectRoute.POST,
      team.owner,
      `${base}/${a}/reject`,
      { id: team.id, pid: a },
      {
        method: "POST",
        ...json({ reason: "No" }),
      },
    );
    expect(rejected.body.proposal.status).toBe("rejected");
    const b = await make("b");
    const byOther = await call(
      proposalRoute.PATCH,
      team.admin,
      `${base}/${b}`,
      { id: team.id, pid: b },
      {
        method: "PATCH",
        ...json({ status: "withdrawn" }),
      },
    );
    expect(byOther.status).toBe(403);
    const withdrawn = await call(
      proposalRoute.PATCH,
      team.member,
      `${base}/${b}`,
      { id: team.id, pid: b },
      {
        method: "PATCH",
        ...json({ status: "withdrawn" }),
      },
    );
    expect(withdrawn.body.proposal.status).toBe("withdrawn");
    const again = await call(
      proposalRoute.PATCH,
      team.member,
      `${base}/${b}`,
      { id: team.id, pid: b },
      {
        method: "PATCH",
        ...json({ changes: [{ path: "b.md", content: "y\n" }] }),
      },
    );
    expect(again).toEqual({
      status: 409,
      body: {
        error: {
          code: "invalid_state",
          message: `Proposal ${b} is withdrawn; only an open proposal can be updated. Create a new proposal instead.`,
        },
      },
    });

    const other = await createTeam();
    const theirs = (
      await call(
        proposalsRoute.POST,
        other.member,
        `/api/workspaces/${other.id}/rules/proposals`,
        { id: other.id },
        {
          method: "POST",
          ...json({ title: "theirs", changes: [{ path: "t.md", content: "t\n" }] }),
        },
      )
    ).body.proposal.id as string;
    const cross = await call(proposalRoute.GET, team.owner, `${base}/${theirs}`, {
      id: team.id,
      pid: theirs,
    });
    expect(cross).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: `Proposal ${theirs} not found` } },
    });
    const crossApprove = await call(
      approveRoute.POST,
      team.owner,
      `${base}/${theirs}/approve`,
      {
        id: team.id,
        pid: theirs,
      },
      { method: "POST" },
    );
    expect(crossApprove.status).toBe(404);
  });

  it("a personal workspace has no rules root (404 with what to do)", async () => {
    const res = await call(rulesRoute.GET, team.owner, `/api/workspaces/${team.owner.workspaceId}/rules`, {
      id: team.owner.workspaceId,
    });
    expect(res).toEqual({
      status: 404,
      body: {
        error: {
          code: "not_found",
          message: `Workspace ${team.owner.workspaceId} has no team rules: only a team workspace has a rules root. Create a team first.`,
        },
      },
    });
  });
});
