import { describe, expect, it } from "vitest";
import { writeProjectFile } from "@/lib/projects/files";
import { runShell } from "@/lib/tools/bash";
import { resolveToolWritePath } from "@/lib/tools/resolve";
import { MemoryVfsStore } from "@/lib/vfs/memory-store";
import { Vfs } from "@/lib/vfs/vfs";

/** `n` copies of `name` joined by "/" (`levels("e", 3)` → "e/e/e"). */
const levels = (name: string, n: number) => Array(n).fill(name).join("/");
const E60 = levels("e", 60);
const K10 = levels("k", 10);

/** A project /p holding the 60-level folder `e/…` and the symlink `L` → it. */
async function project() {
  const fs = new Vfs(new MemoryVfsStore([{ path: "/p", kind: "dir" }]));
  const ctx = { fs, cwd: "/p", projectRoot: "/p" };
  expect(await runShell(ctx, `mkdir -p ${E60} && ln -s ${E60} L && echo ok`)).toMatchObject({
    output: "ok\n",
    exitCode: 0,
  });
  return ctx;
}

describe("path limits hold for the resolved path (symlinked parents)", () => {
  it("the shell refuses `mkdir -p L/k/…(10)` at real depth 70 and creates nothing", async () => {
    const ctx = await project();
    expect(await runShell(ctx, `mkdir -p L/${K10}; echo rc=$?`)).toEqual({
      output: `rc=1\nmkdir: cannot create directory 'L/${K10}': Path is 70 levels deep; the limit is 64. Use a shallower path.\n`,
      exitCode: 0,
      timedOut: false,
      aborted: false,
    });
    expect(await ctx.fs.exists(`/p/${E60}/k`)).toBe(false);
  });

  it("the shell refuses a redirect through a symlink to a 70-level target, and allows 64 levels", async () => {
    const ctx = await project();
    expect(await runShell(ctx, `ln -s L/${K10} M && echo x > M; echo after`)).toEqual({
      output: "bash: Path is 70 levels deep; the limit is 64. Use a shallower path.\n",
      exitCode: 1,
      timedOut: false,
      aborted: false,
    });
    expect(await ctx.fs.exists(`/p/${E60}/k`)).toBe(false);
    expect(await runShell(ctx, "echo hi > L/k/k/k/f; cat L/k/k/k/f")).toMatchObject({
      output: "hi\n",
      exitCode: 0,
    });
    expect(await ctx.fs.readText(`/p/${E60}/k/k/k/f`)).toBe("hi\n");
  });

  it("a file PUT (writeProjectFile) to L/k/…/viaPUT at real depth 71 is refused and writes nothing", async () => {
    const ctx = await project();
    await expect(writeProjectFile(ctx.fs, "/p", `L/${K10}/viaPUT`, "x")).rejects.toMatchObject({
      code: "ENAMETOOLONG",
      message: "Path is 71 levels deep; the limit is 64. Use a shallower path.",
    });
    expect(await ctx.fs.exists(`/p/${E60}/k`)).toBe(false);
    expect(await writeProjectFile(ctx.fs, "/p", "L/k/k/k/viaPUT", "x")).toEqual({
      path: `/p/${E60}/k/k/k/viaPUT`,
      size: 1,
    });
  });

  it("the write/edit tools' path resolution refuses the same target", async () => {
    const ctx = await project();
    await expect(resolveToolWritePath(ctx, `L/${K10}/f`)).rejects.toMatchObject({
      code: "ENAMETOOLONG",
      message: "Path is 71 levels deep; the limit is 64. Use a shallower path.",
    });
  });

  it("the VFS backstop (72 levels) applies to the resolved path of writeFile, mkdir and symlink", async () => {
    const fs = new Vfs(new MemoryVfsStore([{ path: "/p", kind: "dir" }]));
    await fs.mkdir(`/p/${levels("e", 70)}`, { recursive: true });
    await fs.symlink(`/p/${levels("e", 70)}`, "/p/L");
    const deep = "Path is 73 levels deep; the limit is 72. Use a shallower path.";
    await expect(fs.writeFile("/p/L/a/x", "x")).rejects.toMatchObject({
      code: "ENAMETOOLONG",
      message: deep,
    });
    await expect(fs.mkdir("/p/L/a/x", { recursive: true })).rejects.toMatchObject({ message: deep });
    await expect(fs.symlink("/p", "/p/L/a/x")).rejects.toMatchObject({ message: deep });
    expect(await fs.exists(`/p/${levels("e", 70)}/a`)).toBe(false);
  });
});
