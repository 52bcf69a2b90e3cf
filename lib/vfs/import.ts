/**
 * Archive import: a `.zip`, `.tar.gz`/`.tgz` or `.tar` unpacked into a project directory of the VFS,
 * then committed as the first commit of a fresh repository. Hostile entries (`..`, absolute paths,
 * symlinks leaving the project, paths over the VFS's depth/length limits) and oversize files are
 * reported, never written. Bombs (overlapping zip entries, expansion over the limits, too many entries)
 * refuse the whole archive before or while it is inflated (`lib/vfs/archive-limits.ts`), and what an
 * import wrote before a failure is removed again. A name the one name rule refuses (lib/vfs/names.ts: control or
 * bidi characters, dots only, what git reads as `.git`) is skipped with the rule's words.
 */

import { ImportCommit } from "./archive-commit";
import {
  type ArchiveEntry,
  type ArchiveLimits,
  type ArchiveSource,
  DEFAULT_ARCHIVE_LIMITS,
  IMPORT_BATCH_BYTES,
  IMPORT_BATCH_FILES,
  REFUSED,
  timeSlicer,
  YIELD_EVERY_BYTES,
  yieldToEventLoop,
} from "./archive-limits";
import { openTar } from "./archive-tar";
import { openZip } from "./archive-zip";
import { VfsError } from "./errors";
import { type GitAuthor, initRepository } from "./git";
import { checkPathLimits, utf8Length } from "./limits";
import { pathNameProblem, quoteName } from "./names";
import { joinPosix, normalizePosix, symlinkTargetEscapes } from "./paths";
import type { Vfs } from "./vfs";

/** What an import wrote. `bytes` counts file contents (a symlink counts its target string). */
export interface ImportReport {
  /** Regular files and symlinks written. */
  files: number;
  bytes: number;
  /** Entries not written, in archive order; `path` is the entry name as stored in the archive. */
  skipped: { path: string; reason: string }[];
}

export interface ImportOptions {
  /** Largest file kept, bytes (default 10 MiB, `MAX_ARCHIVE_FILE_BYTES`); larger ones are skipped. */
  maxFileBytes?: number;
  /** Most bytes the archive may expand to (default 64 MiB, `MAX_ARCHIVE_TOTAL_BYTES`); more refuses it. */
  maxTotalBytes?: number;
  /** Most entries, directories included (default 10,000, `MAX_ARCHIVE_ENTRIES`); more refuses it. */
  maxEntries?: number;
  /** Author of the import commit (default "Strata <strata@localhost>"). */
  author?: GitAuthor;
  /** Default branch of the new repository (default "main"). */
  defaultBranch?: string;
}

/** Skip reasons, exactly as reported. */
export const SKIP_REASONS = {
  traversal: "path contains '..'",
  absolute: "absolute path",
  escapingSymlink: "symlink points outside the project",
  gitDir: ".git metadata is not imported",
  hardLink: "hard links are not supported",
  exists: "path already exists",
  duplicate: "duplicate entry: a later entry with the same path was imported",
  conflict: (code: string) => `cannot be written (${code}: another entry is in the way)`,
  tooLarge: (size: number, max: number) => `file too large (${size} bytes, limit ${max})`,
  longTarget: (size: number, max: number) => `symlink target too long (${size} bytes, limit ${max})`,
  unsupported: (type: string) => `unsupported entry type (${type})`,
} as const;

type ArchiveKind = "zip" | "tar.gz" | "tar";

function kindOf(fileName: string): ArchiveKind {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".zip")) return "zip";
  if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) return "tar.gz";
  if (lower.endsWith(".tar")) return "tar";
  throw new Error(`Unsupported archive type: ${fileName} (expected .zip, .tar.gz, .tgz or .tar)`);
}

/** Entry name → "/"-separated segments, or a skip reason. Linear in the name's length. */
function segmentsOf(name: string): string[] | { reason: string } {
  const n = name.replace(/\\/g, "/");
  if (n.startsWith("/") || /^[A-Za-z]:\//.test(n)) return { reason: SKIP_REASONS.absolute };
  const parts = n.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) return { reason: SKIP_REASONS.traversal };
  return parts;
}

/** What the archive's entries become: files/links to read and write, directories, and what is skipped. */
interface Plan {
  /** Entry index → relative path, for files and zip symlinks (whose target is their data). */
  read: Map<number, string>;
  dirs: string[];
  /** Tar symlinks (target known from the header). */
  links: { rel: string; target: string; name: string }[];
  skipped: ImportReport["skipped"];
}

