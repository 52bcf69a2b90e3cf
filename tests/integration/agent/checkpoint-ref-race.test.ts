/**
 * A checkpoint whose session ref another writer moved between the checkpoint's read of `.git` and its flush (a user's
 * `!command` beside the run checkpointing on the same ref at that moment): the run's checkpoint goes on top — both
 * commits are stored, the ref names the run's, and the run does not fail. Real Postgres and git objects; the race is
 * placed exactly by a store that lets the other writer commit just before the run's flush.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckpointer, type FilesChangedEvent } from "@/lib/agent-session/checkpointer";
import { DbScope } from "@/lib/db/client";
import { log, readTextAt, resolveRef } from "@/lib/vfs/git";
import { sessionRef } from "@/lib/vfs/session-ref";
import { PgVfsStore, type VfsStore } from "@/lib/vfs/store";
import { Vfs } from "@/lib/vfs/vfs";
import { ADA, projectWithSession } from "../../helpers/session-fixture";

let scope: DbScope;

beforeAll(() => {
  scope = new DbScope();
});
afterAll(async () => {
  await scope.release();
});

describe("a checkpoint racing another writer of the session's ref", () => {
  it("goes on top: both commits are stored and the ref names the run's", async () => {
    const fixture = await projectWithSession(scope, { "a.txt": "a\n" });
    const { session } = fixture;
    const root = fixture.project.rootPath;
    const ref = `${root}/.git/${sessionRef(session.id)}`;
    let other: string | undefined;
    const s = new DbScope();
    const store = new PgVfsStore(s, fixture.actor.workspaceId);
    // Just before the run's flush that writes the ref lands, a `!command`'s checkpoint commits b.txt on that ref.
    const racing: VfsStore = {
      getMeta: (paths) => store.getMeta(paths),
      listChildren: (dirs) => store.listChildren(dirs),
      loadData: (paths) => store.loadData(paths),
      loadTree: (prefix, options) => store.loadTree(prefix, options),
      deleteTree: (path) => store.deleteTree(path),
      commit: async (changes) => {
        if (other === undefined && changes.some((c) => c.path === ref)) {
          const { vfs, scope: os } = fixture.openVfs();
          try {
            await vfs.writeFile(`${root}/b.txt`, "b\n");
            const shell = createCheckpointer({ vfs, root, session }, { emit: async () => {} });
            await shell.checkpoint();
            other = shell.head() ?? undefined;
          } finally {
            await os.release();
          }
        }
        return store.commit(changes);
      },
    };
    const vfs = new Vfs(racing);
    const events: FilesChangedEvent[] = [];
    const run = createCheckpointer(
      { vfs, root, session },
      { author: ADA, emit: async (e) => void events.push(e), base: fixture.initCommit },
    );
    try {
      await vfs.writeFile(`${root}/c.txt`, "c\n");
      await run.checkpoint();
      const mine = run.head() as string;
      expect(events).toEqual([{ type: "files_changed", paths: ["c.txt"], commit: mine }]);
      const check = fixture.openVfs();
      try {
        expect(await resolveRef(check.vfs, root, sessionRef(session.id))).toBe(mine);
        expect((await log(check.vfs, root, mine)).map((c) => c.oid)).toEqual([mine, fixture.initCommit]);
        expect(await readTextAt(check.vfs, root, mine, "c.txt")).toBe("c\n");
        expect((await log(check.vfs, root, other as string)).map((c) => c.oid)).toEqual([
          other,
          fixture.initCommit,
        ]);
        expect(await readTextAt(check.vfs, root, other as string, "b.txt")).toBe("b\n");
      } finally {
        await check.scope.release();
      }
    } finally {
      await s.release();
    }
  });
});
