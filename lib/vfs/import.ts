/**
 * Archive import: a `.zip`, `.tar.gz`/`.tgz` or `.tar` unpacked into a project directory of the VFS,
 * then committed as the first commit of a fresh repository. Hostile entries (`..`, absolute paths,
 * symlinks leaving the project) and oversize files are reported, never written.
 */
import { Gunzip, unzipSync } from "fflate";
import { unpackTar } from "modern-tar";
import { VfsError } from "./errors";
import { commitAll, type GitAuthor, initRepository } from "./git";
import { isInsideRoot, joinPosix, normalizePosix } from "./paths";
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
  /** Largest file kept, bytes (default 10 MiB); larger ones are skipped. */
  maxFileBytes?: number;
  /** Largest total of kept file bytes (default 200 MiB); more is an error. */
  maxTotalBytes?: number;
  /** Most entries kept (default 20,000); more is an error. */
  maxFiles?: number;
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
  unsupported: (type: string) => `unsupported entry type (${type})`,
} as const;

interface RawEntry {
  name: string;
  kind: "file" | "dir" | "symlink" | "hardlink" | "other";
  /** Unix permission bits when known. */
  mode?: number;
  /** Declared size (uncompressed), bytes. */
  size: number;
  data?: Uint8Array;
  linkTarget?: string;
  typeName?: string;
}

const MiB = 1024 * 1024;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

// ---- zip --------------------------------------------------------------------------------------

/** Central-directory facts fflate does not expose: unix mode per entry name. */
function zipModes(bytes: Uint8Array): Map<string, number> {
  const modes = new Map<string, number>();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return modes;
  const count = view.getUint16(eocd + 10, true);
  let p = view.getUint32(eocd + 16, true);
  for (let n = 0; n < count && p + 46 <= bytes.length; n++) {
    if (view.getUint32(p, true) !== 0x02014b50) break;
    const madeBy = view.getUint16(p + 4, true) >> 8;
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const external = view.getUint32(p + 38, true);
    const name = decoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    if (madeBy === 3 && external >>> 16 !== 0) modes.set(name, external >>> 16);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return modes;
}

function readZip(
  bytes: Uint8Array,
  limits: { maxFileBytes: number; maxTotalBytes: number; maxFiles: number },
  fileName: string,
): RawEntry[] {
  const { maxFileBytes } = limits;
  if (bytes.length < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b)
    throw new Error(`Not a valid .zip archive: ${fileName} (no zip signature)`);
  // First pass over the central directory only (nothing inflated): refuse a bomb before any work.
  let declared = 0;
  let count = 0;
  try {
    unzipSync(bytes, {
      filter: (f) => {
        count++;
        if (f.originalSize <= maxFileBytes) declared += f.originalSize;
        return false;
      },
    });
  } catch (error) {
    throw new Error(`Not a valid .zip archive: ${fileName} (${(error as Error).message})`, { cause: error });
  }
  if (count > limits.maxFiles)
    throw new Error(`Archive too large: ${fileName} has ${count} files (limit ${limits.maxFiles})`);
  if (declared > limits.maxTotalBytes)
    throw new Error(
      `Archive too large: ${fileName} holds ${declared} bytes of files (limit ${limits.maxTotalBytes})`,
    );
  const sizes = new Map<string, number>();
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        sizes.set(f.name, f.originalSize);
        return f.originalSize <= maxFileBytes;
      },
    });
  } catch (error) {
    throw new Error(`Not a valid .zip archive: ${fileName} (${(error as Error).message})`, { cause: error });
  }
  const modes = zipModes(bytes);
  const out: RawEntry[] = [];
  for (const [name, size] of sizes) {
    const mode = modes.get(name);
    const type = mode === undefined ? undefined : mode & 0o170000;
    if (name.endsWith("/") || type === 0o040000) out.push({ name, kind: "dir", size: 0 });
    else if (type === 0o120000)
      out.push({ name, kind: "symlink", size, linkTarget: files[name] ? decoder.decode(files[name]) : "" });
    else out.push({ name, kind: "file", size, mode, data: files[name] });
  }
  return out;
}

// ---- tar --------------------------------------------------------------------------------------

