/**
 * Hostile input to the checkpoint operations (docs/checkpoints.md, docs/security.md): editor buffers aimed at `.git`
 * or through a symlink out of the project, and commits whose trees name `.git` or `..` (objects a refused pull leaves
 * in the repository: it flushes what it fetched before checking paths) reverted, restored or downloaded; commit ids of
 * another project and non-commit objects. Each must refuse with nothing written and nothing of the other side shown.
 * Texts too different to line-diff within the time limit get null `+/-` counts, and a change of many such files gives
 * the event loop a turn between their diffs (turns counted with a `setImmediate` ticker, not timed).
 */
import * as git from "isomorphic-git";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { diffCommits, MAX_DIFF_BYTES, sessionChanges } from "@/lib/checkpoints/changes";
import { restoreSessionPoint, undoRestore } from "@/lib/checkpoints/restore";
import { revertChanges } from "@/lib/checkpoints/revert";
import { DbScope } from "@/lib/db/client";
import { errorResponse } from "@/lib/http/errors";
import { buildProjectArchive } from "@/lib/remote/archive";
import { commitAll } from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import { ADA, projectWithSession, readProjectFile, type SessionFixture } from "../../helpers/session-fixture";

/**
 * The line diffs of the code under test (the `diff` package's `diffLines`, wrapped): while `turns` is set, each call
 * is recorded as the event-loop turns counted when it started and when it returned.
 */
const diffProbe = vi.hoisted(() => ({
  turns: undefined as (() => number) | undefined,
  calls: [] as { start: number; end: number }[],
}));
vi.mock("diff", async (importOriginal) => {
  const actual = await importOriginal<typeof import("diff")>();
  const diffLines = (...args: unknown[]) => {
    const start = diffProbe.turns?.();
    try {
      return (actual.diffLines as (...a: unknown[]) => unknown)(...args);
    } finally {
      if (start !== undefined && diffProbe.turns) diffProbe.calls.push({ start, end: diffProbe.turns() });
    }
  };
  return { ...actual, diffLines };
});

let scope: DbScope;
beforeAll(() => {
  scope = new DbScope();
});
afterAll(async () => {
  await scope.release();
});

const restore = (f: SessionFixture, extra: Record<string, unknown>) =>
  restoreSessionPoint({
    scope,
    sessionId: f.session.id,
    entryId: "",
    mode: "files",
    env: {},
    author: ADA,
    userId: null,
    ...extra,
  });

/** The route layer's answer to what `run` throws: status and `error` body. */
async function answerOf(run: Promise<unknown>): Promise<[number, { code: string; message: string }]> {
  const res = errorResponse(
    await run.then(
      () => new Error("resolved"),
      (e) => e,
    ),
  );
  return [res.status, ((await res.json()) as { error: { code: string; message: string } }).error];
}

async function rawFile(f: SessionFixture, abs: string): Promise<string | null> {
  const { vfs, scope: s } = f.openVfs();
  try {
    return await vfs.readText(abs).catch(() => null);
  } finally {
    await s.release();
  }
}

/**
 * A commit in `f`'s repository whose tree holds `bad` (a tree entry name: `.git`, `..`) with a file `name` inside,
 * and `ok.txt` — what a pull from a hostile remote leaves behind. Raw tree objects, so no name is validated.
 */
async function hostileCommit(f: SessionFixture, bad: string, name: string, text: string): Promise<string> {
  const { vfs, scope: s } = f.openVfs();
  try {
    const fs = createGitFs(vfs);
    const gitdir = `${f.project.rootPath}/.git`;
    const blob = await git.writeBlob({ fs, gitdir, blob: new TextEncoder().encode(text) });
    const ok = await git.writeBlob({ fs, gitdir, blob: new TextEncoder().encode("ok\n") });
    const entry = (mode: string, n: string, oid: string) =>
      Buffer.concat([Buffer.from(`${mode} ${n}\0`), Buffer.from(oid, "hex")]);
    const inner = await git.writeObject({
      fs,
      gitdir,
      type: "tree",
      format: "content",
      object: entry("100644", name, blob),
    });
    const top = await git.writeObject({
      fs,
      gitdir,
      type: "tree",
      format: "content",
      object: Buffer.concat([entry("40000", bad, inner), entry("100644", "ok.txt", ok)]),
    });
    const who = { name: "m", email: "m@x", timestamp: 1, timezoneOffset: 0 };
    const oid = await git.writeCommit({
      fs,
      gitdir,
      commit: { message: "hostile\n", tree: top, parent: [], author: who, committer: who },
    });
    await vfs.flush();
    return oid;
  } finally {
    await s.release();
  }
}

