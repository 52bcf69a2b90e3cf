/**
 * `git` in Strata's shell: a just-bash custom command backed by isomorphic-git on the project's repository in
 * the VFS (the `.git` at or above the shell's working directory, inside the project). It runs `status`, `diff`,
 * `log`, `show`, `add`, `rm`, `mv`, `commit`, `reset`, `restore`, `branch`, `checkout`, `switch`, `rev-parse` and `init` with git
 * 2.39's output formats and error texts (tests compare them with real git on the same repository); commands
 * that need a network or an editor say so. Commits take their author from `GIT_AUTHOR_NAME`/`_EMAIL`/`_DATE`
 * (and `GIT_COMMITTER_*`) in the shell's environment, else the repository's `user.name`/`user.email`, else
 * `Strata <agent@strata.local>`, dated by the shell's clock. Only this command writes `.git`: it reaches the
 * filesystem behind the shell's confined adapter (`ProjectBashFs.gitRepository()`), so it confines itself
 * (./confine.ts): the working directory, each `-C` and `init <dir>` must be real directories inside the project
 * (outside, or through a symlink, they do not exist), the repository is found no higher than the project's root,
 * and `--git-dir`/`--work-tree`/`GIT_DIR`/`GIT_WORK_TREE` are refused. The caller flushes the VFS.
 */

import * as git from "isomorphic-git";
import { defineCommand } from "just-bash/browser";
import { createGitFs } from "@/lib/vfs/git-fs";
import type { FileSystem } from "@/lib/vfs/types";
import { branchCommand, checkoutCommand, revParseCommand } from "./branch";
import {
  changeDir,
  confinedKind,
  initDir,
  normalize,
  repositoryOptionRefusal,
  repositoryVariableRefusal,
} from "./confine";
import { diffCommand } from "./diff-command";
import { configCommand, lsFilesCommand, remoteCommand, tagCommand } from "./extra";
import { fatal, GitExit } from "./format";
import { logCommand, showCommand } from "./log";
import { mergeCommand } from "./merge";
import { currentBranch, openRepo, type Repo, resolveRevision, tryResolve } from "./repo";
import { statusCommand } from "./status";
import { mvCommand, resetCommand, rmCommand } from "./tree-ops";
import { refuseMovingMain, sessionGitFs, sessionOfFs } from "./worktree";
import { addCommand, commitCommand, restoreCommand } from "./write";

/** The subcommands Strata's git runs, with git's one-line summaries (for `git help` and the tool description). */
export const GIT_SUBCOMMANDS: Readonly<Record<string, string>> = {
  add: "Add file contents to the index",
  branch: "List, create, or delete branches",
  checkout: "Switch branches or restore working tree files",
  commit: "Record changes to the repository",
  config: "Get and set repository options",
  diff: "Show changes between commits, commit and working tree, etc",
  init: "Create an empty Git repository",
  log: "Show commit logs",
  merge: "Join two or more development histories together",
  "ls-files": "Show information about files in the index and the working tree",
  mv: "Move or rename a file, a directory, or a symlink",
  reset: "Reset current HEAD to the specified state",
  restore: "Restore working tree files",
  remote: "Manage set of tracked repositories",
  "rev-parse": "Pick out and massage parameters",
  rm: "Remove files from the working tree and from the index",
  show: "Show various types of objects",
  status: "Show the working tree status",
  switch: "Switch branches",
  tag: "Create, list, delete or verify a tag object",
};

/** Real git commands the shell cannot run, and why. */
const UNAVAILABLE: Record<string, string> = Object.fromEntries([
  ...["push", "pull", "fetch", "clone", "submodule", "ls-remote"].map((c) => [c, "it has no network"]),
  ...[
    "rebase",
    "cherry-pick",
    "revert",
    "stash",
    "blame",
    "grep",
    "clean",
    "worktree",
    "gc",
    "reflog",
    "am",
    "apply",
    "bisect",
    "describe",
    "notes",
    "archive",
    "cat-file",
    "hash-object",
    "update-index",
    "write-tree",
    "commit-tree",
    "fsck",
  ].map((c) => [c, "Strata's git does not implement it"]),
]);

const VERSION = "git version 2.39.5 (Strata's shell: isomorphic-git)\n";

