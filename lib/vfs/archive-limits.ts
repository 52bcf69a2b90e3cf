/**
 * Limits of one archive import (zip, tar.gz, tar) and the error that refuses an archive. An archive that
 * crosses one of them is an attack or far outside what an upload is for, so the whole import is refused
 * (HTTP 422) and nothing of it is kept; per-file problems that are not attacks (one file over the file
 * limit, a hostile name) are skipped and reported instead.
 *
 * Why these numbers: one flush of about 100 MB crashed the process (V8 "invalid size"), so an import
 * expands to at most 64 MiB (and is written in flushes of at most `IMPORT_BATCH_BYTES`); real source
 * archives compress 3–10:1, so 100:1 above 1 MiB is a bomb, not a project; 10,000 entries is a large
 * repository (the 19,999-file archive of the issue took RSS from 219 MB to 2.1 GB).
 *
 * Pure constants and checks: no I/O, edge-safe.
 */
import { MAX_FILE_BYTES, MAX_FLUSH_BYTES, MAX_PATH_DEPTH, MAX_PATH_LENGTH } from "./limits";

const MiB = 1024 * 1024;

/** Largest file kept from an archive, bytes (the VFS's `MAX_FILE_BYTES`, 10 MiB); larger ones are skipped. */
export const MAX_ARCHIVE_FILE_BYTES = MAX_FILE_BYTES;
/**
 * Most bytes one import may expand to (64 MiB): zip, the sum of the entries it inflates (declared sizes
 * checked first, actual output counted while inflating); tar.gz, the whole decompressed tar stream.
 */
export const MAX_ARCHIVE_TOTAL_BYTES = 64 * MiB;
/** Most entries of one archive (10,000): files, directories, links and every other entry count. */
export const MAX_ARCHIVE_ENTRIES = 10_000;
/**
 * Most bytes of entry names in one archive (4 MiB, every entry's name as stored, UTF-8): the git index
 * holds each path, and 9,000 names of ~3,900 bytes made a 35 MB index that the VFS refused after 18 s.
 * 10,000 entries may average ~420 bytes a name.
 */
export const MAX_ARCHIVE_PATH_BYTES = 4 * MiB;
/** Largest expansion ratio (100:1), for one zip entry and for the whole archive, once above `RATIO_FLOOR_BYTES`. */
export const MAX_EXPANSION_RATIO = 100;
/** Below this output (1 MiB) the ratio is not checked: tiny, highly compressible files are normal. */
export const RATIO_FLOOR_BYTES = MiB;
/** Imported files are flushed to the database every this many content bytes (8 MiB, well under `MAX_FLUSH_BYTES`). */
export const IMPORT_BATCH_BYTES = 8 * MiB;
/** …or every this many files, whichever comes first. */
export const IMPORT_BATCH_FILES = 500;
/** The importer gives the event loop a turn after this much inflated (1 MiB), besides every `YIELD_SLICE_MS`. */
export const YIELD_EVERY_BYTES = MiB;
/**
 * Longest the importer runs without giving the event loop a turn (10 ms, `timeSlicer`): 10,000 tiny
 * entries are cheap one by one but held the loop 0.5–1.5 s when counted by entries.
 */
export const YIELD_SLICE_MS = 10;
/**
 * Compressed bytes handed to the inflater at once (4 KiB): bounds what one synchronous step can produce
 * (deflate's worst case is ~1,032× this, 4 MiB) before the limits are checked again.
 */
export const INFLATE_STEP_BYTES = 4 * 1024;
/**
 * A gzip stream (no declared sizes) is fed 1 KiB at a time while it is young (first 64 KiB) or expanding
 * fast (over 32:1), so a bomb produces at most ~1 MiB before it is checked; otherwise 8 KiB (at most ~8 MiB
 * even if the stream turns into a bomb later).
 */
export function gunzipStep(input: number, output: number): number {
  return input < 64 * 1024 || output > 32 * input ? 1024 : 8 * 1024;
}

