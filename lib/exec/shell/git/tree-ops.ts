/**
 * `git rm`, `git mv` and `git reset` on the index and the working tree, with git's outputs (`rm 'path'`,
 * `Unstaged changes after reset:`, `HEAD is now at …`) and refusals (local modifications, bad source,
 * destination exists, pathspec did not match).
 */
import * as git from "isomorphic-git";
import { parseArgs } from "./args";
import { byteOrder } from "./diff";
import { fatal, GitExit, short, subjectOf } from "./format";
import {
  beyondSymlink,
  currentBranch,
  headOid,
  indexSnapshot,
  pathMatcher,
  type Repo,
  readCommit,
  resolveRevision,
  type Snapshot,
  treeSnapshot,
  tryResolve,
  worktreeSnapshot,
} from "./repo";
import { blankStats, putEntry, updateIndex, writeWorktreeFile } from "./write";

const same = (a?: { oid: string; mode: string }, b?: { oid: string; mode: string }) =>
  a?.oid === b?.oid && a?.mode === b?.mode;

/** Remove a working-tree file and the directories it leaves empty. */
export async function removeWorktreeFile(repo: Repo, path: string): Promise<void> {
  if (await beyondSymlink(repo, path)) return;
  await repo.fs.unlink(`${repo.dir}/${path}`).catch(() => undefined);
  for (let d = path.slice(0, path.lastIndexOf("/")); d; d = d.slice(0, Math.max(0, d.lastIndexOf("/")))) {
    const abs = `${repo.dir}/${d}`;
    if ((await repo.fs.readdir(abs).catch(() => ["?"])).length > 0) break;
    await repo.fs.rmdir(abs).catch(() => undefined);
  }
}

function refusal(kind: string, paths: string[], hint: string): GitExit {
  const one = paths.length === 1;
  const what =
    kind === "both"
      ? `${one ? "file has" : "files have"} staged content different from both the\nfile and the HEAD`
      : `${one ? "file has" : "files have"} ${kind}`;
  return new GitExit(`error: the following ${what}:\n${paths.map((p) => `    ${p}\n`).join("")}${hint}\n`, 1);
}

/** `git rm [--cached] [-f] [-r] [-q] [--] <pathspec>…`. */
export async function rmCommand(repo: Repo, args: string[]): Promise<string> {
  const a = parseArgs(
    args,
    {
      cached: { long: ["cached"] },
      force: { short: "f", long: ["force"] },
      recursive: { short: "r" },
      quiet: { short: "q", long: ["quiet"] },
    },
    "git rm [<options>] [--] <file>...",
  );
  const specs = [...a.operands, ...(a.paths ?? [])];
  if (specs.length === 0) throw new GitExit("usage: git rm [<options>] [--] <file>...\n", 129);
  const index = await indexSnapshot(repo);
  const match = pathMatcher(repo, specs);
  const paths = [...index.keys()].filter(match).sort(byteOrder);
  for (const [i, spec] of match.specs.entries()) {
    const hits = [...index.keys()].filter((p) => spec === "" || p === spec || p.startsWith(`${spec}/`));
    if (hits.length === 0) throw fatal(`pathspec '${specs[i]}' did not match any files`);
    if (!a.has("recursive") && !hits.includes(spec))
      throw fatal(`not removing '${specs[i]}' recursively without -r`);
  }
  if (!a.has("force")) {
    const head = await headOid(repo);
    const tree = await treeSnapshot(repo, head ? (await readCommit(repo, head)).tree : null);
    const work = await worktreeSnapshot(repo, paths);
    const both: string[] = [];
    const staged: string[] = [];
    const local: string[] = [];
    for (const p of paths) {
      const w = work.get(p);
      const changedStage = !same(index.get(p), tree.get(p));
      const changedWork = w !== undefined && !same(w, index.get(p));
      if (changedStage && changedWork && !same(w, tree.get(p))) both.push(p);
      else if (!a.has("cached") && changedStage && tree.has(p)) staged.push(p);
      else if (!a.has("cached") && changedWork) local.push(p);
    }
    if (both.length > 0) throw refusal("both", both, "(use -f to force removal)");
    if (staged.length > 0)
      throw refusal(
        "changes staged in the index",
        staged,
        "(use --cached to keep the file, or -f to force removal)",
      );
    if (local.length > 0)
      throw refusal("local modifications", local, "(use --cached to keep the file, or -f to force removal)");
  }
  await updateIndex(repo, (idx) => {
    for (const p of paths) idx.delete({ filepath: p });
  });
  if (!a.has("cached")) for (const p of paths) await removeWorktreeFile(repo, p);
  return a.has("quiet") ? "" : paths.map((p) => `rm '${p}'\n`).join("");
}

