/** Proposals against the real Postgres: branch per proposal, exact diff, fast-forward and merge approval, conflicts. */
import { beforeAll, describe, expect, it } from "vitest";
import { withDb } from "@/lib/db/client";
import {
  approveProposal,
  commentOnProposal,
  createProposal,
  getProposal,
  lastChange,
  listComments,
  listProposals,
  proposalDiff,
  readRulesTree,
  rejectProposal,
  rulesLog,
  updateProposal,
  withdrawProposal,
  writeRulesFiles,
} from "@/lib/rules";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { createTeam, type Team, who } from "./team";

let team: Team;
beforeAll(async () => {
  team = await createTeam();
  await withDb((s) =>
    writeRulesFiles(
      s,
      team.id,
      who(team.owner),
      [
        { path: "AGENTS.md", content: "# Rules\n\n- one\n- two\n" },
        { path: "prompts/old.md", content: "old prompt\n" },
      ],
      "Seed",
    ),
  );
});

const worktree = (path: string) =>
  withDb(async (s) => {
    const { vfs } = openWorkspaceVfs(team.id, s);
    return (await vfs.exists(`/.team/${path}`)) ? vfs.readText(`/.team/${path}`) : null;
  });

describe("proposals", () => {
  it("a proposal is a branch from main; the work tree is untouched; the diff is exact; approve fast-forwards", async () => {
    const main = (await withDb((s) => rulesLog(s, team.id, 1)))[0].oid;
    const p = await withDb((s) =>
      createProposal(s, team.id, who(team.member), {
        title: "Add a third rule",
        description: "We keep forgetting it.",
        changes: [
          { path: "AGENTS.md", content: "# Rules\n\n- one\n- two\n- three\n" },
          { path: "skills/new/SKILL.md", content: "New skill\n" },
          { path: "prompts/old.md", content: null },
        ],
      }),
    );
    expect(p).toMatchObject({
      workspaceId: team.id,
      authorUserId: team.member.id,
      authorName: "Mia Member",
      title: "Add a third rule",
      description: "We keep forgetting it.",
      branch: `proposals/${p.id}`,
      baseOid: main,
      status: "open",
      decidedBy: null,
      mergedOid: null,
    });
    expect(await worktree("AGENTS.md")).toBe("# Rules\n\n- one\n- two\n");
    const preview = await withDb((s) => readRulesTree(s, team.id, { proposalId: p.id }));
    expect([...preview.keys()]).toEqual(["AGENTS.md", "skills/new/SKILL.md"]);

    const diff = await withDb((s) => proposalDiff(s, team.id, p.id));
    expect(diff).toEqual([
      {
        path: "AGENTS.md",
        status: "modified",
        before: "# Rules\n\n- one\n- two\n",
        after: "# Rules\n\n- one\n- two\n- three\n",
        patch: "--- a/AGENTS.md\n+++ b/AGENTS.md\n@@ -2,3 +2,4 @@\n \n - one\n - two\n+- three\n",
      },
      {
        path: "prompts/old.md",
        status: "deleted",
        before: "old prompt\n",
        after: null,
        patch: "--- a/prompts/old.md\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-old prompt\n",
      },
      {
        path: "skills/new/SKILL.md",
        status: "added",
        before: null,
        after: "New skill\n",
        patch: "--- /dev/null\n+++ b/skills/new/SKILL.md\n@@ -0,0 +1,1 @@\n+New skill\n",
      },
    ]);

    const approved = await withDb((s) => approveProposal(s, team.id, p.id, who(team.admin)));
    expect(approved).toMatchObject({
      status: "approved",
      decidedBy: team.admin.id,
      decidedByName: "Adam Admin",
    });
    expect(approved.mergedOid).toBe(p.headOid); // fast-forward: main is the branch head
    const log = await withDb((s) => rulesLog(s, team.id, 2));
    expect(log[0]).toMatchObject({ oid: p.headOid, authorName: "Mia Member", parents: [main] });
    expect(log[0].message).toBe("Add a third rule\n\nWe keep forgetting it.");
    expect(await worktree("AGENTS.md")).toBe("# Rules\n\n- one\n- two\n- three\n");
    expect(await worktree("skills/new/SKILL.md")).toBe("New skill\n");
    expect(await worktree("prompts/old.md")).toBeNull();
    // After the merge the proposal still shows what it changed (main now contains the branch).
    expect(await withDb((s) => proposalDiff(s, team.id, p.id))).toEqual(diff);
    await expect(withDb((s) => approveProposal(s, team.id, p.id, who(team.admin)))).rejects.toMatchObject({
      status: 409,
      code: "invalid_state",
      message: `Proposal ${p.id} is approved; only an open proposal can be approved. Create a new proposal instead.`,
    });
  });

  it("main moved on other paths: approve makes a merge commit by the reviewer; lastChange names the proposer", async () => {
    const p = await withDb((s) =>
      createProposal(s, team.id, who(team.member), {
        title: "Review prompt",
        changes: [{ path: "prompts/review.md", content: "Review carefully\n" }],
      }),
    );
    const direct = await withDb((s) =>
      writeRulesFiles(
        s,
        team.id,
        who(team.owner),
        [{ path: "SYSTEM.md", content: "System\n" }],
        "System prompt",
      ),
    );
    const approved = await withDb((s) => approveProposal(s, team.id, p.id, who(team.owner)));
    const [merge] = await withDb((s) => rulesLog(s, team.id, 1));
    expect(merge).toMatchObject({
      oid: approved.mergedOid,
      authorName: "Olive Owner",
      parents: [direct.oid, p.headOid],
      message: `Merge proposal "Review prompt"\n\nProposal ${p.id} by Mia Member.`,
    });
    expect(await worktree("prompts/review.md")).toBe("Review carefully\n");
    expect(await worktree("SYSTEM.md")).toBe("System\n");
    // Merged by a merge commit: the diff is still the proposal's own change, not main's SYSTEM.md.
    expect((await withDb((s) => proposalDiff(s, team.id, p.id))).map((d) => `${d.status} ${d.path}`)).toEqual(
      ["added prompts/review.md"],
    );
    const last = await withDb((s) => lastChange(s, team.id, "prompts/review.md"));
    expect(last).toMatchObject({ oid: p.headOid, authorName: "Mia Member", authorEmail: team.member.email });
    expect((await withDb((s) => lastChange(s, team.id, "SYSTEM.md")))?.oid).toBe(direct.oid);
  });

  it("main changed the same path: approve refuses naming it; the author's update merges main in, then approve merges", async () => {
    const p = await withDb((s) =>
      createProposal(s, team.id, who(team.member), {
        title: "Reword",
        changes: [{ path: "AGENTS.md", content: "# Rules\n\n- uno\n" }],
      }),
    );
    await withDb((s) =>
      writeRulesFiles(s, team.id, who(team.admin), [{ path: "AGENTS.md", content: "# Rules v2\n" }], "v2"),
    );
    await expect(withDb((s) => approveProposal(s, team.id, p.id, who(team.admin)))).rejects.toMatchObject({
      status: 409,
      code: "conflict",
      paths: ["AGENTS.md"],
      message: "main changed AGENTS.md since this proposal; the author must update it.",
    });
    expect((await withDb((s) => getProposal(s, team.id, p.id))).status).toBe("open");
    await expect(
      withDb((s) =>
        updateProposal(s, team.id, p.id, who(team.member), {
          changes: [{ path: "other.md", content: "x\n" }],
        }),
      ),
    ).rejects.toMatchObject({
      status: 409,
      message:
        "main changed AGENTS.md since this proposal; include that file in the update with the content you want (start from main's version).",
    });
    await expect(
      withDb((s) =>
        updateProposal(s, team.id, p.id, who(team.admin), { changes: [{ path: "a.md", content: "" }] }),
      ),
    ).rejects.toMatchObject({
      status: 403,
      message: "Only the author of a proposal (Mia Member) can update it; comment on it instead.",
    });
    const updated = await withDb((s) =>
      updateProposal(s, team.id, p.id, who(team.member), {
        title: "Reword v2",
        changes: [{ path: "AGENTS.md", content: "# Rules v2\n\n- uno\n" }],
      }),
    );
    expect(updated.title).toBe("Reword v2");
    const diff = await withDb((s) => proposalDiff(s, team.id, p.id));
    expect(diff.map((d) => [d.path, d.patch])).toEqual([
      ["AGENTS.md", "--- a/AGENTS.md\n+++ b/AGENTS.md\n@@ -1,1 +1,3 @@\n # Rules v2\n+\n+- uno\n"],
    ]);
    const approved = await withDb((s) => approveProposal(s, team.id, p.id, who(team.admin)));
    expect(approved.mergedOid).toBe(updated.headOid); // main had not moved since the update: fast-forward
    expect(await worktree("AGENTS.md")).toBe("# Rules v2\n\n- uno\n");
  });

  it("reject with a reason, withdraw, comments, list by status", async () => {
    const a = await withDb((s) =>
      createProposal(s, team.id, who(team.member), {
        title: "Bad idea",
        changes: [{ path: "x.md", content: "x\n" }],
      }),
    );
    const b = await withDb((s) =>
      createProposal(s, team.id, who(team.member), {
        title: "Second thoughts",
        changes: [{ path: "y.md", content: "y\n" }],
      }),
    );
    await withDb((s) => commentOnProposal(s, team.id, a.id, who(team.admin), "  Why?  "));
    const rejected = await withDb((s) => rejectProposal(s, team.id, a.id, who(team.admin), "Not needed"));
    expect(rejected).toMatchObject({ status: "rejected", decidedBy: team.admin.id, mergedOid: null });
    const comments = await withDb((s) => listComments(s, team.id, a.id));
    expect(comments.map((c) => [c.authorName, c.body])).toEqual([
      ["Adam Admin", "Why?"],
      ["Adam Admin", "Rejected: Not needed"],
    ]);
    await expect(withDb((s) => withdrawProposal(s, team.id, b.id, who(team.admin)))).rejects.toMatchObject({
      status: 403,
    });
    expect((await withDb((s) => withdrawProposal(s, team.id, b.id, who(team.member)))).status).toBe(
      "withdrawn",
    );
    const tree = await withDb((s) => readRulesTree(s, team.id));
    expect([tree.has("x.md"), tree.has("y.md")]).toEqual([false, false]);
    const rejectedList = await withDb((s) => listProposals(s, team.id, { status: "rejected" }));
    expect(rejectedList.map((p) => p.id)).toEqual([a.id]);
    const all = await withDb((s) => listProposals(s, team.id));
    expect(all[0]).toMatchObject({ id: b.id, authorName: "Mia Member", status: "withdrawn" });
    await expect(
      withDb((s) =>
        createProposal(s, team.id, who(team.member), {
          title: "Same",
          changes: [{ path: "SYSTEM.md", content: "System\n" }],
        }),
      ),
    ).rejects.toMatchObject({
      status: 400,
      message: "The proposal changes nothing: every file already has this content on main.",
    });
  });

  it("two approvals and a direct write at once: every change lands on main and in the work tree", async () => {
    const make = (n: string) =>
      withDb((s) =>
        createProposal(s, team.id, who(team.member), {
          title: n,
          changes: [{ path: `race/${n}.md`, content: `${n}\n` }],
        }),
      );
    const [p1, p2] = [await make("p1"), await make("p2")];
    const results = await Promise.all([
      withDb((s) => approveProposal(s, team.id, p1.id, who(team.admin))),
      withDb((s) => approveProposal(s, team.id, p2.id, who(team.owner))),
      withDb((s) =>
        writeRulesFiles(
          s,
          team.id,
          who(team.owner),
          [{ path: "race/direct.md", content: "direct\n" }],
          "Direct",
        ),
      ),
    ]);
    expect([results[0].status, results[1].status]).toEqual(["approved", "approved"]);
    const tree = await withDb((s) => readRulesTree(s, team.id));
    expect(["p1", "p2", "direct"].map((n) => tree.get(`race/${n}.md`))).toEqual(["p1\n", "p2\n", "direct\n"]);
    expect([
      await worktree("race/p1.md"),
      await worktree("race/p2.md"),
      await worktree("race/direct.md"),
    ]).toEqual(["p1\n", "p2\n", "direct\n"]);
  });

  it("a proposal of another team is not found", async () => {
    const other = await createTeam();
    const p = await withDb((s) =>
      createProposal(s, other.id, who(other.member), {
        title: "Theirs",
        changes: [{ path: "t.md", content: "t\n" }],
      }),
    );
    await expect(withDb((s) => getProposal(s, team.id, p.id))).rejects.toMatchObject({
      status: 404,
      message: `Proposal ${p.id} not found`,
    });
    await expect(withDb((s) => readRulesTree(s, team.id, { proposalId: p.id }))).rejects.toMatchObject({
      status: 404,
    });
    await expect(withDb((s) => approveProposal(s, team.id, p.id, who(team.owner)))).rejects.toMatchObject({
      status: 404,
    });
  });
});
