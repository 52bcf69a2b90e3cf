/**
 * `git merge <branch|commit>` (`-m`, `--no-ff`, `--ff-only`): a fast-forward, or a merge commit made by
 * isomorphic-git's three-way merge, then the working tree and the index updated like a checkout, with git's
 * outputs (`Updating a..b` / `Fast-forward`, `Merge made by the 'ort' strategy.`, the stat and summary,
 * `Already up to date.`). A conflicting merge changes nothing: it is refused with the conflicting files (Strata's
 * git cannot leave conflict markers and a half-merged index behind).
 */
import * as git from "isomorphic-git";
import { parseArgs } from "./args";
import { switchTo } from "./branch";
import { changedPairs, formatStat, renameName } from "./diff";
import { cleanupMessage, failure, fatal, GitExit, short } from "./format";
import {
  currentBranch,
  headOid,
  type Ident,
  ident,
  type Repo,
  readBlob,
  readCommit,
  resolveRevision,
  treeSnapshot,
} from "./repo";

/** `git merge …`; `now()` is the shell's clock (ms). */
export async function mergeCommand(repo: Repo, args: string[], now: () => number): Promise<string> {
  const a = parseArgs(
    args,
    {
      message: { short: "m", long: ["message"], value: true },
      noFf: { long: ["no-ff"] },
      ffOnly: { long: ["ff-only"] },
      quiet: { short: "q", long: ["quiet"] },
      abort: { long: ["abort"] },
    },
    "git merge [<options>] [<commit>...]",
  );
  if (a.has("abort")) throw fatal("There is no merge to abort (MERGE_HEAD missing).");
  const [name] = a.operands;
  if (!name || a.operands.length > 1)
    throw failure("Strata's git merges one branch or commit at a time: git merge <branch>.", 128);
  const branch = await currentBranch(repo);
  const head = await headOid(repo);
  if (!branch || !head)
    throw fatal(
      branch
        ? "your current branch has no commits yet"
        : "Strata's git merges only into a branch; switch to one first",
    );
  const theirs = await resolveRevision(repo, name).catch(() => {
    throw new GitExit(`merge: ${name} - not something we can merge\n`, 1);
  });
  const author = await ident(repo, "author", now);
  const committer = await ident(repo, "committer", now);
  const message = await mergeMessage(repo, name, branch, a.value("message"));
  const result = await threeWayMerge(repo, {
    ours: branch,
    theirs,
    name,
    fastForward: !a.has("noFf"),
    fastForwardOnly: a.has("ffOnly"),
    message,
    author,
    committer,
  });
  if (result.alreadyMerged) return "Already up to date.\n";
  const oid = result.oid!;
  const updating = result.fastForward ? `Updating ${short(head)}..${short(oid)}\n` : "";
  const out = await switchAfterMerge(repo, oid, branch, updating);
  await git.writeRef({
    fs: repo.gfs,
    gitdir: repo.gitdir,
    ref: `refs/heads/${branch}`,
    value: oid,
    force: true,
  });
  if (a.has("quiet")) return "";
  const summary = await mergeSummary(repo, head, oid);
  if (result.fastForward) return `${updating}${out}Fast-forward\n${summary}`;
  return `${out}Merge made by the 'ort' strategy.\n${summary}`;
}

/**
 * The merge commit's message: `-m`'s (cleaned up), else git's `Merge branch|commit '<name>'`, with ` into <branch>`
 * unless merging into the default branch (`init.defaultBranch`, else master), main or master.
 */
async function mergeMessage(
  repo: Repo,
  name: string,
  branch: string,
  given: string | undefined,
): Promise<string> {
  const defaultBranch =
    ((await git
      .getConfig({ fs: repo.gfs, gitdir: repo.gitdir, path: "init.defaultBranch" })
      .catch(() => undefined)) as string | undefined) ?? "master";
  const isBranch = (await git.listBranches({ fs: repo.gfs, gitdir: repo.gitdir })).includes(name);
  return given !== undefined
    ? cleanupMessage(given)
    : `Merge ${isBranch ? "branch" : "commit"} '${name}'${[defaultBranch, "main", "master"].includes(branch) ? "" : ` into ${branch}`}\n`;
}

/**
 * isomorphic-git's merge of `theirs` (named `name` on the command line) into branch `ours`, leaving the branch
 * and the working tree alone; its refusals as git's messages.
 * @throws GitExit for a fast-forward that is not possible, a conflict (with the conflicting files) or several
 *   merge bases; isomorphic-git's other errors unchanged.
 */
async function threeWayMerge(
  repo: Repo,
  options: {
    ours: string;
    theirs: string;
    name: string;
    fastForward: boolean;
    fastForwardOnly: boolean;
    message: string;
    author: Ident;
    committer: Ident;
  },
): Promise<Awaited<ReturnType<typeof git.merge>>> {
  const { ours, theirs, name, fastForward, fastForwardOnly, message, author, committer } = options;
  try {
    return await git.merge({
      fs: repo.gfs,
      dir: repo.dir,
      gitdir: repo.gitdir,
      ours,
      theirs,
      fastForward,
      fastForwardOnly,
      noUpdateBranch: true,
      abortOnConflict: true,
      message,
      author,
      committer,
      cache: {},
    });
  } catch (error) {
    const e = error as { code?: string; data?: { filepaths?: string[] } };
    if (e.code === "FastForwardError") throw fatal("Not possible to fast-forward, aborting.");
    if (e.code === "MergeConflictError")
      throw new GitExit(
        `${(e.data?.filepaths ?? []).map((p) => `CONFLICT (content): Merge conflict in ${p}\n`).join("")}error: Strata's git does not leave a conflicted merge behind: nothing was changed. Merge by hand (git diff ${ours} ${name}), edit the files, then commit.\n`,
        1,
      );
    if (e.code === "MergeNotSupportedError")
      throw failure(
        "Strata's git cannot merge histories with several merge bases (or none); merge by hand.",
        128,
      );
    throw error;
  }
}

/**
 * Check out the merged commit `oid` on `branch` (the working tree and the index, like a checkout); a refusal keeps
 * the `Updating a..b` line of a fast-forward before its stdout.
 */
async function switchAfterMerge(repo: Repo, oid: string, branch: string, updating: string): Promise<string> {
  try {
    return await switchTo(repo, oid, `ref: refs/heads/${branch}\n`, "merge");
  } catch (error) {
    if (error instanceof GitExit)
      throw new GitExit(error.stderr, error.exitCode, `${updating}${error.stdout}`);
    throw error;
  }
}

/** The diffstat and create/delete/mode lines git prints after a merge (HEAD before → after). */
async function mergeSummary(repo: Repo, before: string, after: string): Promise<string> {
  const load = (_p: string, s: { oid: string }) => readBlob(repo, s.oid);
  const pairs = changedPairs(
    await treeSnapshot(repo, (await readCommit(repo, before)).tree),
    await treeSnapshot(repo, (await readCommit(repo, after)).tree),
    load,
    load,
  );
  let out = await formatStat(pairs);
  for (const p of pairs) {
    if (p.from) out += ` rename ${renameName(p.from, p.path)} (100%)\n`;
    else if (!p.old) out += ` create mode ${p.new!.mode} ${p.path}\n`;
    else if (!p.new) out += ` delete mode ${p.old.mode} ${p.path}\n`;
    else if (p.old.mode !== p.new.mode) out += ` mode change ${p.old.mode} => ${p.new.mode} ${p.path}\n`;
  }
  return out;
}
