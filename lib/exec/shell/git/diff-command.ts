/**
 * `git diff`: the working tree against the index (default), the index against a commit (`--staged`/`--cached`,
 * HEAD by default), the working tree against a commit (`<commit>`), or two commits (`<a> <b>`, `<a>..<b>`),
 * limited to paths; output as a patch, `--stat`, `--shortstat`, `--numstat`, `--name-only` or `--name-status`;
 * `--quiet`/`--exit-code` exit 1 when something differs.
 */
import { parseArgs } from "./args";
import {
  changedPairs,
  type FilePair,
  formatNames,
  formatNumstat,
  formatPatch,
  formatStat,
  shortStat,
  statSummary,
} from "./diff";
import { fatal, GitExit } from "./format";
import {
  headOid,
  indexSnapshot,
  pathMatcher,
  type Repo,
  readBlob,
  readCommit,
  resolveRevision,
  type Snapshot,
  treeSnapshot,
  tryResolve,
  worktreeBytes,
  worktreeSnapshot,
} from "./repo";

const DIFF_OPTIONS = {
  staged: { long: ["staged", "cached"] },
  stat: { long: ["stat"] },
  shortstat: { long: ["shortstat"] },
  numstat: { long: ["numstat"] },
  nameOnly: { long: ["name-only"] },
  nameStatus: { long: ["name-status"] },
  quiet: { long: ["quiet"] },
  exitCode: { long: ["exit-code"] },
  patch: { short: "p", long: ["patch"] },
  unified: { short: "U", long: ["unified"], value: true },
};

/** The `-U<n>` context (default 3). @throws GitExit (128) for a value that is not a count. */
export function contextLines(value: string | undefined): number {
  if (value === undefined) return 3;
  if (!/^\d+$/.test(value)) throw fatal(`invalid argument to -U/--unified: '${value}'`);
  return Number(value);
}

/** `git diff …` → stdout; throws `GitExit` (1, with the output) for `--exit-code`/`--quiet` when there are changes. */
export async function diffCommand(repo: Repo, args: string[]): Promise<string> {
  const a = parseArgs(args, DIFF_OPTIONS, "git diff [<options>] [<commit>] [--] [<path>...]");
  const revs: string[] = [];
  const rest = [...a.operands];
  while (rest.length > 0 && revs.length < 2) {
    const op = rest[0];
    const range = /^(.*?)\.\.(.*)$/.exec(op);
    if (
      range &&
      !op.includes("...") &&
      (await tryResolve(repo, range[1] || "HEAD")) &&
      (await tryResolve(repo, range[2] || "HEAD"))
    ) {
      revs.push(range[1] || "HEAD", range[2] || "HEAD");
      rest.shift();
      break;
    }
    if (a.paths === null && !(await tryResolve(repo, op))) break;
    revs.push(rest.shift()!);
  }
  if (a.paths === null)
    for (const p of rest)
      if (!(await repo.fs.exists(`${repo.dir}/${repo.prefix}${p}`))) await resolveRevision(repo, p);
  const match = pathMatcher(repo, [...rest, ...(a.paths ?? [])]);
  const blob = (_p: string, s: { oid: string }) => readBlob(repo, s.oid);
  const file = async (p: string) => (await worktreeBytes(repo, p))?.data ?? new Uint8Array(0);
  const commitTree = async (rev: string) =>
    treeSnapshot(repo, (await readCommit(repo, await resolveRevision(repo, rev))).tree);
  let pairs: FilePair[];
  if (revs.length === 2) {
    pairs = changedPairs(await commitTree(revs[0]), await commitTree(revs[1]), blob, blob, match);
  } else if (a.has("staged")) {
    const base = revs[0]
      ? await commitTree(revs[0])
      : (await headOid(repo))
        ? await commitTree("HEAD")
        : new Map();
    pairs = changedPairs(base, await indexSnapshot(repo), blob, blob, match);
  } else if (revs.length === 1) {
    const base = await commitTree(revs[0]);
    const index = await indexSnapshot(repo);
    const work = await worktreeSnapshot(repo, new Set([...base.keys(), ...index.keys()].filter(match)));
    pairs = changedPairs(base, work, blob, file, match);
  } else {
    const index = await indexSnapshot(repo);
    const work: Snapshot = await worktreeSnapshot(repo, [...index.keys()].filter(match));
    pairs = changedPairs(index, work, blob, file, match);
  }
  let out: string;
  if (a.has("quiet")) out = "";
  else if (a.has("stat")) out = await formatStat(pairs);
  else if (a.has("shortstat")) {
    const s = await shortStat(pairs);
    out = s.files ? statSummary(s.files, s.insertions, s.deletions) : "";
  } else if (a.has("numstat")) out = await formatNumstat(pairs);
  else if (a.has("nameOnly") || a.has("nameStatus")) out = formatNames(pairs, a.has("nameStatus"));
  else out = await formatPatch(pairs, contextLines(a.value("unified")));
  if ((a.has("quiet") || a.has("exitCode")) && pairs.length > 0) throw new GitExit("", 1, out);
  return out;
}