/** gunzip with a hard cap on the output (a gzip bomb fails fast). */
function gunzipCapped(bytes: Uint8Array, cap: number, fileName: string): Uint8Array {
  if (bytes.length < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    throw new Error(`Not a valid .tar.gz archive: ${fileName} (no gzip signature)`);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const g = new Gunzip((chunk) => {
    total += chunk.length;
    if (total > cap) throw new Error(`Archive too large: ${fileName} expands to more than ${cap} bytes`);
    chunks.push(chunk);
  });
  const STEP = 64 * 1024;
  try {
    for (let i = 0; i < bytes.length; i += STEP)
      g.push(bytes.subarray(i, i + STEP), i + STEP >= bytes.length);
  } catch (error) {
    if ((error as Error).message.startsWith("Archive too large")) throw error;
    throw new Error(`Not a valid .tar.gz archive: ${fileName} (${(error as Error).message})`, {
      cause: error,
    });
  }
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** A ustar/gnu/pax header block has "ustar" at offset 257 and a valid checksum. */
function looksLikeTar(bytes: Uint8Array): boolean {
  if (bytes.length < 512) return false;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : bytes[i];
  const stored = Number.parseInt(decoder.decode(bytes.subarray(148, 156)).replace(/\0.*$/, "").trim(), 8);
  return stored === sum;
}

async function readTar(tar: Uint8Array, label: string, fileName: string): Promise<RawEntry[]> {
  if (!looksLikeTar(tar)) throw new Error(`Not a valid ${label} archive: ${fileName} (no tar header)`);
  let entries: Awaited<ReturnType<typeof unpackTar>>;
  try {
    entries = await unpackTar(tar);
  } catch (error) {
    throw new Error(`Not a valid ${label} archive: ${fileName} (${(error as Error).message})`, {
      cause: error,
    });
  }
  const out: RawEntry[] = [];
  for (const { header, data } of entries) {
    const type = header.type ?? "file";
    if (type === "pax-global-header" || type === "pax-header") continue;
    if (type === "gnu-long-name" || type === "gnu-long-link-name") continue;
    if (type === "file")
      out.push({ name: header.name, kind: "file", size: header.size, mode: header.mode, data });
    else if (type === "directory") out.push({ name: header.name, kind: "dir", size: 0 });
    else if (type === "symlink")
      out.push({ name: header.name, kind: "symlink", size: 0, linkTarget: header.linkname ?? "" });
    else if (type === "link") out.push({ name: header.name, kind: "hardlink", size: 0 });
    else out.push({ name: header.name, kind: "other", size: 0, typeName: type });
  }
  return out;
}

// ---- import -----------------------------------------------------------------------------------

type ArchiveKind = "zip" | "tar.gz" | "tar";

function kindOf(fileName: string): ArchiveKind {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".zip")) return "zip";
  if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) return "tar.gz";
  if (lower.endsWith(".tar")) return "tar";
  throw new Error(`Unsupported archive type: ${fileName} (expected .zip, .tar.gz, .tgz or .tar)`);
}

/** Entry name → "/"-separated segments, or a skip reason. */
function segmentsOf(name: string): string[] | { reason: string } {
  const n = name.replace(/\\/g, "/");
  if (n.startsWith("/") || /^[A-Za-z]:\//.test(n)) return { reason: SKIP_REASONS.absolute };
  const parts = n.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) return { reason: SKIP_REASONS.traversal };
  return parts;
}

/**
 * Unpack `bytes` (named `fileName`; `.zip`, `.tar.gz`, `.tgz` or `.tar`) into absolute VFS directory
 * `dir`, then `initRepository` + `commitAll` with message "Import <fileName>". Nothing is flushed: the
 * caller flushes on success.
 *
 * - One top-level directory shared by every entry (GitHub-style archives) is stripped.
 * - Entries with a `..` segment, absolute names, symlinks resolving outside `dir`, hard links, devices,
 *   anything under a `.git` directory (any letter case, any depth), and files over `maxFileBytes` are listed in `skipped` (reasons in
 *   `SKIP_REASONS`) and never written; no file is ever truncated. Contents are kept byte for byte;
 *   executable bits become mode 100755. Symlinks are created after every file and directory.
 *
 * @returns `{ files, bytes, skipped }`.
 * @throws Error "Unsupported archive type: …", "Not a valid .zip archive: <fileName> (…)" (likewise
 *   ".tar.gz", ".tar"), "Archive too large: …" (over `maxTotalBytes` or `maxFiles`), or
 *   "Cannot import into <dir>: it already contains a git repository". Nothing is written on error.
 */
