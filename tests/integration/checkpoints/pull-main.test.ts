/**
 * Bringing main into a session (docs/checkpoints.md, "Bringing main into a session"), on the real Postgres: a clean
 * pull as a merge commit on the session's branch (main and other sessions untouched), recorded as a `pull` checkpoint
 * bound to the leaf; a clash answered as a conflict with the session's side first and nothing written; its
 * resolution; a session that already has main gets nothing.
 */
import { describe, expect, it } from "vitest";
import { pointCommit } from "@/lib/agent-session/file-state";
import { MergeConflictError, mergeIntoMain } from "@/lib/checkpoints/merge";
import { pullMainIntoSession } from "@/lib/checkpoints/pull-main";
import { listCheckpoints } from "@/lib/session/checkpoint-rows";
import { getSession, type SessionRow } from "@/lib/session/store";
import { log } from "@/lib/vfs/git";
import { openSessionVfs } from "@/lib/vfs/workspace";
import { withMockStack } from "../../helpers/mock-stack";
import { ADA, projectWithSession, type SessionFixture } from "../../helpers/session-fixture";
import { fileOf, newSession, save } from "./merge-fixture";

const stack = withMockStack();

const input = (
  f: SessionFixture,
  session: SessionRow,
  extra: { preview?: boolean } & Record<string, unknown> = {},
) => ({
  scope: stack.scope,
  session,
  project: f.project,
  author: ADA,
  userId: null,
  ...extra,
});

