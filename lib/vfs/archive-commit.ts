/**
 * The import commit, built as the files are written: each file's blob is written with it (so it is
 * flushed in the same batch and never read back), and at the end the trees, the index and one commit
 * "Import <fileName>" are written from the recorded blob ids. Nothing walks the working tree.
 */
import * as git from "isomorphic-git";
import { GitIndexManager } from "isomorphic-git/managers";
import { FileSystem } from "isomorphic-git/models";
import { type GitAuthor, writeLooseObject, writeTreeObject } from "./git";
import { createGitFs, GitStats } from "./git-fs";
import type { Vfs } from "./vfs";

/** A file or symlink of the commit: its blob id and git mode ("100644", "100755", "120000"). */
interface Blob {
  oid: string;
  mode: string;
}

const encoder = new TextEncoder();
const parentOf = (rel: string) => rel.slice(0, Math.max(0, rel.lastIndexOf("/")));
const baseOf = (rel: string) => rel.slice(rel.lastIndexOf("/") + 1);

/** Collects the blobs of an import into `root` (a fresh repository) and commits them once. */
export class ImportCommit {
  private readonly blobs = new Map<string, Blob>();
  private readonly gitdir: string;

  /** @param root absolute VFS path of the working tree (its `.git` must exist, see `initRepository`). */
  constructor(
    private readonly fs: Vfs,
    private readonly root: string,
  ) {
    this.gitdir = `${root}/.git`;
  }

  /**
   * Write the blob of the file or symlink at `rel` (relative to the root, "/"-separated); a later
   * call for the same path replaces it. `mode` is the VFS mode (0o100644, 0o100755, 0o120000).
   */
  async add(rel: string, content: Uint8Array | string, mode: number): Promise<void> {
    const bytes = typeof content === "string" ? encoder.encode(content) : content;
    const oid = await writeLooseObject(this.fs, this.gitdir, "blob", bytes);
    this.blobs.set(rel, { oid, mode: mode.toString(8).padStart(6, "0") });
  }

  /** Forget the blob of `rel` (its file could not be written). */
  delete(rel: string): void {
    this.blobs.delete(rel);
  }

  /**
   * Write the trees (deepest first), the index (stats from the VFS, so the working tree is clean) and
   * the root commit on the current branch. Nothing is flushed.
   * @returns the commit id.
   */
  async commit(message: string, author: GitAuthor): Promise<string> {
    // Every directory holding a blob, and each of its ancestors, gets an entry list (an ancestor
    // of a listed directory is always listed, so the walk up stops at the first known one).
    const dirs = new Map<string, git.TreeEntry[]>([["", []]]);
    for (const [rel, blob] of this.blobs) {
      const dir = parentOf(rel);
      for (let d = dir; !dirs.has(d); d = parentOf(d)) dirs.set(d, []);
      dirs.get(dir)?.push({ mode: blob.mode, path: baseOf(rel), oid: blob.oid, type: "blob" });
    }
    const depth = (d: string) => (d === "" ? 0 : d.split("/").length);
    let rootTree = "";
    for (const dir of [...dirs.keys()].sort((a, b) => depth(b) - depth(a))) {
      const oid = await writeTreeObject(this.fs, this.gitdir, dirs.get(dir) ?? []);
      if (dir === "") rootTree = oid;
      else dirs.get(parentOf(dir))?.push({ mode: "040000", path: baseOf(dir), oid, type: "tree" });
    }

    const gfs = createGitFs(this.fs);
    const staged = await Promise.all(
      [...this.blobs].map(async ([filepath, blob]) => {
        const abs = `${this.root}/${filepath}`;
        return { filepath, stats: new GitStats(await this.fs.lstat(abs), abs), oid: blob.oid };
      }),
    );
    await GitIndexManager.acquire(
      { fs: new FileSystem(gfs), gitdir: this.gitdir, cache: {} },
      async (index) => {
        for (const entry of staged) index.insert(entry);
      },
    );
    const signature = {
      name: author.name,
      email: author.email,
      timestamp: author.timestamp ?? Math.floor(Date.now() / 1000),
      timezoneOffset: author.timezoneOffset ?? 0,
    };
    return git.commit({
      fs: gfs,
      dir: this.root,
      message,
      author: signature,
      committer: signature,
      tree: rootTree,
      cache: {},
    });
  }
}
