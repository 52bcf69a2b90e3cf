import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { VfsConflictError, VfsError } from "@/lib/vfs/errors";
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
