/**
 * A symlink loop (`ln -s b a; ln -s a b`) or a link out of the project can be removed and replaced from the shell:
 * `rm` and `ln -sf` act on the link itself (as GNU's), so resolving the link's target (ELOOP, outside the root)
 * must not refuse them.
 */
import { describe, expect, it } from "vitest";
import { runShell } from "@/lib/tools/bash";
import { project, ROOT } from "../tools/fixture";

describe("runShell: links whose target cannot be resolved", () => {
  it("rm removes both links of a loop", async () => {
    const ctx = await project({ "a.txt": "a" });
    expect(await runShell(ctx, "ln -s b loop; ln -s loop b; rm loop b; echo rc=$?; ls")).toMatchObject({
      output: "rc=0\na.txt\n",
      exitCode: 0,
    });
    expect(await ctx.fs.readdir(ROOT)).toEqual(["a.txt"]);
  });

  it("ln -sf replaces a link of a loop", async () => {
    const ctx = await project({ "a.txt": "a" });
    expect(
      await runShell(ctx, "ln -s b loop; ln -s loop b; ln -sf a.txt loop; cat loop; echo; rm b; ls"),
    ).toMatchObject({
      output: "a\na.txt\nloop\n",
      exitCode: 0,
    });
  });

  it("rm removes a link that points out of the project, never its target", async () => {
    const ctx = await project({ "a.txt": "a" });
    await ctx.fs.mkdir("/other", { recursive: true });
    await ctx.fs.writeFile("/other/secret.txt", "s");
    await ctx.fs.symlink("/other/secret.txt", `${ROOT}/out`);
    expect(await runShell(ctx, "rm out; echo rc=$?; ls")).toMatchObject({
      output: "rc=0\na.txt\n",
      exitCode: 0,
    });
    expect(await ctx.fs.readText("/other/secret.txt")).toBe("s");
  });
});