/**
 * Decide every entry from the names and declared facts alone (nothing inflated): strip one common
 * top-level directory (GitHub-style archives), skip hostile or unsupported entries, and keep only the
 * last of duplicate paths (as tar extracts).
 */
async function plan(root: string, entries: ArchiveEntry[], limits: ArchiveLimits): Promise<Plan> {
  const skipped: ImportReport["skipped"] = [];
  const valid: { entry: ArchiveEntry; parts: string[] }[] = [];
  for (const entry of entries) {
    const parts = segmentsOf(entry.name);
    if (!Array.isArray(parts)) skipped.push({ path: entry.name, reason: parts.reason });
    else if (parts.length > 0) valid.push({ entry, parts });
  }
  const top = valid[0]?.parts[0];
  const strip =
    top !== undefined &&
    valid.every(({ entry, parts }) => parts[0] === top && (parts.length > 1 || entry.kind === "dir")) &&
    valid.some(({ parts }) => parts.length > 1);
  if (strip) for (const v of valid) v.parts = v.parts.slice(1);

  const out: Plan = { read: new Map(), dirs: [], links: [], skipped };
  const fileAt = new Map<string, ArchiveEntry>();
  const skip = (entry: ArchiveEntry, reason: string) => skipped.push({ path: entry.name, reason });
  const tick = timeSlicer();
  for (const { entry, parts } of valid) {
    await tick();
    if (parts.length === 0) continue;
    const rel = parts.join("/");
    try {
      checkPathLimits(rel, { maxDepth: limits.maxPathDepth, maxLength: limits.maxPathLength });
    } catch (error) {
      if (!(error instanceof VfsError)) throw error;
      skip(entry, error.message);
      continue;
    }
    const named = pathNameProblem(rel);
    if (parts.some((p) => p.toLowerCase() === ".git")) skip(entry, SKIP_REASONS.gitDir);
    else if (named) skip(entry, `${quoteName(named.name)}: ${named.reason}`);
    else if (entry.kind === "dir") out.dirs.push(rel);
    else if (entry.kind === "hardlink") skip(entry, SKIP_REASONS.hardLink);
    else if (entry.kind === "other") skip(entry, SKIP_REASONS.unsupported(entry.typeName ?? "unknown"));
    else if (entry.unreadable) skip(entry, entry.unreadable);
    else if (entry.kind === "symlink" && entry.linkTarget !== undefined) {
      const length = utf8Length(entry.linkTarget);
      if (length > limits.maxPathLength) skip(entry, SKIP_REASONS.longTarget(length, limits.maxPathLength));
      else if (symlinkTargetEscapes(root, rel, entry.linkTarget)) skip(entry, SKIP_REASONS.escapingSymlink);
      else out.links.push({ rel, target: entry.linkTarget, name: entry.name });
    } else {
      const link = entry.kind === "symlink";
      const max = link ? limits.maxPathLength : limits.maxFileBytes;
      if (entry.size > max) {
        skip(entry, (link ? SKIP_REASONS.longTarget : SKIP_REASONS.tooLarge)(entry.size, max));
        continue;
      }
      // The same path twice: the later entry wins, as tar extracts; the earlier is reported, never written.
      const earlier = fileAt.get(rel);
      if (earlier) {
        skip(earlier, SKIP_REASONS.duplicate);
        out.read.delete(earlier.index);
      }
      fileAt.set(rel, entry);
      out.read.set(entry.index, rel);
    }
  }
  refuseTooManyNodes([...out.read.values(), ...out.links.map((l) => l.rel)], out.dirs, limits.maxEntries);
  return out;
}

/**
 * The nodes an import creates are its files and links plus every directory they imply: 10,000 files in
 * 60-level chains would be 600,000 directories from a 1.6 MB zip. Count them all against `maxEntries`
 * (one walk up per path, stopping at a directory already counted). A file and a link with the same path
 * both count (one of them is skipped later).
 * @throws ArchiveRefusedError `REFUSED.tooManyEntries`.
 */
