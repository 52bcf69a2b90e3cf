/**
 * lib/vfs/limits.ts and the path limits where they are enforced: resolveProjectPath (the editor's file API
 * and the tools), the VFS's own backstop, and the shell (ProjectBashFs), on an in-memory store.
 */
import { describe, expect, it } from "vitest";
import { runShell } from "@/lib/tools/bash";
import { assertNoSymlinkEscape } from "@/lib/vfs/confine";
import { VfsError } from "@/lib/vfs/errors";
import {
  checkPathLimits,
  MAX_COMMAND_WRITE_BYTES,
  MAX_FILE_BYTES,
  MAX_FLUSH_BYTES,
  MAX_PATH_DEPTH,
  MAX_PATH_LENGTH,
  MAX_WORKSPACE_PATH_DEPTH,
  pathDepth,
  utf8Length,
} from "@/lib/vfs/limits";
import { MemoryVfsStore } from "@/lib/vfs/memory-store";
import { normalizePosix, resolveProjectPath } from "@/lib/vfs/paths";
import { Vfs } from "@/lib/vfs/vfs";

const levels = (n: number, name = "a") => Array.from({ length: n }, () => name).join("/");

function thrown(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (error instanceof VfsError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("did not throw");
}

describe("limit values", () => {
  it("are the documented numbers", () => {
    expect([MAX_FILE_BYTES, MAX_FLUSH_BYTES, MAX_COMMAND_WRITE_BYTES]).toEqual([
      10 * 1024 * 1024,
      64 * 1024 * 1024,
      64 * 1024 * 1024,
    ]);
    expect([MAX_PATH_DEPTH, MAX_PATH_LENGTH, MAX_WORKSPACE_PATH_DEPTH]).toEqual([64, 4096, 72]);
  });
});

describe("pathDepth and utf8Length", () => {
  it("count components and UTF-8 bytes", () => {
    expect(pathDepth("a//b/./c/")).toBe(3);
    expect(pathDepth("/")).toBe(0);
    expect(pathDepth("")).toBe(0);
    expect(pathDepth("../a/..")).toBe(3);
    expect(pathDepth(".hidden/x")).toBe(2);
    expect(utf8Length("aé€😀")).toBe(1 + 2 + 3 + 4);
    expect(utf8Length("a\ud800")).toBe(new TextEncoder().encode("a\ud800").byteLength);
  });
});

describe("checkPathLimits", () => {
  it("accepts exactly 64 levels and 4096 bytes, refuses one more with the limit in the message", () => {
    expect(() => checkPathLimits(levels(64))).not.toThrow();
    expect(thrown(() => checkPathLimits(levels(65)))).toEqual({
      code: "ENAMETOOLONG",
      message: "Path is 65 levels deep; the limit is 64. Use a shallower path.",
    });
    expect(() => checkPathLimits("x".repeat(4096))).not.toThrow();
    expect(thrown(() => checkPathLimits("x".repeat(4097)))).toEqual({
      code: "ENAMETOOLONG",
      message: "Path is 4097 bytes long; the limit is 4096. Use a shorter path.",
    });
    // Length counts UTF-8 bytes: 2,049 two-byte characters are 4,098 bytes.
    expect(thrown(() => checkPathLimits("é".repeat(2049))).message).toBe(
      "Path is 4098 bytes long; the limit is 4096. Use a shorter path.",
    );
  });
});

describe("resolveProjectPath enforces the limits below the project root", () => {
  it("counts levels below the root, not the root's own", () => {
    expect(resolveProjectPath("/p/q", "/p/q", `${levels(63)}/f.txt`)).toBe(`/p/q/${levels(63)}/f.txt`);
    expect(thrown(() => resolveProjectPath("/p", "/p", `${levels(1600)}/f.txt`))).toEqual({
      code: "ENAMETOOLONG",
      message: "Path is 1601 levels deep; the limit is 64. Use a shallower path.",
    });
    // Relative to a cwd inside the project: the depth is the resolved one.
    expect(thrown(() => resolveProjectPath("/p", `/p/${levels(60)}`, levels(5))).message).toBe(
      "Path is 65 levels deep; the limit is 64. Use a shallower path.",
    );
  });
});

describe("normalizePosix", () => {
  it("keeps normalised paths and normalises the rest", () => {
    expect(normalizePosix("/a/b")).toBe("/a/b");
    expect(normalizePosix("/")).toBe("/");
    expect(normalizePosix("/a/./b/../c/")).toBe("/a/c");
    expect(normalizePosix("/a//b")).toBe("/a/b");
    expect(normalizePosix("/..")).toBe("/");
    expect(normalizePosix("/a/.b/..c")).toBe("/a/.b/..c");
    expect(normalizePosix("a/b")).toBe("/a/b");
  });
});

describe("the VFS backstop (absolute paths, 72 levels)", () => {
  it("refuses creating a path over 72 levels before any work, and reads deep stored trees", async () => {
    const fs = new Vfs(new MemoryVfsStore());
    await expect(fs.writeFile(`/${levels(73)}`, "x")).rejects.toMatchObject({
      code: "ENAMETOOLONG",
      message: "Path is 73 levels deep; the limit is 72. Use a shallower path.",
    });
    await expect(fs.mkdir(`/${levels(80)}`, { recursive: true })).rejects.toMatchObject({
      code: "ENAMETOOLONG",
    });
    await expect(fs.symlink("x", `/${levels(73)}`)).rejects.toMatchObject({ code: "ENAMETOOLONG" });
    await fs.writeFile("/f", "x");
    await expect(fs.rename("/f", `/${levels(73)}`)).rejects.toMatchObject({ code: "ENAMETOOLONG" });
    expect(fs.dirtyPaths()).toEqual(["/f"]);
    await fs.writeFile(`/${levels(72)}`, "x");
    expect(await fs.readText(`/${levels(72)}`)).toBe("x");
  });

  it("handles a 3,000-level tree already stored: stat, confinement, walk and recursive rmdir", async () => {
    const deep = `/p/${levels(3000)}/f.txt`;
    const store = new MemoryVfsStore([{ path: deep, data: "x" }]);
    const fs = new Vfs(store);
    expect(await assertNoSymlinkEscape(fs, "/p", deep)).toBe(deep);
    expect((await fs.stat(deep)).size).toBe(1);
    expect((await fs.walk("/p")).length).toBe(3001);
    await fs.rmdir("/p/a", { recursive: true });
    expect(await fs.flush()).toEqual({ written: 0, deleted: 3001 });
    expect(store.size).toBe(1);
  });

  it("resolves symlinked directories along a path (writes land in the target)", async () => {
    const fs = new Vfs(new MemoryVfsStore());
    await fs.mkdir("/p/real", { recursive: true });
    await fs.symlink("real", "/p/link");
    await fs.mkdir("/p/link/sub/deeper", { recursive: true });
    await fs.writeFile("/p/link/sub/f.txt", "via link");
    expect(await fs.readdir("/p/real/sub")).toEqual(["deeper", "f.txt"]);
    await fs.unlink("/p/link/sub/f.txt");
    expect(await fs.readdir("/p/real/sub")).toEqual(["deeper"]);
    await fs.rename("/p/link/sub/deeper", "/p/link/moved");
    expect(await fs.readdir("/p/real")).toEqual(["moved", "sub"]);
    expect((await fs.lstat("/p/link")).kind).toBe("symlink");
    await fs.rmdir("/p/link/moved");
    expect(await fs.readdir("/p/real")).toEqual(["sub"]);
  });
});

describe("the flush limit (64 MiB)", () => {
  it("counts file content, not git objects; a pack over the limit is refused", async () => {
    const MiB = 1024 * 1024;
    const store = new MemoryVfsStore();
    const fs = new Vfs(store);
    for (let i = 0; i < 6; i++) await fs.writeFile(`/p/f${i}`, new Uint8Array(10 * MiB));
    await fs.writeFile(`/p/.git/objects/ab/${"c".repeat(38)}`, new Uint8Array(10 * MiB));
    await fs.writeFile(`/p/.git/objects/pack/pack-${"d".repeat(40)}.pack`, new Uint8Array(20 * MiB));
    expect(await fs.flush()).toEqual({ written: 13, deleted: 0 });
    await expect(
      fs.writeFile(`/p/.git/objects/pack/pack-${"e".repeat(40)}.pack`, new Uint8Array(64 * MiB + 1)),
    ).rejects.toMatchObject({ code: "EFBIG" });
    for (let i = 0; i < 7; i++) await fs.writeFile(`/p/g${i}`, new Uint8Array(10 * MiB));
    await expect(fs.flush()).rejects.toMatchObject({
      code: "EFBIG",
      message:
        "EFBIG: one write of 73400320 bytes of file content; the limit is 67108864 bytes (64 MiB). Nothing was written; write fewer or smaller files at a time.",
    });
    expect(store.size).toBe(13);
  });
});

describe("the shell refuses deep paths with the limit below the project root", () => {
  it("mkdir -p of 65 levels fails in the shell; 64 levels work", async () => {
    const fs = new Vfs(new MemoryVfsStore([{ path: "/p", kind: "dir" }]));
    const ctx = { fs, cwd: "/p", projectRoot: "/p" };
    const deep = await runShell(ctx, `mkdir -p ${levels(65, "d")}; echo rc=$?`);
    expect(deep.output).toBe(
      `rc=1\nmkdir: cannot create directory '${levels(65, "d")}': Path is 65 levels deep; the limit is 64. Use a shallower path.\n`,
    );
    expect(await fs.exists("/p/d")).toBe(false);
    const ok = await runShell(
      ctx,
      `mkdir -p ${levels(63, "d")} && echo hi > ${levels(63, "d")}/f && echo ok`,
    );
    expect(ok.output).toBe("ok\n");
    expect(await fs.readText(`/p/${levels(63, "d")}/f`)).toBe("hi\n");
  });
});