function usage(): string {
  const width = Math.max(...Object.keys(GIT_SUBCOMMANDS).map((c) => c.length)) + 3;
  const lines = Object.entries(GIT_SUBCOMMANDS)
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([c, d]) => `   ${c.padEnd(width)}${d}\n`);
  return `usage: git [--version] [--help] [-C <path>] <command> [<args>]\n\nThe git commands of Strata's shell (isomorphic-git on the project's repository):\n\n${lines.join("")}\nNo network (push, pull, fetch, clone) and no editor: give commit messages with -m.\n`;
}

interface Invocation {
  fs: FileSystem;
  root: string;
  cwd: string;
  env: Map<string, string>;
  now: () => number;
}

/** Run one `git` invocation; never throws (a failure is git's message and exit code). */
export async function runGit(
  args: string[],
  inv: Invocation,
): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const root = normalize(inv.root);
  // The shell's working directory counts only when it is a real directory inside the project.
  let cwd: string | null = normalize(inv.cwd);
  if ((await confinedKind(inv.fs, root, cwd)) !== "dir") cwd = null;
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) {
    const opt = args[i];
    if (opt === "--version") return { stdout: VERSION, stderr: "", exitCode: 0 };
    if (opt === "--help" || opt === "-h") return { stdout: usage(), stderr: "", exitCode: 0 };
    const refusal = repositoryOptionRefusal(opt, root);
    if (refusal) return { stdout: "", stderr: refusal, exitCode: 128 };
    if (opt === "-C" && args[i + 1] !== undefined) {
      // Each -C applies in turn, relative to the one before (as git's chdir); outside the project is absent.
      const target = args[i + 1];
      try {
        if (cwd === null && !target.startsWith("/"))
          throw fatal(`cannot change to '${target}': No such file or directory`);
        cwd = await changeDir(inv.fs, root, cwd ?? root, target);
      } catch (error) {
        if (error instanceof GitExit) return { stdout: "", stderr: error.stderr, exitCode: error.exitCode };
        throw error;
      }
      i += 2;
    } else if (opt === "-c" && args[i + 1] !== undefined) i += 2;
    else if (opt === "--no-pager" || opt === "-P" || opt === "--no-optional-locks") i++;
    else return { stdout: "", stderr: `unknown option: ${opt}\n${usage()}`, exitCode: 129 };
  }
  const [sub, ...given] = args.slice(i);
  // Output is never coloured (the shell is no terminal): colour options are accepted and change nothing.
  const rest = given.filter((arg) => !/^--(no-)?colou?r(=.*)?$/.test(arg));
  if (!sub) return { stdout: "", stderr: usage(), exitCode: 1 };
  if (sub === "help") return { stdout: usage(), stderr: "", exitCode: 0 };
  if (sub === "version") return { stdout: VERSION, stderr: "", exitCode: 0 };
  if (UNAVAILABLE[sub])
    return {
      stdout: "",
      stderr: `git: '${sub}' is not available in Strata's shell: ${UNAVAILABLE[sub]}. It runs: ${Object.keys(GIT_SUBCOMMANDS).sort().join(", ")}.\n`,
      exitCode: 1,
    };
  if (!GIT_SUBCOMMANDS[sub])
    return { stdout: "", stderr: `git: '${sub}' is not a git command. See 'git --help'.\n`, exitCode: 1 };
  const variable = repositoryVariableRefusal(inv.env, root);
  if (variable) return { stdout: "", stderr: variable, exitCode: 128 };
  try {
    if (sub === "init") return await init(inv.fs, root, cwd, rest);
    if (cwd === null) throw fatal("not a git repository (or any of the parent directories): .git");
    const opened = await openRepo(inv.fs, root, cwd, inv.env);
    if (rest.includes("-h")) return { stdout: "", stderr: `usage: git ${sub} [<options>]\n`, exitCode: 129 };
    // In a session's working tree, HEAD and the index are the session's own (./worktree.ts).
    const session = opened.dir === root ? sessionOfFs(inv.fs) : null;
    if (!session) return await dispatch(opened, sub, rest, inv.now);
    await refuseMovingMain(session, sub, rest, (arg) => tryResolve(opened, arg), await currentBranch(opened));
    const own = sessionGitFs(inv.fs, opened.gitdir, session);
    await own.prepare();
    return await dispatch(await openRepo(own.fs, root, cwd, inv.env), sub, rest, inv.now);
  } catch (error) {
    if (error instanceof GitExit)
      return { stdout: error.stdout, stderr: error.stderr, exitCode: error.exitCode };
    return {
      stdout: "",
      stderr: `fatal: ${error instanceof Error ? error.message : String(error)}\n`,
      exitCode: 128,
    };
  }
}