export async function importArchive(
  fs: Vfs,
  dir: string,
  bytes: Uint8Array,
  fileName: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const maxFileBytes = options.maxFileBytes ?? 10 * MiB;
  const maxTotalBytes = options.maxTotalBytes ?? 200 * MiB;
  const maxFiles = options.maxFiles ?? 20000;
  const root = normalizePosix(dir);
  const kind = kindOf(fileName);

  let raw: RawEntry[];
  if (kind === "zip") raw = readZip(bytes, { maxFileBytes, maxTotalBytes, maxFiles }, fileName);
  else if (kind === "tar") raw = await readTar(bytes, ".tar", fileName);
  else {
    // tar overhead: 512-byte header per entry plus padding; skipped oversize files still pass through.
    const cap = maxTotalBytes + maxFiles * 1024 + 64 * MiB;
    raw = await readTar(gunzipCapped(bytes, cap, fileName), ".tar.gz", fileName);
  }

  // Validate names, then strip one common top-level directory.
  const skipped: ImportReport["skipped"] = [];
  const valid: { entry: RawEntry; parts: string[] }[] = [];
  for (const entry of raw) {
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

  const files: { path: string; data: Uint8Array; mode: number; name: string }[] = [];
  const dirs: string[] = [];
  const links: { path: string; target: string; name: string }[] = [];
  const fileAt = new Map<string, number>();
  let total = 0;
  for (const { entry, parts } of valid) {
    if (parts.length === 0) continue;
    if (parts.some((p) => p.toLowerCase() === ".git")) {
      skipped.push({ path: entry.name, reason: SKIP_REASONS.gitDir });
      continue;
    }
    const path = joinPosix(root, ...parts);
    if (entry.kind === "dir") {
      dirs.push(path);
      continue;
    }
    if (entry.kind === "hardlink") {
      skipped.push({ path: entry.name, reason: SKIP_REASONS.hardLink });
      continue;
    }
    if (entry.kind === "other") {
      skipped.push({ path: entry.name, reason: SKIP_REASONS.unsupported(entry.typeName ?? "unknown") });
      continue;
    }
    if (entry.kind === "symlink") {
      const target = entry.linkTarget ?? "";
      const resolved = normalizePosix(`${path.slice(0, path.lastIndexOf("/"))}/${target}`);
      if (target === "" || target.startsWith("/") || !isInsideRoot(root, resolved)) {
        skipped.push({ path: entry.name, reason: SKIP_REASONS.escapingSymlink });
        continue;
      }
      links.push({ path, target, name: entry.name });
      total += encoder.encode(target).length;
      continue;
    }
    const size = entry.data?.length ?? entry.size;
    if (size > maxFileBytes || !entry.data) {
      skipped.push({ path: entry.name, reason: SKIP_REASONS.tooLarge(size, maxFileBytes) });
      continue;
    }
    total += size;
    const mode = entry.mode !== undefined && entry.mode & 0o111 ? 0o100755 : 0o100644;
    // The same path twice (tar allows it): the later entry wins, as tar extracts; the earlier is reported.
    const earlier = fileAt.get(path);
    if (earlier !== undefined) {
      skipped.push({ path: files[earlier].name, reason: SKIP_REASONS.duplicate });
      total -= files[earlier].data.length;
      files[earlier] = { path, data: entry.data, mode, name: entry.name };
      continue;
    }
    fileAt.set(path, files.length);
    files.push({ path, data: entry.data, mode, name: entry.name });
  }
  if (files.length + links.length > maxFiles)
    throw new Error(
      `Archive too large: ${fileName} has ${files.length + links.length} files (limit ${maxFiles})`,
    );
  if (total > maxTotalBytes)
    throw new Error(`Archive too large: ${fileName} holds ${total} bytes of files (limit ${maxTotalBytes})`);
  if (await fs.exists(`${root}/.git`))
    throw new Error(`Cannot import into ${root}: it already contains a git repository`);

  // Write: directories and files first, symlinks last (so no file is written through an archive link).
  await fs.prefetch([root]);
  await fs.mkdir(root, { recursive: true });
  for (const d of dirs) await fs.mkdir(d, { recursive: true });
  let written = 0;
  let bytesWritten = 0;
  for (const f of files) {
    try {
      await fs.writeFile(f.path, f.data, { mode: f.mode });
    } catch (error) {
      if (!(error instanceof VfsError)) throw error;
      skipped.push({ path: f.name, reason: SKIP_REASONS.conflict(error.code) });
      continue;
    }
    written++;
    bytesWritten += f.data.length;
  }
  for (const l of links) {
    const taken = await fs.lstat(l.path).then(
      () => true,
      (error) => !(error instanceof VfsError && error.code === "ENOENT"),
    );
    if (taken) {
      skipped.push({ path: l.name, reason: SKIP_REASONS.exists });
      continue;
    }
    await fs.symlink(l.target, l.path);
    written++;
    bytesWritten += encoder.encode(l.target).length;
  }

  await initRepository(fs, root, { defaultBranch: options.defaultBranch });
  await commitAll(fs, root, {
    message: `Import ${fileName}`,
    author: options.author ?? { name: "Strata", email: "strata@localhost" },
  });
  return { files: written, bytes: bytesWritten, skipped };
}
