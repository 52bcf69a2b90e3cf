/**
 * Reading a `.zip` for import without trusting it: the central directory is parsed and checked against
 * the import's limits (entry count, overlapping entries, declared sizes, expansion ratios) before
 * anything is inflated; entries are then inflated one at a time with fflate's streaming `Inflate`, in
 * small steps, counting the output and aborting the moment an entry produces more than it declared.
 */
import { Inflate } from "fflate";
import {
  type ArchiveEntry,
  type ArchiveLimits,
  type ArchiveSource,
  checkEntryRatio,
  checkExpansion,
  INFLATE_STEP_BYTES,
  REFUSED,
  timeSlicer,
  YIELD_EVERY_BYTES,
  yieldToEventLoop,
} from "./archive-limits";

const utf8 = new TextDecoder();
const latin1 = new TextDecoder("latin1");
const MAX32 = 0xffffffff;

interface ZipEntry extends ArchiveEntry {
  method: number;
  compressedSize: number;
  /** Offset of the local header. */
  offset: number;
  /** First byte of the compressed data (after the local header). */
  dataStart: number;
}

class InvalidZip extends Error {}

function u64(view: DataView, at: number): number {
  const v = view.getBigUint64(at, true);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new InvalidZip("a zip64 size or offset is out of range");
  return Number(v);
}

/** The end of central directory record: entry count, directory offset and size (zip64 aware). */
function endOfDirectory(bytes: Uint8Array, view: DataView): { count: number; offset: number; size: number } {
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new InvalidZip("no end of central directory record");
  if (view.getUint16(eocd + 4, true) !== 0 || view.getUint16(eocd + 6, true) !== 0)
    throw new InvalidZip("multi-disk archives are not supported");
  let count = view.getUint16(eocd + 10, true);
  let size = view.getUint32(eocd + 12, true);
  let offset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || size === MAX32 || offset === MAX32) {
    const locator = eocd - 20;
    if (locator >= 0 && view.getUint32(locator, true) === 0x07064b50) {
      const at = u64(view, locator + 8);
      if (at + 56 > bytes.length || view.getUint32(at, true) !== 0x06064b50)
        throw new InvalidZip("bad zip64 end of central directory record");
      count = u64(view, at + 32);
      size = u64(view, at + 40);
      offset = u64(view, at + 48);
    }
  }
  if (offset + size > bytes.length) throw new InvalidZip("the central directory lies outside the file");
  return { count, offset, size };
}

/** Parse and check the central directory; nothing is inflated. */
function readDirectory(bytes: Uint8Array, limits: ArchiveLimits): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cd = endOfDirectory(bytes, view);
  if (cd.count > limits.maxEntries) throw REFUSED.tooManyEntries(limits.maxEntries);
  const entries: ZipEntry[] = [];
  const end = cd.offset + cd.size;
  let p = cd.offset;
  let pathBytes = 0;
  for (let index = 0; index < cd.count; index++) {
    if (p + 46 > end || view.getUint32(p, true) !== 0x02014b50)
      throw new InvalidZip(`central directory entry ${index + 1} is damaged`);
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    let compressedSize = view.getUint32(p + 20, true);
    let size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const external = view.getUint32(p + 38, true);
    let offset = view.getUint32(p + 42, true);
    const madeBy = view.getUint16(p + 4, true) >> 8;
    pathBytes += nameLen;
    if (pathBytes > limits.maxPathBytes) throw REFUSED.pathsTooLong(limits.maxPathBytes);
    const nameBytes = bytes.subarray(p + 46, p + 46 + nameLen);
    const name = (flags & 0x800 ? utf8 : latin1).decode(nameBytes);
    // zip64 extended information: the 0xffffffff fields, in this order.
    for (let x = p + 46 + nameLen; x + 4 <= p + 46 + nameLen + extraLen; ) {
      const id = view.getUint16(x, true);
      const len = view.getUint16(x + 2, true);
      if (id === 0x0001) {
        let f = x + 4;
        const next = () => {
          if (f + 8 > x + 4 + len)
            throw new InvalidZip(`entry ${JSON.stringify(name)} has a short zip64 field`);
          f += 8;
          return u64(view, f - 8);
        };
        if (size === MAX32) size = next();
        if (compressedSize === MAX32) compressedSize = next();
        if (offset === MAX32) offset = next();
      }
      x += 4 + len;
    }
    p += 46 + nameLen + extraLen + commentLen;
    if (offset + 30 > bytes.length || view.getUint32(offset, true) !== 0x04034b50)
      throw new InvalidZip(`entry ${JSON.stringify(name)} has no local header`);
    const dataStart = offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
    if (dataStart + compressedSize > cd.offset)
      throw new InvalidZip(`entry ${JSON.stringify(name)} runs into the central directory`);
    const unixMode = madeBy === 3 && external >>> 16 !== 0 ? external >>> 16 : undefined;
    const type = unixMode === undefined ? undefined : unixMode & 0o170000;
    const kind: ArchiveEntry["kind"] =
      name.endsWith("/") || type === 0o040000 ? "dir" : type === 0o120000 ? "symlink" : "file";
    const entry: ZipEntry = { index, name, kind, size, method, compressedSize, offset, dataStart };
    if (unixMode !== undefined) entry.mode = unixMode;
    if (flags & 0x1) entry.unreadable = "encrypted entries are not supported";
    else if (method !== 0 && method !== 8) entry.unreadable = `unsupported compression method (${method})`;
    else if (method === 0 && size !== compressedSize)
      throw new InvalidZip(`stored entry ${JSON.stringify(name)} declares two different sizes`);
    entries.push(entry);
  }
  return entries;
}

