/**
 * Moving between points with their files (docs/checkpoints.md), on real runs: two branches editing the same file,
 * switched with "both", "conversation" and "files"; unsaved buffers kept and brought back by undo; reverting one
 * file of a turn (clean, three-way, conflicting); forks holding the path and the files of their point; and a restore
 * racing another writer never loses either side.
 */

import { describe, expect, it } from "vitest";
import { createCheckpointer } from "@/lib/agent-session/checkpointer";
import { branchTurnChanges, diffCommits, fileAtCommits } from "@/lib/checkpoints/changes";
import { forkWithFiles } from "@/lib/checkpoints/fork";
import { restoreSessionPoint, undoRestore } from "@/lib/checkpoints/restore";
import { RevertConflictError, revertChanges } from "@/lib/checkpoints/revert";
import { entryCommit, listCheckpoints } from "@/lib/session/checkpoint-rows";
import { loadBranch } from "@/lib/session/context-load";
import type { SessionEntry } from "@/lib/session/entries";
import { getSession } from "@/lib/session/store";
import { log, readTextAt } from "@/lib/vfs/git";
import { openSessionVfs } from "@/lib/vfs/workspace";
import { withMockStack } from "../../helpers/mock-stack";
import {
  ADA,
  projectWithSession,
  promptWriting as promptWritingWith,
  readProjectFile,
  type SessionFixture,
  writeProjectFile,
} from "../../helpers/session-fixture";

const stack = withMockStack();
const author = ADA;

const promptWriting = (f: SessionFixture, text: string, files: Record<string, string>, prefix = "w") =>
  promptWritingWith(stack.mock, stack.env, f, text, files, prefix);

const roleOf = (e: SessionEntry) => (e.type === "message" ? (e.message as { role: string }).role : e.type);
const leafOf = async (f: SessionFixture) => (await getSession(stack.scope, f.session.id))!.leafId;
const branchOf = async (f: SessionFixture) => loadBranch(stack.scope, f.session.id, await leafOf(f));
const restore = (f: SessionFixture, entryId: string, mode: "both" | "conversation" | "files", extra = {}) =>
  restoreSessionPoint({
    scope: stack.scope,
    sessionId: f.session.id,
    entryId,
    mode,
    env: stack.env,
    author,
    userId: null,
    ...extra,
  });

/** A session with branch A (a.txt = "A\n") and branch B (a.txt = "B\n") from the same first point. */
async function twoBranches() {
  const f = await projectWithSession(stack.scope, { "a.txt": "one\n", "b.txt": "bee\n" });
  await promptWriting(f, "make it A", { "a.txt": "A\n" });
  const branchA = await branchOf(f);
  const userA = branchA.find((e) => roleOf(e) === "user")!;
  const leafA = branchA[branchA.length - 1];
  const back = await restore(f, userA.id, "both");
  expect([back.leafId, back.editorText, back.changed, back.keptCommit]).toEqual([
    userA.parentId,
    "make it A",
    ["a.txt"],
    null,
  ]);
  expect(await readProjectFile(f, "a.txt")).toBe("one\n");
  await promptWriting(f, "make it B", { "a.txt": "B\n" }, "b");
  const branchB = await branchOf(f);
  return { f, userA, leafA, leafB: branchB[branchB.length - 1] };
}

