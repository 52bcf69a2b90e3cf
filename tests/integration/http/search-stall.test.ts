/**
 * `GET /api/projects/:id/search` with a catastrophic regex over one big file: the 5 s budget holds inside a file and
 * the event loop keeps turning (it was checked only between files, with no turn at all: one file of slow lines held
 * the whole server for as long as it took).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { GET as search } from "@/app/api/projects/[id]/search/route";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";

let user: TestUser;
let scope: DbScope;
beforeAll(async () => {
  user = await createTestUser();
  scope = new DbScope();
});
afterAll(async () => {
  await scope.release();
});

it("a backtracking pattern over a file of slow lines stops at the budget and never holds the loop long", async () => {
  const p = await insertProject(scope, { workspaceId: user.workspaceId, name: "redos", source: null });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(user.workspaceId, s);
  // `(a+)+$` against 22 a's and a `!`: tens of milliseconds per line; 400 lines are many seconds in one file.
  await vfs.writeFile(`${p.rootPath}/slow.txt`, `${"a".repeat(22)}!\n`.repeat(400));
  await vfs.flush();
  await s.release();

  let last = Date.now();
  let longest = 0;
  const tick = setInterval(() => {
    longest = Math.max(longest, Date.now() - last);
    last = Date.now();
  }, 5);
  const started = Date.now();
  const res = await search(asUser(user, `http://127.0.0.1/x?q=${encodeURIComponent("(a+)+$")}&regex=1`), {
    params: Promise.resolve({ id: p.id }),
  });
  const took = Date.now() - started;
  clearInterval(tick);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({
    files: [],
    matches: 0,
    searched: 0,
    capped: {
      reason: "time",
      message:
        "The search stopped after 5 s with 0 of 1 files searched. Use a simpler or more specific pattern.",
    },
  });
  expect(took).toBeLessThan(8_000);
  // One line's match (tens of ms) plus the 10 ms slice, with room for a loaded machine.
  expect(longest).toBeLessThan(500);
}, 60_000);