/** `git mv [-f] <source>… <destination>`: moves files or directories in the working tree and the index. */
export async function mvCommand(repo: Repo, args: string[]): Promise<string> {
  const a = parseArgs(
    args,
    { force: { short: "f", long: ["force"] } },
    "git mv [<options>] <source>... <destination>",
  );
  const ops = [...a.operands, ...(a.paths ?? [])];
  if (ops.length < 2) throw new GitExit("usage: git mv [<options>] <source>... <destination>\n", 129);
  const destArg = ops.pop()!;
  const [dest] = pathMatcher(repo, [destArg]).specs;
  const destStat = await repo.fs.stat(`${repo.dir}/${dest}`).catch(() => null);
  const index = await indexSnapshot(repo);
  const moves: [string, string][] = [];
  for (const srcArg of ops) {
    const [src] = pathMatcher(repo, [srcArg]).specs;
    const target = destStat?.kind === "dir" ? `${dest}/${src.slice(src.lastIndexOf("/") + 1)}` : dest;
    const where = `source=${src}, destination=${target}`;
    // Neither end may lie beyond a symlinked directory (it could lead outside the project).
    for (const p of [src, target])
      if (await beyondSymlink(repo, p)) throw fatal(`'${p}' is beyond a symbolic link`);
    const srcStat = await repo.fs.lstat(`${repo.dir}/${src}`).catch(() => null);
    if (!srcStat) throw fatal(`bad source, ${where}`);
    if (target === src || target.startsWith(`${src}/`))
      throw fatal(`can not move directory into itself, ${where}`);
    const files =
      srcStat.kind === "dir"
        ? [...index.keys()].filter((p) => p.startsWith(`${src}/`))
        : index.has(src)
          ? [src]
          : [];
    if (files.length === 0)
      throw fatal(
        srcStat.kind === "dir"
          ? `source directory is empty, ${where}`
          : `not under version control, ${where}`,
      );
    if (srcStat.kind !== "dir" && (await repo.fs.exists(`${repo.dir}/${target}`)) && !a.has("force"))
      throw fatal(`destination exists, ${where}`);
    for (const f of files) moves.push([f, target + f.slice(src.length)]);
    await repo.fs.rename(`${repo.dir}/${src}`, `${repo.dir}/${target}`);
  }
  await updateIndex(repo, (idx) => {
    for (const [from, to] of moves) {
      const s = index.get(from)!;
      idx.delete({ filepath: from });
      putEntry(idx, to, s.oid, blankStats(s.mode));
    }
  });
  return "";
}

/** `M\tpath` lines of tracked files whose working tree differs from `index`. */
async function unstagedLines(repo: Repo, index: Snapshot): Promise<string> {
  const work = await worktreeSnapshot(repo, index.keys());
  let out = "";
  for (const p of [...index.keys()].sort(byteOrder)) {
    const w = work.get(p);
    if (!w) out += `D\t${p}\n`;
    else if (!same(w, index.get(p))) out += `M\t${p}\n`;
  }
  return out ? `Unstaged changes after reset:\n${out}` : "";
}

/** `git reset [--soft|--mixed|--hard] [-q] [<commit>]` and `git reset [<commit>] [--] <pathspec>…`. */
export async function resetCommand(repo: Repo, args: string[]): Promise<string> {
  const a = parseArgs(
    args,
    {
      soft: { long: ["soft"] },
      mixed: { long: ["mixed"] },
      hard: { long: ["hard"] },
      quiet: { short: "q", long: ["quiet"] },
    },
    "git reset [--mixed | --soft | --hard] [-q] [<commit>]",
  );
  const ops = [...a.operands];
  const rev =
    ops.length > 0 && (a.paths !== null || (await tryResolve(repo, ops[0]))) ? ops.shift()! : "HEAD";
  const paths = [...ops, ...(a.paths ?? [])];
  if (a.paths === null)
    for (const p of ops)
      if (!(await repo.fs.exists(`${repo.dir}/${repo.prefix}${p}`))) await resolveRevision(repo, p);
  const target = await resolveRevision(repo, rev);
  const tree = await treeSnapshot(repo, (await readCommit(repo, target)).tree);
  if (paths.length > 0) {
    if (a.has("soft") || a.has("hard"))
      throw fatal(`Cannot do ${a.has("soft") ? "soft" : "hard"} reset with paths.`);
    const match = pathMatcher(repo, paths);
    const index = await indexSnapshot(repo);
    await updateIndex(repo, (idx) => {
      for (const p of new Set([...tree.keys(), ...index.keys()].filter(match))) {
        const t = tree.get(p);
        if (t) putEntry(idx, p, t.oid, blankStats(t.mode));
        else idx.delete({ filepath: p });
      }
    });
    return a.has("quiet") ? "" : unstagedLines(repo, await indexSnapshot(repo));
  }
  const branch = await currentBranch(repo);
  if (branch)
    await git.writeRef({
      fs: repo.gfs,
      gitdir: repo.gitdir,
      ref: `refs/heads/${branch}`,
      value: target,
      force: true,
    });
  else await repo.fs.writeFile(`${repo.gitdir}/HEAD`, `${target}\n`);
  if (a.has("soft")) return "";
  const index = await indexSnapshot(repo);
  if (a.has("hard")) {
    const work = await worktreeSnapshot(repo, new Set([...tree.keys(), ...index.keys()]));
    for (const p of index.keys()) if (!tree.has(p)) await removeWorktreeFile(repo, p);
    for (const [p, t] of tree) if (!same(work.get(p), t)) await writeWorktreeFile(repo, p, t.oid, t.mode);
  }
  await updateIndex(repo, (idx) => {
    for (const p of index.keys()) if (!tree.has(p)) idx.delete({ filepath: p });
    for (const [p, t] of tree) if (!same(index.get(p), t)) putEntry(idx, p, t.oid, blankStats(t.mode));
  });
  if (a.has("hard"))
    return a.has("quiet")
      ? ""
      : `HEAD is now at ${short(target)} ${subjectOf((await readCommit(repo, target)).message)}\n`;
  return a.has("quiet") ? "" : unstagedLines(repo, tree);
}
