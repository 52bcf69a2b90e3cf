import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { VfsConflictError, VfsError } from "@/lib/vfs/errors";
import { writeLooseObject } from "@/lib/vfs/git";
import { createTestVfs } from "../../helpers/vfs";

type T = Awaited<ReturnType<typeof createTestVfs>>;
let t: T;
beforeEach(async () => {
  t = await createTestVfs();
});
afterEach(async () => {
  await t.cleanup();
});

describe("Vfs on Postgres", () => {
  it("persists files, dirs and symlinks across instances", async () => {
    await t.fs.writeFile("/p/src/a.ts", "export const a = 1;\n");
    await t.fs.symlink("src/a.ts", "/p/link.ts");
    expect(await t.fs.flush()).toEqual({ written: 4, deleted: 0 });
    const cold = t.reopen();
    expect(await cold.readdir("/p")).toEqual(["link.ts", "src"]);
    expect(await cold.readText("/p/link.ts")).toBe("export const a = 1;\n");
    expect(await cold.readlink("/p/link.ts")).toBe("src/a.ts");
    expect((await cold.lstat("/p/link.ts")).kind).toBe("symlink");
    expect(await cold.stat("/p/src")).toMatchObject({ kind: "dir", mode: 0o040000 });
  });

  it("keeps binary bytes exactly", async () => {
    const bytes = new Uint8Array(256).map((_, i) => i);
    await t.fs.writeFile("/p/bin.dat", bytes);
    await t.fs.flush();
    expect(Array.from(await t.reopen().readFile("/p/bin.dat"))).toEqual(Array.from(bytes));
  });

  it("reports POSIX errors", async () => {
    await t.fs.writeFile("/p/f", "x");
    await expect(t.fs.readFile("/p/missing")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(t.fs.readdir("/p/f")).rejects.toMatchObject({ code: "ENOTDIR" });
    await expect(t.fs.readFile("/p")).rejects.toMatchObject({ code: "EISDIR" });
    await expect(t.fs.rmdir("/p")).rejects.toMatchObject({ code: "ENOTEMPTY" });
    await expect(t.fs.mkdir("/p")).rejects.toBeInstanceOf(VfsError);
  });

  it("refuses a write that lost a race, and writes nothing of that flush", async () => {
    await t.fs.writeFile("/p/shared.txt", "v1");
    await t.fs.flush();
    const a = t.reopen();
    const b = t.reopen();
    expect(await a.readText("/p/shared.txt")).toBe("v1");
    expect(await b.readText("/p/shared.txt")).toBe("v1");
    await a.writeFile("/p/shared.txt", "from a");
    await a.flush();
    await b.writeFile("/p/shared.txt", "from b");
    await b.writeFile("/p/other.txt", "b's other file");
    await expect(b.flush()).rejects.toBeInstanceOf(VfsConflictError);
    const check = t.reopen();
    expect(await check.readText("/p/shared.txt")).toBe("from a");
    expect(await check.exists("/p/other.txt")).toBe(false);
  });

  it("walks a subtree in path order with pruning", async () => {
    for (const p of ["/w/b.txt", "/w/a/x.txt", "/w/.git/HEAD", "/w/a/y/z.txt"]) await t.fs.writeFile(p, p);
    await t.fs.flush();
    const cold = t.reopen();
    const paths = (await cold.walk("/w", { skip: (p) => p.endsWith("/.git") })).map((e) => e.path);
    expect(paths).toEqual(["/w/a", "/w/a/x.txt", "/w/a/y", "/w/a/y/z.txt", "/w/b.txt"]);
    const data = await cold.readFiles(["/w/b.txt", "/w/a/y/z.txt", "/w/nope"]);
    expect([...data.keys()]).toEqual(["/w/b.txt", "/w/a/y/z.txt"]);
  });

  it("renames and deletes persist", async () => {
    await t.fs.writeFile("/r/d/one.txt", "1");
    await t.fs.flush();
    const v = t.reopen();
    await v.rename("/r/d", "/r/e");
    await v.flush();
    const cold = t.reopen();
    expect(await cold.readdir("/r")).toEqual(["e"]);
    expect(await cold.readText("/r/e/one.txt")).toBe("1");
    await cold.rmdir("/r", { recursive: true });
    await cold.flush();
    expect(await t.reopen().exists("/r")).toBe(false);
  });

  it("refuses oversized files without writing them", async () => {
    const { openWorkspaceVfs } = await import("@/lib/vfs/workspace");
    const small = openWorkspaceVfs(t.workspaceId, t.scope, { maxFileBytes: 10 }).vfs;
    await expect(small.writeFile("/p/big", "01234567890")).rejects.toMatchObject({ code: "EFBIG" });
    expect(await small.exists("/p/big")).toBe(false);
  });

  it("keeps a write made while a flush is in flight (and stores it on the next flush)", async () => {
    await t.fs.writeFile("/p/race.txt", "one");
    const first = t.fs.flush();
    await t.fs.writeFile("/p/race.txt", "two");
    await first;
    await t.fs.flush();
    expect(await t.reopen().readText("/p/race.txt")).toBe("two");
  });

  it("serialises concurrent flushes of one VFS without conflicts", async () => {
    const writes = Array.from({ length: 10 }, (_, i) =>
      t.fs.writeFile("/p/many.txt", `writer ${i}`).then(() => t.fs.flush()),
    );
    await Promise.all(writes);
    await t.fs.flush();
    expect(await t.reopen().readText("/p/many.txt")).toBe("writer 9");
  });
});

describe("writers of one workspace at once (the sessions of a project)", () => {
  it("store the same git object, its directory new to both, without a conflict", async () => {
    await t.fs.mkdir("/p/.git/objects", { recursive: true });
    await t.fs.flush();
    const a = t.reopen();
    const b = t.reopen();
    // Both read the object and its directory as absent (a checkpoint preloads .git), then write it.
    await Promise.all([a.preload("/p/.git", { withData: false }), b.preload("/p/.git", { withData: false })]);
    const blob = new TextEncoder().encode("same content\n");
    const oid = await writeLooseObject(a, "/p/.git", "blob", blob);
    expect(await writeLooseObject(b, "/p/.git", "blob", blob)).toBe(oid);
    expect(await a.flush()).toEqual({ written: 2, deleted: 0 });
    expect(await b.flush()).toEqual({ written: 2, deleted: 0 });
    const check = t.reopen();
    expect(await check.readdir(`/p/.git/objects/${oid.slice(0, 2)}`)).toEqual([oid.slice(2)]);
  });

  it("create the same directories and each keep its files; a directory found takes the stored version", async () => {
    await t.fs.writeFile("/p/seed.txt", "x");
    await t.fs.flush();
    const a = t.reopen();
    const b = t.reopen();
    expect(await b.exists("/p/new")).toBe(false);
    // /p/new becomes a directory at version 2 (a file replaced by a directory), unknown to b.
    await a.writeFile("/p/new", "file");
    await a.flush();
    await a.unlink("/p/new");
    await a.writeFile("/p/new/deep/a.txt", "a");
    await a.flush();
    await b.writeFile("/p/new/deep/b.txt", "b");
    expect(await b.flush()).toEqual({ written: 3, deleted: 0 });
    expect(await t.reopen().readdir("/p/new/deep")).toEqual(["a.txt", "b.txt"]);
    // b deletes what it sees at the versions stored: no conflict.
    await b.rmdir("/p/new", { recursive: true });
    expect(await b.flush()).toEqual({ written: 0, deleted: 4 });
    expect(await t.reopen().exists("/p/new")).toBe(false);
  });

  it("still conflict on a new file where another writer created a node, or a new directory where a file is", async () => {
    await t.fs.writeFile("/p/seed.txt", "x");
    await t.fs.flush();
    const a = t.reopen();
    const b = t.reopen();
    expect(await b.exists("/p/n.txt")).toBe(false);
    expect(await b.exists("/p/d")).toBe(false);
    await a.writeFile("/p/n.txt", "a");
    await a.writeFile("/p/d", "a file");
    await a.flush();
    await b.writeFile("/p/n.txt", "b");
    await expect(b.flush()).rejects.toMatchObject({ paths: ["/p/n.txt"] });
    b.discard("/p/n.txt");
    await b.mkdir("/p/d");
    await expect(b.flush()).rejects.toMatchObject({ paths: ["/p/d"] });
    const check = t.reopen();
    expect(await check.readText("/p/n.txt")).toBe("a");
    expect(await check.readText("/p/d")).toBe("a file");
  });
});
