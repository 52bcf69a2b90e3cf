/**
 * The shell's `git` against real git for the commands that move HEAD or change the index and the working tree
 * (branch, checkout/switch, restore, add) and for git's refusals: each step runs in the shell and in real git
 * on a copy of the same repository; their output and the resulting `status --porcelain`, `branch` and
 * `rev-parse HEAD` are equal.
 */
import { describe, expect, it } from "vitest";
import { dates, materialise, realGit, vfsRepo } from "./harness";

async function twoCommits() {
  const repo = await vfsRepo();
  await repo.vfs.writeFile("/proj/a.txt", "a\n");
  await repo.vfs.writeFile("/proj/lib/b.txt", "b\n");
  await repo.sh('git add -A && git commit -q -m "First"', dates(1));
  await repo.vfs.writeFile("/proj/a.txt", "a2\n");
  await repo.sh('git commit -qam "Second"', dates(2));
  return repo;
}

/** Run `steps` in both gits, comparing each step's result and the state after it. */
async function same(
  steps: string[],
  setup?: (sh: (s: string, env?: Record<string, string>) => Promise<unknown>) => Promise<void>,
) {
  const { vfs, sh } = await twoCommits();
  if (setup) await setup(sh);
  const dir = await materialise(vfs);
  for (const step of steps) {
    const env = dates(10);
    const mine = await sh(`git ${step}`, env);
    const real = realGit(
      dir,
      step.match(/"[^"]*"|\S+/g)!.map((w) => w.replace(/^"|"$/g, "")),
      env,
    );
    // The one difference that must be: where the working tree is.
    real.stderr = real.stderr.replaceAll(dir, "/proj");
    expect(mine, `git ${step}`).toEqual(real);
    for (const check of ["status --porcelain", "branch", "rev-parse HEAD"])
      expect(await sh(`git ${check}`), `${check} after git ${step}`).toEqual(realGit(dir, check.split(" ")));
  }
}

