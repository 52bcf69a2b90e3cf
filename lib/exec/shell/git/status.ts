/**
 * `git status`: the long format (sections, hints and the closing line of git 2.39's wt-status), `-s`/`--short`
 * and `--porcelain` (v1), with `-b`/`--branch`. Staged changes compare the index with HEAD's tree, unstaged ones
 * the working tree with the index; untracked files not ignored are listed, a directory without tracked files
 * as `dir/` (git's default `-unormal`). Also used by `git commit` when there is nothing to commit.
 */
import * as git from "isomorphic-git";
import { parseArgs } from "./args";
import { byteOrder } from "./diff";
import { fatal, quotePath, relativeTo, short } from "./format";
import {
  currentBranch,
  headOid,
  indexSnapshot,
  isIgnored,
  pathMatcher,
  type Repo,
  readCommit,
  treeSnapshot,
  worktreeSnapshot,
} from "./repo";

/** Every path with a change, and its two status letters. */
export interface WorkingState {
  branch: string | null;
  head: string | null;
  /** Sorted; X = index vs HEAD, Y = working tree vs index (" ", "M", "A", "D"). */
  tracked: { path: string; x: string; y: string; from?: string }[];
  /** Untracked (not ignored), sorted, directories without tracked files collapsed to "dir/". */
  untracked: string[];
}

/** Compute the status of the whole repository. */
export async function workingState(
  repo: Repo,
  untrackedMode: "no" | "normal" | "all" = "normal",
): Promise<WorkingState> {
  const head = await headOid(repo);
  const [headTree, index] = await Promise.all([
    treeSnapshot(repo, head ? (await readCommit(repo, head)).tree : null),
    indexSnapshot(repo),
  ]);
  const files = await repo.fs.walk(repo.dir, { skip: (p) => p === repo.gitdir });
  const present = files.filter((e) => e.stat.kind !== "dir").map((e) => e.path.slice(repo.dir.length + 1));
  const work = await worktreeSnapshot(repo, index.keys());
  const tracked: WorkingState["tracked"] = [];
  for (const path of [...new Set([...headTree.keys(), ...index.keys()])].sort(byteOrder)) {
    const h = headTree.get(path);
    const i = index.get(path);
    const w = work.get(path);
    const x = !i ? "D" : !h ? "A" : h.oid !== i.oid || h.mode !== i.mode ? "M" : " ";
    const y = !i ? " " : !w ? "D" : w.oid !== i.oid || w.mode !== i.mode ? "M" : " ";
    if (x !== " " || y !== " ") tracked.push({ path, x, y });
  }
  // Staged exact renames (git's status.renames): a deletion and an addition of the same blob.
  const gone = tracked.filter((t) => t.x === "D" && t.y === " ");
  for (const t of tracked) {
    if (t.x !== "A") continue;
    const oid = index.get(t.path)?.oid;
    const base = (p: string) => p.slice(p.lastIndexOf("/") + 1);
    const sources = gone.filter((g) => headTree.get(g.path)?.oid === oid);
    const source = sources.find((g) => base(g.path) === base(t.path)) ?? sources[0];
    if (!source) continue;
    gone.splice(gone.indexOf(source), 1);
    tracked.splice(tracked.indexOf(source), 1);
    t.x = "R";
    t.from = source.path;
  }
  const trackedDirs = new Set<string>();
  for (const path of index.keys())
    for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) trackedDirs.add(path.slice(0, i));
  const untracked = new Set<string>();
  for (const path of present) {
    if (index.has(path) || (await isIgnored(repo, path))) continue;
    if (untrackedMode === "no") break;
    let shown = path;
    for (let i = path.indexOf("/"); untrackedMode === "normal" && i >= 0; i = path.indexOf("/", i + 1)) {
      if (!trackedDirs.has(path.slice(0, i))) {
        shown = `${path.slice(0, i)}/`;
        break;
      }
    }
    untracked.add(shown);
  }
  return { branch: await currentBranch(repo), head, tracked, untracked: [...untracked].sort(byteOrder) };
}

