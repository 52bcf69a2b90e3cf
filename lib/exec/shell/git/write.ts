/**
 * The commands that change the index or the working tree: `git add`, `git commit` and `git restore`, with git's
 * messages (`[main abc1234] subject` and its stat summary, pathspec refusals, nothing to commit). Blobs are
 * written with isomorphic-git, the index is updated through its index manager, the commit by `git.commit`.
 */
import * as git from "isomorphic-git";
import { GitIndexManager } from "isomorphic-git/managers";
import { FileSystem as GitFileSystem } from "isomorphic-git/models";
import { GitStats } from "@/lib/vfs/git-fs";
import { parseArgs } from "./args";
import { changedPairs, renameName, shortStat, statSummary } from "./diff";
import { cleanupMessage, failure, fatal, GitExit, short, subjectOf } from "./format";
import {
  assertCheckoutPath,
  currentBranch,
  headOid,
  ident,
  indexSnapshot,
  isIgnored,
  pathMatcher,
  type Repo,
  readBlob,
  readCommit,
  type Snapshot,
  treeSnapshot,
  worktreeBytes,
  worktreeSnapshot,
} from "./repo";
import { longStatus, workingState } from "./status";

type GitIndex = Parameters<Parameters<typeof GitIndexManager.acquire>[1]>[0];

/** Change the index in `fn` and write it back (isomorphic-git's lock-free manager; one shell at a time). */
export async function updateIndex(repo: Repo, fn: (index: GitIndex) => Promise<void> | void): Promise<void> {
  await GitIndexManager.acquire({ fs: new GitFileSystem(repo.gfs), gitdir: repo.gitdir, cache: {} }, fn);
}

/** Stage the working tree's state of `paths` (a missing file is removed from the index). */
export async function stagePaths(repo: Repo, paths: string[]): Promise<void> {
  const staged: { filepath: string; oid?: string; stats?: object }[] = [];
  for (const filepath of paths) {
    const file = await worktreeBytes(repo, filepath);
    if (!file) {
      staged.push({ filepath });
      continue;
    }
    const oid = await git.writeBlob({ fs: repo.gfs, gitdir: repo.gitdir, blob: file.data });
    const abs = `${repo.dir}/${filepath}`;
    const stats = new GitStats(await repo.fs.lstat(abs), abs);
    // The mode git records (core.filemode false keeps the index's), with the file's other stats.
    const mode = Number.parseInt(file.mode, 8);
    staged.push({ filepath, oid, stats: { ...stats, mode, ctimeMs: stats.ctimeMs, mtimeMs: stats.mtimeMs } });
  }
  await updateIndex(repo, (index) => {
    for (const s of staged) {
      if (s.oid) putEntry(index, s.filepath, s.oid, s.stats!);
      else index.delete({ filepath: s.filepath });
    }
  });
}

/** Files of the working tree (not ignored, not under .git), relative to the top. */
async function worktreeFiles(repo: Repo, index: Snapshot): Promise<string[]> {
  const entries = await repo.fs.walk(repo.dir, { skip: (p) => p === repo.gitdir });
  const out: string[] = [];
  for (const e of entries) {
    if (e.stat.kind === "dir") continue;
    const rel = e.path.slice(repo.dir.length + 1);
    if (index.has(rel) || !(await isIgnored(repo, rel))) out.push(rel);
  }
  return out;
}

/** Paths whose working-tree state differs from the index, among `candidates`. */
async function changedAgainstIndex(repo: Repo, index: Snapshot, candidates: string[]): Promise<string[]> {
  const work = await worktreeSnapshot(repo, candidates);
  return candidates.filter((p) => {
    const i = index.get(p);
    const w = work.get(p);
    return !i || !w || i.oid !== w.oid || i.mode !== w.mode;
  });
}

