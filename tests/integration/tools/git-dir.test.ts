/** Strata manages each project's `.git`: tools may read it but never write it. */
import { describe, expect, it } from "vitest";
import { createBashTool } from "@/lib/tools/bash";
import { createEditTool } from "@/lib/tools/edit";
import { createWriteTool } from "@/lib/tools/write";
import { project, ROOT } from "./fixture";

const refusal = (path: string) =>
  `EACCES: permission denied, '${path}' (the repository's .git directory is managed by Strata)`;

describe(".git is read-only for the agent", () => {
  it("write and edit refuse .git paths, also through a symlink", async () => {
    const ctx = await project({ ".git/HEAD": "ref: refs/heads/main\n" });
    await ctx.fs.symlink(".git", `${ROOT}/g`);
    const write = createWriteTool(ctx);
    await expect(write.execute("t", { path: ".git/HEAD", content: "x" })).rejects.toThrow(
      refusal(`${ROOT}/.git/HEAD`),
    );
    await expect(write.execute("t", { path: "g/hooks/pre-commit", content: "x" })).rejects.toThrow(
      refusal(`${ROOT}/.git/hooks/pre-commit`),
    );
    const edit = createEditTool(ctx);
    await expect(
      edit.execute("t", { path: ".git/HEAD", edits: [{ oldText: "main", newText: "pwned" }] }),
    ).rejects.toThrow(refusal(`${ROOT}/.git/HEAD`));
    expect(await ctx.fs.readText(`${ROOT}/.git/HEAD`)).toBe("ref: refs/heads/main\n");
  });

  it("bash can read .git but not change it", async () => {
    const ctx = await project({ ".git/HEAD": "ref: refs/heads/main\n", "a.txt": "a" });
    const bash = createBashTool(ctx);
    await expect(bash.execute("t", { command: "cat .git/HEAD" })).resolves.toMatchObject({
      content: [{ type: "text", text: "ref: refs/heads/main\n" }],
    });
    for (const command of [
      "echo x > .git/HEAD",
      "rm -r .git",
      "rm -rf .git",
      "mv a.txt .git/a",
      "mkdir .git/hooks",
    ]) {
      await expect(bash.execute("t", { command })).rejects.toThrow(/permission denied|EACCES/);
    }
    expect(await ctx.fs.readText(`${ROOT}/.git/HEAD`)).toBe("ref: refs/heads/main\n");
    expect(await ctx.fs.readText(`${ROOT}/a.txt`)).toBe("a");
  });
});