describe("bringing main into a session", () => {
  it("merges main's change into the session's files only, as a pull checkpoint on its leaf; again brings nothing", async () => {
    const f = await projectWithSession(stack.scope, { "notes.md": "one\ntwo\nthree\n" });
    const a = { ...f.session, title: "A" };
    const b = await newSession(stack.scope, f, "B");
    const c = await newSession(stack.scope, f, "C");
    await save(f, a.id, { "notes.md": "ONE\ntwo\nthree\n" });
    await save(f, b.id, { "notes.md": "one\ntwo\nTHREE\n", "b.md": "from B\n" });
    const merged = await mergeIntoMain(input(f, a));

    const preview = await pullMainIntoSession(input(f, b, { preview: true }));
    expect([preview.commit, preview.main, preview.base, preview.conflicts, preview.files]).toEqual([
      null,
      merged.commit,
      f.initCommit,
      [],
      [{ path: "notes.md", status: "modified", before: "one\ntwo\nTHREE\n", after: "ONE\ntwo\nTHREE\n" }],
    ]);
    expect(preview.mainCommits.map((m) => [m.title, m.author]).sort()).toEqual([
      ['Merge session "A" into main', "Ada Lovelace"],
      ["Strata: changes made between turns", "Ada Lovelace"],
    ]);
    expect(await fileOf(f, b.id, "notes.md")).toBe("one\ntwo\nTHREE\n");

    const pulled = await pullMainIntoSession(input(f, b));
    expect(pulled.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await fileOf(f, b.id, "notes.md")).toBe("ONE\ntwo\nTHREE\n");
    expect(await fileOf(f, b.id, "b.md")).toBe("from B\n");
    // Main and the session that never pulled stay as they were.
    expect(await fileOf(f, null, "notes.md")).toBe("ONE\ntwo\nthree\n");
    expect(await fileOf(f, null, "b.md")).toBe(null);
    expect(await fileOf(f, c.id, "notes.md")).toBe("one\ntwo\nthree\n");

    const { vfs, scope } = openSessionVfs(f.project, b.id);
    const [top] = await log(vfs, f.project.rootPath, pulled.commit!, 1);
    await scope.release();
    expect(top.parents).toEqual([pulled.tip, merged.commit]);
    expect(top.message).toBe(
      `Merge main into session "B"\n\nStrata session ${b.id}: main at ${merged.commit} brought in by Ada Lovelace.\n`,
    );
    const row = (await listCheckpoints(stack.scope, b.id)).find((r) => r.commitOid === pulled.commit);
    expect([row?.kind, row?.parentOid, row?.paths]).toEqual(["pull", pulled.tip, ["notes.md"]]);
    // The leaf is bound to the merge commit: the next prompt sees no change between turns.
    const leaf = (await getSession(stack.scope, b.id))?.leafId ?? null;
    const files = { vfs, root: f.project.rootPath, session: { id: b.id } };
    expect(await pointCommit(stack.scope, files, leaf)).toBe(pulled.commit);

    const again = await pullMainIntoSession(input(f, { ...b, leafId: leaf }));
    expect([again.commit, again.files, again.mainCommits]).toEqual([null, [], []]);
    // B merges into main now without a conflict: main gets B's lines and file.
    const back = await mergeIntoMain(input(f, { ...b, leafId: leaf }));
    expect(back.conflicts).toEqual([]);
    expect(await fileOf(f, null, "notes.md")).toBe("ONE\ntwo\nTHREE\n");
    expect(await fileOf(f, null, "b.md")).toBe("from B\n");
  });

  it("answers a clash as a conflict (the session's side first), writes nothing, then takes the resolution", async () => {
    const f = await projectWithSession(stack.scope, { "notes.md": "one\ntwo\n" });
    const a = { ...f.session, title: "A" };
    const b = await newSession(stack.scope, f, "B");
    await save(f, a.id, { "notes.md": "ONE\ntwo\n" });
    await save(f, b.id, { "notes.md": "uno\ntwo\n" });
    await mergeIntoMain(input(f, a));

    const refused = await pullMainIntoSession(input(f, b)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MergeConflictError);
    expect((refused as MergeConflictError).details).toEqual({
      conflicts: [
        {
          path: "notes.md",
          base: "one\ntwo\n",
          ours: "uno\ntwo\n",
          theirs: "ONE\ntwo\n",
          marked: "<<<<<<< session B\nuno\n=======\nONE\n>>>>>>> main\ntwo\n",
          reason: "edited",
        },
      ],
    });
    expect(await fileOf(f, b.id, "notes.md")).toBe("uno\ntwo\n");

    const resolved = await pullMainIntoSession(
      input(f, b, { resolutions: { "notes.md": "uno ONE\ntwo\n" } }),
    );
    expect(resolved.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await fileOf(f, b.id, "notes.md")).toBe("uno ONE\ntwo\n");
    expect(await fileOf(f, null, "notes.md")).toBe("ONE\ntwo\n");
  });

  it("a merged session brings main in without a false conflict, and gets what a later merge put on main", async () => {
    const f = await projectWithSession(stack.scope, { "notes.md": "base\n" });
    const a = { ...f.session, title: "A" };
    const b = await newSession(stack.scope, f, "B");
    await save(f, a.id, { "notes.md": "from A\n" });
    await mergeIntoMain(input(f, a));
    // The merge bound A's work to its leaf: A has everything main has.
    const leafA = async () => ({ ...a, leafId: (await getSession(stack.scope, a.id))?.leafId ?? null });
    const nothing = await pullMainIntoSession(input(f, await leafA(), { preview: true }));
    // Only the merge commit itself, which changes no file of A's.
    expect([nothing.conflicts, nothing.files, nothing.mainCommits.map((c) => c.title)]).toEqual([
      [],
      [],
      ['Merge session "A" into main'],
    ]);

    await save(f, b.id, { "notes.md": "from B\n" });
    await mergeIntoMain(input(f, b, { resolutions: { "notes.md": "from A and B\n" } }));
    const pulled = await pullMainIntoSession(input(f, await leafA()));
    expect([pulled.conflicts, pulled.files.map((x) => [x.path, x.before, x.after])]).toEqual([
      [],
      [["notes.md", "from A\n", "from A and B\n"]],
    ]);
    expect(await fileOf(f, a.id, "notes.md")).toBe("from A and B\n");
    expect((await mergeIntoMain(input(f, await leafA()))).commit).toBe(null);
  });
});
