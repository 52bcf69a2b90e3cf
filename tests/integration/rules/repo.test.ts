/** The rules repository against the real Postgres: creation, direct commits by author, concurrency, history. */
import { beforeAll, describe, expect, it } from "vitest";
import { withDb } from "@/lib/db/client";
import {
  ensureRulesRepo,
  lastChange,
  listRulesFiles,
  RULES_ROOT,
  readRulesFile,
  readRulesTree,
  rulesLog,
  writeRulesFiles,
} from "@/lib/rules";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { createTeam, type Team, who } from "./team";

let team: Team;
beforeAll(async () => {
  team = await createTeam();
});

describe("rules repository", () => {
  it("ensureRulesRepo creates /.team/.git with one empty commit on main, once, also when called concurrently", async () => {
    const heads = await Promise.all([1, 2, 3].map(() => withDb((s) => ensureRulesRepo(s, team.id))));
    expect(new Set(heads).size).toBe(1);
    const log = await withDb((s) => rulesLog(s, team.id, 10));
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      oid: heads[0],
      message: "Create the team rules repository",
      authorName: "Strata",
      authorEmail: "strata@strata.localhost",
      parents: [],
    });
    const head = await withDb(async (s) => {
      const { vfs } = openWorkspaceVfs(team.id, s);
      return vfs.readText(`${RULES_ROOT}/.git/HEAD`);
    });
    expect(head).toBe("ref: refs/heads/main\n");
  });

  it("a personal workspace has no rules root", async () => {
    await expect(withDb((s) => ensureRulesRepo(s, team.owner.workspaceId))).rejects.toMatchObject({
      status: 404,
      message: `Workspace ${team.owner.workspaceId} has no team rules: only a team workspace has a rules root. Create a team first.`,
    });
  });

  it("writeRulesFiles writes the work tree and commits with the author; delete; lastChange per path", async () => {
    const before = Date.now();
    const first = await withDb((s) =>
      writeRulesFiles(
        s,
        team.id,
        who(team.owner),
        [
          { path: "AGENTS.md", content: "# Team rules\n\nBe kind.\n" },
          { path: "skills/review/SKILL.md", content: "Review skill\n" },
        ],
        "Add team rules",
      ),
    );
    const after = Date.now();
    expect(first.changed).toBe(true);
    const second = await withDb((s) =>
      writeRulesFiles(s, team.id, who(team.admin), [{ path: "prompts/fix.md", content: "Fix it\n" }], ""),
    );
    const files = await withDb(async (s) => {
      const { vfs } = openWorkspaceVfs(team.id, s);
      return [await vfs.readText("/.team/AGENTS.md"), await vfs.readText("/.team/prompts/fix.md")];
    });
    expect(files).toEqual(["# Team rules\n\nBe kind.\n", "Fix it\n"]);
    const log = await withDb((s) => rulesLog(s, team.id, 10));
    expect(log.map((e) => [e.message, e.authorName, e.authorEmail])).toEqual([
      ["Update prompts/fix.md", "Adam Admin", team.admin.email],
      ["Add team rules", "Olive Owner", team.owner.email],
      ["Create the team rules repository", "Strata", "strata@strata.localhost"],
    ]);
    expect(log[0].oid).toBe(second.oid);
    const agents = await withDb((s) => lastChange(s, team.id, "AGENTS.md"));
    expect(agents).toEqual({
      oid: first.oid,
      authorName: "Olive Owner",
      authorEmail: team.owner.email,
      timestamp: log[1].timestamp,
    });
    // The commit's time (git's whole seconds) is the time of the write.
    expect(agents!.timestamp).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(agents!.timestamp).toBeLessThanOrEqual(after);
    expect(await withDb((s) => lastChange(s, team.id, "nope.md"))).toBeNull();

    const same = await withDb((s) =>
      writeRulesFiles(s, team.id, who(team.admin), [{ path: "prompts/fix.md", content: "Fix it\n" }], "x"),
    );
    expect(same).toEqual({ oid: second.oid, changed: false });

    await withDb((s) =>
      writeRulesFiles(
        s,
        team.id,
        who(team.admin),
        [{ path: "skills/review/SKILL.md", content: null }],
        "Drop review",
      ),
    );
    const tree = await withDb((s) => readRulesTree(s, team.id));
    expect([...tree]).toEqual([
      ["AGENTS.md", "# Team rules\n\nBe kind.\n"],
      ["prompts/fix.md", "Fix it\n"],
    ]);
    const gone = await withDb(async (s) => {
      const { vfs } = openWorkspaceVfs(team.id, s);
      return [await vfs.exists("/.team/skills/review/SKILL.md"), await vfs.exists("/.team/skills")];
    });
    expect(gone).toEqual([false, false]);
    const list = await withDb((s) => listRulesFiles(s, team.id));
    expect(list.map((f) => [f.path, f.size, f.lastChange?.authorName])).toEqual([
      ["AGENTS.md", 23, "Olive Owner"],
      ["prompts/fix.md", 7, "Adam Admin"],
    ]);
    const file = await withDb((s) => readRulesFile(s, team.id, "AGENTS.md"));
    expect(file.content).toBe("# Team rules\n\nBe kind.\n");
  });

  it("concurrent writers: every commit lands", async () => {
    const writers = ["a", "b", "c", "d"].map((n) =>
      withDb((s) =>
        writeRulesFiles(
          s,
          team.id,
          who(team.owner),
          [{ path: `concurrent/${n}.md`, content: `${n}\n` }],
          `Add ${n}`,
        ),
      ),
    );
    const results = await Promise.all(writers);
    expect(results.every((r) => r.changed)).toBe(true);
    const tree = await withDb((s) => readRulesTree(s, team.id));
    expect(["a", "b", "c", "d"].map((n) => tree.get(`concurrent/${n}.md`))).toEqual([
      "a\n",
      "b\n",
      "c\n",
      "d\n",
    ]);
    const log = await withDb((s) => rulesLog(s, team.id, 50));
    expect(
      log
        .filter((e) => e.message.startsWith("Add ") && e.message.length === 5)
        .map((e) => e.message)
        .sort(),
    ).toEqual(["Add a", "Add b", "Add c", "Add d"]);
    // A straight line: each commit's parent is the next one in the log.
    for (let i = 0; i < log.length - 1; i++) expect(log[i].parents).toEqual([log[i + 1].oid]);
  });

  it("refuses bad paths with what to do", async () => {
    const bad = (path: string) =>
      withDb((s) => writeRulesFiles(s, team.id, who(team.owner), [{ path, content: "x" }], "x"));
    await expect(bad(".git/config")).rejects.toMatchObject({
      status: 400,
      message:
        'The path ".git/config" is inside .git, which Strata manages. Use a relative path inside the rules root such as AGENTS.md or skills/review/SKILL.md.',
    });
    await expect(bad("a/../b")).rejects.toMatchObject({ status: 400 });
    await expect(bad("AGENTS.md/x")).rejects.toMatchObject({
      status: 400,
      message: "AGENTS.md/x cannot be written: AGENTS.md is a file. Delete or rename it first.",
    });
    await expect(
      withDb((s) =>
        writeRulesFiles(s, team.id, who(team.owner), [{ path: "missing.md", content: null }], "x"),
      ),
    ).rejects.toMatchObject({
      status: 404,
      message: "The team rules have no file missing.md to delete; check the path.",
    });
  });
});
