/**
 * Branches and HEAD: `git branch` (list, create, `-d`/`-D`, `-m`, `--show-current`), `git checkout`/`git switch`
 * (to a branch, `-b`/`-c` a new one, a detached commit, keeping local changes that do not collide, with git's
 * refusal when they would be overwritten), `git checkout [<rev>] -- <path>…`, and `git rev-parse`.
 */
import * as git from "isomorphic-git";
import { type ParsedArgs, parseArgs } from "./args";
import { byteOrder } from "./diff";
import { failure, fatal, GitExit, short, subjectOf } from "./format";
import {
  currentBranch,
  headOid,
  indexSnapshot,
  isIgnored,
  type Repo,
  readCommit,
  resolveRevision,
  type Snapshot,
  treeSnapshot,
  tryResolve,
  worktreeSnapshot,
} from "./repo";
import { removeWorktreeFile } from "./tree-ops";
import { SHARED_REPOSITORY_REFUSAL } from "./worktree";
import { blankStats, putEntry, restorePaths, updateIndex, writeWorktreeFile } from "./write";

const branchExists = async (repo: Repo, name: string) =>
  (await git.listBranches({ fs: repo.gfs, gitdir: repo.gitdir })).includes(name);

/** `git branch` in its forms; the listing marks the current branch with `*`. */
export async function branchCommand(repo: Repo, args: string[]): Promise<string> {
  const a = parseArgs(
    args,
    {
      delete: { short: "d", long: ["delete"] },
      forceDelete: { short: "D" },
      move: { short: "m", long: ["move"] },
      force: { short: "f", long: ["force"] },
      showCurrent: { long: ["show-current"] },
      list: { short: "l", long: ["list"] },
      all: { short: "a", long: ["all"] },
      remotes: { short: "r", long: ["remotes"] },
    },
    "git branch [<options>] [-r | -a] [--merged] [--no-merged]",
  );
  const current = await currentBranch(repo);
  const head = await headOid(repo);
  if (a.has("showCurrent")) return current ? `${current}\n` : "";
  if (a.has("delete") || a.has("forceDelete")) {
    if (a.operands.length === 0) throw fatal("branch name required");
    let out = "";
    for (const name of a.operands) {
      if (!(await branchExists(repo, name))) throw failure(`branch '${name}' not found.`);
      if (name === current) throw failure(`Cannot delete branch '${name}' checked out at '${repo.dir}'`);
      const tip = await git.resolveRef({ fs: repo.gfs, gitdir: repo.gitdir, ref: `refs/heads/${name}` });
      const merged =
        !head ||
        tip === head ||
        (await git.isDescendent({ fs: repo.gfs, gitdir: repo.gitdir, oid: head, ancestor: tip, depth: -1 }));
      if (!merged && !a.has("forceDelete") && !a.has("force"))
        throw failure(
          `The branch '${name}' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D ${name}'.`,
        );
      await git.deleteBranch({ fs: repo.gfs, gitdir: repo.gitdir, ref: name });
      out += `Deleted branch ${name} (was ${short(tip)}).\n`;
    }
    return out;
  }
  if (a.has("move")) {
    const [from, to] = a.operands.length === 1 ? [current, a.operands[0]] : a.operands;
    if (!from || !to) throw fatal("branch name required");
    if (!(await branchExists(repo, from))) throw fatal(`no branch named '${from}'`);
    if (await branchExists(repo, to)) throw fatal(`a branch named '${to}' already exists`);
    await git.renameBranch({
      fs: repo.gfs,
      gitdir: repo.gitdir,
      oldref: from,
      ref: to,
      checkout: from === current,
    });
    return "";
  }
  if (a.operands.length > 0) {
    const [name, start = "HEAD"] = a.operands;
    await createBranch(repo, name, start, a.has("force"));
    return "";
  }
  let out = "";
  if (!a.has("remotes")) {
    const names = (await git.listBranches({ fs: repo.gfs, gitdir: repo.gitdir })).sort(byteOrder);
    if (!current && head) out += `* (HEAD detached at ${short(head)})\n`;
    for (const n of names) out += `${n === current ? "*" : " "} ${n}\n`;
  }
  if (a.has("all") || a.has("remotes")) out += await remoteBranches(repo, a.has("all") ? "remotes/" : "");
  return out;
}

