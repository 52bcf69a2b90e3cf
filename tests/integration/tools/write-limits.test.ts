/**
 * The write and edit tools under the VFS limits (real Postgres VFS): a file over 10 MiB and a path deeper
 * than 64 levels fail with the limit's message and write nothing.
 */
import { describe, expect, it } from "vitest";
import { createEditTool } from "@/lib/tools/edit";
import { createWriteTool } from "@/lib/tools/write";
import { MAX_FILE_BYTES } from "@/lib/vfs/limits";
import { project } from "./fixture";

const levels = (n: number) => Array.from({ length: n }, () => "a").join("/");

describe("write/edit limits", () => {
  it("write: exactly 10 MiB is written, one byte more fails with EFBIG", async () => {
    const ctx = await project();
    const write = createWriteTool(ctx);
    const ok = await write.execute("w1", { path: "big.txt", content: "x".repeat(MAX_FILE_BYTES) });
    expect(ok.content).toEqual([{ type: "text", text: "Successfully wrote 10485760 bytes to big.txt" }]);
    await expect(
      write.execute("w2", { path: "over.txt", content: "x".repeat(MAX_FILE_BYTES + 1) }),
    ).rejects.toMatchObject({
      code: "EFBIG",
      message:
        "EFBIG: file too large, '/proj/over.txt' is 10485761 bytes; the limit is 10485760 bytes (10 MiB). Write a smaller file.",
    });
    expect(await ctx.fs.exists("/proj/over.txt")).toBe(false);
  });

  it("write: a 65-level path fails before anything is created", async () => {
    const ctx = await project();
    const write = createWriteTool(ctx);
    await expect(write.execute("w1", { path: `${levels(64)}/f.txt`, content: "x" })).rejects.toMatchObject({
      code: "ENAMETOOLONG",
      message: "Path is 65 levels deep; the limit is 64. Use a shallower path.",
    });
    expect(await ctx.fs.readdir("/proj")).toEqual([]);
  });

  it("edit: an edit that would grow the file past 10 MiB fails and leaves it unchanged", async () => {
    const ctx = await project({ "f.txt": `start\n${"y".repeat(MAX_FILE_BYTES - 100)}\n` });
    const edit = createEditTool(ctx);
    await expect(
      edit.execute("e1", { path: "f.txt", edits: [{ oldText: "start", newText: "z".repeat(200) }] }),
    ).rejects.toMatchObject({
      code: "EFBIG",
      message:
        "EFBIG: file too large, '/proj/f.txt' is 10485862 bytes; the limit is 10485760 bytes (10 MiB). Write a smaller file.",
    });
    expect((await ctx.fs.readText("/proj/f.txt")).startsWith("start\n")).toBe(true);
  });
});