describe("restore buffers", () => {
  it("refuses a buffer aimed into .git, nothing written", async () => {
    const f = await projectWithSession(scope, { "a.txt": "one\n" });
    const before = await rawFile(f, `${f.project.rootPath}/.git/HEAD`);
    const [status, body] = await answerOf(
      restore(f, { entryId: null, buffers: [{ path: ".git/HEAD", content: "ref: refs/heads/pwned\n" }] }),
    );
    expect([status, body.code]).toEqual([400, "path_escape"]);
    expect(await rawFile(f, `${f.project.rootPath}/.git/HEAD`)).toBe(before);
    await expect(
      restore(f, { entryId: null, buffers: [{ path: "./.git/config", content: "x" }] }),
    ).rejects.toMatchObject({ code: "EACCES" });
    expect(await readProjectFile(f, "a.txt")).toBe("one\n");
  });

  it("refuses a buffer written through a symlink out of the project, nothing written there", async () => {
    const f = await projectWithSession(scope, { "a.txt": "one\n" });
    const victim = await projectWithSession(scope, { "v.txt": "victim\n" });
    const { vfs, scope: s } = f.openVfs();
    await vfs.symlink(victim.project.rootPath, `${f.project.rootPath}/out`);
    await vfs.flush();
    await s.release();
    await expect(
      restore(f, { entryId: null, buffers: [{ path: "out/planted.txt", content: "planted\n" }] }),
    ).rejects.toMatchObject({ name: "PathEscapeError" });
    expect(await readProjectFile(victim, "planted.txt")).toBeNull();
  });
});

describe("hostile commits", () => {
  it("a revert from a commit whose tree has .git/config writes nothing into .git", async () => {
    const f = await projectWithSession(scope, { "a.txt": "one\n" });
    const config = await rawFile(f, `${f.project.rootPath}/.git/config`);
    const evil = await hostileCommit(f, ".git", "config", "[core]\n\tpwned = true\n");
    const revert = (from: string, to: string) =>
      revertChanges({ scope, sessionId: f.session.id, from, to, author: ADA, userId: null, label: "x" });
    expect(await answerOf(revert(evil, f.initCommit))).toEqual([
      422,
      {
        code: "unsafe_path",
        message: `Commit ${evil}..${f.initCommit} has an unsafe path (.git, .. or a separator in a name); it cannot be compared, reverted or restored.`,
      },
    ]);
    expect(await rawFile(f, `${f.project.rootPath}/.git/config`)).toBe(config);
    // The same commit as a download: refused, no `.git/config` entry handed out.
    const { vfs, scope: s } = f.openVfs();
    expect(
      await answerOf(buildProjectArchive(vfs, { rootPath: f.project.rootPath, name: "demo" }, evil)),
    ).toEqual([
      422,
      {
        code: "unsafe_path",
        message: `Commit ${evil.slice(0, 7)} has an unsafe path (.git, .. or a separator in a name); it cannot be downloaded.`,
      },
    ]);
    await s.release();
  });

  it("a revert from a commit whose tree has a `..` folder writes nothing outside the project", async () => {
    const f = await projectWithSession(scope, { "a.txt": "one\n" });
    const evil = await hostileCommit(f, "..", "escaped.txt", "escaped\n");
    const outside = `${f.project.rootPath.replace(/\/[^/]+$/, "")}/escaped.txt`;
    const [status, body] = await answerOf(
      revertChanges({
        scope,
        sessionId: f.session.id,
        from: evil,
        to: f.initCommit,
        author: ADA,
        userId: null,
        label: "x",
      }),
    );
    expect([status, body.code]).toEqual([422, "unsafe_path"]);
    expect(await rawFile(f, outside)).toBeNull();
    const [status2, body2] = await answerOf(
      sessionChanges(scope, f.session.id, { from: f.initCommit, to: evil }),
    );
    expect([status2, body2.code]).toEqual([422, "unsafe_path"]);
  });
});

