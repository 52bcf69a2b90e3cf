/**
 * The shell's git writes `.git` and the working tree through the filesystem behind the confined adapter, so it
 * must confine itself: a symlinked directory inside the project never takes a checkout, a restore or a status
 * read outside the project, and a tree entry named `.git` is never checked out.
 */
import * as git from "isomorphic-git";
import { Bash } from "just-bash/browser";
import { describe, expect, it } from "vitest";
import { projectShellCommands } from "@/lib/exec/shell/commands";
import { ProjectBashFs } from "@/lib/vfs/bash-fs";
import { initRepository, writeLooseObject, writeTreeObject } from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import type { Vfs } from "@/lib/vfs/vfs";
import { IDENT, ROOT, type Run, vfsRepo } from "./harness";

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
    // Raw bytes: Strata's own tree writer refuses a `.git` entry (lib/vfs/git.ts `writeTreeObject`), a hostile remote does not.
    const tree = await writeLooseObject(
      vfs,
      gitdir,
      "tree",
      new Uint8Array([...new TextEncoder().encode("40000 .git\0"), ...Buffer.from(inner, "hex")]),
    );
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

/** A shell over `vfs` confined to `root` (as a session of that project), running `script` from `cwd`. */
async function shellAt(vfs: Vfs, root: string, script: string, cwd = root): Promise<Run> {
  const shell = new Bash({
    fs: new ProjectBashFs(vfs, root),
    customCommands: projectShellCommands,
    cwd,
    env: { HOME: root, ...IDENT },
    python: false,
    javascript: false,
  });
  const r = await shell.exec(script, { rawScript: true });
  await vfs.flush();
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

/** Every node below each of `dirs` (files' bytes, symlinks' targets, directories) and the workspace's top. */
async function outsideState(vfs: Vfs, dirs: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = { "/": (await vfs.readdir("/")).sort().join(",") };
  for (const dir of dirs)
    for (const e of await vfs.walk(dir)) {
      if (e.stat.kind === "dir") out[e.path] = "dir";
      else if (e.stat.kind === "symlink") out[e.path] = `-> ${await vfs.readlink(e.path)}`;
      else out[e.path] = Buffer.from(await vfs.readFile(e.path)).toString("base64");
    }
  return out;
}

const refused = (stderr: string) => ({ stdout: "", stderr, exitCode: 128 });
const noDir = (target: string) => refused(`fatal: cannot change to '${target}': No such file or directory\n`);

describe("git in the shell works on no directory and no repository outside the project", () => {
  /** /proj (the session's project, committed), /other (another project) and /.team (a team rules repository). */
  async function workspace() {
    const { vfs, sh } = await vfsRepo();
    await vfs.writeFile(`${ROOT}/a.txt`, "a\n");
    await vfs.mkdir(`${ROOT}/sub`, { recursive: true });
    await vfs.writeFile(`${ROOT}/sub/b.txt`, "b\n");
    expect((await sh("git add -A && git commit -qm one")).exitCode).toBe(0);
    for (const [root, file] of [
      ["/other", "README.md"],
      ["/.team", "rules.md"],
    ]) {
      await initRepository(vfs, root);
      await vfs.writeFile(`${root}/${file}`, `${root}\n`);
      await vfs.flush();
      const setup = await shellAt(
        vfs,
        root,
        `git add ${file} && git commit -qm base && git branch proposals/p1`,
      );
      expect(setup, root).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    }
    await vfs.symlink("/other", `${ROOT}/link`);
    await vfs.flush();
    const state = () => outsideState(vfs, ["/other", "/.team"]);
    const before = await state();
    const unchanged = async () => expect(await state()).toEqual(before);
    return { vfs, sh, unchanged, state };
  }

  it("-C outside the project (absolute, relative, cumulative, through a symlink) is a directory that does not exist", async () => {
    const { sh, unchanged } = await workspace();
    const cases: [string, string][] = [
      ["git -C /.team reset --hard proposals/p1", "/.team"],
      ["git -C ../other rm README.md", "../other"],
      ["git -C /other commit --allow-empty -m x", "/other"],
      ["git -C /other status", "/other"],
      ["git -C .. status", ".."],
      ["git -C sub -C ../.. status", "../.."],
      ["git -C link status", "link"],
      ["git -C link/.. status", "link/.."],
      [`git -C ${ROOT}/../other status`, `${ROOT}/../other`],
      ["git -C / init", "/"],
    ];
    for (const [command, target] of cases) expect(await sh(command), command).toEqual(noDir(target));
    expect(await sh("git -C a.txt status")).toEqual(
      refused("fatal: cannot change to 'a.txt': Not a directory\n"),
    );
    // Inside the project -C works, each relative to the one before.
    expect(await sh("git -C sub -C .. status --porcelain")).toEqual({
      stdout: "?? link\n",
      stderr: "",
      exitCode: 0,
    });
    expect((await sh(`git -C ${ROOT}/sub rev-parse --show-prefix`)).stdout).toBe("sub/\n");
    expect((await sh("git -C ../proj/sub rev-parse --show-prefix")).stdout).toBe("sub/\n");
    expect(await sh("git -C .git status")).toEqual(
      refused("fatal: this operation must be run in a work tree\n"),
    );
    await unchanged();
  });

  it("init outside the project or through a symlink is refused; inside it works", async () => {
    const { vfs, sh, unchanged } = await workspace();
    for (const [command, dir] of [
      ["git init /", "/"],
      ["git init ../x", "../x"],
      ["git init /other", "/other"],
      ["git init link/y", "link/y"],
    ])
      expect(await sh(command), command).toEqual(refused(`fatal: cannot mkdir ${dir}: Permission denied\n`));
    expect(await vfs.exists("/.git")).toBe(false);
    expect(await vfs.exists("/x")).toBe(false);
    expect(await sh("git init nested")).toEqual({
      stdout: `Initialized empty Git repository in ${ROOT}/nested/.git/\n`,
      stderr: "",
      exitCode: 0,
    });
    await unchanged();
  });

  it("--git-dir, --work-tree and GIT_DIR/GIT_WORK_TREE are refused", async () => {
    const { sh, unchanged } = await workspace();
    const own = `git works only on the project's own repository (${ROOT}/.git)`;
    for (const [command, name] of [
      ["git --git-dir=/other/.git log", "--git-dir"],
      ["git --git-dir /.team/.git reset --hard proposals/p1", "--git-dir"],
      ["git --work-tree=/ status", "--work-tree"],
    ])
      expect(await sh(command), command).toEqual(
        refused(
          `fatal: ${name} is not available in Strata's shell: ${own}; use -C <dir> for a directory inside the project.\n`,
        ),
      );
    for (const [command, name] of [
      ["GIT_DIR=/other/.git git log", "GIT_DIR"],
      ["GIT_WORK_TREE=/other git status", "GIT_WORK_TREE"],
    ])
      expect(await sh(command), command).toEqual(
        refused(`fatal: ${name} is not available in Strata's shell: ${own}; unset ${name}.\n`),
      );
    await unchanged();
  });

  it("pathspecs and mv stay inside: an absolute path outside, a move into a symlinked directory", async () => {
    const { sh, unchanged } = await workspace();
    expect(await sh("git add /other/README.md")).toEqual(
      refused(`fatal: /other/README.md: '/other/README.md' is outside repository at '${ROOT}'\n`),
    );
    expect(await sh("git rm -q ../other/README.md")).toEqual(
      refused(`fatal: ../other/README.md: '../other/README.md' is outside repository at '${ROOT}'\n`),
    );
    expect(await sh("git mv a.txt link/a.txt")).toEqual(
      refused("fatal: 'link/a.txt' is beyond a symbolic link\n"),
    );
    expect(await sh(`git add ${ROOT}/a.txt && git status --porcelain`)).toEqual({
      stdout: "?? link\n",
      stderr: "",
      exitCode: 0,
    });
    await unchanged();
  });

  it("core.worktree, include.path and -c are inert; clone is not available", async () => {
    const { sh, unchanged } = await workspace();
    const setup = "git config core.worktree /other && git config include.path /.team/.git/config";
    expect(await sh(setup)).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    for (const command of [
      "git status --porcelain",
      "git -c core.worktree=/other status --porcelain",
      "git --no-pager -c include.path=/other/.git/config status --porcelain",
    ])
      expect(await sh(command), command).toEqual({ stdout: "?? link\n", stderr: "", exitCode: 0 });
    expect((await sh("git clone /other copy")).exitCode).toBe(1);
    expect((await sh("git clone /other copy")).stderr).toMatch(
      /^git: 'clone' is not available in Strata's shell: it has no network\./,
    );
    await unchanged();
  });

  it("the repository is never one above the project's root, nor a symlinked .git", async () => {
    const { vfs, state } = await workspace();
    // A repository at the workspace's top, and a project with no repository of its own below it.
    await initRepository(vfs, "/");
    await vfs.writeFile("/bare/notes.txt", "n\n");
    await vfs.flush();
    const noRepo = refused("fatal: not a git repository (or any of the parent directories): .git\n");
    expect(await shellAt(vfs, "/bare", "git status")).toEqual(noRepo);
    expect(await shellAt(vfs, "/bare", "git add notes.txt")).toEqual(noRepo);
    // A symlinked .git leading to another project's repository is no repository.
    await vfs.symlink("/other/.git", "/bare/.git");
    await vfs.flush();
    const before = await state();
    expect(await shellAt(vfs, "/bare", "git log")).toEqual(noRepo);
    expect(await shellAt(vfs, "/bare", "git init")).toEqual(
      refused("fatal: cannot mkdir /bare/.git: Permission denied\n"),
    );
    expect(await state()).toEqual(before);
  });
});