async function dispatch(repo: Repo, sub: string, args: string[], now: () => number) {
  const ok = (stdout: string) => ({ stdout, stderr: "", exitCode: 0 });
  switch (sub) {
    case "status":
      return ok(await statusCommand(repo, args));
    case "diff":
      return ok(await diffCommand(repo, args));
    case "log":
      return ok(await logCommand(repo, args, Math.floor(now() / 1000)));
    case "show":
      return ok(await showCommand(repo, args, Math.floor(now() / 1000)));
    case "add":
      return ok(await addCommand(repo, args));
    case "commit":
      return ok(await commitCommand(repo, args, now));
    case "restore":
      return ok(await restoreCommand(repo, args, (rev) => resolveRevision(repo, rev)));
    case "rm":
      return ok(await rmCommand(repo, args));
    case "mv":
      return ok(await mvCommand(repo, args));
    case "reset":
      return ok(await resetCommand(repo, args));
    case "config":
      return ok(await configCommand(repo, args));
    case "ls-files":
      return ok(await lsFilesCommand(repo, args));
    case "tag":
      return ok(await tagCommand(repo, args, now));
    case "remote":
      return ok(await remoteCommand(repo, args));
    case "merge":
      return ok(await mergeCommand(repo, args, now));
    case "branch":
      return ok(await branchCommand(repo, args));
    case "checkout":
    case "switch":
      return { ...(await checkoutCommand(repo, args, sub)), exitCode: 0 };
    default:
      return ok(await revParseCommand(repo, args));
  }
}

/**
 * `git init [<dir>]`: `<dir>` (or the working directory) must be a directory inside the project, reached through
 * real directories, whose `.git` (if any) is a real directory.
 */
async function init(fs: FileSystem, root: string, cwd: string | null, args: string[]) {
  const given = args.find((a) => !a.startsWith("-"));
  if (cwd === null && !given?.startsWith("/")) throw fatal(`cannot mkdir ${given ?? "."}: Permission denied`);
  const dir = given ? await initDir(fs, root, cwd ?? root, given) : (cwd as string);
  const inGitDir = dir
    .slice(root.length)
    .split("/")
    .some((c) => c.toLowerCase() === ".git");
  const dotGit = await fs.lstat(`${dir === "/" ? "" : dir}/.git`).catch(() => null);
  if (inGitDir || (dotGit && dotGit.kind !== "dir"))
    throw fatal(`cannot mkdir ${dir === "/" ? "" : dir}/.git: Permission denied`);
  await git.init({ fs: createGitFs(fs), dir, defaultBranch: "main" });
  return {
    stdout: `${dotGit ? "Reinitialized existing" : "Initialized empty"} Git repository in ${dir === "/" ? "" : dir}/.git/\n`,
    stderr: "",
    exitCode: 0,
  };
}

/** What the shell's filesystem adapter offers `git`: the filesystem behind it and the project root. */
interface GitCapableFs {
  gitRepository(): { fs: FileSystem; root: string };
}

/**
 * The `git` command for `Bash({ customCommands })`. Works on a shell whose filesystem is `ProjectBashFs`;
 * elsewhere it answers that git needs the project's filesystem (exit 128).
 */
export const gitCommand = defineCommand("git", async (args, ctx) => {
  const fs = ctx.fs as unknown as Partial<GitCapableFs>;
  if (typeof fs.gitRepository !== "function")
    return { stdout: "", stderr: "fatal: git runs only in a shell over a Strata project\n", exitCode: 128 };
  const { fs: files, root } = fs.gitRepository();
  return runGit(args, { fs: files, root, cwd: ctx.cwd, env: ctx.env, now: () => Date.now() });
});