/** The upstream `origin/main` of `branch` (branch.<name>.remote/merge) and how far apart they are. */
async function upstreamOf(repo: Repo, branch: string, head: string | null) {
  const get = (path: string) =>
    git.getConfig({ fs: repo.gfs, gitdir: repo.gitdir, path }).catch(() => undefined) as Promise<
      string | undefined
    >;
  const remote = await get(`branch.${branch}.remote`);
  const merge = await get(`branch.${branch}.merge`);
  if (!remote || !merge?.startsWith("refs/heads/") || !head) return null;
  const name = remote === "." ? merge.slice(11) : `${remote}/${merge.slice(11)}`;
  const ref = remote === "." ? merge : `refs/remotes/${remote}/${merge.slice(11)}`;
  const base = await git.resolveRef({ fs: repo.gfs, gitdir: repo.gitdir, ref }).catch(() => null);
  if (!base) return { name, gone: true, ahead: 0, behind: 0 };
  const reach = async (from: string) => {
    const seen = new Set<string>();
    const todo = [from];
    while (todo.length > 0) {
      const oid = todo.pop()!;
      if (seen.has(oid)) continue;
      seen.add(oid);
      todo.push(...(await readCommit(repo, oid)).parent);
    }
    return seen;
  };
  const [mine, theirs] = await Promise.all([reach(head), reach(base)]);
  const ahead = [...mine].filter((o) => !theirs.has(o)).length;
  const behind = [...theirs].filter((o) => !mine.has(o)).length;
  return { name, gone: false, ahead, behind };
}

const plural = (n: number) => `${n} commit${n === 1 ? "" : "s"}`;

async function trackingText(repo: Repo, s: WorkingState): Promise<string> {
  if (!s.branch) return "";
  const up = await upstreamOf(repo, s.branch, s.head);
  if (!up) return "";
  if (up.gone)
    return `Your branch is based on '${up.name}', but the upstream is gone.\n  (use "git branch --unset-upstream" to fixup)\n\n`;
  if (up.ahead === 0 && up.behind === 0) return `Your branch is up to date with '${up.name}'.\n\n`;
  if (up.behind === 0)
    return `Your branch is ahead of '${up.name}' by ${plural(up.ahead)}.\n  (use "git push" to publish your local commits)\n\n`;
  if (up.ahead === 0)
    return `Your branch is behind '${up.name}' by ${plural(up.behind)}, and can be fast-forwarded.\n  (use "git pull" to update your local branch)\n\n`;
  return `Your branch and '${up.name}' have diverged,\nand have ${up.ahead} and ${up.behind} different commits each, respectively.\n  (use "git pull" to merge the remote branch into yours)\n\n`;
}

const LABELS: Record<string, string> = { A: "new file:", M: "modified:", D: "deleted:", R: "renamed:" };
const label = (letter: string) => LABELS[letter].padEnd(12);

/** The long format, as `git status` prints it (`commit` mode: the text `git commit` prints with nothing to commit). */
export async function longStatus(repo: Repo, s: WorkingState, untrackedMode = "normal"): Promise<string> {
  const show = (p: string) => quotePath(relativeTo(repo.prefix, p));
  let out = s.branch ? `On branch ${s.branch}\n` : `HEAD detached at ${short(s.head ?? "")}\n`;
  if (!s.head) out += "\nNo commits yet\n\n";
  else out += await trackingText(repo, s);
  const staged = s.tracked.filter((t) => t.x !== " ");
  const unstaged = s.tracked.filter((t) => t.y !== " ");
  if (staged.length > 0) {
    out += `Changes to be committed:\n  (use "git ${s.head ? "restore --staged" : "rm --cached"} <file>..." to unstage)\n`;
    for (const t of staged) out += `\t${label(t.x)}${t.from ? `${show(t.from)} -> ` : ""}${show(t.path)}\n`;
    out += "\n";
  }
  if (unstaged.length > 0) {
    const rm = unstaged.some((t) => t.y === "D") ? "/rm" : "";
    out += `Changes not staged for commit:\n  (use "git add${rm} <file>..." to update what will be committed)\n  (use "git restore <file>..." to discard changes in working directory)\n`;
    for (const t of unstaged) out += `\t${label(t.y)}${show(t.path)}\n`;
    out += "\n";
  }
  if (s.untracked.length > 0) {
    out += `Untracked files:\n  (use "git add <file>..." to include in what will be committed)\n`;
    for (const p of s.untracked) out += `\t${show(p)}\n`;
    out += "\n";
  }
  if (untrackedMode === "no" && staged.length > 0)
    out += "Untracked files not listed (use -u option to show untracked files)\n";
  if (staged.length > 0) return out;
  if (unstaged.length > 0) return `${out}no changes added to commit (use "git add" and/or "git commit -a")\n`;
  if (s.untracked.length > 0)
    return `${out}nothing added to commit but untracked files present (use "git add" to track)\n`;
  if (!s.head) return `${out}nothing to commit (create/copy files and use "git add" to track)\n`;
  if (untrackedMode === "no") return `${out}nothing to commit (use -u to show untracked files)\n`;
  return `${out}nothing to commit, working tree clean\n`;
}

