/**
 * `git log` (git's default medium format, `--oneline`, `-n N`/`-N`/`--max-count`, `-p`, `--stat`, `--all`, revisions and
 * `-- <path>…` with git's default history simplification) and `git show` (a commit's header and its patch
 * against its first parent, or `<rev>:<path>`'s contents). Commits come newest first by committer date.
 */

import * as git from "isomorphic-git";
import { type ParsedArgs, parseArgs } from "./args";
import { changedPairs, type FilePair, formatNames, formatPatch, formatStat } from "./diff";
import { contextLines } from "./diff-command";
import { fatal, formatGitDate } from "./format";
import { type Pretty, parsePretty } from "./pretty";
import {
  currentBranch,
  pathMatcher,
  type Repo,
  readBlob,
  readCommit,
  resolveRevision,
  type Snapshot,
  text,
  treeSnapshot,
  tryResolve,
} from "./repo";

type Commit = Awaited<ReturnType<typeof readCommit>>;

/** Commits reachable from `starts`, newest first by committer date (git's default order). */
async function* walk(repo: Repo, starts: string[]): AsyncGenerator<{ oid: string; commit: Commit }> {
  const seen = new Set<string>();
  const queue: { oid: string; commit: Commit }[] = [];
  const push = async (oid: string) => {
    if (seen.has(oid)) return;
    seen.add(oid);
    queue.push({ oid, commit: await readCommit(repo, oid) });
    queue.sort((a, b) => b.commit.committer.timestamp - a.commit.committer.timestamp);
  };
  for (const s of starts) await push(s);
  while (queue.length > 0) {
    const next = queue.shift()!;
    yield next;
    for (const p of next.commit.parent) await push(p);
  }
}

/** The files under `match` of a tree, for TREESAME comparisons. */
const restrict = (s: Snapshot, match: (p: string) => boolean) =>
  [...s]
    .filter(([p]) => match(p))
    .map(([p, f]) => `${p}\0${f.oid}\0${f.mode}`)
    .join("\n");

/** The diff of a commit against its first parent (the empty tree for a root commit). */
export async function commitPairs(
  repo: Repo,
  c: Commit,
  match?: (p: string) => boolean,
): Promise<FilePair[]> {
  const parent = c.parent[0] ? (await readCommit(repo, c.parent[0])).tree : null;
  const [a, b] = await Promise.all([treeSnapshot(repo, parent), treeSnapshot(repo, c.tree)]);
  const load = (_p: string, s: { oid: string }) => readBlob(repo, s.oid);
  return changedPairs(a, b, load, load, match);
}

const LOG_OPTIONS = {
  oneline: { long: ["oneline"] },
  count: { short: "n", long: ["max-count"], value: true },
  patch: { short: "p", long: ["patch"] },
  stat: { long: ["stat"] },
  nameOnly: { long: ["name-only"] },
  nameStatus: { long: ["name-status"] },
  all: { long: ["all"] },
  pretty: { long: ["pretty", "format"], value: true },
  unified: { short: "U", long: ["unified"], value: true },
  author: { long: ["author"], value: true },
  grep: { long: ["grep"], value: true },
};

/** Split operands into revisions and paths the way git does (`--`, or revisions first while they resolve). */
async function revisionsAndPaths(repo: Repo, operands: string[], paths: string[] | null) {
  const revs: string[] = [];
  const rest = [...operands];
  while (rest.length > 0 && (paths !== null || (await tryResolve(repo, rest[0])))) revs.push(rest.shift()!);
  if (paths === null && rest.length > 0) {
    for (const p of rest)
      if (!(await repo.fs.exists(`${repo.dir}/${repo.prefix}${p}`)))
        throw fatal(
          `ambiguous argument '${p}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`,
        );
  }
  return { revs, paths: [...rest, ...(paths ?? [])] };
}