/** Refuse entries whose local header + data ranges overlap (the "better zip bomb" quotes headers inside data). */
function refuseOverlaps(entries: ZipEntry[]): void {
  const byStart = [...entries].sort((a, b) => a.offset - b.offset || a.index - b.index);
  let furthest: ZipEntry | undefined;
  for (const e of byStart) {
    if (furthest && e.offset < furthest.dataStart + furthest.compressedSize)
      throw REFUSED.overlap(e.name, furthest.name);
    if (!furthest || e.dataStart + e.compressedSize > furthest.dataStart + furthest.compressedSize)
      furthest = e;
  }
}

/** Inflate one entry in steps of `INFLATE_STEP_BYTES`, never past its declared size. */
async function inflateEntry(
  compressed: Uint8Array,
  entry: ZipEntry,
  onProgress: (bytes: number) => Promise<void>,
): Promise<Uint8Array> {
  const out = new Uint8Array(entry.size);
  let produced = 0;
  let overflow = false;
  const inflater = new Inflate((chunk) => {
    if (produced + chunk.length > entry.size) {
      overflow = true;
      throw REFUSED.inflatesBeyondDeclared(entry.name, entry.size);
    }
    out.set(chunk, produced);
    produced += chunk.length;
  });
  for (let i = 0; i < compressed.length || i === 0; i += INFLATE_STEP_BYTES) {
    const before = produced;
    try {
      inflater.push(
        compressed.subarray(i, i + INFLATE_STEP_BYTES),
        i + INFLATE_STEP_BYTES >= compressed.length,
      );
    } catch (error) {
      if (overflow) throw REFUSED.inflatesBeyondDeclared(entry.name, entry.size);
      throw new InvalidZip(`entry ${JSON.stringify(entry.name)}: ${(error as Error).message}`);
    }
    await onProgress(produced - before);
  }
  if (produced !== entry.size)
    throw new InvalidZip(
      `entry ${JSON.stringify(entry.name)} is shorter than its declared ${entry.size} bytes`,
    );
  return out;
}

/**
 * Open a zip for import: parse its central directory and check it, inflating nothing.
 *
 * Checks, in this order (the first crossed one refuses the archive): more than `maxEntries` entries;
 * entry names (as stored) totalling more than `maxPathBytes`;
 * overlapping entries (local header + data ranges, or a directory entry pointing inside another's
 * data); the declared sizes of the entries that will be inflated (readable, at most `maxFileBytes`)
 * over `maxTotalBytes`; one such entry expanding more than `maxRatio` times once over
 * `ratioFloorBytes`; their total expanding more than `maxRatio` times the archive. `readData` then
 * inflates entry by entry, refusing an entry that inflates past its declared size.
 *
 * @param bytes the whole archive (the upload, at most ~10 MB). @param fileName for messages.
 * @returns an `ArchiveSource`; zip64, stored and deflated entries are read, others are `unreadable`.
 * @throws ArchiveRefusedError (see `REFUSED`), or Error "Not a valid .zip archive: <fileName> (<detail>)".
 */
export function openZip(bytes: Uint8Array, fileName: string, limits: ArchiveLimits): ArchiveSource {
  const invalid = (error: unknown) =>
    error instanceof InvalidZip
      ? new Error(`Not a valid .zip archive: ${fileName} (${error.message})`, { cause: error })
      : error;
  if (bytes.length < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b)
    throw new Error(`Not a valid .zip archive: ${fileName} (no zip signature)`);
  let entries: ZipEntry[];
  try {
    entries = readDirectory(bytes, limits);
  } catch (error) {
    throw invalid(error);
  }
  refuseOverlaps(entries);
  const inflated = entries.filter((e) => !e.unreadable && e.kind !== "dir" && e.size <= limits.maxFileBytes);
  const declared = inflated.reduce((n, e) => n + e.size, 0);
  if (declared > limits.maxTotalBytes) throw REFUSED.tooLarge(limits.maxTotalBytes);
  for (const e of inflated) checkEntryRatio(e.name, e.size, e.compressedSize, limits);
  checkExpansion(declared, bytes.length, limits);

  return {
    entries,
    async readData(wanted, onData) {
      let total = 0;
      let sinceYield = 0;
      const tick = timeSlicer();
      const progress = async (n: number) => {
        total += n;
        sinceYield += n;
        checkExpansion(total, bytes.length, limits);
        if (sinceYield >= YIELD_EVERY_BYTES) {
          sinceYield = 0;
          await yieldToEventLoop();
        }
      };
      for (const e of entries) {
        if (!wanted.has(e.index) || e.unreadable || e.kind === "dir") continue;
        await tick();
        const compressed = bytes.subarray(e.dataStart, e.dataStart + e.compressedSize);
        let data: Uint8Array;
        try {
          data = e.method === 0 ? compressed : await inflateEntry(compressed, e, progress);
        } catch (error) {
          throw invalid(error);
        }
        if (e.method === 0) await progress(data.length);
        await onData(e, data);
      }
    },
  };
}
