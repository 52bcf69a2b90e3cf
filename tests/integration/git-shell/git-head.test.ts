/**
 * A commit made with `git` in the agent's shell (the bash tool's real path, runShell) moves HEAD, which the IDE's
 * indicator reads (lib/projects/git-head.ts); a session checkpoint on refs/heads/strata/session-<id> does not.
 */
import { describe, expect, it } from "vitest";
import { readGitHead } from "@/lib/projects/git-head";
import { createBashTool } from "@/lib/tools/bash";
import { checkpoint } from "@/lib/vfs/git";
import { ROOT, vfsRepo } from "./harness";

describe("the IDE's git HEAD after git in the shell", () => {
  it("shows the shell's commit: branch, short id, subject, author", async () => {
    const { vfs } = await vfsRepo();
    expect(await readGitHead(vfs, ROOT)).toEqual({ repository: true, branch: "main", commit: null });
    await vfs.writeFile(`${ROOT}/a.txt`, "one\n");
    const bash = createBashTool(
      { fs: vfs, cwd: ROOT, projectRoot: ROOT },
      { env: { GIT_AUTHOR_NAME: "Grace", GIT_AUTHOR_EMAIL: "grace@example.com" } },
    );
    const out = await bash.execute("t", {
      command: 'git add a.txt && git commit -m "Add a" && git rev-parse HEAD',
    });
    const text = out.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    const oid = text.trim().split("\n").pop()!;
    expect(text).toBe(
      `[main (root-commit) ${oid.slice(0, 7)}] Add a\n 1 file changed, 1 insertion(+)\n create mode 100644 a.txt\n${oid}\n`,
    );
    await vfs.flush();
    const head = await readGitHead(vfs, ROOT);
    expect(head).toMatchObject({
      repository: true,
      branch: "main",
      commit: { oid, shortOid: oid.slice(0, 7), subject: "Add a", authorName: "Grace" },
    });
    // A checkpoint commits on the session's ref; HEAD stays.
    await vfs.writeFile(`${ROOT}/a.txt`, "two\n");
    await checkpoint(vfs, ROOT, {
      changedPaths: [`${ROOT}/a.txt`],
      ref: "refs/heads/strata/session-s1",
      message: "Strata checkpoint",
      author: { name: "Strata", email: "agent@strata.local" },
    });
    expect((await readGitHead(vfs, ROOT)).commit?.oid).toBe(oid);
  });

  it("a project without .git says so", async () => {
    const { vfs } = await vfsRepo();
    await vfs.rmdir(`${ROOT}/.git`, { recursive: true });
    expect(await readGitHead(vfs, ROOT)).toEqual({ repository: false, branch: null, commit: null });
  });
});
