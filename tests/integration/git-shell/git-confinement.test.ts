/**
 * The shell's git writes `.git` and the working tree through the filesystem behind the confined adapter, so it
 * must confine itself: a symlinked directory inside the project never takes a checkout, a restore or a status
 * read outside the project, and a tree entry named `.git` is never checked out.
 */
import * as git from "isomorphic-git";
import { describe, expect, it } from "vitest";
import { writeLooseObject, writeTreeObject } from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import { ROOT, vfsRepo } from "./harness";

describe("git in the shell stays inside the project", () => {
  it("restore, reset --hard and checkout -- refuse to write beyond a symlink to another project", async () => {
    const { vfs, sh } = await vfsRepo();
    await vfs.writeFile("/other/secret.txt", "secret\n");
    await vfs.writeFile(`${ROOT}/link/x.txt`, "mine\n");
    const setup = await sh(
      "git add -A && git commit -qm one && git switch -qc evil && echo two > link/x.txt && git commit -qam two && git switch -q main",
    );
    expect(setup.exitCode).toBe(0);
    // The project's `link` directory becomes a symlink to /other (as a hostile import could make it).
    await vfs.rmdir(`${ROOT}/link`, { recursive: true });
    await vfs.symlink("/other", `${ROOT}/link`);
    await vfs.writeFile("/other/x.txt", "outside\n");
    await vfs.flush();
    // Nothing is read through the link: link/x.txt is missing, the link itself untracked (as in git).
    expect(await sh("git status --porcelain")).toEqual({
      stdout: " D link/x.txt\n?? link\n",
      stderr: "",
      exitCode: 0,
    });
    // Real git refuses the switch too: link/x.txt is a local deletion.
    expect((await sh("git checkout evil")).stderr).toMatch(
      /^error: Your local changes to the following files/,
    );
    for (const command of ["git restore link/x.txt", "git reset -q --hard evil", "git checkout evil -- link"])
      expect(await sh(command), command).toEqual({
        stdout: "",
        stderr: "fatal: 'link/x.txt' is beyond a symbolic link\n",
        exitCode: 128,
      });
    expect(await vfs.readText("/other/x.txt")).toBe("outside\n");
  });

  it("a tree entry named .git is refused (isomorphic-git's tree reader already refuses it), nothing written", async () => {
    const { vfs, sh } = await vfsRepo();
    await vfs.writeFile(`${ROOT}/a.txt`, "a\n");
    await sh("git add a.txt && git commit -qm base");
    const gitdir = `${ROOT}/.git`;
    const blob = await writeLooseObject(
      vfs,
      gitdir,
      "blob",
      new TextEncoder().encode("[core]\n\thooksPath = /x\n"),
    );
    const inner = await writeTreeObject(vfs, gitdir, [
      { mode: "100644", path: "config", oid: blob, type: "blob" },
    ]);
    const tree = await writeTreeObject(vfs, gitdir, [
      { mode: "040000", path: ".git", oid: inner, type: "tree" },
    ]);
    const who = { name: "x", email: "x@example.com", timestamp: 0, timezoneOffset: 0 };
    const commit = await git.writeCommit({
      fs: createGitFs(vfs),
      gitdir,
      commit: { message: "evil\n", tree, parent: [], author: who, committer: who },
    });
    await vfs.flush();
    expect(await sh(`git restore --source=${commit} .`)).toEqual({
      stdout: "",
      stderr: 'fatal: The filepath ".git" contains unsafe character sequences\n',
      exitCode: 128,
    });
    expect(await vfs.readText(`${gitdir}/config`)).not.toContain("hooksPath");
  });
});
