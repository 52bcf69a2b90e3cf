/**
 * `MemoryVfsStore`: the `VfsStore` contract without Postgres — seeding, metadata, children, trees in byte
 * order, data copies, versioned commits with conflicts, and a `Vfs` working on top of it.
 */
import { describe, expect, it } from "vitest";
import { VfsConflictError } from "@/lib/vfs/errors";
import { compareCodePoints, MemoryVfsStore } from "@/lib/vfs/memory-store";
import { Vfs } from "@/lib/vfs/vfs";

const T = 1_700_000_000_000;
const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null | undefined) => (b ? new TextDecoder().decode(b) : b);

function seeded(): MemoryVfsStore {
  return new MemoryVfsStore(
    [
      { path: "/w/a.txt", data: "alpha" },
      { path: "/w/sub/b.txt", data: bytes("beta"), mode: 0o100755 },
      { path: "/w/link", kind: "symlink", data: "a.txt" },
      { path: "/w/empty", kind: "dir" },
    ],
    { now: () => T },
  );
}

describe("MemoryVfsStore", () => {
  it("seeds nodes with their parents and answers getMeta without data", async () => {
    const store = seeded();
    expect(store.size).toBe(6);
    expect(await store.getMeta(["/w", "/w/a.txt", "/w/link", "/missing"])).toEqual([
      { path: "/w", kind: "dir", mode: 0o040000, size: 0, mtimeMs: T, version: 1 },
      { path: "/w/a.txt", kind: "file", mode: 0o100644, size: 5, mtimeMs: T, version: 1 },
      { path: "/w/link", kind: "symlink", mode: 0o120000, size: 5, mtimeMs: T, version: 1 },
    ]);
  });

  it("lists direct children only", async () => {
    const rows = await seeded().listChildren(["/w"]);
    expect(rows.map((r) => r.path).sort()).toEqual(["/w/a.txt", "/w/empty", "/w/link", "/w/sub"]);
    expect(await seeded().listChildren(["/"])).toEqual([
      { path: "/w", kind: "dir", mode: 0o040000, size: 0, mtimeMs: T, version: 1 },
    ]);
  });

  it("loads data as copies; directories read as empty bytes", async () => {
    const store = seeded();
    const data = await store.loadData(["/w/a.txt", "/w/sub", "/nope"]);
    expect([...data.keys()]).toEqual(["/w/a.txt", "/w/sub"]);
    expect(text(data.get("/w/a.txt"))).toBe("alpha");
    expect(data.get("/w/sub")).toEqual(new Uint8Array());
    data.get("/w/a.txt")?.fill(0);
    expect(text((await store.loadData(["/w/a.txt"])).get("/w/a.txt"))).toBe("alpha");
  });

  it("loads a tree strictly below the prefix in code point order, pruning `except`", async () => {
    const store = new MemoryVfsStore([
      { path: "/r/b", data: "" },
      { path: "/r/a/x", data: "x" },
      { path: "/r/\uFF01", data: "" },
      { path: "/r/\u{1F600}", data: "" },
      { path: "/r/.git/HEAD", data: "ref" },
      { path: "/rr/c", data: "" },
    ]);
    const rows = await store.loadTree("/r", { withData: false, except: ["/r/.git"] });
    expect(rows.map((r) => r.path)).toEqual(["/r/a", "/r/a/x", "/r/b", "/r/\uFF01", "/r/\u{1F600}"]);
    expect(rows.every((r) => !("data" in r))).toBe(true);
    const withData = await store.loadTree("/", { withData: true });
    expect(withData.map((r) => [r.path, text(r.data)])).toEqual([
      ["/r", null],
      ["/r/.git", null],
      ["/r/.git/HEAD", "ref"],
      ["/r/a", null],
      ["/r/a/x", "x"],
      ["/r/b", ""],
      ["/r/\uFF01", ""],
      ["/r/\u{1F600}", ""],
      ["/rr", null],
      ["/rr/c", ""],
    ]);
  });

  it('orders by code point like COLLATE "C" (UTF-16 order would put U+1F600 before U+FF01)', () => {
    expect(compareCodePoints("\u{1F600}", "\uFF01")).toBeGreaterThan(0);
    expect("\u{1F600}" < "\uFF01").toBe(true);
    expect(compareCodePoints("a", "ab")).toBeLessThan(0);
    expect(compareCodePoints("ab", "ab")).toBe(0);
  });

  it("commits inserts, updates and deletes with versions", async () => {
    const store = seeded();
    await store.commit([
      {
        op: "put",
        path: "/w/new",
        kind: "file",
        mode: 0o100644,
        data: bytes("n"),
        mtimeMs: 5,
        baseVersion: null,
        cas: true,
      },
      {
        op: "put",
        path: "/w/a.txt",
        kind: "file",
        mode: 0o100644,
        data: bytes("A"),
        mtimeMs: 6,
        baseVersion: 1,
        cas: true,
      },
      { op: "delete", path: "/w/link", baseVersion: 1 },
    ]);
    expect(await store.getMeta(["/w/new", "/w/a.txt", "/w/link"])).toEqual([
      { path: "/w/new", kind: "file", mode: 0o100644, size: 1, mtimeMs: 5, version: 1 },
      { path: "/w/a.txt", kind: "file", mode: 0o100644, size: 1, mtimeMs: 6, version: 2 },
    ]);
    expect((await store.listChildren(["/w"])).map((r) => r.path).sort()).toEqual([
      "/w/a.txt",
      "/w/empty",
      "/w/new",
      "/w/sub",
    ]);
  });

  it("refuses the whole commit on a version conflict and names every conflicting path", async () => {
    const store = seeded();
    const attempt = store.commit([
      {
        op: "put",
        path: "/w/ok",
        kind: "file",
        mode: 0o100644,
        data: bytes("x"),
        mtimeMs: 1,
        baseVersion: null,
        cas: true,
      },
      {
        op: "put",
        path: "/w/a.txt",
        kind: "file",
        mode: 0o100644,
        data: bytes("x"),
        mtimeMs: 1,
        baseVersion: 7,
        cas: true,
      },
      {
        op: "put",
        path: "/w/sub/b.txt",
        kind: "file",
        mode: 0o100644,
        data: bytes("x"),
        mtimeMs: 1,
        baseVersion: null,
        cas: true,
      },
      { op: "delete", path: "/w/gone", baseVersion: 1 },
    ]);
    await expect(attempt).rejects.toBeInstanceOf(VfsConflictError);
    await expect(attempt).rejects.toMatchObject({ paths: ["/w/gone", "/w/a.txt", "/w/sub/b.txt"] });
    expect(await store.getMeta(["/w/ok"])).toEqual([]);
    expect(text((await store.loadData(["/w/a.txt"])).get("/w/a.txt"))).toBe("alpha");
  });

  it("skips content-addressed puts that cannot apply, like ON CONFLICT DO NOTHING", async () => {
    const store = new MemoryVfsStore([{ path: "/g/.git/objects/ab/cd", data: "obj" }]);
    await store.commit([
      {
        op: "put",
        path: "/g/.git/objects/ab/cd",
        kind: "file",
        mode: 0o100444,
        data: bytes("other"),
        mtimeMs: 1,
        baseVersion: null,
        cas: false,
      },
    ]);
    expect(text((await store.loadData(["/g/.git/objects/ab/cd"])).get("/g/.git/objects/ab/cd"))).toBe("obj");
  });

  it("keeps a directory another writer created, as Postgres does, and reports its version", async () => {
    const store = seeded();
    const dir = (path: string) => ({
      op: "put" as const,
      path,
      kind: "dir" as const,
      mode: 0o040000,
      data: null,
      mtimeMs: 9,
      baseVersion: null,
      cas: true,
    });
    const result = await store.commit([dir("/w/sub"), dir("/w/fresh")]);
    expect(result.existingDirs).toEqual(new Map([["/w/sub", 1]]));
    expect(await store.getMeta(["/w/sub", "/w/fresh"])).toEqual([
      { path: "/w/sub", kind: "dir", mode: 0o040000, size: 0, mtimeMs: T, version: 1 },
      { path: "/w/fresh", kind: "dir", mode: 0o040000, size: 0, mtimeMs: 9, version: 1 },
    ]);
    await expect(store.commit([dir("/w/a.txt")])).rejects.toMatchObject({ paths: ["/w/a.txt"] });
  });

  it("lets a delete and an insert of the same path share a commit", async () => {
    const store = seeded();
    await store.commit([
      { op: "delete", path: "/w/a.txt", baseVersion: 1 },
      {
        op: "put",
        path: "/w/a.txt",
        kind: "symlink",
        mode: 0o120000,
        data: bytes("sub"),
        mtimeMs: 9,
        baseVersion: null,
        cas: true,
      },
    ]);
    expect(await store.getMeta(["/w/a.txt"])).toEqual([
      { path: "/w/a.txt", kind: "symlink", mode: 0o120000, size: 3, mtimeMs: 9, version: 1 },
    ]);
  });

  it("rejects bad seed paths and files used as directories", () => {
    expect(() => new MemoryVfsStore([{ path: "rel" }])).toThrow("Invalid VFS path: rel");
    expect(() => new MemoryVfsStore([{ path: "/a/../b" }])).toThrow("Invalid VFS path: /a/../b");
    expect(() => new MemoryVfsStore([{ path: "/" }])).toThrow("Invalid VFS path: /");
    expect(() => new MemoryVfsStore([{ path: "/f", data: "x" }, { path: "/f/g" }])).toThrow(
      "Not a directory: /f",
    );
  });

  it("backs a Vfs: reads, symlinks, walk, writes and a second Vfs seeing the flush", async () => {
    const store = seeded();
    const vfs = new Vfs(store, { now: () => 42 });
    expect(await vfs.readText("/w/link")).toBe("alpha");
    expect(await vfs.readdir("/w")).toEqual(["a.txt", "empty", "link", "sub"]);
    expect((await vfs.walk("/w")).map((e) => e.path)).toEqual([
      "/w/a.txt",
      "/w/empty",
      "/w/link",
      "/w/sub",
      "/w/sub/b.txt",
    ]);
    await vfs.writeFile("/w/sub/c.txt", "gamma");
    await vfs.unlink("/w/a.txt");
    expect(await vfs.flush()).toEqual({ written: 1, deleted: 1 });
    const other = new Vfs(store);
    expect(await other.readText("/w/sub/c.txt")).toBe("gamma");
    expect(await other.exists("/w/a.txt")).toBe(false);
    expect((await other.stat("/w/sub/b.txt")).mode).toBe(0o100755);
  });
});