describe("git branches, checkout and restore in the shell, compared with real git", () => {
  it("log --all shows the commits of every branch (a session's checkpoint branch too), newest first", async () => {
    await same(
      ["log --oneline --all", "log --all -n 2", "log --oneline", "log --oneline --all -- a.txt"],
      async (sh) => {
        await sh("git switch -q -c strata/session-1", dates(3));
        await sh("echo c > c.txt && git add c.txt && git commit -q -m Checkpoint", dates(4));
        await sh("echo a3 > a.txt && git commit -qam 'Checkpoint 2'", dates(5));
        await sh("git switch -q main", dates(6));
      },
    );
  });

  it("branch create/list/delete, switch -c, checkout of a branch and back, refusals", async () => {
    await same([
      "branch feature",
      "branch",
      "branch feature",
      "switch feature",
      "switch feature",
      "checkout main",
      "checkout -b topic",
      "switch -c main",
      "switch nope",
      "checkout nope",
      "checkout main",
      "branch -d topic",
      "branch -d main",
      "branch -d ghost",
      "branch --show-current",
      "rev-parse --abbrev-ref HEAD",
    ]);
  });

  it("restore, restore --staged, checkout -- path, add refusals", async () => {
    await same(
      [
        "status",
        "restore --staged a.txt",
        "status -s",
        "restore a.txt",
        "status -s",
        "checkout -- lib/b.txt",
        "status -s",
        "restore nope.txt",
        "add nope.txt",
        "add",
        "status",
      ],
      async (sh) => {
        await sh("echo changed > a.txt && git add a.txt && echo again > lib/b.txt");
      },
    );
  });

  it("a branch with a different file: switching rewrites it; a local change to it blocks the switch as in git", async () => {
    await same(["switch other", "switch main", "status -s"], async (sh) => {
      await sh(
        'git switch -q -c other && echo other > a.txt && git commit -qam "Other" && git switch -q main',
      );
      await sh("echo dirty > a.txt");
    });
  });

  it("rm, mv and reset (soft, mixed, hard, paths), with their refusals", async () => {
    await same(
      [
        "rm lib/b.txt",
        "rm lib",
        "rm a.txt",
        "rm --cached a.txt",
        "reset",
        "rm nope",
        "mv lib/b.txt lib/c.txt",
        "mv nope x",
        "mv a.txt lib",
        "status",
        "diff --staged",
        "diff --staged --stat",
        "diff --cached --name-status",
        "commit -m Moved",
        "show --stat",
        "log --stat -1",
        "mv lib/b.txt docs",
        "mv lib docs",
        "status -s",
        "reset -- lib",
        "reset HEAD~1 -- a.txt",
        "reset --soft HEAD~1",
        "status -s",
        "reset --mixed HEAD",
        "reset --hard HEAD",
        "status",
        "reset --hard HEAD~5",
      ],
      async (sh) => {
        await sh("echo local > a.txt");
      },
    );
  });

  it("merge: fast-forward, a merge commit (same id as git's), already up to date, a blocked merge", async () => {
    await same(
      [
        "merge ff",
        "merge ff",
        "merge side",
        "log --oneline --stat -3",
        "show",
        "status",
        "merge nope",
        "merge --ff-only other",
      ],
      async (sh) => {
        await sh(
          'git switch -qc ff && echo ff > ff.txt && git add ff.txt && git commit -qm "FF" && git switch -q main',
          dates(3),
        );
        await sh(
          'git switch -qc side && echo side > lib/side.txt && git add -A && git commit -qm "Side" && git switch -q main',
          dates(4),
        );
        await sh(
          'git switch -qc other main && echo o > o.txt && git add -A && git commit -qm "Other" && git switch -q main',
          dates(5),
        );
      },
    );
  });

  it("merge refuses when a local change would be overwritten, as git", async () => {
    await same(["merge side", "status -s"], async (sh) => {
      await sh(
        'git switch -qc side && echo side > a.txt && git commit -qam "Side" && git switch -q main',
        dates(3),
      );
      await sh("echo local > a.txt");
    });
  });

  it("a conflicting merge is refused with the conflicting files and changes nothing", async () => {
    const { sh } = await twoCommits();
    await sh(
      'git switch -qc side && echo theirs > a.txt && git commit -qam "Theirs" && git switch -q main',
      dates(3),
    );
    await sh('echo ours > a.txt && git commit -qam "Ours"', dates(4));
    const head = (await sh("git rev-parse HEAD")).stdout;
    expect(await sh("git merge side", dates(5))).toEqual({
      stdout: "",
      stderr:
        "CONFLICT (content): Merge conflict in a.txt\nerror: Strata's git does not leave a conflicted merge behind: nothing was changed. Merge by hand (git diff main side), edit the files, then commit.\n",
      exitCode: 1,
    });
    expect((await sh("git rev-parse HEAD")).stdout).toBe(head);
    expect(await sh("git status --porcelain")).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  });

  it("tags, config, remotes and remote branches", async () => {
    await same(
      [
        "tag",
        "tag v1",
        "tag v1",
        "tag -a v2 -m Release",
        "tag",
        "show v2 --stat --oneline",
        "show v2 -s",
        "log --oneline v1",
        "tag -d v1",
        "config user.email",
        "config user.email ada@example.org",
        "config user.email",
        "remote",
        "remote -v",
        "branch -a",
        "branch -r",
        "ls-files lib",
      ],
      async (sh) => {
        await sh("git config remote.origin.url https://example.com/r.git");
        await sh("git config remote.origin.fetch +refs/heads/*:refs/remotes/origin/*");
        await sh("mkdir -p .git/refs/remotes/origin");
      },
    );
  });

  it("the usual mistakes give git's texts", async () => {
    const { sh } = await twoCommits();
    expect(await sh("git frobnicate")).toEqual({
      stdout: "",
      stderr: "git: 'frobnicate' is not a git command. See 'git --help'.\n",
      exitCode: 1,
    });
    expect(await sh("git status", {}, "/proj")).toMatchObject({ exitCode: 0 });
    expect((await sh("git --version")).stdout).toMatch(/^git version /);
    expect(await sh("git push")).toEqual({
      stdout: "",
      stderr:
        "git: 'push' is not available in Strata's shell: it has no network. It runs: add, branch, checkout, commit, config, diff, init, log, ls-files, merge, mv, remote, reset, restore, rev-parse, rm, show, status, switch, tag.\n",
      exitCode: 1,
    });
    expect(await sh("git commit --allow-empty")).toEqual({
      stdout: "",
      stderr:
        'error: Strata\'s shell has no editor for the commit message; give it with -m, e.g. git commit -m "Fix the parser".\n',
      exitCode: 1,
    });
    expect(await sh("git status --frob")).toEqual({
      stdout: "",
      stderr: "error: unknown option `frob'\nusage: git status [<options>] [--] [<pathspec>...]\n",
      exitCode: 129,
    });
  });

  it("outside a repository: git's fatal text, exit 128", async () => {
    const { vfs, sh } = await vfsRepo();
    await vfs.rmdir("/proj/.git", { recursive: true });
    await vfs.flush();
    expect(await sh("git status")).toEqual({
      stdout: "",
      stderr: "fatal: not a git repository (or any of the parent directories): .git\n",
      exitCode: 128,
    });
  });
});