/** `git log [<options>] [<revision>…] [[--] <path>…]`. */
export async function logCommand(repo: Repo, args: string[], now: number): Promise<string> {
  const a = parseArgs(args, LOG_OPTIONS, "git log [<options>] [<revision-range>] [[--] <path>...]", "count");
  const pretty = parsePretty(a.value("pretty"), a.has("oneline"));
  const { revs, paths } = await revisionsAndPaths(repo, a.operands, a.paths);
  const max = a.value("count") === undefined ? Number.POSITIVE_INFINITY : Number(a.value("count"));
  if (!Number.isFinite(max) && a.value("count") !== undefined)
    throw fatal(`'${a.value("count")}': not an integer`);
  const starts: string[] = [];
  for (const r of revs) starts.push(await resolveRevision(repo, r));
  // --all: every ref (branches and tags) and HEAD, as if each were given on the command line.
  if (a.has("all")) {
    const refs = [
      ...(await git.listBranches({ fs: repo.gfs, gitdir: repo.gitdir })).map((b) => `refs/heads/${b}`),
      ...(await git.listTags({ fs: repo.gfs, gitdir: repo.gitdir })).map((t) => `refs/tags/${t}`),
    ];
    for (const ref of refs) {
      const oid = await tryResolve(repo, ref);
      if (oid) starts.push(oid);
    }
    const head = await tryResolve(repo, "HEAD");
    if (head) starts.push(head);
  }
  if (starts.length === 0) {
    const head = await tryResolve(repo, "HEAD");
    if (!head) {
      const branch = await currentBranch(repo);
      throw fatal(`your current branch '${branch ?? "HEAD"}' does not have any commits yet`);
    }
    starts.push(head);
  }
  const match = paths.length > 0 ? pathMatcher(repo, paths) : undefined;
  const pattern = (v: string | undefined) => {
    if (v === undefined) return undefined;
    try {
      return new RegExp(v);
    } catch {
      throw fatal(`invalid regular expression: ${v}`);
    }
  };
  const author = pattern(a.value("author"));
  const grep = pattern(a.value("grep"));
  const entries: string[] = [];
  for await (const { oid, commit } of walk(repo, starts)) {
    if (entries.length >= max) break;
    if (author && !author.test(`${commit.author.name} <${commit.author.email}>`)) continue;
    if (grep && !grep.test(commit.message)) continue;
    if (match) {
      // Default simplification: kept when its files under the paths differ from every parent's.
      const mine = restrict(await treeSnapshot(repo, commit.tree), match);
      let same = commit.parent.length === 0 ? mine === "" : false;
      for (const p of commit.parent) {
        if (restrict(await treeSnapshot(repo, (await readCommit(repo, p)).tree), match) === mine) same = true;
      }
      if (same) continue;
    }
    entries.push(await entryText(repo, oid, commit, pretty, a, now));
  }
  return joinEntries(entries, pretty);
}

/** One commit of `log`/`show`: its pretty form, then what the flags ask (stat, names, patch). */
async function entryText(
  repo: Repo,
  oid: string,
  commit: Commit,
  pretty: Pretty,
  a: ParsedArgs,
  now: number,
  show = false,
): Promise<string> {
  let entry = `${pretty.render(oid, commit, now)}${pretty.terminator ? "\n" : ""}`;
  const patch = show
    ? !a.has("noPatch") && !a.has("stat") && !a.has("nameOnly") && !a.has("nameStatus")
    : a.has("patch");
  if (show && a.has("noPatch")) return entry;
  if (!(patch || a.has("stat") || a.has("nameOnly") || a.has("nameStatus"))) return entry;
  // A merge shows no diff (git's default: no -m; a clean merge's combined diff is empty).
  if (commit.parent.length > 1) return show && patch ? `${entry}\n` : entry;
  const pairs = await commitPairs(repo, commit);
  // The multi-line formats leave a blank line before the diff; a `format:` (no terminator) a newline.
  const sep =
    pretty.name === "medium" || pretty.name === "full" || pretty.name === "short" || !pretty.terminator
      ? "\n"
      : "";
  if (a.has("stat")) entry += `${sep}${await formatStat(pairs)}`;
  if (a.has("nameOnly") || a.has("nameStatus")) entry += `${sep}${formatNames(pairs, a.has("nameStatus"))}`;
  if (patch && pairs.length > 0)
    entry += `${a.has("stat") ? "\n" : sep}${await formatPatch(pairs, contextLines(a.value("unified")))}`;
  return entry;
}