// A batch plus its git objects (at most the same size again) and one largest file stays below a flush.
if (2 * (IMPORT_BATCH_BYTES + MAX_ARCHIVE_FILE_BYTES) > MAX_FLUSH_BYTES)
  throw new Error("IMPORT_BATCH_BYTES is too large for MAX_FLUSH_BYTES");

/** The limits one import runs under (the defaults above; tests pass smaller ones). */
export interface ArchiveLimits {
  /** Largest file kept, bytes; larger ones are skipped and reported. */
  maxFileBytes: number;
  /** Most bytes the archive may expand to. */
  maxTotalBytes: number;
  /** Most entries. */
  maxEntries: number;
  /** Largest expansion ratio (output / input) above `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
  /** Path limits below the import directory (the VFS's `MAX_PATH_DEPTH` / `MAX_PATH_LENGTH`). */
  maxPathDepth: number;
  maxPathLength: number;
  /** Most bytes of entry names in the archive (UTF-8, as stored). */
  maxPathBytes: number;
}

/** The default limits. */
export const DEFAULT_ARCHIVE_LIMITS: Readonly<ArchiveLimits> = Object.freeze({
  maxFileBytes: MAX_ARCHIVE_FILE_BYTES,
  maxTotalBytes: MAX_ARCHIVE_TOTAL_BYTES,
  maxEntries: MAX_ARCHIVE_ENTRIES,
  maxRatio: MAX_EXPANSION_RATIO,
  ratioFloorBytes: RATIO_FLOOR_BYTES,
  maxPathDepth: MAX_PATH_DEPTH,
  maxPathLength: MAX_PATH_LENGTH,
  maxPathBytes: MAX_ARCHIVE_PATH_BYTES,
});

/** An archive refused as a whole (a bomb or over a limit of one import). The message names the entry or the limit. */
export class ArchiveRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArchiveRefusedError";
  }
}

