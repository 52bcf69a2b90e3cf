/**
 * A project as a `.zip` download: its working tree (what the IDE shows, `.git` left out) or the files of one commit
 * of its repository (a session checkpoint). Files keep their mode (executable or not, Unix attributes) and symlinks
 * stay symlinks (Unix mode 120777, the target as content, like Info-ZIP); content is binary-safe. The archive is
 * built in memory and bounded: at most {@link MAX_DOWNLOAD_BYTES} of file content and {@link MAX_DOWNLOAD_ENTRIES}
 * entries, else 413 `archive_too_large` before anything is sent. Deflate at level 1 with a turn for the event loop
 * every 10 ms, so a large download does not stall other requests.
 */
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { timeSlicer } from "@/lib/vfs/archive-limits";
import { MAX_FLUSH_BYTES } from "@/lib/vfs/limits";
import { normalizePosix } from "@/lib/vfs/paths";
import type { Vfs } from "@/lib/vfs/vfs";
import { RemoteError } from "./errors";
import { commitInfo, listTreeFiles, openRepo, prefetchObjects, readBlob, resolveSource } from "./tree";

/** Most file content one download may hold (64 MiB, what one VFS flush may write). */
export const MAX_DOWNLOAD_BYTES = MAX_FLUSH_BYTES;
/** Most files and symlinks one download may hold. */
export const MAX_DOWNLOAD_ENTRIES = 20_000;

/** A built archive. */
export interface ProjectArchive {
  bytes: Uint8Array;
  /** The safe file name, `<project>-<short oid>.zip` or `<project>-working-tree.zip`. */
  fileName: string;
  /** The commit archived, or null for the working tree. */
  commit: string | null;
  files: number;
}

interface Entry {
  path: string;
  /** Unix mode: 0o100644, 0o100755 or 0o120777. */
  mode: number;
  data: Uint8Array;
}

const tooLarge = (what: string) =>
  new RemoteError(
    413,
    "archive_too_large",
    `${what} (the limit for one download is ${MAX_DOWNLOAD_BYTES / 1024 / 1024} MiB in ${MAX_DOWNLOAD_ENTRIES} files). Push the project to a git remote instead (Get work out → Push…).`,
  );

/** `name` as a file-name part: ASCII letters, digits, `.`, `_`, `-` (others become `-`), at most 60; `project`. */
export function safeFileStem(name: string): string {
  const stem = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 60);
  return stem || "project";
}

/** Zip `entries` (sorted), deflating at level 1 (stored when that does not help), yielding every 10 ms. */
async function zipEntries(entries: Entry[], mtime: Date): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let failure: unknown;
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    else chunks.push(chunk);
  });
  const slice = timeSlicer();
  for (const e of entries) {
    const symlink = (e.mode & 0o170000) === 0o120000;
    const file =
      symlink || e.data.length < 64 ? new ZipPassThrough(e.path) : new ZipDeflate(e.path, { level: 1 });
    file.os = 3;
    file.attrs = (e.mode << 16) >>> 0;
    file.mtime = mtime;
    zip.add(file);
    file.push(e.data, true);
    await slice();
  }
  zip.end();
  if (failure) throw failure;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

const gitMode = (mode: string) => (mode === "120000" ? 0o120777 : mode === "100755" ? 0o100755 : 0o100644);

/** The entries of commit `oid`, blobs read 200 at a time, refused past the limits. */
async function commitEntries(vfs: Vfs, root: string, oid: string): Promise<{ entries: Entry[]; time: Date }> {
  const repo = openRepo(vfs, root);
  const { tree, timestamp } = await commitInfo(repo, oid);
  // isomorphic-git refuses to read a tree naming `.git`, `..` or a separator (a refused pull keeps such objects):
  // no such entry is ever handed to an unzip.
  const files = await listTreeFiles(repo, tree).catch((error: { name?: string }) => {
    if (error?.name === "UnsafeFilepathError")
      throw new RemoteError(
        422,
        "unsafe_path",
        `Commit ${oid.slice(0, 7)} has an unsafe path (.git, .. or a separator in a name); it cannot be downloaded.`,
      );
    throw error;
  });
  if (files.length > MAX_DOWNLOAD_ENTRIES)
    throw tooLarge(`Commit ${oid.slice(0, 7)} has ${files.length} files`);
  const entries: Entry[] = [];
  let total = 0;
  for (let i = 0; i < files.length; i += 200) {
    const batch = files.slice(i, i + 200);
    await prefetchObjects(repo, [...new Set(batch.map((f) => f.oid))]);
    for (const f of batch) {
      const data = await readBlob(repo, f.oid);
      total += data.length;
      if (total > MAX_DOWNLOAD_BYTES) throw tooLarge(`Commit ${oid.slice(0, 7)} holds more than the limit`);
      entries.push({ path: f.path, mode: gitMode(f.mode), data });
    }
  }
  return { entries, time: new Date(timestamp * 1000) };
}

/** The entries of the working tree at `root` (`.git` left out), refused past the limits before reading. */
async function workingTreeEntries(vfs: Vfs, root: string): Promise<Entry[]> {
  const walked = await vfs.walk(root, { skip: (path) => path === `${root}/.git` });
  const files = walked.filter((w) => w.stat.kind !== "dir");
  const total = files.reduce((n, w) => n + w.stat.size, 0);
  if (files.length > MAX_DOWNLOAD_ENTRIES) throw tooLarge(`The working tree has ${files.length} files`);
  if (total > MAX_DOWNLOAD_BYTES) throw tooLarge(`The working tree holds ${total} bytes`);
  const entries: Entry[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < files.length; i += 200) {
    const batch = files.slice(i, i + 200);
    const data = await vfs.readFiles(batch.filter((w) => w.stat.kind === "file").map((w) => w.path));
    for (const w of batch) {
      const rel = w.path.slice(root.length + 1);
      if (w.stat.kind === "symlink")
        entries.push({ path: rel, mode: 0o120777, data: encoder.encode(await vfs.readlink(w.path)) });
      else
        entries.push({
          path: rel,
          mode: w.stat.mode & 0o111 ? 0o100755 : 0o100644,
          data: data.get(w.path) ?? new Uint8Array(),
        });
    }
  }
  return entries;
}

/**
 * The `.zip` of project `name` at `rootPath`: its working tree when `source` is undefined, else the commit it names
 * (`HEAD`, a 40-hex oid, `refs/heads/strata/session-<id>`…).
 * @throws RemoteError 400 `invalid_commit`, 404 `commit_not_found`, 413 `archive_too_large`.
 */
export async function buildProjectArchive(
  vfs: Vfs,
  project: { name: string; rootPath: string },
  source?: string,
): Promise<ProjectArchive> {
  const root = normalizePosix(project.rootPath);
  const stem = safeFileStem(project.name);
  if (source === undefined) {
    const entries = await workingTreeEntries(vfs, root);
    return {
      bytes: await zipEntries(entries, new Date()),
      fileName: `${stem}-working-tree.zip`,
      commit: null,
      files: entries.length,
    };
  }
  const oid = await resolveSource(openRepo(vfs, root), source);
  const { entries, time } = await commitEntries(vfs, root, oid);
  return {
    bytes: await zipEntries(entries, time),
    fileName: `${stem}-${oid.slice(0, 7)}.zip`,
    commit: oid,
    files: entries.length,
  };
}
