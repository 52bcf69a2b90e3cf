/**
 * `git` in a session's shell (the bash tool on the session's working tree, on the real Postgres;
 * lib/exec/shell/git/worktree.ts): status and diff show the session's files against main; staging uses the session's
 * own index (main's and another session's stay as they were); what would move main's HEAD is refused with what to do
 * instead, and main stays; unstaging and restoring run; on main the same commit runs.
 */
import { describe, expect, it } from "vitest";
import { createSession } from "@/lib/session/store";
import { createBashTool } from "@/lib/tools/bash";
import { resolveRef } from "@/lib/vfs/git";
import type { Vfs } from "@/lib/vfs/vfs";
import { openMainVfs, openSessionVfs } from "@/lib/vfs/workspace";
import { withMockStack } from "../../helpers/mock-stack";
import { projectWithSession } from "../../helpers/session-fixture";

const stack = withMockStack();
type Out = { content: { type: string; text?: string }[] };
const textOf = (out: Out) => out.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const failed = (e: Error): Out => ({ content: [{ type: "text", text: e.message }] });

function shell(vfs: Vfs, root: string) {
  return async (command: string) => {
    const bash = createBashTool({ fs: vfs, cwd: root, projectRoot: root }, {});
    const out = await bash.execute("t", { command }).catch(failed);
    await vfs.flush();
    return textOf(out);
  };
}

describe("git in a session's shell", () => {
  it("stages in the session's own index and refuses to move main's HEAD", async () => {
    const f = await projectWithSession(stack.scope, { "a.txt": "one\n" });
    const root = f.project.rootPath;
    const s = f.session.id;
    const other = await createSession(stack.scope, { projectId: f.project.id, cwd: root });
    const mine = openSessionVfs(f.project, s);
    const theirs = openSessionVfs(f.project, other.id);
    const main = openMainVfs(f.project.workspaceId, { projectId: f.project.id, root });
    try {
      const run = shell(mine.vfs, root);
      await mine.vfs.writeFile(`${root}/a.txt`, "two\n");
      expect(await run("git status --short")).toBe(" M a.txt\n");
      expect(await run("git add a.txt && git status --short")).toBe("M  a.txt\n");
      // Main's index and the other session's are untouched.
      expect(await shell(theirs.vfs, root)("git status --short")).toBe("(no output)");
      expect(await shell(main.vfs, root)("git status --short")).toBe("(no output)");

      const refusal = (sub: string) =>
        `fatal: 'git ${sub}' would move the project's main line, which this session shares: the session works on its own copy of the files, and main changes only when the session is merged. Strata commits this session's work on its branch strata/session-${s} after every turn and !command; merge it from the session menu ("Review and merge into main…"). Restoring files ('git restore <path>', 'git checkout -- <path>') and staging work here.`;
      expect(await run('git commit -m "Two"')).toBe(`${refusal("commit")}\n\n\nCommand exited with code 128`);
      expect(await run("git checkout -b topic")).toContain(refusal("checkout"));
      expect(await run("git checkout main")).toContain(refusal("checkout"));
      expect(await run("git branch -f main HEAD~0")).toContain(refusal("branch"));
      expect(await run("git branch -D main")).toContain(refusal("branch"));
      expect(await run("git branch")).toBe("* main\n");
      // Whatever the arguments, nothing but objects and the session's index is written in the shared repository.
      const shared =
        "fatal: this session shares the project's repository with main and every other session: git here reads it, stages in the session's own index and stores objects, but does not move HEAD, branches or tags or change the config.";
      for (const command of [
        "git branch topic",
        "git checkout -bx",
        "git branch -m renamed",
        "git tag v1",
        "git config user.name Mallory",
      ])
        expect(await run(command), command).toContain(shared);
      expect(await run("git branch")).toBe("* main\n");
      expect(await mine.vfs.readText(`${root}/.git/HEAD`)).toBe("ref: refs/heads/main\n");
      expect(await resolveRef(mine.vfs, root, "HEAD")).toBe(f.initCommit);

      // Unstaging and restoring run.
      expect(await run("git reset HEAD a.txt; git status --short")).toBe(
        "Unstaged changes after reset:\nM\ta.txt\n M a.txt\n",
      );
      expect(await run("git checkout -- a.txt && cat a.txt && git status --short")).toBe("one\n");
    } finally {
      await Promise.all([mine.scope.release(), theirs.scope.release()]);
    }
    try {
      await main.vfs.writeFile(`${root}/b.txt`, "b\n");
      expect(
        await shell(main.vfs, root)('git add b.txt && git commit -q -m "Add b" && git log --format=%s'),
      ).toBe("Add b\ninit\n");
    } finally {
      await main.scope.release();
    }
  });
});