/** `1048576` → "1 MiB", `1536` → "1536 bytes" (whole KiB/MiB only, so limits read exactly). */
export function formatBytes(n: number): string {
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

const SPLIT = "Split it into smaller archives, or clone the repository by its git URL.";

/** The exact refusal messages. */
export const REFUSED = {
  tooManyEntries: (limit: number) =>
    new ArchiveRefusedError(
      `Archive refused: more than ${limit} entries (files and directories count; the limit for one import). ${SPLIT}`,
    ),
  tooLarge: (limit: number) =>
    new ArchiveRefusedError(
      `Archive refused: it expands to more than ${formatBytes(limit)} (limit for one import). ${SPLIT}`,
    ),
  pathsTooLong: (limit: number) =>
    new ArchiveRefusedError(
      `Archive refused: its paths total more than ${formatBytes(limit)} (limit for one import; the git index holds every path). ${SPLIT}`,
    ),
  overlap: (name: string, other: string) =>
    new ArchiveRefusedError(
      `Archive refused: entry ${JSON.stringify(name)} overlaps entry ${JSON.stringify(other)} (a zip with overlapping entries is a zip bomb).`,
    ),
  entryRatio: (
    name: string,
    size: number,
    compressed: number,
    l: Pick<ArchiveLimits, "maxRatio" | "ratioFloorBytes">,
  ) =>
    new ArchiveRefusedError(
      `Archive refused: entry ${JSON.stringify(name)} expands from ${compressed} to ${size} bytes, more than ${l.maxRatio} times (the limit for entries over ${formatBytes(l.ratioFloorBytes)}; a zip bomb).`,
    ),
  ratio: (l: Pick<ArchiveLimits, "maxRatio" | "ratioFloorBytes">) =>
    new ArchiveRefusedError(
      `Archive refused: it expands more than ${l.maxRatio} times its compressed size (the limit once it expands to over ${formatBytes(l.ratioFloorBytes)}; a compression bomb).`,
    ),
  inflatesBeyondDeclared: (name: string, declared: number) =>
    new ArchiveRefusedError(
      `Archive refused: entry ${JSON.stringify(name)} inflates to more than its declared ${declared} bytes (a zip bomb).`,
    ),
} as const;

/**
 * Check a running expansion against the import's limits; call it as output grows.
 * @param output bytes produced so far (zip: the declared total; tar.gz: the decompressed stream so far).
 * @param input compressed bytes they came from (zip: the archive; tar.gz: the bytes inflated so far, so a
 *   bomb is refused after about `ratioFloorBytes` of output instead of at the total limit).
 * @throws ArchiveRefusedError `REFUSED.tooLarge` when `output > maxTotalBytes`, else `REFUSED.ratio`
 *   when `output > ratioFloorBytes` and `output > maxRatio × input`. Exactly at a limit passes.
 */
export function checkExpansion(
  output: number,
  input: number,
  limits: Pick<ArchiveLimits, "maxTotalBytes" | "maxRatio" | "ratioFloorBytes">,
): void {
  if (output > limits.maxTotalBytes) throw REFUSED.tooLarge(limits.maxTotalBytes);
  if (output > limits.ratioFloorBytes && output > limits.maxRatio * input) throw REFUSED.ratio(limits);
}

/**
 * Check one entry's declared expansion (zip: uncompressed vs compressed size, before inflating).
 * @throws ArchiveRefusedError `REFUSED.entryRatio` when `size > ratioFloorBytes` and `size > maxRatio × compressed`.
 */
export function checkEntryRatio(
  name: string,
  size: number,
  compressed: number,
  limits: Pick<ArchiveLimits, "maxRatio" | "ratioFloorBytes">,
): void {
  if (size > limits.ratioFloorBytes && size > limits.maxRatio * compressed)
    throw REFUSED.entryRatio(name, size, compressed, limits);
}

/** Give the event loop one macrotask turn (other requests run), then continue. Edge-safe. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A time slicer: `await tick()` between small pieces of work gives the event loop a macrotask turn once
 * `sliceMs` (default `YIELD_SLICE_MS`, 10 ms) have passed since the last turn, and is an already
 * resolved promise otherwise (one microtask). Edge-safe (`Date.now`).
 */
export function timeSlicer(sliceMs: number = YIELD_SLICE_MS): () => Promise<void> {
  let last = Date.now();
  const now = Promise.resolve();
  return () => {
    if (Date.now() - last < sliceMs) return now;
    return yieldToEventLoop().then(() => {
      last = Date.now();
    });
  };
}

/** One entry of an archive, as its directory (zip) or header (tar) declares it; nothing inflated yet. */
export interface ArchiveEntry {
  /** Position in the archive, 0-based; the same in every read of it. */
  index: number;
  /** The name as stored in the archive. */
  name: string;
  kind: "file" | "dir" | "symlink" | "hardlink" | "other";
  /** Declared uncompressed size, bytes (the reader never produces more). */
  size: number;
  /** Unix permission bits when known. */
  mode?: number;
  /** A tar symlink's target (a zip symlink's target is its data). */
  linkTarget?: string;
  /** The tar type of an `other` entry. */
  typeName?: string;
  /** Why its data cannot be read, e.g. an unsupported compression method (skipped, not an error). */
  unreadable?: string;
}

/** An opened archive whose limits were checked: its entries, and a streaming read of their data. */
export interface ArchiveSource {
  entries: ArchiveEntry[];
  /**
   * Inflate the entries whose index is in `wanted`, in archive order, one at a time; `onData` is awaited
   * before the next. Counts output while inflating and aborts at the first crossed limit.
   * @throws ArchiveRefusedError, or Error "Not a valid <kind> archive: …".
   */
  readData(
    wanted: ReadonlySet<number>,
    onData: (entry: ArchiveEntry, data: Uint8Array) => Promise<void>,
  ): Promise<void>;
}