/** `  remotes/origin/main` lines (`origin/HEAD -> origin/main` for a symbolic HEAD), for `branch -a`/`-r`. */
async function remoteBranches(repo: Repo, prefix: string): Promise<string> {
  const remotes = (await git.listRemotes({ fs: repo.gfs, gitdir: repo.gitdir })).map((r) => r.remote);
  const lines: string[] = [];
  for (const remote of remotes) {
    for (const b of await git.listBranches({ fs: repo.gfs, gitdir: repo.gitdir, remote })) {
      if (b === "HEAD") {
        const head = await repo.fs.readText(`${repo.gitdir}/refs/remotes/${remote}/HEAD`).catch(() => "");
        const target = /^ref: refs\/remotes\/(.+)$/.exec(head.trim())?.[1];
        lines.push(`${prefix}${remote}/HEAD${target ? ` -> ${target}` : ""}`);
      } else lines.push(`${prefix}${remote}/${b}`);
    }
  }
  return lines
    .sort(byteOrder)
    .map((l) => `  ${l}\n`)
    .join("");
}

/** Create branch `name` at `start`, with git's refusals. */
async function createBranch(repo: Repo, name: string, start: string, force = false): Promise<string> {
  if (!force && (await branchExists(repo, name))) throw fatal(`a branch named '${name}' already exists`);
  const oid = await tryResolve(repo, start);
  if (!oid)
    throw fatal(start === "HEAD" ? "not a valid object name: 'HEAD'" : `not a valid object name: '${start}'`);
  try {
    await git.branch({ fs: repo.gfs, gitdir: repo.gitdir, ref: name, object: oid, force: true });
  } catch (error) {
    // A write the filesystem refuses (a session's shared repository: ./worktree.ts) says so, not "invalid name".
    if (error instanceof Error && error.message === SHARED_REPOSITORY_REFUSAL) throw fatal(error.message);
    throw fatal(`'${name}' is not a valid branch name`);
  }
  return oid;
}

const DETACHED_ADVICE = `You are in 'detached HEAD' state. You can look around, make experimental
changes and commit them, and you can discard any commits you make in this
state without impacting any branches by switching back to a branch.

If you want to create a new branch to retain commits you create, you may
do so (now or later) by using -c with the switch command. Example:

  git switch -c <new-branch-name>

Or undo this operation with:

  git switch -

Turn off this advice by setting config variable advice.detachedHead to false
`;

const same = (a: { oid: string; mode: string } | undefined, b: { oid: string; mode: string } | undefined) =>
  a?.oid === b?.oid && a?.mode === b?.mode;

/**
 * Move HEAD to `target` (a commit), updating the index and the working tree for the paths that differ between
 * HEAD's tree and the target's; local changes of other paths are kept (listed like git: `M\tpath`).
 * @throws GitExit (1) when a local change or an untracked file would be overwritten.
 */
export async function switchTo(
  repo: Repo,
  target: string,
  newHead: string,
  verb: "checkout" | "merge" = "checkout",
): Promise<string> {
  const head = await headOid(repo);
  const from = await treeSnapshot(repo, head ? (await readCommit(repo, head)).tree : null);
  const to = await treeSnapshot(repo, (await readCommit(repo, target)).tree);
  const index = await indexSnapshot(repo);
  const paths = [...new Set([...from.keys(), ...to.keys()])].filter((p) => !same(from.get(p), to.get(p)));
  const work = await worktreeSnapshot(repo, [...new Set([...paths, ...index.keys()])]);
  const blocked: string[] = [];
  const untracked: string[] = [];
  for (const p of paths) {
    const staged = !same(index.get(p), from.get(p));
    const dirty = index.has(p) ? !same(work.get(p), index.get(p)) : false;
    if ((staged && !same(index.get(p), to.get(p))) || dirty) blocked.push(p);
    else if (!index.has(p) && work.has(p) && to.has(p) && !(await isIgnored(repo, p))) untracked.push(p);
  }
  if (blocked.length > 0)
    throw new GitExit(
      `error: Your local changes to the following files would be overwritten by ${verb}:\n${blocked
        .sort(byteOrder)
        .map((p) => `\t${p}\n`)
        .join(
          "",
        )}Please commit your changes or stash them before you ${verb === "merge" ? "merge" : "switch branches"}.\nAborting\n`,
      1,
    );
  if (untracked.length > 0)
    throw new GitExit(
      `error: The following untracked working tree files would be overwritten by ${verb}:\n${untracked
        .sort(byteOrder)
        .map((p) => `\t${p}\n`)
        .join(
          "",
        )}Please move or remove them before you ${verb === "merge" ? "merge" : "switch branches"}.\nAborting\n`,
      1,
    );
  for (const p of paths) {
    const t = to.get(p);
    if (t) await writeWorktreeFile(repo, p, t.oid, t.mode);
    else await removeWorktreeFile(repo, p);
  }
  await updateIndex(repo, (idx) => {
    for (const p of paths) {
      const t = to.get(p);
      if (t) putEntry(idx, p, t.oid, blankStats(t.mode));
      else idx.delete({ filepath: p });
    }
  });
  await repo.fs.writeFile(`${repo.gitdir}/HEAD`, newHead);
  return localChanges(repo, to);
}