describe("restore", () => {
  it("switches files and conversation between two branches, each way, and conversation only leaves files", async () => {
    const { f, leafA, leafB } = await twoBranches();
    const toA = await restore(f, leafA.id, "both");
    expect([toA.leafId, toA.changed, await readProjectFile(f, "a.txt")]).toEqual([
      leafA.id,
      ["a.txt"],
      "A\n",
    ]);
    const toB = await restore(f, leafB.id, "both");
    expect([toB.leafId, toB.changed, await readProjectFile(f, "a.txt")]).toEqual([
      leafB.id,
      ["a.txt"],
      "B\n",
    ]);
    const talk = await restore(f, leafA.id, "conversation");
    expect([talk.leafId, talk.changed, await readProjectFile(f, "a.txt")]).toEqual([leafA.id, [], "B\n"]);
    // Undo of the conversation move: back to B's leaf, files as they are.
    const undone = await undoRestore({
      scope: stack.scope,
      sessionId: f.session.id,
      restoreId: talk.restoreId!,
      env: stack.env,
      author,
      userId: null,
    });
    expect([undone.leafId, await readProjectFile(f, "a.txt")]).toEqual([leafB.id, "B\n"]);
  });

  it("keeps an unsaved buffer and uncommitted edits as a commit of the branch left, and undo brings them back", async () => {
    const { f, leafA, leafB } = await twoBranches();
    await writeProjectFile(f, "b.txt", "saved but not committed\n");
    const moved = await restore(f, leafA.id, "both", {
      buffers: [{ path: "a.txt", content: "unsaved B\n" }],
    });
    expect(moved.changed).toEqual(["a.txt", "b.txt"]);
    expect([await readProjectFile(f, "a.txt"), await readProjectFile(f, "b.txt")]).toEqual(["A\n", "bee\n"]);
    const { vfs, scope: s } = f.openVfs();
    const kept = moved.keptCommit!;
    expect(await readTextAt(vfs, f.project.rootPath, kept, "a.txt")).toBe("unsaved B\n");
    expect(await readTextAt(vfs, f.project.rootPath, kept, "b.txt")).toBe("saved but not committed\n");
    await s.release();
    // Two kept commits on B's point: the files as stored (b.txt), then the unsaved buffer (a.txt).
    const rows = (await listCheckpoints(stack.scope, f.session.id)).filter((r) => r.kind === "kept");
    expect(rows.map((r) => [r.parentOid, r.paths])).toEqual([
      [await entryCommit(stack.scope, f.session.id, leafB.id), ["b.txt"]],
      [rows[0].commitOid, ["a.txt"]],
    ]);
    expect(rows[1].commitOid).toBe(kept);
    const undone = await undoRestore({
      scope: stack.scope,
      sessionId: f.session.id,
      restoreId: moved.restoreId!,
      env: stack.env,
      author,
      userId: null,
    });
    expect(undone.leafId).toBe(leafB.id);
    expect([await readProjectFile(f, "a.txt"), await readProjectFile(f, "b.txt")]).toEqual([
      "unsaved B\n",
      "saved but not committed\n",
    ]);
    // The undo is a restore too: undoing it goes back to A.
    const again = await undoRestore({
      scope: stack.scope,
      sessionId: f.session.id,
      restoreId: undone.restoreId!,
      env: stack.env,
      author,
      userId: null,
    });
    expect([again.leafId, await readProjectFile(f, "a.txt")]).toEqual([leafA.id, "A\n"]);
  });

  it("discards uncommitted edits only when asked", async () => {
    const { f, leafA } = await twoBranches();
    await writeProjectFile(f, "b.txt", "throw away\n");
    const moved = await restore(f, leafA.id, "both", { discard: true });
    expect([moved.keptCommit, await readProjectFile(f, "b.txt")]).toEqual([null, "bee\n"]);
  });

  it("files only: the leaf stays, a custom entry records the restored commit", async () => {
    const { f, leafA, leafB } = await twoBranches();
    const moved = await restore(f, leafA.id, "files");
    expect(await readProjectFile(f, "a.txt")).toBe("A\n");
    const branch = await branchOf(f);
    const last = branch[branch.length - 1];
    expect(last.parentId).toBe(leafB.id);
    expect(last).toMatchObject({
      type: "custom",
      customType: "strata.checkpoint",
      data: { kind: "restore" },
    });
    expect(moved.leafId).toBe(last.id);
    expect(await entryCommit(stack.scope, f.session.id, last.id)).toBe(
      await entryCommit(stack.scope, f.session.id, leafA.id),
    );
  });
});

