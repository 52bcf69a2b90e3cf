/**
 * Branches bound to file state (docs/checkpoints.md), through real runs on the real Postgres with the mock provider:
 * every entry records its commit, checkpoints chain along the conversation branch (not the newest checkpoint of
 * another branch), the user's edits between turns are their own checkpoint, and the checkpoint rows name the tool
 * call that wrote each file.
 */
import { describe, expect, it } from "vitest";
import { navigateTree } from "@/lib/agent-session/session-tree";
import { entryCommit, listCheckpoints } from "@/lib/session/checkpoint-rows";
import { loadBranch } from "@/lib/session/context-load";
import { getSession } from "@/lib/session/store";
import { log, readTextAt } from "@/lib/vfs/git";
import { withMockStack } from "../../helpers/mock-stack";
import {
  ADA,
  projectWithSession,
  promptWriting as promptWritingWith,
  type SessionFixture,
  writeProjectFile,
} from "../../helpers/session-fixture";

const stack = withMockStack();
const author = ADA;

const promptWriting = (f: SessionFixture, text: string, files: Record<string, string>, prefix = "w") =>
  promptWritingWith(stack.mock, stack.env, f, text, files, prefix);

const roleOf = (e: { type: string; message?: unknown }) =>
  e.type === "message" ? (e.message as { role: string }).role : e.type;

async function commitsOnBranch(f: SessionFixture) {
  const leaf = (await getSession(stack.scope, f.session.id))!.leafId;
  const path = await loadBranch(stack.scope, f.session.id, leaf);
  const out: [string, string | null | undefined][] = [];
  for (const e of path) out.push([roleOf(e), await entryCommit(stack.scope, f.session.id, e.id)]);
  return { path, commits: out };
}

describe("file binding", () => {
  it("records the commit of every entry: the base before the tools, the checkpoint after them", async () => {
    const f = await projectWithSession(stack.scope, { "a.txt": "one\n" });
    await promptWriting(f, "change a", { "a.txt": "two\n" });
    const rows = await listCheckpoints(stack.scope, f.session.id);
    expect(rows.map((r) => [r.kind, r.parentOid, r.paths, r.toolCalls])).toEqual([
      ["agent", f.initCommit, ["a.txt"], { w_1: ["a.txt"] }],
    ]);
    const checkpoint = rows[0].commitOid;
    const { commits } = await commitsOnBranch(f);
    expect(commits).toEqual([
      ["model_change", f.initCommit],
      ["thinking_level_change", f.initCommit],
      ["system", f.initCommit],
      ["user", f.initCommit],
      ["assistant", f.initCommit],
      ["toolResult", f.initCommit],
      ["assistant", checkpoint],
    ]);
    const { vfs, scope: s } = f.openVfs();
    expect(await readTextAt(vfs, f.project.rootPath, checkpoint, "a.txt")).toBe("two\n");
    const [head] = await log(vfs, f.project.rootPath, checkpoint, 1);
    expect([head.author.name, head.author.email, head.parents]).toEqual([
      author.name,
      author.email,
      [f.initCommit],
    ]);
    await s.release();
  });

  it("credits each tool call of one batch with the file it wrote, whichever flushed first", async () => {
    const f = await projectWithSession(stack.scope, { "a.txt": "one\n", "b.txt": "bee\n" });
    await promptWriting(f, "both", { "a.txt": "A\n", "b.txt": "B\n", "c.txt": "C\n" });
    const [row] = await listCheckpoints(stack.scope, f.session.id);
    expect([row.paths, row.toolCalls]).toEqual([
      ["a.txt", "b.txt", "c.txt"],
      { w_1: ["a.txt"], w_2: ["b.txt"], w_3: ["c.txt"] },
    ]);
  });

  it("commits the user's edits between turns as their own checkpoint, recorded by the next prompt", async () => {
    const f = await projectWithSession(stack.scope, { "a.txt": "one\n", "b.txt": "bee\n" });
    await promptWriting(f, "first", { "a.txt": "two\n" });
    await writeProjectFile(f, "b.txt", "edited by hand\n");
    await promptWriting(f, "second", { "a.txt": "three\n" }, "x");
    const rows = await listCheckpoints(stack.scope, f.session.id);
    expect(rows.map((r) => [r.kind, r.paths])).toEqual([
      ["agent", ["a.txt"]],
      ["user", ["b.txt"]],
      ["agent", ["a.txt"]],
    ]);
    expect(rows[1].parentOid).toBe(rows[0].commitOid);
    expect(rows[2].parentOid).toBe(rows[1].commitOid);
    const { path, commits } = await commitsOnBranch(f);
    const secondUser = path.findLastIndex((e) => roleOf(e) === "user");
    expect(commits[secondUser]).toEqual(["user", rows[1].commitOid]);
    const { vfs, scope: s } = f.openVfs();
    const [userCommit] = await log(vfs, f.project.rootPath, rows[1].commitOid, 1);
    expect(userCommit.message).toBe("Strata: changes made between turns\n");
    await s.release();
  });

  it("chains a checkpoint on the commit of the branch it is written on, not on another branch's", async () => {
    const f = await projectWithSession(stack.scope, { "a.txt": "one\n" });
    await promptWriting(f, "branch A", { "a.txt": "A\n" });
    const firstUser = (await commitsOnBranch(f)).path.find((e) => roleOf(e) === "user")!;
    // pi's /tree on a user message: the leaf goes to its parent; files are moved separately (restore tests).
    await navigateTree({
      scope: stack.scope,
      sessionId: f.session.id,
      targetId: firstUser.id,
      env: stack.env,
    });
    await writeProjectFile(f, "a.txt", "one\n");
    await promptWriting(f, "branch B", { "a.txt": "B\n" }, "b");
    const rows = await listCheckpoints(stack.scope, f.session.id);
    expect(rows.map((r) => [r.kind, r.parentOid])).toEqual([
      ["agent", f.initCommit],
      ["agent", f.initCommit],
    ]);
  });
});