/** `git add [-A|--all] [-u|--update] [-f] [--] <pathspec>…`. Prints nothing on success. */
export async function addCommand(repo: Repo, args: string[]): Promise<string> {
  const a = parseArgs(
    args,
    {
      all: { short: "A", long: ["all"] },
      update: { short: "u", long: ["update"] },
      force: { short: "f", long: ["force"] },
      verbose: { short: "v", long: ["verbose"] },
    },
    "git add [<options>] [--] <pathspec>...",
  );
  const specs = [...a.operands, ...(a.paths ?? [])];
  if (specs.length === 0 && !a.has("all") && !a.has("update"))
    throw new GitExit(
      `Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\nhint: Turn this message off by running\nhint: "git config advice.addEmptyPathspec false"\n`,
      0,
    );
  const index = await indexSnapshot(repo);
  const match = pathMatcher(repo, specs);
  const files = await worktreeFiles(repo, index);
  const candidates = new Set([...index.keys(), ...(a.has("update") ? [] : files)].filter(match));
  for (const [i, spec] of match.specs.entries()) {
    const hit = (p: string) => spec === "" || p === spec || p.startsWith(`${spec}/`);
    if ([...candidates].some(hit)) continue;
    const abs = `${repo.dir}/${spec}`;
    if (!a.has("update") && (await repo.fs.exists(abs)) && (await isIgnored(repo, spec))) {
      if (a.has("force")) {
        candidates.add(spec);
        continue;
      }
      throw new GitExit(
        `The following paths are ignored by one of your .gitignore files:\n${specs[i]}\nhint: Use -f if you really want to add them.\nhint: Turn this message off by running\nhint: "git config advice.addIgnoredFile false"\n`,
        1,
      );
    }
    if (!(await repo.fs.exists(abs))) throw fatal(`pathspec '${specs[i]}' did not match any files`);
  }
  const changed = await changedAgainstIndex(repo, index, [...candidates]);
  await stagePaths(repo, changed);
  return a.has("verbose") ? changed.map((p) => `add '${p}'\n`).join("") : "";
}

/** The stat summary and create/delete/mode lines git prints after a commit. */
export async function commitSummary(repo: Repo, parent: string | null, tree: string): Promise<string> {
  const before = await treeSnapshot(repo, parent ? (await readCommit(repo, parent)).tree : null);
  const after = await treeSnapshot(repo, tree);
  const load = (_p: string, s: { oid: string }) => readBlob(repo, s.oid);
  const pairs = changedPairs(before, after, load, load);
  const { files, insertions, deletions } = await shortStat(pairs);
  let out = statSummary(files, insertions, deletions);
  for (const p of pairs) {
    if (p.from) out += ` rename ${renameName(p.from, p.path)} (100%)\n`;
    else if (!p.old) out += ` create mode ${p.new!.mode} ${p.path}\n`;
    else if (!p.new) out += ` delete mode ${p.old.mode} ${p.path}\n`;
    else if (p.old.mode !== p.new.mode) out += ` mode change ${p.old.mode} => ${p.new.mode} ${p.path}\n`;
  }
  return out;
}

/** `git commit [-a] [-m <msg>]… [--allow-empty] [--allow-empty-message] [-q]`; `now()` is the shell's clock (ms). */
export async function commitCommand(repo: Repo, args: string[], now: () => number): Promise<string> {
  const a = parseArgs(
    args,
    {
      all: { short: "a", long: ["all"] },
      message: { short: "m", long: ["message"], value: true },
      allowEmpty: { long: ["allow-empty"] },
      allowEmptyMessage: { long: ["allow-empty-message"] },
      quiet: { short: "q", long: ["quiet"] },
      amend: { long: ["amend"] },
    },
    "git commit [<options>] [--] <pathspec>...",
  );
  if (a.has("amend"))
    throw failure(
      "Strata's git cannot amend a commit; make a new commit instead (git commit -m <message>).",
      128,
    );
  if (a.operands.length > 0 || a.paths)
    throw failure("Strata's git commits the index only; stage the paths with git add first.", 128);
  if (a.has("all")) {
    const index = await indexSnapshot(repo);
    await stagePaths(repo, await changedAgainstIndex(repo, index, [...index.keys()]));
  }
  const head = await headOid(repo);
  const headTree = head ? (await readCommit(repo, head)).tree : null;
  const staged = changedPairs(
    await treeSnapshot(repo, headTree),
    await indexSnapshot(repo),
    async () => new Uint8Array(0),
    async () => new Uint8Array(0),
  );
  if (staged.length === 0 && !a.has("allowEmpty"))
    throw new GitExit("", 1, await longStatus(repo, await workingState(repo)));
  const messages = a.values("message");
  if (messages.length === 0)
    throw failure(
      'Strata\'s shell has no editor for the commit message; give it with -m, e.g. git commit -m "Fix the parser".',
    );
  const message = cleanupMessage(messages.join("\n\n"));
  if (!message && !a.has("allowEmptyMessage"))
    throw new GitExit("Aborting commit due to empty commit message.\n", 1);
  const author = await ident(repo, "author", now);
  const committer = await ident(repo, "committer", now);
  const oid = await git.commit({
    fs: repo.gfs,
    dir: repo.dir,
    gitdir: repo.gitdir,
    message,
    author,
    committer,
    cache: {},
  });
  if (a.has("quiet")) return "";
  const branch = await currentBranch(repo);
  const where = branch ? `${branch}${head ? "" : " (root-commit)"}` : "detached HEAD";
  const tree = (await readCommit(repo, oid)).tree;
  return `[${where} ${short(oid)}] ${subjectOf(message)}\n${await commitSummary(repo, head, tree)}`;
}