describe("changes and revert", () => {
  it("reports each turn's files with line counts, and reverts one file of a turn as a new checkpoint", async () => {
    const f = await projectWithSession(stack.scope, { "a.txt": "1\n2\n3\n", "b.txt": "x\n" });
    await promptWriting(f, "edit both", { "a.txt": "1\ntwo\n3\nfour\n", "b.txt": "y\n" });
    const turns = await branchTurnChanges(stack.scope, f.session.id, await leafOf(f));
    expect(turns.map((t) => t.files)).toEqual([
      [
        { path: "a.txt", status: "modified", additions: 2, deletions: 1, binary: false },
        { path: "b.txt", status: "modified", additions: 1, deletions: 1, binary: false },
      ],
    ]);
    // The chat matches a turn by its user message's timestamp; tool calls that wrote are listed with their files.
    const user = (await branchOf(f)).find((e) => roleOf(e) === "user")!;
    expect(turns[0].userEntryId).toBe(user.id);
    expect(turns[0].userTimestamp).toBe((user as { message: { timestamp: number } }).message.timestamp);
    // (Tools of one batch run together, so the batch's first flush may take the other call's file too.)
    expect(Object.values(turns[0].toolCalls).flat().sort()).toEqual(["a.txt", "b.txt"]);
    expect(Object.keys(turns[0].toolCalls)).toContain("w_1");
    const { vfs, scope: s } = f.openVfs();
    expect(await fileAtCommits(vfs, f.project.rootPath, turns[0].from, turns[0].to, "a.txt")).toEqual({
      before: "1\n2\n3\n",
      after: "1\ntwo\n3\nfour\n",
      binary: false,
    });
    await s.release();
    const reverted = await revertChanges({
      scope: stack.scope,
      sessionId: f.session.id,
      from: turns[0].from,
      to: turns[0].to!,
      path: "b.txt",
      author,
      userId: null,
      label: "turn",
    });
    expect(reverted.paths).toEqual(["b.txt"]);
    expect([await readProjectFile(f, "a.txt"), await readProjectFile(f, "b.txt")]).toEqual([
      "1\ntwo\n3\nfour\n",
      "x\n",
    ]);
    expect((await listCheckpoints(stack.scope, f.session.id)).at(-1)).toMatchObject({
      kind: "revert",
      paths: ["b.txt"],
    });
    const { vfs: v2, scope: s2 } = f.openVfs();
    expect((await diffCommits(v2, f.project.rootPath, turns[0].to, reverted.commit)).files).toEqual([
      { path: "b.txt", status: "modified", additions: 1, deletions: 1, binary: false },
    ]);
    await s2.release();
    // The revert recorded on the turn's leaf is not part of the turn: it still shows what the agent changed.
    const after = await branchTurnChanges(stack.scope, f.session.id, await leafOf(f));
    expect(after.map((t) => [t.lastEntryId, t.to, t.files.map((x) => x.path)])).toEqual([
      [turns[0].lastEntryId, turns[0].to, ["a.txt", "b.txt"]],
    ]);
    // The turn says what stands reverted (a reload shows it), with the base an undo reverts from.
    expect(turns[0].reverts).toEqual([]);
    expect(after[0].reverts).toEqual([
      { entryId: reverted.entryId, commit: reverted.commit, base: turns[0].to, paths: ["b.txt"] },
    ]);
    // Undo = revert the revert (base→commit): b.txt is the agent's again, and the turn has no standing revert.
    const undo = await revertChanges({
      scope: stack.scope,
      sessionId: f.session.id,
      from: after[0].reverts[0].base,
      to: after[0].reverts[0].commit,
      author,
      userId: null,
      label: "revert",
    });
    expect(undo.paths).toEqual(["b.txt"]);
    expect(await readProjectFile(f, "b.txt")).toBe("y\n");
    const undone = await branchTurnChanges(stack.scope, f.session.id, await leafOf(f));
    expect(undone.map((t) => t.reverts)).toEqual([[]]);
    // Undoing the undo stands the first revert again.
    const redo = await revertChanges({
      scope: stack.scope,
      sessionId: f.session.id,
      from: reverted.commit,
      to: undo.commit,
      author,
      userId: null,
      label: "undo",
    });
    expect(await readProjectFile(f, "b.txt")).toBe("x\n");
    const again = await branchTurnChanges(stack.scope, f.session.id, await leafOf(f));
    expect(again[0].reverts).toEqual([
      { entryId: reverted.entryId, commit: reverted.commit, base: turns[0].to, paths: ["b.txt"] },
    ]);
    expect(redo.paths).toEqual(["b.txt"]);
  });

  it("reverts three-way around later edits, and refuses a conflicting revert writing nothing", async () => {
    const f = await projectWithSession(stack.scope, { "a.txt": "1\n2\n3\n4\n5\n6\n7\n8\n9\n" });
    await promptWriting(f, "edit", { "a.txt": "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n" });
    const [turn] = await branchTurnChanges(stack.scope, f.session.id, await leafOf(f));
    await writeProjectFile(f, "a.txt", "1\nTWO\n3\n4\n5\n6\n7\n8\nNINE\n");
    await revertChanges({
      scope: stack.scope,
      sessionId: f.session.id,
      from: turn.from,
      to: turn.to!,
      author,
      userId: null,
      label: "turn",
    });
    expect(await readProjectFile(f, "a.txt")).toBe("1\n2\n3\n4\n5\n6\n7\n8\nNINE\n");
    // Now the same lines changed again: the revert of the turn cannot apply.
    await writeProjectFile(f, "a.txt", "1\nzwei\n3\n4\n5\n6\n7\n8\nNINE\n");
    const error = await revertChanges({
      scope: stack.scope,
      sessionId: f.session.id,
      from: turn.from,
      to: turn.to!,
      author,
      userId: null,
      label: "turn",
    }).catch((e) => e);
    expect(error).toBeInstanceOf(RevertConflictError);
    expect((error as Error).message).toBe(
      "Cannot revert a.txt: changed again since, in the same lines. Nothing was reverted; edit it by hand or restore an earlier point.",
    );
    expect(await readProjectFile(f, "a.txt")).toBe("1\nzwei\n3\n4\n5\n6\n7\n8\nNINE\n");
  });
});

