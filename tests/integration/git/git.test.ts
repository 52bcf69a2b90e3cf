/**
 * isomorphic-git over the Postgres-backed VFS: every step runs on a cold, reopened VFS, so each
 * assertion proves what was persisted by the previous flush.
 */
import * as git from "isomorphic-git";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  checkpoint,
  commitAll,
  initRepository,
  log,
  readBlobAt,
  readTextAt,
  resolveRef,
} from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import { createTestVfs } from "../../helpers/vfs";

type T = Awaited<ReturnType<typeof createTestVfs>>;
let t: T;
beforeEach(async () => {
  t = await createTestVfs();
});
afterEach(async () => {
  await t.cleanup();
});

const author = { name: "Ada", email: "ada@example.com", timestamp: 1_700_000_000, timezoneOffset: 0 };
const dir = "/proj";

describe("isomorphic-git on the VFS, persisted in Postgres", () => {
  it("init, add, commit, log, checkout and read a blob at an old commit, across cold VFS instances", async () => {
    await initRepository(t.fs, dir);
    await t.fs.writeFile(`${dir}/README.md`, "# v1\n");
    await t.fs.writeFile(`${dir}/src/a.ts`, "export const a = 1;\n");
    await t.fs.flush();

    let fs = t.reopen();
    expect(await fs.readText(`${dir}/.git/HEAD`)).toBe("ref: refs/heads/main\n");
    await git.add({ fs: createGitFs(fs), dir, filepath: ["README.md", "src/a.ts"] });
    const first = await git.commit({ fs: createGitFs(fs), dir, message: "first\n", author });
    await fs.flush();

    fs = t.reopen();
    await fs.writeFile(`${dir}/README.md`, "# v2\n");
    await fs.unlink(`${dir}/src/a.ts`);
    const second = await commitAll(fs, dir, { message: "second\n", author });
    await fs.flush();

    fs = t.reopen();
    const history = await log(fs, dir);
    expect(history.map((c) => [c.oid, c.message, c.parents])).toEqual([
      [second, "second\n", [first]],
      [first, "first\n", []],
    ]);
    expect(history[0].author).toEqual(author);
    expect(await resolveRef(fs, dir, "refs/heads/main")).toBe(second);
    expect(await readTextAt(fs, dir, first, "README.md")).toBe("# v1\n");
    expect(await readTextAt(fs, dir, first, "src/a.ts")).toBe("export const a = 1;\n");
    expect(await readTextAt(fs, dir, second, "README.md")).toBe("# v2\n");
    await expect(readBlobAt(fs, dir, second, "src/a.ts")).rejects.toMatchObject({ code: "NotFoundError" });
    expect(await git.statusMatrix({ fs: createGitFs(fs), dir })).toEqual([["README.md", 1, 1, 1]]);

    // Check out the first commit on a branch; the working tree follows.
    await git.branch({ fs: createGitFs(fs), dir, ref: "old", object: first });
    await git.checkout({ fs: createGitFs(fs), dir, ref: "old" });
    await fs.flush();

    fs = t.reopen();
    expect(await fs.readText(`${dir}/.git/HEAD`)).toBe("ref: refs/heads/old\n");
    expect(await fs.readText(`${dir}/README.md`)).toBe("# v1\n");
    expect(await fs.readText(`${dir}/src/a.ts`)).toBe("export const a = 1;\n");
    expect(await git.currentBranch({ fs: createGitFs(fs), dir })).toBe("old");
    expect(await git.listBranches({ fs: createGitFs(fs), dir })).toEqual(["main", "old"]);
  });

  it("commitAll honours .gitignore and keeps binary and executable files exact", async () => {
    await initRepository(t.fs, dir);
    const bin = new Uint8Array(300).map((_, i) => (i * 7) % 256);
    await t.fs.writeFile(`${dir}/.gitignore`, "dist/\n*.log\n");
    await t.fs.writeFile(`${dir}/dist/out.js`, "built");
    await t.fs.writeFile(`${dir}/debug.log`, "noise");
    await t.fs.writeFile(`${dir}/img.bin`, bin);
    await t.fs.writeFile(`${dir}/run.sh`, "#!/bin/sh\n", { mode: 0o100755 });
    const oid = await commitAll(t.fs, dir, { message: "init", author });
    await t.fs.flush();

    const fs = t.reopen();
    const files = await git.listFiles({ fs: createGitFs(fs), dir, ref: oid });
    expect(files).toEqual([".gitignore", "img.bin", "run.sh"]);
    expect(Array.from(await readBlobAt(fs, dir, oid, "img.bin"))).toEqual(Array.from(bin));
    const { tree } = await git.readTree({ fs: createGitFs(fs), dir, oid });
    expect(tree.map((e) => [e.path, e.mode])).toEqual([
      [".gitignore", "100644"],
      ["img.bin", "100644"],
      ["run.sh", "100755"],
    ]);
  });
});

