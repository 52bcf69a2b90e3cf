/**
 * The rules repository's git plumbing: trees as flat maps (relative path → blob), commits, refs, merge bases and
 * path history. A rules repository is small, so an operation preloads `/.team` whole (one query) and works on
 * flat trees in memory. Nothing here flushes.
 */
import * as git from "isomorphic-git";
import type { GitAuthor } from "@/lib/vfs/git";
import { resolveRef, writeLooseObject, writeTreeObject } from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import type { Vfs } from "@/lib/vfs/vfs";
import { RULES_ROOT, type RulesChangeInfo, type RulesLogEntry } from "./types";

export const GITDIR = `${RULES_ROOT}/.git`;
export const MAIN_REF = "refs/heads/main";

/** The full ref of a proposal's branch. */
export const proposalRef = (proposalId: string) => `refs/heads/proposals/${proposalId}`;

export interface FlatEntry {
  oid: string;
  mode: string;
}
/** A tree as relative file path → blob. */
export type FlatTree = Map<string, FlatEntry>;

const encoder = new TextEncoder();
const strict = new TextDecoder("utf-8", { fatal: true });

/** A commit's parsed header fields. */
export interface CommitHeader {
  oid: string;
  tree: string;
  parents: string[];
  message: string;
  author: Required<GitAuthor>;
}

/** Read-side helper with caches for one operation on one `Vfs`. */
export class RulesRepo {
  private readonly gfs;
  private readonly cache = {};
  private readonly flats = new Map<string, FlatTree>();
  private readonly commits = new Map<string, CommitHeader>();

  constructor(readonly vfs: Vfs) {
    this.gfs = createGitFs(vfs);
  }

  /** Load all of `/.team` (work tree and repository) in one query. */
  async preload(): Promise<void> {
    await this.vfs.preload(RULES_ROOT, { withData: true });
  }

  async exists(): Promise<boolean> {
    return this.vfs.exists(`${GITDIR}/HEAD`);
  }

  /** The commit `ref` points at, or null. */
  async resolve(ref: string): Promise<string | null> {
    return resolveRef(this.vfs, RULES_ROOT, ref);
  }

  async commit(oid: string): Promise<CommitHeader> {
    const known = this.commits.get(oid);
    if (known) return known;
    const { commit } = await git.readCommit({ fs: this.gfs, gitdir: GITDIR, oid, cache: this.cache });
    const header = {
      oid,
      tree: commit.tree,
      parents: commit.parent,
      message: commit.message.replace(/\n$/, ""),
      author: commit.author,
    };
    this.commits.set(oid, header);
    return header;
  }

  /** The flat tree of commit `oid`. */
  async flat(oid: string): Promise<FlatTree> {
    const known = this.flats.get(oid);
    if (known) return known;
    const out: FlatTree = new Map();
    const walk = async (treeOid: string, prefix: string) => {
      const { tree } = await git.readTree({ fs: this.gfs, gitdir: GITDIR, oid: treeOid, cache: this.cache });
      for (const e of tree) {
        const path = prefix ? `${prefix}/${e.path}` : e.path;
        if (e.type === "tree") await walk(e.oid, path);
        else if (e.type === "blob") out.set(path, { oid: e.oid, mode: e.mode });
      }
    };
    await walk((await this.commit(oid)).tree, "");
    this.flats.set(oid, out);
    return out;
  }

  async blob(oid: string): Promise<Uint8Array> {
    const { blob } = await git.readBlob({ fs: this.gfs, gitdir: GITDIR, oid, cache: this.cache });
    return blob;
  }

  /** A blob as UTF-8 text, or null when it is not valid UTF-8. */
  async text(oid: string): Promise<string | null> {
    try {
      return strict.decode(await this.blob(oid));
    } catch {
      return null;
    }
  }

  /** Write a blob of `text`; its oid. */
  async writeBlob(text: string): Promise<string> {
    return writeLooseObject(this.vfs, GITDIR, "blob", encoder.encode(text));
  }