describe("fork with files", () => {
  it("holds exactly the path up to an assistant message, and the files at that point, in its own working tree", async () => {
    const { f, leafA, leafB } = await twoBranches();
    const pathA = await loadBranch(stack.scope, f.session.id, leafA.id);
    const forked = await forkWithFiles({
      scope: stack.scope,
      sessionId: f.session.id,
      entryId: leafA.id,
      files: true,
      author,
      userId: null,
    });
    const copied = await loadBranch(stack.scope, forked.session.id, forked.session.leafId);
    expect(copied.map((e) => e.id)).toEqual(pathA.map((e) => e.id));
    const forkFile = async () => {
      const { vfs, scope } = openSessionVfs(f.project, forked.session.id);
      try {
        return await vfs.readText(`${f.project.rootPath}/a.txt`);
      } finally {
        await scope.release();
      }
    };
    expect(await forkFile()).toBe("A\n");
    // The source session's files are its own: still branch B's.
    expect(await readProjectFile(f, "a.txt")).toBe("B\n");
    expect(await leafOf(f)).toBe(leafB.id);
    expect(await entryCommit(stack.scope, forked.session.id, leafA.id)).toBe(
      await entryCommit(stack.scope, f.session.id, leafA.id),
    );
    // Undo of the fork's file switch brings back what the new working tree held: the main line's file.
    await undoRestore({
      scope: stack.scope,
      sessionId: forked.session.id,
      restoreId: forked.restoreId!,
      env: stack.env,
      author,
      userId: null,
    });
    expect(await forkFile()).toBe("one\n");
    expect(await readProjectFile(f, "a.txt")).toBe("B\n");
  });
});

describe("a restore racing another writer", () => {
  it("never loses the writer's file or the restore's target, whichever lands first", async () => {
    const { f, leafA } = await twoBranches();
    for (let i = 0; i < 6; i++) {
      const text = `agent write ${i}\n`;
      const { vfs, scope: s } = f.openVfs();
      // The other writer read b.txt before the restore (a tool of another session's run) and writes it now or later.
      await vfs.readText(`${f.project.rootPath}/b.txt`);
      const writer = (async () => {
        await new Promise((r) => setTimeout(r, (i % 3) * 15));
        await vfs.writeFile(`${f.project.rootPath}/b.txt`, text);
        const cp = createCheckpointer(
          { vfs, root: f.project.rootPath, session: { id: "other" } },
          { emit: async () => {} },
        );
        await cp.flush();
      })();
      const target = i % 2 === 0 ? leafA.id : (await leafOf(f))!;
      const [moved] = await Promise.all([
        restore(f, target, "both", { buffers: [{ path: "b.txt", content: `buffer ${i}\n` }] }),
        writer,
      ]);
      await s.release();
      const now = await readProjectFile(f, "b.txt");
      const { vfs: v, scope: s2 } = f.openVfs();
      // What the restore kept: the stored files, then the buffer on top (newest first).
      const keptChain = moved.keptCommit ? await log(v, f.project.rootPath, moved.keptCommit, 2) : [];
      const kept: string[] = [];
      for (const c of keptChain) kept.push(await readTextAt(v, f.project.rootPath, c.oid, "b.txt"));
      await s2.release();
      // The writer's text is in the working tree (it landed last) or kept by the restore (it landed first).
      expect([now, ...kept]).toContain(text);
      // The user's buffer is always kept.
      expect(kept[0]).toBe(`buffer ${i}\n`);
    }
  });
});
