/**
 * Smaller commands of the shell's git: `config` (read and set keys of the repository's config; `--global` and
 * `--system` are refused: the shell has no home config), `ls-files`, `tag` (list, lightweight, `-a -m`
 * annotated, `-d`) and `remote` (list, `-v`; nothing is ever fetched or pushed).
 */
import * as git from "isomorphic-git";
import { parseArgs } from "./args";
import { byteOrder } from "./diff";
import { failure, fatal, GitExit, quotePath, relativeTo } from "./format";
import { ident, indexSnapshot, pathMatcher, type Repo, tryResolve } from "./repo";

/** `git config [--get] <key>`, `git config <key> <value>`, `git config --unset <key>`. */
export async function configCommand(repo: Repo, args: string[]): Promise<string> {
  const a = parseArgs(
    args,
    {
      get: { long: ["get"] },
      unset: { long: ["unset"] },
      local: { long: ["local"] },
      global: { long: ["global"] },
      system: { long: ["system"] },
      list: { short: "l", long: ["list"] },
    },
    "git config [<options>]",
  );
  if (a.has("global") || a.has("system"))
    throw failure(
      'Strata\'s shell has no global or system git config; set it for this repository instead (git config user.name "…").',
      128,
    );
  if (a.has("list"))
    throw failure("Strata's git cannot list the config; ask for one key (git config user.name).", 128);
  const [key, value] = a.operands;
  if (!key || !/^[A-Za-z][\w-]*(\..+)?\.[A-Za-z][\w-]*$/.test(key))
    throw new GitExit(
      key ? `error: invalid key: ${key}\n` : "usage: git config [<options>]\n",
      key ? 1 : 129,
    );
  if (a.has("unset")) {
    await git.setConfig({ fs: repo.gfs, gitdir: repo.gitdir, path: key, value: undefined });
    return "";
  }
  if (value !== undefined && !a.has("get")) {
    await git.setConfig({ fs: repo.gfs, gitdir: repo.gitdir, path: key, value });
    return "";
  }
  const found = await git.getConfig({ fs: repo.gfs, gitdir: repo.gitdir, path: key });
  if (found === undefined) throw new GitExit("", 1);
  return `${String(found)}\n`;
}

/** `git ls-files [--] [<pathspec>…]`: the index's paths, relative to the working directory. */
export async function lsFilesCommand(repo: Repo, args: string[]): Promise<string> {
  const a = parseArgs(
    args,
    { cached: { short: "c", long: ["cached"] } },
    "git ls-files [<options>] [<file>...]",
  );
  const match = pathMatcher(repo, [...a.operands, ...(a.paths ?? [])]);
  const inCwd = (p: string) => repo.prefix === "" || p.startsWith(repo.prefix);
  return [...(await indexSnapshot(repo)).keys()]
    .filter((p) => match(p) && inCwd(p))
    .sort(byteOrder)
    .map((p) => `${quotePath(relativeTo(repo.prefix, p))}\n`)
    .join("");
}

/** `git tag` (list), `git tag <name> [<commit>]`, `git tag -a <name> -m <msg> [<commit>]`, `git tag -d <name>`. */
export async function tagCommand(repo: Repo, args: string[], now: () => number): Promise<string> {
  const a = parseArgs(
    args,
    {
      annotate: { short: "a", long: ["annotate"] },
      message: { short: "m", long: ["message"], value: true },
      delete: { short: "d", long: ["delete"] },
      list: { short: "l", long: ["list"] },
      force: { short: "f", long: ["force"] },
    },
    "git tag [-a] [-f] [-m <msg>] <tagname> [<head>]",
  );
  const tags = async () => (await git.listTags({ fs: repo.gfs, gitdir: repo.gitdir })).sort(byteOrder);
  if (a.has("delete")) {
    let out = "";
    for (const name of a.operands) {
      if (!(await tags()).includes(name)) throw failure(`tag '${name}' not found.`);
      const oid = await git.resolveRef({ fs: repo.gfs, gitdir: repo.gitdir, ref: `refs/tags/${name}` });
      await git.deleteTag({ fs: repo.gfs, gitdir: repo.gitdir, ref: name });
      out += `Deleted tag '${name}' (was ${oid.slice(0, 7)})\n`;
    }
    return out;
  }
  const [name, target = "HEAD"] = a.operands;
  if (!name || a.has("list")) return (await tags()).map((t) => `${t}\n`).join("");
  if ((await tags()).includes(name) && !a.has("force")) throw fatal(`tag '${name}' already exists`);
  const oid = await tryResolve(repo, target);
  if (!oid) throw fatal(`Failed to resolve '${target}' as a valid ref.`);
  const message = a.value("message");
  if (a.has("annotate") || message !== undefined) {
    if (message === undefined)
      throw failure(
        'Strata\'s shell has no editor for the tag message; give it with -m, e.g. git tag -a v1 -m "v1".',
      );
    await git.annotatedTag({
      fs: repo.gfs,
      gitdir: repo.gitdir,
      ref: name,
      object: oid,
      message,
      tagger: await ident(repo, "committer", now),
      force: a.has("force"),
    });
  } else await git.tag({ fs: repo.gfs, gitdir: repo.gitdir, ref: name, object: oid, force: a.has("force") });
  return "";
}

/** `git remote` and `git remote -v` (names and URLs from the config). */
export async function remoteCommand(repo: Repo, args: string[]): Promise<string> {
  const a = parseArgs(args, { verbose: { short: "v", long: ["verbose"] } }, "git remote [-v | --verbose]");
  if (a.operands.length > 0)
    throw failure(
      `Strata's git only lists remotes (git remote -v); 'git remote ${a.operands[0]}' is not available: the shell has no network.`,
    );
  const remotes = (await git.listRemotes({ fs: repo.gfs, gitdir: repo.gitdir })).sort((x, y) =>
    byteOrder(x.remote, y.remote),
  );
  if (!a.has("verbose")) return remotes.map((r) => `${r.remote}\n`).join("");
  return remotes.map((r) => `${r.remote}\t${r.url} (fetch)\n${r.remote}\t${r.url} (push)\n`).join("");
}
