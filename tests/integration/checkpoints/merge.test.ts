/**
 * Merging sessions into the main line (docs/checkpoints.md, "Merging into main"), on the real Postgres: a clean merge
 * as a merge commit of main and the session's tip; a second session's clash answered as a conflict with git's markers
 * and nothing written; its resolution merged; lines apart merged line by line; the next session starting from the
 * merged main, the merged sessions keeping their own files.
 */
import { describe, expect, it } from "vitest";
import { MergeConflictError, mergeIntoMain } from "@/lib/checkpoints/merge";
import type { SessionRow } from "@/lib/session/store";
import { log, readTextAt, resolveRef } from "@/lib/vfs/git";
import { openMainVfs } from "@/lib/vfs/workspace";
import { withMockStack } from "../../helpers/mock-stack";
import { ADA, projectWithSession, type SessionFixture } from "../../helpers/session-fixture";
import { fileOf, newSession as newSessionIn, save } from "./merge-fixture";

const stack = withMockStack();

const merge = (
  f: SessionFixture,
  session: SessionRow,
  extra: Partial<Parameters<typeof mergeIntoMain>[0]> = {},
) => mergeIntoMain({ scope: stack.scope, session, project: f.project, author: ADA, userId: null, ...extra });

const newSession = (f: SessionFixture, title: string) => newSessionIn(stack.scope, f, title);

describe("merging a session into main", () => {
  it("merges A cleanly, answers B's clash as a conflict, merges B's resolution; C starts from the merged main", async () => {
    const f = await projectWithSession(stack.scope, { "notes.md": "one\ntwo\nthree\n" });
    const a = { ...f.session, title: "A" };
    const b = await newSession(f, "B");
    await save(f, a.id, { "notes.md": "ONE\ntwo\nthree\n" });
    await save(f, b.id, { "notes.md": "uno\ntwo\nthree\n", "b.md": "from B\n" });

    const preview = await merge(f, a, { preview: true });
    expect([preview.commit, preview.conflicts, preview.files]).toEqual([
      null,
      [],
      [{ path: "notes.md", status: "modified", before: "one\ntwo\nthree\n", after: "ONE\ntwo\nthree\n" }],
    ]);
    expect(await fileOf(f, null, "notes.md")).toBe("one\ntwo\nthree\n");

    const merged = await merge(f, a);
    expect(merged.commit).toMatch(/^[0-9a-f]{40}$/);
    const { vfs, scope } = openMainVfs(f.project.workspaceId, {
      projectId: f.project.id,
      root: f.project.rootPath,
    });
    const [top] = await log(vfs, f.project.rootPath, "HEAD", 1);
    expect(top.oid).toBe(merged.commit);
    expect(top.parents).toEqual([f.initCommit, merged.tip]);
    expect(top.message).toBe(
      `Merge session "A" into main\n\nStrata session ${a.id} (/projects/${f.project.id}?session=${a.id}), merged by Ada Lovelace.\n`,
    );
    expect(await fileOf(f, null, "notes.md")).toBe("ONE\ntwo\nthree\n");
    // B still sees its own files (main moved under it without moving it).
    expect(await fileOf(f, b.id, "notes.md")).toBe("uno\ntwo\nthree\n");

    const clash = await merge(f, b, { preview: true });
    expect(clash.conflicts).toEqual([
      {
        path: "notes.md",
        base: "one\ntwo\nthree\n",
        ours: "ONE\ntwo\nthree\n",
        theirs: "uno\ntwo\nthree\n",
        marked: "<<<<<<< main\nONE\n=======\nuno\n>>>>>>> session B\ntwo\nthree\n",
        reason: "edited",
      },
    ]);
    expect(clash.files).toEqual([{ path: "b.md", status: "added", before: null, after: "from B\n" }]);
    const refused = await merge(f, b).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MergeConflictError);
    expect((refused as MergeConflictError).details).toEqual({ conflicts: clash.conflicts });
    expect(await resolveRef(vfs, f.project.rootPath, "HEAD")).toBe(merged.commit);
    expect(await fileOf(f, null, "b.md")).toBe(null);

    const resolved = await merge(f, b, { resolutions: { "notes.md": "ONE uno\ntwo\nthree\n" } });
    expect(await fileOf(f, null, "notes.md")).toBe("ONE uno\ntwo\nthree\n");
    expect(await fileOf(f, null, "b.md")).toBe("from B\n");
    expect(await readTextAt(vfs, f.project.rootPath, resolved.commit!, "notes.md")).toBe(
      "ONE uno\ntwo\nthree\n",
    );
    await scope.release();

    const c = await newSession(f, "C");
    expect(await fileOf(f, c.id, "notes.md")).toBe("ONE uno\ntwo\nthree\n");
    expect(await fileOf(f, a.id, "notes.md")).toBe("ONE\ntwo\nthree\n");
    // Merging again brings nothing new.
    expect((await merge(f, b)).commit).toBe(null);
  });

  it("merges edits of different lines of one file line by line", async () => {
    const f = await projectWithSession(stack.scope, { "notes.md": "one\ntwo\nthree\n" });
    const b = await newSession(f, "B");
    await save(f, f.session.id, { "notes.md": "ONE\ntwo\nthree\n" });
    await save(f, b.id, { "notes.md": "one\ntwo\nTHREE\n" });
    await merge(f, { ...f.session, title: "A" });
    const second = await merge(f, b);
    expect(second.conflicts).toEqual([]);
    expect(await fileOf(f, null, "notes.md")).toBe("ONE\ntwo\nTHREE\n");
  });

  it("refuses a merge reviewed against a main that has moved since (409 main_moved), writing nothing", async () => {
    const f = await projectWithSession(stack.scope, { "a.txt": "a\n", "b.txt": "b\n" });
    const a = { ...f.session, title: "A" };
    const b = await newSession(f, "B");
    await save(f, a.id, { "a.txt": "A\n" });
    await save(f, b.id, { "b.txt": "B\n" });
    const reviewed = await merge(f, a, { preview: true });
    const byB = await merge(f, b);
    const stale = await merge(f, a, { expectMain: reviewed.main! }).catch((e: unknown) => e);
    expect(stale).toMatchObject({
      status: 409,
      code: "main_moved",
      message:
        "Main changed since this review (another merge or a pull). Nothing was merged; review the merge again.",
    });
    expect(await fileOf(f, null, "a.txt")).toBe("a\n");
    const again = await merge(f, a, { expectMain: byB.commit! });
    expect(again.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await fileOf(f, null, "a.txt")).toBe("A\n");
    expect(await fileOf(f, null, "b.txt")).toBe("B\n");
  });
});
