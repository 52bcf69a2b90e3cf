/**
 * Git's plumbing on the VFS, shared by lib/vfs/git.ts (commits) and lib/vfs/git-checkpoint.ts (checkpoints): loose
 * blob and tree objects written in bulk, a commit's signature, and a ref resolved to a commit or to nothing.
 * Nothing here flushes: the objects stay in the `Vfs` cache until the caller's `vfs.flush()`.
 */

import { zlibSync } from "fflate";
import * as git from "isomorphic-git";
import type { createGitFs } from "./git-fs";
import { gitNameProblem, quoteName } from "./names";
import type { Vfs } from "./vfs";

/** Who made a commit. `timestamp` is seconds since the epoch (default: now); `timezoneOffset` minutes (default 0). */
export interface GitAuthor {
  name: string;
  email: string;
  timestamp?: number;
  timezoneOffset?: number;
}

/** isomorphic-git's `fs` over a `Vfs` (lib/vfs/git-fs.ts). */
export type GitFs = ReturnType<typeof createGitFs>;

const encoder = new TextEncoder();

/** The author (and committer) of a commit with its defaults filled in: the time now, timezone offset 0. */
export function signature(author: GitAuthor): Required<GitAuthor> {
  return {
    name: author.name,
    email: author.email,
    timestamp: author.timestamp ?? Math.floor(Date.now() / 1000),
    timezoneOffset: author.timezoneOffset ?? 0,
  };
}

/** The path of loose object `oid` in `gitdir` (`objects/xx/…`). */
export function objectPath(gitdir: string, oid: string): string {
  return `${gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
}

/** Resolve `ref` to a commit oid, or null when it does not exist (or is an unborn branch). */
export async function resolveOrNull(gfs: GitFs, gitdir: string, ref: string): Promise<string | null> {
  try {
    return await git.resolveRef({ fs: gfs, gitdir, ref });
  } catch (error) {
    if ((error as { code?: string }).code === "NotFoundError") return null;
    throw error;
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * Write one loose object (`type` "blob" or "tree") unless it exists; returns its oid. fflate's zlib
 * (level 1) instead of isomorphic-git's per-object `CompressionStream`, which costs ~3.5 ms an object
 * when thousands run at once.
 */
export async function writeLooseObject(
  fs: Vfs,
  gitdir: string,
  type: string,
  content: Uint8Array,
): Promise<string> {
  const header = encoder.encode(`${type} ${content.length}\0`);
  const wrapped = new Uint8Array(header.length + content.length);
  wrapped.set(header);
  wrapped.set(content, header.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", wrapped));
  let oid = "";
  for (const b of digest) oid += HEX[b];
  const path = objectPath(gitdir, oid);
  if (!(await fs.exists(path))) await fs.writeFile(path, zlibSync(wrapped, { level: 1 }));
  return oid;
}

/**
 * Write a tree object from its entries (any order; sorted the way git sorts, directories as "name/").
 * @throws Error for an entry name git cannot hold (`gitNameProblem`): such a tree could never be read back.
 */
export async function writeTreeObject(fs: Vfs, gitdir: string, entries: git.TreeEntry[]): Promise<string> {
  for (const e of entries) {
    const problem = gitNameProblem(e.path);
    if (problem) throw new Error(`Cannot write a git tree entry named ${quoteName(e.path)}: ${problem}`);
  }
  const key = (e: git.TreeEntry) => (e.type === "tree" ? `${e.path}/` : e.path);
  const sorted = [...entries].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const parts = sorted.map((e) => {
    const head = encoder.encode(`${e.mode.replace(/^0/, "")} ${e.path}\0`);
    const part = new Uint8Array(head.length + 20);
    part.set(head);
    for (let i = 0; i < 20; i++) part[head.length + i] = Number.parseInt(e.oid.slice(2 * i, 2 * i + 2), 16);
    return part;
  });
  const content = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    content.set(p, o);
    o += p.length;
  }
  return writeLooseObject(fs, gitdir, "tree", content);
}