/** The annotated tag object `name` names (refs/tags/<name>), or null. */
async function annotatedTag(repo: Repo, name: string) {
  const oid = await git
    .resolveRef({ fs: repo.gfs, gitdir: repo.gitdir, ref: `refs/tags/${name}` })
    .catch(() => null);
  if (!oid) return null;
  const obj = await git.readObject({ fs: repo.gfs, gitdir: repo.gitdir, oid, cache: repo.cache });
  return obj.type === "tag" ? (obj.object as git.TagObject) : null;
}

/** What `git show <tag>` prints before the commit: `tag <name>`, the tagger (not with --oneline), the message. */
function tagHeader(tag: git.TagObject, pretty: Pretty): string {
  const who = tag.tagger;
  const tagger =
    pretty.name === "oneline" || !who
      ? ""
      : `Tagger: ${who.name} <${who.email}>\nDate:   ${formatGitDate(who.timestamp, who.timezoneOffset)}\n`;
  return `tag ${tag.tag}\n${tagger}\n${tag.message.replace(/\n+$/, "")}\n${pretty.name === "oneline" ? "" : "\n"}`;
}

/** Entries of the multi-line formats are separated by a blank line; `format:` ones by a newline. */
function joinEntries(entries: string[], pretty: Pretty): string {
  if (pretty.name === "format" && !pretty.terminator) return entries.join("\n");
  if (pretty.name === "medium" || pretty.name === "full" || pretty.name === "short")
    return entries.join("\n");
  return entries.join("");
}

/** `git show [<commit>|<rev>:<path>]…` (`--stat`, `--name-only`, `--name-status`, `-s`/`--no-patch`, `--oneline`). */
export async function showCommand(repo: Repo, args: string[], now: number): Promise<string> {
  const a = parseArgs(
    args,
    { ...LOG_OPTIONS, noPatch: { short: "s", long: ["no-patch"] } },
    "git show [<options>] <object>...",
  );
  const pretty = parsePretty(a.value("pretty"), a.has("oneline"));
  const objects = a.operands.length > 0 ? a.operands : ["HEAD"];
  const out: string[] = [];
  for (const object of objects) {
    const colon = object.indexOf(":");
    if (colon >= 0) {
      const rev = object.slice(0, colon) || "HEAD";
      let path = object.slice(colon + 1);
      if (path.startsWith("./") || path.startsWith("../")) path = pathMatcher(repo, [path]).specs[0];
      const oid = await resolveRevision(repo, rev);
      const file = (await treeSnapshot(repo, (await readCommit(repo, oid)).tree)).get(path);
      if (!file) {
        const dirLike = [...(await treeSnapshot(repo, (await readCommit(repo, oid)).tree)).keys()].some((p) =>
          p.startsWith(`${path}/`),
        );
        if (dirLike)
          throw fatal(`'${object}' is a directory; Strata's git shows only files with <rev>:<path>`);
        throw fatal(`path '${path}' does not exist in '${rev}'`);
      }
      out.push(text(await readBlob(repo, file.oid)));
      continue;
    }
    const tag = await annotatedTag(repo, object);
    const oid = await resolveRevision(repo, object);
    const entry = await entryText(repo, oid, await readCommit(repo, oid), pretty, a, now, true);
    out.push(tag ? `${tagHeader(tag, pretty)}${entry}` : entry);
  }
  return joinEntries(out, pretty);
}
