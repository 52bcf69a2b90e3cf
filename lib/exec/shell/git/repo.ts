/**
 * The repository the shell's `git` works on: found from the shell's working directory (the nearest `.git`
 * at or above it, inside the project), read and written through isomorphic-git on the project's filesystem.
 * Snapshots of a commit's tree, the index and the working tree (path → blob id and mode), revisions
 * (`HEAD`, `@`, branches, tags, full or abbreviated ids, `~N`, `^N`), identities and dates.
 */
import * as git from "isomorphic-git";
import { GitIndexManager } from "isomorphic-git/managers";
import { FileSystem as GitFileSystem } from "isomorphic-git/models";
import { createGitFs } from "@/lib/vfs/git-fs";
import type { FileSystem } from "@/lib/vfs/types";
import { fatal, GitExit, unknownRevision } from "./format";

/** One file of a snapshot: its blob id and git mode ("100644", "100755", "120000", "160000"). */
export interface FileState {
  oid: string;
  mode: string;
}

/** path (relative to the top, "/"-separated) → state. */
export type Snapshot = Map<string, FileState>;

/** An open repository and where the command runs in it. */
export interface Repo {
  fs: FileSystem;
  gfs: ReturnType<typeof createGitFs>;
  /** Absolute filesystem path of the working tree's top. */
  dir: string;
  gitdir: string;
  /** The working directory below `dir`: "" at the top, else "sub/dir/". */
  prefix: string;
  env: Map<string, string>;
  /** isomorphic-git's object cache, shared by the command's calls. */
  cache: object;
  /**
   * `core.filemode` (default true). False (isomorphic-git's `init` writes it): the executable bit of a working-tree
   * file is ignored, the index's mode is kept (100644 for a new file).
   */
  filemode: boolean;
  /** The index's modes, read once when `filemode` is false. */
  indexModes?: Map<string, string>;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * The repository containing `cwd` (absolute, normalised, a real directory inside `root` — see ./confine.ts),
 * searched upwards but never above `root` (the project's top): the nearest real `.git` directory.
 * @throws GitExit `fatal: not a git repository (or any of the parent directories): .git` (128) when there is none
 *   inside the project or `cwd` is outside it; `fatal: this operation must be run in a work tree` inside `.git`.
 */
export async function openRepo(
  fs: FileSystem,
  root: string,
  cwd: string,
  env: Map<string, string>,
): Promise<Repo> {
  const inside = (p: string) => root === "/" || p === root || p.startsWith(`${root}/`);
  if (!inside(cwd)) throw fatal("not a git repository (or any of the parent directories): .git");
  if (
    cwd
      .slice(root.length)
      .split("/")
      .some((c) => c.toLowerCase() === ".git")
  )
    throw fatal("this operation must be run in a work tree");
  for (let dir = cwd; inside(dir); dir = dir.slice(0, dir.lastIndexOf("/")) || "/") {
    // lstat: a symlinked `.git` (or a `.git` file naming another gitdir) is no repository here.
    const st = await fs.lstat(`${dir === "/" ? "" : dir}/.git`).catch(() => null);
    if (st?.kind === "dir") {
      const rel = cwd === dir ? "" : `${cwd.slice(dir.length + 1)}/`;
      const repo: Repo = {
        fs,
        gfs: createGitFs(fs),
        dir,
        gitdir: `${dir}/.git`,
        prefix: rel,
        env,
        cache: {},
        filemode: true,
      };
      const preload = (fs as { preload?: (p: string, o: { withData: boolean }) => Promise<void> }).preload;
      // One query for the metadata of all of .git (a Postgres-backed VFS); existence checks are then free.
      if (typeof preload === "function") await preload.call(fs, repo.gitdir, { withData: false });
      const filemode = await git
        .getConfig({ fs: repo.gfs, gitdir: repo.gitdir, path: "core.filemode" })
        .catch(() => undefined);
      repo.filemode = filemode !== false && filemode !== "false";
      return repo;
    }
    if (dir === root || dir === "/") break;
  }
  throw fatal("not a git repository (or any of the parent directories): .git");
}

const modeString = (mode: number) => ((mode & 0o170000) === 0o040000 ? "040000" : mode.toString(8));

/** The current branch's short name, or null when HEAD is detached. */
export async function currentBranch(repo: Repo): Promise<string | null> {
  const head = await repo.fs.readText(`${repo.gitdir}/HEAD`);
  const m = /^ref: refs\/heads\/(.+)$/m.exec(head.trim());
  return m ? m[1] : null;
}

/** HEAD's commit, or null on an unborn branch. */
export async function headOid(repo: Repo): Promise<string | null> {
  try {
    return await git.resolveRef({ fs: repo.gfs, gitdir: repo.gitdir, ref: "HEAD" });
  } catch {
    return null;
  }
}

/** A commit as isomorphic-git reads it. */
export async function readCommit(repo: Repo, oid: string) {
  return (await git.readCommit({ fs: repo.gfs, gitdir: repo.gitdir, oid, cache: repo.cache })).commit;
}

async function refOid(repo: Repo, ref: string): Promise<string | null> {
  try {
    const oid = await git.resolveRef({ fs: repo.gfs, gitdir: repo.gitdir, ref });
    // An annotated tag: peel it to its commit.
    const obj = await git.readObject({ fs: repo.gfs, gitdir: repo.gitdir, oid, cache: repo.cache });
    if (obj.type === "tag") return (obj.object as { object: string }).object;
    return oid;
  } catch {
    return null;
  }
}

/**
 * The commit `rev` names: `HEAD`/`@`, a branch, tag or full ref name, a full or abbreviated (≥ 4 digits) id,
 * each optionally followed by `~N`, `^N`, `~` or `^` steps. null when it names nothing.
 */
export async function tryResolve(repo: Repo, rev: string): Promise<string | null> {
  const m = /^(.*?)((?:[~^]\d*)*)$/.exec(rev);
  if (!m || m[1] === "") return null;
  const base = m[1] === "@" ? "HEAD" : m[1];
  let oid = await refOid(repo, base);
  if (!oid && /^[0-9a-f]{4,40}$/.test(base)) {
    oid = await git
      .expandOid({ fs: repo.gfs, gitdir: repo.gitdir, oid: base, cache: repo.cache })
      .catch(() => null);
    if (oid) {
      const type = await git
        .readObject({ fs: repo.gfs, gitdir: repo.gitdir, oid, format: "deflated", cache: repo.cache })
        .then(() => "ok")
        .catch(() => null);
      if (!type) oid = null;
    }
  }
  if (!oid) return null;
  let at: string = oid;
  for (const step of m[2].match(/[~^]\d*/g) ?? []) {
    const n = step.length > 1 ? Number(step.slice(1)) : 1;
    const parents = async (o: string) => (await readCommit(repo, o)).parent;
    if (step[0] === "~") {
      for (let i = 0; i < n; i++) {
        const first: string | undefined = (await parents(at))[0];
        if (!first) return null;
        at = first;
      }
    } else if (n > 0) {
      const nth: string | undefined = (await parents(at))[n - 1];
      if (!nth) return null;
      at = nth;
    }
  }
  return at;
}

/** {@link tryResolve}, or git's "unknown revision" refusal (128). */
export async function resolveRevision(repo: Repo, rev: string): Promise<string> {
  const oid = await tryResolve(repo, rev);
  if (!oid) throw unknownRevision(rev);
  return oid;
}

/** Every file of the tree of commit (or tree) `oid`, recursively. */
export async function treeSnapshot(repo: Repo, oid: string | null): Promise<Snapshot> {
  const out: Snapshot = new Map();
  if (!oid) return out;
  const walk = async (treeOid: string, base: string) => {
    const { tree } = await git.readTree({
      fs: repo.gfs,
      gitdir: repo.gitdir,
      oid: treeOid,
      cache: repo.cache,
    });
    for (const e of tree) {
      const path = base + e.path;
      if (e.type === "tree") await walk(e.oid, `${path}/`);
      else out.set(path, { oid: e.oid, mode: e.mode });
    }
  };
  const { tree } = await git.readTree({ fs: repo.gfs, gitdir: repo.gitdir, oid, cache: repo.cache });
  for (const e of tree) {
    if (e.type === "tree") await walk(e.oid, `${e.path}/`);
    else out.set(e.path, { oid: e.oid, mode: e.mode });
  }
  return out;
}

/** The index's entries (stage 0). */
export async function indexSnapshot(repo: Repo): Promise<Snapshot> {
  const out: Snapshot = new Map();
  await GitIndexManager.acquire(
    { fs: new GitFileSystem(repo.gfs), gitdir: repo.gitdir, cache: {} },
    async (index) => {
      for (const e of index.entries) out.set(e.path, { oid: e.oid, mode: modeString(e.mode) });
    },
  );
  return out;
}

/**
 * Whether a directory along `path` (relative to the top) is a symlink: git neither reads nor writes beyond one,
 * so a link cannot take the shell's git outside the project.
 */
export async function beyondSymlink(repo: Repo, path: string): Promise<boolean> {
  let dir = repo.dir;
  for (const part of path.split("/").slice(0, -1)) {
    dir = `${dir}/${part}`;
    const st = await repo.fs.lstat(dir).catch(() => null);
    if (!st) return false;
    if (st.kind === "symlink") return true;
  }
  return false;
}

/**
 * Refuse a path from a tree or the index that git would not check out: empty, `.` or `..` components, a `.git`
 * component (any case), or a symlinked directory along it.
 * @throws GitExit (128) `error: invalid path '<path>'` / `fatal: '<path>' is beyond a symbolic link`.
 */
export async function assertCheckoutPath(repo: Repo, path: string): Promise<void> {
  if (path.split("/").some((c) => c === "" || c === "." || c === ".." || c.toLowerCase() === ".git"))
    throw new GitExit(`error: invalid path '${path}'\n`, 128);
  if (await beyondSymlink(repo, path)) throw fatal(`'${path}' is beyond a symbolic link`);
}

/** The bytes a working-tree path would be stored as (a symlink: its target), or null when it is absent. */
export async function worktreeBytes(
  repo: Repo,
  path: string,
): Promise<{ data: Uint8Array; mode: string } | null> {
  const abs = `${repo.dir}/${path}`;
  if (await beyondSymlink(repo, path)) return null;
  const st = await repo.fs.lstat(abs).catch(() => null);
  if (!st || st.kind === "dir") return null;
  if (st.kind === "symlink") return { data: encoder.encode(await repo.fs.readlink(abs)), mode: "120000" };
  return { data: await repo.fs.readFile(abs), mode: await fileMode(repo, path, st.mode) };
}

/** The mode git records for a regular file: its executable bit, or (core.filemode false) the index's mode. */
export async function fileMode(repo: Repo, path: string, mode: number): Promise<string> {
  if (repo.filemode) return mode & 0o111 ? "100755" : "100644";
  repo.indexModes ??= new Map([...(await indexSnapshot(repo))].map(([p, f]) => [p, f.mode]));
  return repo.indexModes.get(path) === "100755" ? "100755" : "100644";
}

/** Blob id of `data` (as `git hash-object`). */
export async function hashBlob(data: Uint8Array): Promise<string> {
  return (await git.hashBlob({ object: data })).oid;
}

/** The working tree's state of each of `paths` (absent ones are left out). */
export async function worktreeSnapshot(repo: Repo, paths: Iterable<string>): Promise<Snapshot> {
  const list = [...paths];
  const prefetch = (repo.fs as { prefetch?: (p: string[], o: { withData: boolean }) => Promise<void> })
    .prefetch;
  if (typeof prefetch === "function")
    await prefetch.call(
      repo.fs,
      list.map((p) => `${repo.dir}/${p}`),
      { withData: true },
    );
  const out: Snapshot = new Map();
  for (const path of list) {
    const file = await worktreeBytes(repo, path);
    if (file) out.set(path, { oid: await hashBlob(file.data), mode: file.mode });
  }
  return out;
}

/** Bytes of blob `oid`. */
export async function readBlob(repo: Repo, oid: string): Promise<Uint8Array> {
  return (await git.readBlob({ fs: repo.gfs, gitdir: repo.gitdir, oid, cache: repo.cache })).blob;
}

/** Text of a blob or file (UTF-8). */
export const text = (bytes: Uint8Array) => decoder.decode(bytes);

/** Whether untracked `path` is ignored (.gitignore, .git/info/exclude). */
export function isIgnored(repo: Repo, path: string): Promise<boolean> {
  return git.isIgnored({ fs: repo.gfs, dir: repo.dir, gitdir: repo.gitdir, filepath: path });
}

/** Who and when, as isomorphic-git takes it. */
export interface Ident {
  name: string;
  email: string;
  timestamp: number;
  timezoneOffset: number;
}

/** Strata's identity when neither the environment nor the repository's config names one. */
export const DEFAULT_IDENT = { name: "Strata", email: "agent@strata.local" };

/**
 * A date as git reads `GIT_AUTHOR_DATE`: `@<seconds> <±hhmm>`, `<seconds> <±hhmm>` or ISO 8601
 * (`2024-01-02T03:04:05Z`, `…+01:00`). undefined when it is none of them.
 */
export function parseGitDate(value: string): { timestamp: number; timezoneOffset: number } | undefined {
  const raw = /^@?(\d+)(?: ([+-])(\d\d):?(\d\d))?$/.exec(value.trim());
  if (raw) {
    const east = raw[2] ? (raw[2] === "-" ? -1 : 1) * (Number(raw[3]) * 60 + Number(raw[4])) : 0;
    return { timestamp: Number(raw[1]), timezoneOffset: east === 0 ? 0 : -east };
  }
  const iso = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d(?::\d\d)?)(?:\s*(Z|[+-]\d\d:?\d\d))?$/.exec(value.trim());
  if (!iso) return undefined;
  const zone = iso[3] && iso[3] !== "Z" ? iso[3].replace(/^([+-]\d\d)(\d\d)$/, "$1:$2") : "Z";
  const ms = Date.parse(`${iso[1]}T${iso[2]}${zone}`);
  if (Number.isNaN(ms)) return undefined;
  const east =
    zone === "Z"
      ? 0
      : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  return { timestamp: Math.floor(ms / 1000), timezoneOffset: east === 0 ? 0 : -east };
}

/**
 * The author or committer of a new commit: `GIT_<ROLE>_NAME`/`_EMAIL`/`_DATE` from the environment (the
 * committer falls back to the author's variables, as the caller sets only those for the session's user), else
 * `user.name`/`user.email` of the repository's config, else Strata's default; the date is now (`now()`, ms) in UTC.
 */
export async function ident(repo: Repo, role: "author" | "committer", now: () => number): Promise<Ident> {
  const env = (key: string) =>
    repo.env.get(`GIT_${role.toUpperCase()}_${key}`) ??
    (role === "committer" ? repo.env.get(`GIT_AUTHOR_${key}`) : undefined);
  const config = async (path: string) =>
    (await git.getConfig({ fs: repo.gfs, gitdir: repo.gitdir, path }).catch(() => undefined)) as
      | string
      | undefined;
  const name = env("NAME") ?? (await config("user.name")) ?? DEFAULT_IDENT.name;
  const email = env("EMAIL") ?? (await config("user.email")) ?? DEFAULT_IDENT.email;
  const dateText = repo.env.get(`GIT_${role.toUpperCase()}_DATE`);
  const date = dateText ? parseGitDate(dateText) : undefined;
  if (dateText && !date) throw fatal(`invalid date format: ${dateText}`);
  return { name, email, ...(date ?? { timestamp: Math.floor(now() / 1000), timezoneOffset: 0 }) };
}

/**
 * Resolve pathspecs given from the working directory to paths relative to the top (`.` and directories
 * match everything below them). Returns a matcher; no pathspec matches everything.
 * @throws GitExit (128) `fatal: <p>: '<p>' is outside repository at '<top>'`.
 */
export function pathMatcher(repo: Repo, specs: string[]): ((path: string) => boolean) & { specs: string[] } {
  const resolved = specs.map((spec) => {
    const parts: string[] = [];
    // An absolute pathspec names a path of the filesystem: inside the top it is taken from there, else refused.
    const top = repo.dir === "/" ? "" : repo.dir;
    if (spec.startsWith("/") && !(`${spec}/`.startsWith(`${top}/`) || spec === repo.dir))
      throw fatal(`${spec}: '${spec}' is outside repository at '${repo.dir}'`);
    const from = spec.startsWith("/") ? spec.slice(top.length) : `${repo.prefix}${spec}`;
    for (const c of from.split("/")) {
      if (c === "" || c === ".") continue;
      if (c === "..") {
        if (parts.length === 0) throw fatal(`${spec}: '${spec}' is outside repository at '${repo.dir}'`);
        parts.pop();
      } else parts.push(c);
    }
    return parts.join("/");
  });
  const match = (path: string) =>
    resolved.length === 0 || resolved.some((r) => r === "" || path === r || path.startsWith(`${r}/`));
  return Object.assign(match, { specs: resolved });
}

export { encoder };