describe("commit ids that are not this project's commits", () => {
  it("another project's commit answers 404 naming none of its files", async () => {
    const mine = await projectWithSession(scope, { "a.txt": "one\n" });
    const other = await projectWithSession(scope, { "secret-plan.txt": "the other team's secret\n" });
    const err = await sessionChanges(scope, mine.session.id, {
      from: mine.initCommit,
      to: other.initCommit,
      path: "secret-plan.txt",
    }).catch((e) => e);
    expect([err.status, err.code]).toEqual([404, "not_found"]);
    expect(err.message).not.toContain("secret");
    // Reverting with it: the 404 the docs promise (was a 500 `internal` and a console line), nothing written.
    const reverted = await answerOf(
      revertChanges({
        scope,
        sessionId: mine.session.id,
        from: other.initCommit,
        to: mine.initCommit,
        author: ADA,
        userId: null,
        label: "x",
      }),
    );
    expect(reverted).toEqual([
      404,
      {
        code: "not_found",
        message: `Commit ${other.initCommit}..${mine.initCommit} is not in this project's history.`,
      },
    ]);
    expect(await readProjectFile(mine, "secret-plan.txt")).toBeNull();
  });

  it("a blob id given as a commit answers 404, not a 500", async () => {
    const f = await projectWithSession(scope, { "a.txt": "one\n" });
    const blob = (await git.hashBlob({ object: new TextEncoder().encode("one\n") })).oid;
    expect(await answerOf(sessionChanges(scope, f.session.id, { from: blob, to: f.initCommit }))).toEqual([
      404,
      { code: "not_found", message: `Commit ${blob}..${f.initCommit} is not in this project's history.` },
    ]);
  });
});

describe("untracked symlinks in the working tree", () => {
  /**
   * `init` holds `g/planted.txt`; a second commit deletes it; then the working tree gets `g` as a symlink to `.git`
   * (the shell allows links into `.git`: "every write through it is refused") and a `.gitignore` naming `g`, so the
   * kept commit of a restore leaves the link out and a checkout of `init` would write `g/planted.txt` through it.
   */
  async function linkedIntoGit() {
    const f = await projectWithSession(scope, {
      "a.txt": "one\n",
      "g/planted.txt": "[core]\n\tplanted = 1\n",
    });
    const { vfs, scope: s } = f.openVfs();
    const root = f.project.rootPath;
    await vfs.unlink(`${root}/g/planted.txt`);
    await vfs.rmdir(`${root}/g`);
    const without = await commitAll(vfs, root, { message: "drop g", author: { name: "t", email: "t@x" } });
    await vfs.writeFile(`${root}/.gitignore`, "g\n");
    await vfs.symlink(".git", `${root}/g`);
    await vfs.flush();
    await s.release();
    return { f, without };
  }

  it("a restore refuses to write a file below a symlinked folder (into .git), nothing written", async () => {
    const { f } = await linkedIntoGit();
    const [status, body] = await answerOf(
      restore(f, { entryId: null, commit: f.initCommit, exactLeaf: true }),
    );
    expect([status, body]).toEqual([
      400,
      {
        code: "einval",
        message: `EINVAL: refusing to write '${f.project.rootPath}/g/planted.txt': 'g' is a symbolic link (git does not check out beyond one). Remove or rename it, then try again.`,
      },
    ]);
    expect(await rawFile(f, `${f.project.rootPath}/.git/planted.txt`)).toBeNull();
  });

  it("a revert refuses the same, nothing written", async () => {
    const { f, without } = await linkedIntoGit();
    const [status, body] = await answerOf(
      revertChanges({
        scope,
        sessionId: f.session.id,
        from: f.initCommit,
        to: without,
        author: ADA,
        userId: null,
        label: "x",
      }),
    );
    expect([status, body.code]).toEqual([400, "einval"]);
    expect(await rawFile(f, `${f.project.rootPath}/.git/planted.txt`)).toBeNull();
  });
});