/** `M\tpath` lines of what differs from `tree` after a switch (git's show_local_changes). */
async function localChanges(repo: Repo, tree: Snapshot): Promise<string> {
  const index = await indexSnapshot(repo);
  const work = await worktreeSnapshot(repo, index.keys());
  let out = "";
  for (const p of [...new Set([...tree.keys(), ...index.keys()])].sort(byteOrder)) {
    const t = tree.get(p);
    const i = index.get(p);
    const w = i ? work.get(p) : undefined;
    if (!i) out += `D\t${p}\n`;
    else if (!t) out += `A\t${p}\n`;
    else if (!w) out += `D\t${p}\n`;
    else if (!same(t, i) || !same(i, w)) out += `M\t${p}\n`;
  }
  return out;
}

/** The stderr line for leaving a detached HEAD, when it was one. */
async function leavingDetached(repo: Repo, target: string): Promise<string> {
  if (await currentBranch(repo)) return "";
  const head = await headOid(repo);
  if (!head || head === target) return "";
  return `Previous HEAD position was ${short(head)} ${subjectOf((await readCommit(repo, head)).message)}\n`;
}

/** `git checkout`/`git switch`: returns stdout and stderr (git reports the switch on stderr). */
export async function checkoutCommand(
  repo: Repo,
  args: string[],
  mode: "checkout" | "switch",
): Promise<{ stdout: string; stderr: string }> {
  const a = parseArgs(
    args,
    {
      create: {
        short: mode === "checkout" ? "b" : "c",
        long: mode === "switch" ? ["create"] : [],
        value: true,
      },
      detach: { long: ["detach"] },
      force: { short: "f", long: ["force"] },
      quiet: { short: "q", long: ["quiet"] },
    },
    mode === "checkout" ? "git checkout [<options>] <branch>" : "git switch [<options>] [<branch>]",
  );
  const result = await checkoutWith(repo, a, mode);
  return a.has("quiet") ? { stdout: "", stderr: "" } : result;
}

/** `git checkout [<rev>] [--] <path>…`: the paths restored from the index, or from `<rev>` (index and working tree). */
async function checkoutPaths(repo: Repo, a: ParsedArgs): Promise<{ stdout: string; stderr: string }> {
  const [rev, ...rest] = a.paths !== null ? [a.operands[0], ...a.paths] : [undefined, ...a.operands];
  const specs = a.paths !== null ? a.paths : rest;
  const source = rev ? await resolveRevision(repo, rev) : undefined;
  await restorePaths(repo, specs, { staged: Boolean(source), worktree: true, source }, (r) =>
    resolveRevision(repo, r),
  );
  return { stdout: "", stderr: "" };
}

/** `checkout -b`/`switch -c <created> [<start>]`: a new branch at `start`, switched to (an unborn one on an empty repository). */
async function checkoutNewBranch(
  repo: Repo,
  created: string,
  start: string,
): Promise<{ stdout: string; stderr: string }> {
  if (await branchExists(repo, created)) throw fatal(`a branch named '${created}' already exists`);
  const oid = await tryResolve(repo, start);
  if (!oid) {
    if (start === "HEAD") {
      await repo.fs.writeFile(`${repo.gitdir}/HEAD`, `ref: refs/heads/${created}\n`);
      return { stdout: "", stderr: `Switched to a new branch '${created}'\n` };
    }
    throw fatal(`'${start}' is not a commit and a branch '${created}' cannot be created from it`);
  }
  const note = await leavingDetached(repo, oid);
  const stdout = await switchTo(repo, oid, `ref: refs/heads/${created}\n`);
  await git.branch({ fs: repo.gfs, gitdir: repo.gitdir, ref: created, object: oid, force: true });
  return { stdout, stderr: `${note}Switched to a new branch '${created}'\n` };
}