/** `-s` (paths from the working directory) or `--porcelain` (from the top), with `## branch` when `branch`. */
export async function shortStatus(
  repo: Repo,
  s: WorkingState,
  porcelain: boolean,
  branch: boolean,
): Promise<string> {
  const show = (p: string) => quotePath(porcelain ? p : relativeTo(repo.prefix, p));
  let out = "";
  if (branch) {
    if (!s.branch) out += "## HEAD (no branch)\n";
    else if (!s.head) out += `## No commits yet on ${s.branch}\n`;
    else {
      const up = await upstreamOf(repo, s.branch, s.head);
      const counts =
        up && !up.gone && (up.ahead || up.behind)
          ? ` [${[up.ahead ? `ahead ${up.ahead}` : "", up.behind ? `behind ${up.behind}` : ""].filter(Boolean).join(", ")}]`
          : up?.gone
            ? " [gone]"
            : "";
      out += `## ${s.branch}${up ? `...${up.name}${counts}` : ""}\n`;
    }
  }
  for (const t of s.tracked) out += `${t.x}${t.y} ${t.from ? `${show(t.from)} -> ` : ""}${show(t.path)}\n`;
  for (const p of s.untracked) out += `?? ${show(p)}\n`;
  return out;
}

/** `git status [-s|--short] [--porcelain] [-b] [--] [<pathspec>…]` (pathspecs are accepted and ignored in the long format's sections). */
export async function statusCommand(repo: Repo, args: string[]): Promise<string> {
  const a = parseArgs(
    args.map((arg) => (arg === "-u" ? "-uall" : arg)),
    {
      short: { short: "s", long: ["short"] },
      porcelain: { long: ["porcelain"] },
      branch: { short: "b", long: ["branch"] },
      long: { long: ["long"] },
      untracked: { short: "u", long: ["untracked-files"], value: true },
    },
    "git status [<options>] [--] [<pathspec>...]",
  );
  const mode = a.value("untracked") ?? "normal";
  if (mode !== "no" && mode !== "normal" && mode !== "all")
    throw fatal(`Invalid untracked files mode '${mode}'`);
  const all = await workingState(repo, mode);
  const specs = [...a.operands, ...(a.paths ?? [])];
  const match = pathMatcher(repo, specs);
  const state: WorkingState =
    specs.length === 0
      ? all
      : {
          ...all,
          tracked: all.tracked.filter((t) => match(t.path) || (t.from !== undefined && match(t.from))),
          untracked: all.untracked.filter(
            (u) =>
              match(u.replace(/\/$/, "")) ||
              match.specs.some((spec) => u.endsWith("/") && spec.startsWith(u)),
          ),
        };
  if (a.has("porcelain")) return shortStatus(repo, state, true, a.has("branch"));
  if (a.has("short")) return shortStatus(repo, state, false, a.has("branch"));
  return longStatus(repo, state, mode);
}