  /** Write the trees of `flat` (nested as paths say); the root tree's oid. */
  async writeFlat(flat: FlatTree): Promise<string> {
    const dirs = new Map<string, git.TreeEntry[]>([["", []]]);
    const ensure = (dir: string): git.TreeEntry[] => {
      let list = dirs.get(dir);
      if (list) return list;
      list = [];
      dirs.set(dir, list);
      const i = dir.lastIndexOf("/");
      const parent = i < 0 ? "" : dir.slice(0, i);
      ensure(parent);
      return list;
    };
    for (const [path, e] of flat) {
      const i = path.lastIndexOf("/");
      ensure(i < 0 ? "" : path.slice(0, i)).push({
        mode: e.mode,
        path: path.slice(i + 1),
        oid: e.oid,
        type: "blob",
      });
    }
    const depth = (d: string) => (d === "" ? 0 : d.split("/").length);
    const order = [...dirs.keys()].sort((a, b) => depth(b) - depth(a));
    let root = "";
    for (const dir of order) {
      const oid = await writeTreeObject(this.vfs, GITDIR, dirs.get(dir)!);
      if (dir === "") {
        root = oid;
        continue;
      }
      const i = dir.lastIndexOf("/");
      dirs
        .get(i < 0 ? "" : dir.slice(0, i))!
        .push({ mode: "040000", path: dir.slice(i + 1), oid, type: "tree" });
    }
    return root;
  }

  /** Write a commit object; its oid. */
  async writeCommit(options: { tree: string; parents: string[]; author: GitAuthor; message: string }) {
    const author = {
      name: options.author.name,
      email: options.author.email,
      timestamp: options.author.timestamp ?? Math.floor(Date.now() / 1000),
      timezoneOffset: options.author.timezoneOffset ?? 0,
    };
    const message = options.message.endsWith("\n") ? options.message : `${options.message}\n`;
    return git.writeCommit({
      fs: this.gfs,
      gitdir: GITDIR,
      commit: { message, tree: options.tree, parent: options.parents, author, committer: author },
    });
  }

  /** Point `ref` at `oid` (written even when unchanged, so a concurrent move of it conflicts at flush). */
  async setRef(ref: string, oid: string): Promise<void> {
    await git.writeRef({ fs: this.gfs, gitdir: GITDIR, ref, value: oid, force: true });
  }

  /** The best common ancestor of two commits, or null. */
  async mergeBase(a: string, b: string): Promise<string | null> {
    if (a === b) return a;
    const bases = await git.findMergeBase({ fs: this.gfs, gitdir: GITDIR, oids: [a, b], cache: this.cache });
    return (bases[0] as string | undefined) ?? null;
  }

  /**
   * The newest commit reachable from `head` whose content of `path` differs from every parent's, following a
   * parent with the same content as git's history simplification does (so a merge commit names the commit that
   * made the change, not the merge). Null when the path never existed.
   */
  async lastChange(head: string, path: string): Promise<RulesChangeInfo | null> {
    let cur = head;
    for (;;) {
      const here = (await this.flat(cur)).get(path)?.oid ?? null;
      const { parents } = await this.commit(cur);
      let next: string | null = null;
      for (const p of parents) {
        if (((await this.flat(p)).get(path)?.oid ?? null) === here) {
          next = p;
          break;
        }
      }
      if (next === null) {
        if (here === null && parents.length === 0) return null;
        return changeInfo(await this.commit(cur));
      }
      cur = next;
    }
  }

  /** Commits reachable from `head`, newest first (by author time), at most `limit`. */
  async log(head: string, limit: number): Promise<RulesLogEntry[]> {
    const commits = await git.log({
      fs: this.gfs,
      gitdir: GITDIR,
      ref: head,
      depth: limit,
      cache: this.cache,
    });
    return commits.map(({ oid, commit }) => ({
      ...changeInfo({ oid, author: commit.author }),
      message: commit.message.replace(/\n$/, ""),
      parents: commit.parent,
    }));
  }
}

export function changeInfo(c: { oid: string; author: Required<GitAuthor> }): RulesChangeInfo {
  return {
    oid: c.oid,
    authorName: c.author.name,
    authorEmail: c.author.email,
    timestamp: c.author.timestamp * 1000,
  };
}

/** Paths whose blob differs between two flat trees (added, changed or removed), sorted. */
export function changedPaths(a: FlatTree, b: FlatTree): string[] {
  const out = new Set<string>();
  for (const [p, e] of a) {
    const o = b.get(p);
    if (!o || o.oid !== e.oid || o.mode !== e.mode) out.add(p);
  }
  for (const p of b.keys()) if (!a.has(p)) out.add(p);
  return [...out].sort();
}