async function checkoutWith(
  repo: Repo,
  a: ParsedArgs,
  mode: "checkout" | "switch",
): Promise<{ stdout: string; stderr: string }> {
  if (
    a.paths !== null ||
    (mode === "checkout" &&
      !a.has("create") &&
      a.operands.length > 0 &&
      !(await isBranchOrCommit(repo, a.operands[0])))
  ) {
    if (mode === "switch") throw fatal(`invalid reference: ${a.operands[0] ?? ""}`);
    return checkoutPaths(repo, a);
  }
  const created = a.value("create");
  if (created) return checkoutNewBranch(repo, created, a.operands[0] ?? "HEAD");
  const name = a.operands[0];
  if (!name)
    throw fatal(
      mode === "switch" ? "missing branch or commit argument" : "you must specify a branch to checkout",
    );
  const target = name === "-" ? null : name;
  if (!target) throw fatal("Strata's git keeps no reflog; name the branch to switch to");
  if (target === "HEAD" && mode === "checkout") {
    // `git checkout HEAD` stays where it is and lists the local changes.
    const head = await headOid(repo);
    return {
      stdout: await localChanges(
        repo,
        await treeSnapshot(repo, head ? (await readCommit(repo, head)).tree : null),
      ),
      stderr: "",
    };
  }
  if (await branchExists(repo, target)) {
    const oid = await git.resolveRef({ fs: repo.gfs, gitdir: repo.gitdir, ref: `refs/heads/${target}` });
    if ((await currentBranch(repo)) === target) {
      const tree = await treeSnapshot(repo, (await readCommit(repo, oid)).tree);
      return { stdout: await localChanges(repo, tree), stderr: `Already on '${target}'\n` };
    }
    const note = await leavingDetached(repo, oid);
    const stdout = await switchTo(repo, oid, `ref: refs/heads/${target}\n`);
    return { stdout, stderr: `${note}Switched to branch '${target}'\n` };
  }
  const oid = await tryResolve(repo, target);
  if (!oid)
    throw mode === "switch"
      ? fatal(`invalid reference: ${target}`)
      : failure(`pathspec '${target}' did not match any file(s) known to git`);
  if (mode === "switch" && !a.has("detach"))
    throw new GitExit(
      `fatal: a branch is expected, got commit '${target}'\nhint: If you want to detach HEAD at the commit, try again with the --detach option.\n`,
      128,
    );
  const note = await leavingDetached(repo, oid);
  const stdout = await switchTo(repo, oid, `${oid}\n`);
  const subject = subjectOf((await readCommit(repo, oid)).message);
  const intro = note ? note : `Note: switching to '${target}'.\n\n${DETACHED_ADVICE}\n`;
  return { stdout, stderr: `${intro}HEAD is now at ${short(oid)} ${subject}\n` };
}

async function isBranchOrCommit(repo: Repo, name: string): Promise<boolean> {
  return name === "-" || (await branchExists(repo, name)) || (await tryResolve(repo, name)) !== null;
}

/** `git rev-parse [--short[=N]] [--abbrev-ref] [--verify] [--show-toplevel|--git-dir|--show-prefix|--is-inside-work-tree] <rev>…`. */
export async function revParseCommand(repo: Repo, args: string[]): Promise<string> {
  let shortLen = 0;
  let abbrevRef = false;
  let out = "";
  for (const arg of args) {
    if (arg === "--short") shortLen = 7;
    else if (arg.startsWith("--short=")) shortLen = Math.max(4, Number(arg.slice(8)) || 7);
    else if (arg === "--abbrev-ref" || arg === "--symbolic-full-name") abbrevRef = arg === "--abbrev-ref";
    else if (arg === "--verify" || arg === "-q" || arg === "--quiet") continue;
    else if (arg === "--show-toplevel") out += `${repo.dir}\n`;
    else if (arg === "--git-dir") out += repo.prefix ? `${repo.gitdir}\n` : ".git\n";
    else if (arg === "--show-prefix") out += `${repo.prefix}\n`;
    else if (arg === "--show-cdup")
      out += `${repo.prefix
        .split("/")
        .filter(Boolean)
        .map(() => "../")
        .join("")}\n`;
    else if (arg === "--is-inside-work-tree") out += "true\n";
    else if (arg === "--is-inside-git-dir" || arg === "--is-bare-repository") out += "false\n";
    else if (arg.startsWith("-")) throw fatal(`Strata's git rev-parse does not know the option '${arg}'`);
    else if (abbrevRef) {
      if (arg === "HEAD" || arg === "@") {
        const b = await currentBranch(repo);
        if (!b && !(await headOid(repo)))
          throw fatal(
            `ambiguous argument 'HEAD': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`,
          );
        out += `${b ?? "HEAD"}\n`;
      } else {
        await resolveRevision(repo, arg);
        out += `${arg}\n`;
      }
    } else {
      const oid = await resolveRevision(repo, arg);
      out += `${shortLen ? oid.slice(0, shortLen) : oid}\n`;
    }
  }
  return out;
}