describe("undo", () => {
  it("undoes a restore once; a second undo of it answers 409 and changes nothing; the undo itself can be undone", async () => {
    const f = await projectWithSession(scope, { "a.txt": "one\n" });
    const moved = await restore(f, { entryId: null, commit: null, exactLeaf: true });
    expect([moved.changed, await readProjectFile(f, "a.txt")]).toEqual([["a.txt"], null]);
    const undo = (restoreId: string) =>
      undoRestore({ scope, sessionId: f.session.id, restoreId, env: {}, author: ADA, userId: null });
    const first = await undo(moved.restoreId!);
    expect([first.changed, await readProjectFile(f, "a.txt")]).toEqual([["a.txt"], "one\n"]);
    expect(await answerOf(undo(moved.restoreId!))).toEqual([
      409,
      {
        code: "already_undone",
        message: `Restore ${moved.restoreId} was already undone (by restore ${first.restoreId}). Undo that one to go back.`,
      },
    ]);
    expect(await readProjectFile(f, "a.txt")).toBe("one\n");
    const redo = await undo(first.restoreId!);
    expect([redo.changed, await readProjectFile(f, "a.txt")]).toEqual([["a.txt"], null]);
  });
});

describe("revert answers", () => {
  it("nothing to revert (a path that did not change, or the same commit twice) is 409 nothing_to_revert, not a 500", async () => {
    const f = await projectWithSession(scope, { "a.txt": "one\n" });
    const revert = (path?: string) =>
      revertChanges({
        scope,
        sessionId: f.session.id,
        from: f.initCommit,
        to: f.initCommit,
        path,
        author: ADA,
        userId: null,
        label: "x",
      });
    expect(await answerOf(revert("../../etc/passwd"))).toEqual([
      409,
      { code: "nothing_to_revert", message: "../../etc/passwd did not change there: nothing to revert." },
    ]);
    expect(await answerOf(revert())).toEqual([
      409,
      { code: "nothing_to_revert", message: "No file changed there: nothing to revert." },
    ]);
  });
});

describe("line counts", () => {
  it("two unrelated 10,000-line versions of a file are not diffed past the time limit (counts null)", async () => {
    const lines = (seed: string) => Array.from({ length: 10_000 }, (_, i) => `${seed}-${i}\n`).join("");
    const f = await projectWithSession(scope, { "big.txt": lines("a") });
    const { vfs, scope: s } = f.openVfs();
    const root = f.project.rootPath;
    await vfs.writeFile(`${root}/big.txt`, lines("b"));
    const next = await commitAll(vfs, root, { message: "rewrite", author: { name: "t", email: "t@x" } });
    await vfs.flush();
    // Both sides are far below the size limit: only the diff's time limit (DIFF_TIMEOUT_MS) gives null counts,
    // where the whole diff took 16 s of the event loop.
    expect(lines("b").length).toBeLessThan(MAX_DIFF_BYTES);
    const set = await diffCommits(vfs, root, f.initCommit, next);
    await s.release();
    expect(set.files).toEqual([
      { path: "big.txt", status: "modified", additions: null, deletions: null, binary: false },
    ]);
  });

  it("many such files in one change give the event loop a turn between them", async () => {
    const lines = (seed: string) => Array.from({ length: 3_000 }, (_, i) => `${seed}-${i}\n`).join("");
    const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}.txt`, lines("a")]));
    const f = await projectWithSession(scope, files);
    const { vfs, scope: s } = f.openVfs();
    const root = f.project.rootPath;
    for (const name of Object.keys(files)) await vfs.writeFile(`${root}/${name}`, lines("b"));
    const next = await commitAll(vfs, root, { message: "rewrite", author: { name: "t", email: "t@x" } });
    await vfs.flush();
    // Event-loop turns: the ticker reschedules itself with setImmediate, so it runs once per turn the diff gives.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    diffProbe.calls = [];
    diffProbe.turns = () => turns;
    let set: Awaited<ReturnType<typeof diffCommits>>;
    try {
      set = await diffCommits(vfs, root, f.initCommit, next);
    } finally {
      ticking = false;
      diffProbe.turns = undefined;
      await s.release();
    }
    expect(set.files.map((x) => x.additions)).toEqual(Array(20).fill(null));
    // One diff per file, each holding the loop for its time limit (no turn inside one), and at least one turn
    // between every two of them: the loop was held by one file's diff at a time, never by all 20.
    const calls = diffProbe.calls;
    expect(calls).toHaveLength(20);
    expect(calls.filter((c) => c.end !== c.start)).toEqual([]);
    const between = calls.slice(1).map((c, i) => c.start - calls[i].end);
    expect(between.filter((n) => n < 1)).toEqual([]);
  });
});