function refuseTooManyNodes(files: string[], dirs: string[], maxEntries: number): void {
  const seen = new Set<string>();
  let nodes = 0;
  const parentOf = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf("/")));
  const addDirs = (from: string) => {
    for (let d = from; d !== "" && !seen.has(d); d = parentOf(d)) {
      seen.add(d);
      nodes++;
    }
  };
  for (const rel of files) {
    nodes++;
    addDirs(parentOf(rel));
    if (nodes > maxEntries) throw REFUSED.tooManyEntries(maxEntries);
  }
  for (const rel of dirs) {
    addDirs(rel);
    if (nodes > maxEntries) throw REFUSED.tooManyEntries(maxEntries);
  }
}

async function openArchive(
  kind: ArchiveKind,
  bytes: Uint8Array,
  fileName: string,
  limits: ArchiveLimits,
): Promise<ArchiveSource> {
  if (kind === "zip") return openZip(bytes, fileName, limits);
  return openTar(bytes, fileName, kind === "tar" ? ".tar" : ".tar.gz", limits);
}

/**
 * Remove everything below `root` that an import wrote: unflushed changes are dropped, flushed rows are
 * deleted in one statement (`Vfs.removeTree`); `root` is recreated (empty) when it existed before.
 */
async function removeImport(fs: Vfs, root: string, rootExisted: boolean): Promise<void> {
  fs.discard(root);
  if (!(await fs.exists(root))) return;
  await fs.removeTree(root);
  if (!rootExisted) return;
  await fs.mkdir(root, { recursive: true });
  await fs.flush();
}

/** The limits of one import: the defaults, with the caller's file size, expansion and entry count. */
function importLimits(options: ImportOptions): ArchiveLimits {
  return {
    ...DEFAULT_ARCHIVE_LIMITS,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_ARCHIVE_LIMITS.maxFileBytes,
    maxTotalBytes: options.maxTotalBytes ?? DEFAULT_ARCHIVE_LIMITS.maxTotalBytes,
    maxEntries: options.maxEntries ?? DEFAULT_ARCHIVE_LIMITS.maxEntries,
  };
}

/** What part of an import wrote: regular files and symlinks, and their bytes (a symlink counts its target string). */
interface Written {
  files: number;
  bytes: number;
}

/**
 * Inflate the planned files entry by entry and write each with its git blob (`commit.add`), flushing in batches
 * (`IMPORT_BATCH_FILES` / `IMPORT_BATCH_BYTES`). A zip symlink (its target is its data) joins `links` unless it
 * escapes the project; a file another entry is in the way of is skipped.
 */
async function writeFiles(
  fs: Vfs,
  root: string,
  source: ArchiveSource,
  planned: Plan,
  commit: ImportCommit,
  links: Plan["links"],
  tick: () => Promise<void>,
): Promise<Written> {
  const { skipped } = planned;
  const written: Written = { files: 0, bytes: 0 };
  let batchBytes = 0;
  let batchFiles = 0;
  await source.readData(new Set(planned.read.keys()), async (entry, data) => {
    await tick();
    const rel = planned.read.get(entry.index) ?? "";
    if (entry.kind === "symlink") {
      const target = new TextDecoder().decode(data);
      if (symlinkTargetEscapes(root, rel, target))
        skipped.push({ path: entry.name, reason: SKIP_REASONS.escapingSymlink });
      else links.push({ rel, target, name: entry.name });
      return;
    }
    const mode = entry.mode !== undefined && entry.mode & 0o111 ? 0o100755 : 0o100644;
    try {
      await fs.writeFile(joinPosix(root, rel), data, { mode });
    } catch (error) {
      if (!(error instanceof VfsError)) throw error;
      skipped.push({ path: entry.name, reason: SKIP_REASONS.conflict(error.code) });
      return;
    }
    await commit.add(rel, data, mode);
    // Inflating, hashing and compressing a large file are each a few ms per MiB: let others run between files.
    if (data.length >= YIELD_EVERY_BYTES / 4) await yieldToEventLoop();
    written.files++;
    written.bytes += data.length;
    batchBytes += data.length;
    if (++batchFiles >= IMPORT_BATCH_FILES || batchBytes >= IMPORT_BATCH_BYTES) {
      await fs.flush();
      batchBytes = 0;
      batchFiles = 0;
    }
  });
  return written;
}