describe("checkpoint", () => {
  const ref = "refs/heads/strata/session-s1";

  async function seed(): Promise<string> {
    await initRepository(t.fs, dir);
    await t.fs.writeFile(`${dir}/.gitignore`, "*.tmp\n");
    await t.fs.writeFile(`${dir}/a.txt`, "a1\n");
    await t.fs.writeFile(`${dir}/src/b.ts`, "b1\n");
    await t.fs.writeFile(`${dir}/src/deep/c.ts`, "c1\n");
    await t.fs.writeFile(`${dir}/old/x.txt`, "x\n");
    await t.fs.writeFile(`${dir}/old/y/z.txt`, "z\n");
    const head = await commitAll(t.fs, dir, { message: "base", author });
    await t.fs.flush();
    return head;
  }

  it("commits exactly the changed paths onto the ref, parented on HEAD then on the ref, HEAD unmoved", async () => {
    const head = await seed();

    let fs = t.reopen();
    await fs.writeFile(`${dir}/src/deep/c.ts`, "c2\n");
    await fs.writeFile(`${dir}/src/new/n.ts`, "n1\n");
    await fs.writeFile(`${dir}/a.txt`, "a2 (changed but not listed)\n");
    await fs.writeFile(`${dir}/scratch.tmp`, "ignored\n");
    await fs.unlink(`${dir}/src/b.ts`);
    const changed = [`${dir}/src/deep/c.ts`, `${dir}/src/new/n.ts`, `${dir}/src/b.ts`, `${dir}/scratch.tmp`];
    const first = await checkpoint(fs, dir, { changedPaths: changed, ref, message: "turn 1", author });
    await fs.flush();
    expect(first).not.toBeNull();

    fs = t.reopen();
    expect(await resolveRef(fs, dir, "HEAD")).toBe(head);
    expect(await resolveRef(fs, dir, "refs/heads/main")).toBe(head);
    expect(await resolveRef(fs, dir, ref)).toBe(first!.oid);
    const [c1] = await log(fs, dir, ref, 1);
    expect(c1).toMatchObject({ message: "turn 1\n", parents: [head] });
    expect(await git.listFiles({ fs: createGitFs(fs), dir, ref: first!.oid })).toEqual([
      ".gitignore",
      "a.txt",
      "old/x.txt",
      "old/y/z.txt",
      "src/deep/c.ts",
      "src/new/n.ts",
    ]);
    expect(await readTextAt(fs, dir, first!.oid, "src/deep/c.ts")).toBe("c2\n");
    expect(await readTextAt(fs, dir, first!.oid, "a.txt")).toBe("a1\n");
    // The index still describes HEAD: the working-tree edits show as unstaged.
    const matrix = await git.statusMatrix({ fs: createGitFs(fs), dir });
    expect(matrix).toEqual([
      [".gitignore", 1, 1, 1],
      ["a.txt", 1, 2, 1],
      ["old/x.txt", 1, 1, 1],
      ["old/y/z.txt", 1, 1, 1],
      ["src/b.ts", 1, 0, 1],
      ["src/deep/c.ts", 1, 2, 1],
      ["src/new/n.ts", 0, 2, 0],
    ]);

    // Second turn: a deleted directory and a listed-but-unchanged file; parent is the ref now.
    await fs.rmdir(`${dir}/old`, { recursive: true });
    const second = await checkpoint(fs, dir, {
      changedPaths: fs.dirtyPaths().concat(`${dir}/src/deep/c.ts`),
      ref,
      message: "turn 2",
      author,
    });
    await fs.flush();
    fs = t.reopen();
    const history = await log(fs, dir, ref);
    expect(history.map((c) => [c.oid, c.parents])).toEqual([
      [second!.oid, [first!.oid]],
      [first!.oid, [head]],
      [head, []],
    ]);
    expect(await git.listFiles({ fs: createGitFs(fs), dir, ref: second!.oid })).toEqual([
      ".gitignore",
      "a.txt",
      "src/deep/c.ts",
      "src/new/n.ts",
    ]);
    expect(await resolveRef(fs, dir, "HEAD")).toBe(head);
  });

  it("leaves out untracked bytecode, test caches and node_modules; a tracked one stays recorded", async () => {
    await initRepository(t.fs, dir);
    await t.fs.writeFile(`${dir}/kept/__pycache__/old.cpython-311.pyc`, "tracked bytecode");
    const head = await commitAll(t.fs, dir, { message: "base", author });
    await t.fs.flush();
    const fs = t.reopen();
    const written = {
      "main.py": "print(1)\n",
      "pkg/__pycache__/m.cpython-311.pyc": "b",
      "pkg/m.pyc": "b",
      "pkg/m.pyo": "b",
      ".pytest_cache/v/cache/lastfailed": "{}",
      "web/node_modules/left-pad/index.js": "x",
      "kept/__pycache__/old.cpython-311.pyc": "tracked bytecode, changed",
      "notes/node_modules.md": "a file named like the folder",
    };
    for (const [rel, text] of Object.entries(written)) await fs.writeFile(`${dir}/${rel}`, text);
    const turn = await checkpoint(fs, dir, {
      changedPaths: Object.keys(written).map((rel) => `${dir}/${rel}`),
      ref,
      message: "turn",
      author,
      parent: head,
    });
    await fs.flush();
    expect(await git.listFiles({ fs: createGitFs(t.reopen()), dir, ref: turn!.oid })).toEqual([
      "kept/__pycache__/old.cpython-311.pyc",
      "main.py",
      "notes/node_modules.md",
    ]);
    expect(await readTextAt(t.reopen(), dir, turn!.oid, "kept/__pycache__/old.cpython-311.pyc")).toBe(
      "tracked bytecode, changed",
    );
  });

  it("returns null when nothing changed, for ignored files and for paths under .git", async () => {
    await seed();
    const fs = t.reopen();
    await fs.writeFile(`${dir}/a.txt`, "a1\n");
    await fs.writeFile(`${dir}/junk.tmp`, "x");
    const changed = [`${dir}/a.txt`, `${dir}/junk.tmp`, `${dir}/.git/config`, "/elsewhere/f.txt"];
    expect(await checkpoint(fs, dir, { changedPaths: changed, ref, message: "noop", author })).toBeNull();
    expect(await checkpoint(fs, dir, { changedPaths: [], ref, message: "noop", author })).toBeNull();
    expect(await resolveRef(fs, dir, ref)).toBeNull();
  });

  it("records a symlink, an executable bit and a file replacing a directory", async () => {
    await seed();
    const fs = t.reopen();
    await fs.symlink("src/b.ts", `${dir}/link.ts`);
    await fs.writeFile(`${dir}/a.txt`, "a1\n", { mode: 0o100755 });
    await fs.rmdir(`${dir}/old`, { recursive: true });
    await fs.writeFile(`${dir}/old`, "now a file\n");
    const result = await checkpoint(fs, dir, {
      changedPaths: fs.dirtyPaths(),
      ref,
      message: "modes",
      author,
    });
    await fs.flush();
    const cold = t.reopen();
    const { tree } = await git.readTree({ fs: createGitFs(cold), dir, oid: result!.oid });
    expect(tree.map((e) => [e.path, e.mode, e.type])).toEqual([
      [".gitignore", "100644", "blob"],
      ["a.txt", "100755", "blob"],
      ["link.ts", "120000", "blob"],
      ["old", "100644", "blob"],
      ["src", "040000", "tree"],
    ]);
    expect(await readTextAt(cold, dir, result!.oid, "link.ts")).toBe("src/b.ts");
    expect(await readTextAt(cold, dir, result!.oid, "old")).toBe("now a file\n");
  });

  it("starts from no parent in a repository without commits", async () => {
    await initRepository(t.fs, dir);
    await t.fs.writeFile(`${dir}/f.txt`, "f\n");
    const result = await checkpoint(t.fs, dir, {
      changedPaths: [`${dir}/f.txt`],
      ref,
      message: "first",
      author,
    });
    await t.fs.flush();
    const fs = t.reopen();
    expect(await log(fs, dir, ref)).toMatchObject([{ oid: result!.oid, parents: [] }]);
    expect(await resolveRef(fs, dir, "HEAD")).toBeNull();
  });
});