/**
 * `git restore [--staged] [--worktree] [--source=<rev>] [--] <pathspec>…`: the working tree from the index
 * (or `--source`), the index from HEAD with `--staged`. Prints nothing on success.
 */
export async function restoreCommand(
  repo: Repo,
  args: string[],
  resolve: (rev: string) => Promise<string>,
): Promise<string> {
  const a = parseArgs(
    args,
    {
      staged: { short: "S", long: ["staged"] },
      worktree: { short: "W", long: ["worktree"] },
      source: { short: "s", long: ["source"], value: true },
    },
    "git restore [<options>] [--source=<branch>] <file>...",
  );
  const specs = [...a.operands, ...(a.paths ?? [])];
  if (specs.length === 0) throw fatal("you must specify path(s) to restore");
  const staged = a.has("staged");
  const worktree = a.has("worktree") || !staged;
  return restorePaths(repo, specs, { staged, worktree, source: a.value("source") }, resolve);
}

/** Shared by `restore` and `checkout -- <path>`: returns how many paths were updated. */
export async function restorePaths(
  repo: Repo,
  specs: string[],
  options: { staged: boolean; worktree: boolean; source?: string },
  resolve: (rev: string) => Promise<string>,
): Promise<string> {
  const match = pathMatcher(repo, specs);
  const head = await headOid(repo);
  const sourceRev = options.source ?? (options.staged ? "HEAD" : undefined);
  const source = sourceRev
    ? await treeSnapshot(repo, (await readCommit(repo, await resolve(sourceRev))).tree)
    : await indexSnapshot(repo);
  if (options.staged && !head && !options.source) throw fatal("could not resolve HEAD");
  const index = await indexSnapshot(repo);
  for (const [i, spec] of match.specs.entries()) {
    const hit = (p: string) => spec === "" || p === spec || p.startsWith(`${spec}/`);
    if (![...source.keys(), ...(options.staged ? index.keys() : [])].some(hit))
      throw failure(`pathspec '${specs[i]}' did not match any file(s) known to git`);
  }
  if (options.staged) {
    const paths = new Set([...source.keys(), ...index.keys()].filter(match));
    await updateIndex(repo, (idx) => {
      for (const p of paths) {
        const s = source.get(p);
        if (s) putEntry(idx, p, s.oid, blankStats(s.mode));
        else idx.delete({ filepath: p });
      }
    });
  }
  if (options.worktree) {
    const wanted = [...source].filter(([p]) => match(p));
    if (!sourceRev) {
      const work = await worktreeSnapshot(
        repo,
        wanted.map(([p]) => p),
      );
      for (const [p, s] of wanted) {
        const w = work.get(p);
        if (w && w.oid === s.oid && w.mode === s.mode) continue;
        await writeWorktreeFile(repo, p, s.oid, s.mode);
      }
    } else for (const [p, s] of wanted) await writeWorktreeFile(repo, p, s.oid, s.mode);
  }
  return "";
}

/**
 * Put `filepath` in the index, first removing what a file there replaces (git's D/F rule): entries below it
 * (it was a directory) and entries at its parent paths (they were files).
 */
export function putEntry(index: GitIndex, filepath: string, oid: string, stats: object): void {
  for (const e of index.entries)
    if (e.path.startsWith(`${filepath}/`) || filepath.startsWith(`${e.path}/`))
      index.delete({ filepath: e.path });
  index.insert({ filepath, oid, stats });
}

/** Index stats for an entry not taken from the working tree (git re-hashes the file on its next look). */
export function blankStats(mode: string) {
  return {
    ctimeSeconds: 0,
    ctimeNanoseconds: 0,
    mtimeSeconds: 0,
    mtimeNanoseconds: 0,
    dev: 0,
    ino: 0,
    mode: Number.parseInt(mode, 8),
    uid: 0,
    gid: 0,
    size: 0,
  };
}

/** Write blob `oid` to the working tree at `path` with `mode` (a symlink for 120000). */
export async function writeWorktreeFile(repo: Repo, path: string, oid: string, mode: string): Promise<void> {
  await assertCheckoutPath(repo, path);
  const abs = `${repo.dir}/${path}`;
  const data = await readBlob(repo, oid);
  const st = await repo.fs.lstat(abs).catch(() => null);
  if (st?.kind === "dir") await repo.fs.rmdir(abs, { recursive: true });
  else if (st && (st.kind === "symlink" || mode === "120000")) await repo.fs.unlink(abs);
  if (mode === "120000") await repo.fs.symlink(new TextDecoder().decode(data), abs);
  else await repo.fs.writeFile(abs, data, { mode: mode === "100755" ? 0o100755 : 0o100644 });
}