/** Create the symlinks after every file and directory, each with its git blob; one whose path is taken is skipped. */
async function writeLinks(
  fs: Vfs,
  root: string,
  links: Plan["links"],
  commit: ImportCommit,
  skipped: ImportReport["skipped"],
  tick: () => Promise<void>,
): Promise<Written> {
  const written: Written = { files: 0, bytes: 0 };
  for (const l of links) {
    await tick();
    const path = joinPosix(root, l.rel);
    const taken = await fs.lstat(path).then(
      () => true,
      (error) => !(error instanceof VfsError && error.code === "ENOENT"),
    );
    if (taken) {
      skipped.push({ path: l.name, reason: SKIP_REASONS.exists });
      continue;
    }
    await fs.symlink(l.target, path);
    await commit.add(l.rel, l.target, 0o120000);
    written.files++;
    written.bytes += new TextEncoder().encode(l.target).length;
  }
  return written;
}

/**
 * Unpack `bytes` (named `fileName`; `.zip`, `.tar.gz`, `.tgz` or `.tar`) into absolute VFS directory
 * `dir` (absent or empty), then `initRepository` and one commit "Import <fileName>" of everything written.
 *
 * - The archive is checked before anything is written (`openZip` / `openTar`: entry count, overlapping
 *   zip entries, total expansion, expansion ratios) and inflated entry by entry while writing, with the
 *   output counted (a zip entry inflating past its declared size refuses the archive).
 * - Files are flushed in batches (`IMPORT_BATCH_BYTES` / `IMPORT_BATCH_FILES`) with their git blobs, so
 *   no flush holds more than one batch; the trees, index, symlinks and commit go in a last flush. Use a
 *   VFS with no other unflushed changes (they would be flushed with the first batch).
 * - One top-level directory shared by every entry (GitHub-style archives) is stripped.
 * - Entries with a `..` segment, absolute names, paths over the VFS's depth/length limits, symlinks
 *   resolving outside `dir`, hard links, devices, anything under a `.git` directory (any letter case, any
 *   depth), unreadable entries (encrypted, unknown compression), and files over `maxFileBytes` are listed
 *   in `skipped` (reasons in `SKIP_REASONS`, the VFS's path-limit message, or `"<name>": <NAME_ERRORS rule>`) and never written; no file
 *   is ever truncated. Contents are kept byte for byte; executable bits become mode 100755. Symlinks are
 *   created after every file and directory.
 *
 * @returns `{ files, bytes, skipped }`.
 * @throws ArchiveRefusedError (a bomb or over a limit of one import; messages in `REFUSED`), Error
 *   "Unsupported archive type: …", "Not a valid .zip archive: <fileName> (…)" (likewise ".tar.gz",
 *   ".tar"), "Cannot import into <dir>: it already contains a git repository" / "…: it is not empty",
 *   or a database error. On any error nothing of the import remains in the VFS (what was flushed is
 *   deleted again).
 */
export async function importArchive(
  fs: Vfs,
  dir: string,
  bytes: Uint8Array,
  fileName: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const limits = importLimits(options);
  const root = normalizePosix(dir);
  const kind = kindOf(fileName);
  const source = await openArchive(kind, bytes, fileName, limits);
  const planned = await plan(root, source.entries, limits);
  const { skipped } = planned;

  await fs.prefetch([root, `${root}/.git`]);
  if (await fs.exists(`${root}/.git`))
    throw new Error(`Cannot import into ${root}: it already contains a git repository`);
  const rootExisted = await fs.exists(root);
  if (rootExisted && (await fs.readdir(root)).length > 0)
    throw new Error(`Cannot import into ${root}: it is not empty`);

  let written: Written = { files: 0, bytes: 0 };
  try {
    const tick = timeSlicer();
    await fs.mkdir(root, { recursive: true });
    for (const d of planned.dirs) {
      await fs.mkdir(joinPosix(root, d), { recursive: true });
      await tick();
    }
    await initRepository(fs, root, { defaultBranch: options.defaultBranch });
    const commit = new ImportCommit(fs, root);
    const links = [...planned.links];
    const files = await writeFiles(fs, root, source, planned, commit, links, tick);
    const linked = await writeLinks(fs, root, links, commit, skipped, tick);
    written = { files: files.files + linked.files, bytes: files.bytes + linked.bytes };
    await commit.commit(
      `Import ${fileName}`,
      options.author ?? { name: "Strata", email: "strata@localhost" },
    );
    await fs.flush();
  } catch (error) {
    await removeImport(fs, root, rootExisted).catch((cleanup) => {
      console.error(
        `[strata] could not remove the failed import below ${root}:`,
        cleanup instanceof Error ? cleanup.message : cleanup,
      );
    });
    throw error;
  }
  return { files: written.files, bytes: written.bytes, skipped };
}
