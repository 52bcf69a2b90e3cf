/**
 * Approval of merges in a team (docs/checkpoints.md, "Approval in a team"), through the real routes and Postgres:
 * with `merge_approval` on, a member's "Merge into main" makes a request (main untouched), the member and an owner
 * comment, the owner's approve merges the work as asked in the owner's name, a later request is rejected, and an
 * owner still merges directly.
 */
import { describe, expect, it } from "vitest";
import { POST as postMerge } from "@/app/api/sessions/[id]/merge/route";
import { GET as getRequest, POST as postRequest } from "@/app/api/sessions/[id]/merge-request/route";
import { PUT as putApproval } from "@/app/api/workspaces/[id]/merge-approval/route";
import { log } from "@/lib/vfs/git";
import { openMainVfs } from "@/lib/vfs/workspace";
import { asUser, authJson, createTestUser, type TestUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";
import { projectWithSession } from "../../helpers/session-fixture";
import { fileOf, newSession, save } from "./merge-fixture";

const stack = withMockStack();
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const json = (user: TestUser, url: string, method: string, body: unknown) =>
  asUser(user, url, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("approval of merges in a team", () => {
  it("a member's merge waits as a request; the owner approves it (merged in their name), rejects the next", async () => {
    const owner = await createTestUser("Olga Owner");
    const member = await createTestUser("Mia Member");
    const team = await authJson<{ id: string }>(
      "/organization/create",
      { name: `Approvals ${owner.id.slice(0, 8)}`, slug: `approvals-${owner.id}` },
      owner,
    );
    const invitation = await authJson<{ id: string }>(
      "/organization/invite-member",
      { email: member.email, role: "member", organizationId: team.id },
      owner,
    );
    await authJson("/organization/accept-invitation", { invitationId: invitation.id }, member);
    const f = await projectWithSession(
      stack.scope,
      { "notes.md": "base\n" },
      {
        actor: { userId: owner.id, workspaceId: team.id },
      },
    );
    const s = f.session.id;
    const on = await putApproval(
      json(owner, `/api/workspaces/${team.id}/merge-approval`, "PUT", { enabled: true }),
      ctx(team.id),
    );
    expect(await on.json()).toEqual({ enabled: true });

    await save(f, s, { "notes.md": "from Mia\n" });
    const asked = await postMerge(json(member, `/api/sessions/${s}/merge`, "POST", {}), ctx(s));
    expect(asked.status).toBe(200);
    const body = (await asked.json()) as {
      commit: string | null;
      request: { status: string; authorName: string };
    };
    expect([body.commit, body.request.status, body.request.authorName]).toEqual([null, "open", "Mia Member"]);
    expect(await fileOf(f, null, "notes.md")).toBe("base\n");

    const seen = await getRequest(asUser(member, `/api/sessions/${s}/merge-request`), ctx(s));
    expect(await seen.json()).toMatchObject({
      approvalNeeded: true,
      canDecide: false,
      request: { status: "open" },
    });
    await postRequest(
      json(member, `/api/sessions/${s}/merge-request`, "POST", {
        action: "comment",
        comment: "Please review",
      }),
      ctx(s),
    );
    const tip = (
      (await (await getRequest(asUser(owner, `/api/sessions/${s}/merge-request`), ctx(s))).json()) as {
        request: { tipOid: string };
      }
    ).request.tipOid;
    const stale = await postRequest(
      json(owner, `/api/sessions/${s}/merge-request`, "POST", { action: "approve", tip: "f".repeat(40) }),
      ctx(s),
    );
    expect([stale.status, ((await stale.json()) as { error: { code: string } }).error.code]).toEqual([
      409,
      "request_changed",
    ]);
    const approved = await postRequest(
      json(owner, `/api/sessions/${s}/merge-request`, "POST", {
        action: "approve",
        tip,
        comment: "Looks good",
      }),
      ctx(s),
    );
    expect(approved.status).toBe(200);
    const decision = (await approved.json()) as {
      request: {
        status: string;
        decidedByName: string;
        mergedOid: string;
        comments: { authorName: string; body: string }[];
      };
      merge: { commit: string };
    };
    expect(decision.merge.commit).toMatch(/^[0-9a-f]{40}$/);
    expect([decision.request.status, decision.request.decidedByName, decision.request.mergedOid]).toEqual([
      "approved",
      "Olga Owner",
      decision.merge.commit,
    ]);
    expect(decision.request.comments.map((c) => [c.authorName, c.body])).toEqual([
      ["Mia Member", "Please review"],
      ["Olga Owner", "Looks good"],
    ]);
    expect(await fileOf(f, null, "notes.md")).toBe("from Mia\n");
    const { vfs, scope } = openMainVfs(team.id, { projectId: f.project.id, root: f.project.rootPath });
    const [top] = await log(vfs, f.project.rootPath, "HEAD", 1);
    await scope.release();
    expect(top.message).toContain(", merged by Olga Owner.");

    // Asked again after more work: rejected, main stays.
    await save(f, s, { "notes.md": "from Mia, again\n" });
    await postMerge(json(member, `/api/sessions/${s}/merge`, "POST", {}), ctx(s));
    const next = (
      (await (await getRequest(asUser(owner, `/api/sessions/${s}/merge-request`), ctx(s))).json()) as {
        request: { tipOid: string };
      }
    ).request.tipOid;
    const rejected = await postRequest(
      json(owner, `/api/sessions/${s}/merge-request`, "POST", { action: "reject", tip: next }),
      ctx(s),
    );
    expect(((await rejected.json()) as { request: { status: string } }).request.status).toBe("rejected");
    expect(await fileOf(f, null, "notes.md")).toBe("from Mia\n");
    const none = await postRequest(
      json(owner, `/api/sessions/${s}/merge-request`, "POST", { action: "approve", tip: next }),
      ctx(s),
    );
    expect([none.status, ((await none.json()) as { error: { code: string } }).error.code]).toEqual([
      409,
      "no_open_request",
    ]);

    // The owner merges directly.
    const o = await newSession(stack.scope, f, "Owner's");
    await save(f, o.id, { "owner.md": "by the owner\n" });
    const direct = await postMerge(json(owner, `/api/sessions/${o.id}/merge`, "POST", {}), ctx(o.id));
    const merged = (await direct.json()) as { commit: string | null; request?: unknown };
    expect([typeof merged.commit, merged.request]).toEqual(["string", undefined]);
    expect(await fileOf(f, null, "owner.md")).toBe("by the owner\n");
  });
});
