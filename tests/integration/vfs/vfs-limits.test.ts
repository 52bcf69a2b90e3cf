/**
 * Size limits on a real Postgres VFS (issue 9: about 100 MB in one flush killed the process): the per-file
 * limit at its boundary, a flush over the per-flush limit (413, nothing written), a large flush written in
 * bounded statements, and the bash tool writing 4 × 32 MB or past the per-command limit.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorResponse } from "@/lib/http/errors";
import { createBashTool } from "@/lib/tools/bash";
import { VfsError } from "@/lib/vfs/errors";
import { MAX_FILE_BYTES } from "@/lib/vfs/limits";
import { createTestVfs } from "../../helpers/vfs";

const MiB = 1024 * 1024;
type T = Awaited<ReturnType<typeof createTestVfs>>;
let t: T;
beforeEach(async () => {
  t = await createTestVfs();
});
afterEach(async () => {
  await t.cleanup();
});

/** `n` bytes that are not all equal (a content check that can fail). */
function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<VfsError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof VfsError) return error;
    throw error;
  }
  throw new Error("did not reject");
}

async function storedPaths(): Promise<string[]> {
  const rows = await t.scope.query<{ path: string; size: string }>(
    "SELECT path, size FROM vfs_nodes WHERE workspace_id = $1 ORDER BY path",
    [t.workspaceId],
  );
  return rows.map((r) => `${r.path}:${r.size}`);
}

describe("per-file limit (10 MiB)", () => {
  it("stores a file of exactly 10 MiB and refuses one byte more with EFBIG → 413", async () => {
    const exact = bytes(MAX_FILE_BYTES, 7);
    await t.fs.writeFile("/p/exact.bin", exact);
    await t.fs.flush();
    const back = await t.reopen().readFile("/p/exact.bin");
    expect(back.byteLength).toBe(MAX_FILE_BYTES);
    expect(Buffer.from(back).equals(Buffer.from(exact))).toBe(true);

    const error = await rejection(t.fs.writeFile("/p/over.bin", bytes(MAX_FILE_BYTES + 1, 1)));
    expect(error.message).toBe(
      "EFBIG: file too large, '/p/over.bin' is 10485761 bytes; the limit is 10485760 bytes (10 MiB). Write a smaller file.",
    );
    const res = errorResponse(error);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: { code: "efbig", message: error.message } });
    expect(await t.fs.flush()).toEqual({ written: 0, deleted: 0 });
    expect(await storedPaths()).toEqual(["/p:0", `/p/exact.bin:${MAX_FILE_BYTES}`]);
  });
});

describe("per-flush limit (64 MiB)", () => {
  it("refuses a 70 MiB flush with EFBIG → 413 and writes nothing", async () => {
    await t.fs.writeFile("/p/before.txt", "kept");
    await t.fs.flush();
    for (let i = 0; i < 7; i++) await t.fs.writeFile(`/p/f${i}.bin`, bytes(10 * MiB, i));
    const error = await rejection(t.fs.flush());
    expect(error.message).toBe(
      "EFBIG: one write of 73400320 bytes of file content; the limit is 67108864 bytes (64 MiB). Nothing was written; write fewer or smaller files at a time.",
    );
    const res = errorResponse(error);
    expect(res.status).toBe(413);
    expect(await storedPaths()).toEqual(["/p:0", "/p/before.txt:4"]);
    // The caller can drop the changes; the VFS stays usable.
    t.fs.discard("/p");
    await t.fs.writeFile("/p/after.txt", "ok");
    expect(await t.fs.flush()).toEqual({ written: 1, deleted: 0 });
    expect(await t.reopen().readdir("/p")).toEqual(["after.txt", "before.txt"]);
  });

  it("writes 63 MiB in one flush (bounded statements) and reads every byte back", async () => {
    const files = Array.from({ length: 7 }, (_, i) => bytes(9 * MiB, i));
    for (const [i, data] of files.entries()) await t.fs.writeFile(`/p/f${i}.bin`, data);
    for (let i = 0; i < 600; i++) await t.fs.writeFile(`/p/small/s${i}.txt`, `small ${i}\n`);
    expect(await t.fs.flush()).toEqual({ written: 7 + 600 + 2, deleted: 0 });
    const cold = t.reopen();
    for (const [i, data] of files.entries())
      expect(Buffer.from(await cold.readFile(`/p/f${i}.bin`)).equals(Buffer.from(data))).toBe(true);
    expect((await cold.readdir("/p/small")).length).toBe(600);
    expect(await cold.readText("/p/small/s599.txt")).toBe("small 599\n");
  });
});

describe("the bash tool's writes", () => {
  const ctx = () => ({ fs: t.fs, cwd: "/p", projectRoot: "/p" });

  it("4 × 32 MB in one call: fails in the shell with the file limit, stores nothing of it", async () => {
    await t.fs.writeFile("/p/keep.txt", "keep\n");
    await t.fs.flush();
    const bash = createBashTool(ctx());
    // just-bash ends the loop at the first refused redirection, with exit status 1.
    const script = "for i in 1 2 3 4; do printf '%33554432s' x > big$i.bin; done";
    await expect(bash.execute("call-1", { command: script })).rejects.toThrow(
      new Error(
        "EFBIG: file too large, '/p/big1.bin' is 33554432 bytes; the limit is 10485760 bytes (10 MiB). Write a smaller file.\n\n\nCommand exited with code 1",
      ),
    );
    await t.fs.flush();
    // The redirection created big1.bin before its write failed (as a shell does); nothing else was written.
    expect(await storedPaths()).toEqual(["/p:0", "/p/big1.bin:0", "/p/keep.txt:5"]);
    // The process and the VFS carry on.
    const after = await bash.execute("call-2", { command: "cat keep.txt" });
    expect(after.content).toEqual([{ type: "text", text: "keep\n" }]);
  });

  it("past 64 MiB in one call: the write that crosses it fails, the earlier ones are stored", async () => {
    await t.fs.writeFile("/p/seed.bin", bytes(9 * MiB, 3));
    await t.fs.flush();
    const bash = createBashTool(ctx());
    // cp charges the copied size (cheaper to interpret than printf of 9 MiB each).
    const script = "for i in 1 2 3 4 5 6 7 8; do cp seed.bin f$i.bin; done";
    await expect(bash.execute("call-1", { command: script })).rejects.toThrow(
      new Error(
        "cp: cannot copy 'seed.bin': EFBIG: this command would write 75497472 bytes; the limit for one command is 67108864 bytes (64 MiB). Nothing more was written; write less in one command.\n\n\nCommand exited with code 1",
      ),
    );
    await t.fs.flush();
    const stored = await storedPaths();
    expect(stored).toEqual([
      "/p:0",
      ...Array.from({ length: 7 }, (_, i) => `/p/f${i + 1}.bin:9437184`),
      "/p/seed.bin:9437184",
    ]);
    // A new call has its own budget.
    const next = await bash.execute("call-2", { command: "printf '%1024s' y > g.bin && wc -c < g.bin" });
    expect(next.content).toEqual([{ type: "text", text: "1024\n" }]);
  });
});
