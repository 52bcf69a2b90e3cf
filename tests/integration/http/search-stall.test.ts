/**
 * `GET /api/projects/:id/search` with a catastrophic regex over one big file: the 5 s budget holds inside a file
 * (the answer is capped by time with 0 of 1 files searched), and the event loop gets a turn between the lines of
 * that file (it was checked only between files, with no turn at all: one file of slow lines held the whole server
 * for as long as it took). The turns are counted, not timed: a `setImmediate` ticker runs only when the search
 * yields, and `searchProject`'s clock (its `now` option) marks where each line's budget check happens.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { GET as search } from "@/app/api/projects/[id]/search/route";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { searchProject } from "@/lib/projects/search";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";

let user: TestUser;
let scope: DbScope;
let project: { id: string; rootPath: string };
beforeAll(async () => {
  user = await createTestUser();
  scope = new DbScope();
  project = await insertProject(scope, { workspaceId: user.workspaceId, name: "redos", source: null });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(user.workspaceId, s);
  // `(a+)+$` against 23 a's and a `!`: 2^23 backtracking steps, far more than the 10 ms slice per line on any
  // machine; 400 such lines are minutes of matching in one file.
  await vfs.writeFile(`${project.rootPath}/slow.txt`, `${"a".repeat(23)}!\n`.repeat(400));
  await vfs.flush();
  await s.release();
});
afterAll(async () => {
  await scope.release();
});

it("a backtracking pattern over a file of slow lines: the route stops at the 5 s budget inside the file", async () => {
  const res = await search(asUser(user, `http://127.0.0.1/x?q=${encodeURIComponent("(a+)+$")}&regex=1`), {
    params: Promise.resolve({ id: project.id }),
  });
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
}, 60_000);

it("the event loop gets a turn between every two slow lines of one file, before each line's budget check", async () => {
  // Event-loop turns: the ticker reschedules itself with setImmediate, so it runs once per turn the search gives.
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  // The search's clock: call 0 starts the budget, call 1 is the file's check, call 2 + i is line i's check (after
  // the slice before it). Each call advances 1 virtual ms, so a 7 ms budget stops the search at line 6's check.
  const turnsAtCall: number[] = [];
  const now = () => {
    turnsAtCall.push(turns);
    return turnsAtCall.length - 1;
  };
  const s = new DbScope();
  try {
    const { vfs } = openWorkspaceVfs(user.workspaceId, s);
    const result = await searchProject(vfs, project.rootPath, {
      query: "(a+)+$",
      regex: true,
      caseSensitive: false,
      timeBudgetMs: 7,
      now,
    });
    expect(result).toEqual({
      files: [],
      matches: 0,
      searched: 0,
      capped: {
        reason: "time",
        message:
          "The search stopped after 0.007 s with 0 of 1 files searched. Use a simpler or more specific pattern.",
      },
    });
  } finally {
    ticking = false;
    await s.release();
  }
  // 6 lines matched (0–5) between the 7 line checks: each took far more than a slice, so the slice before the
  // next line yielded. Without a turn inside the file every gap would be 0.
  expect(turnsAtCall).toHaveLength(9);
  const lineChecks = turnsAtCall.slice(2);
  const gaps = lineChecks.slice(1).map((t, i) => t - lineChecks[i]);
  expect(gaps).toHaveLength(6);
  expect(gaps.filter((g) => g < 1)).toEqual([]);
}, 60_000);
