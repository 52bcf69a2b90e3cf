/**
 * The archive-import limits at their boundaries: exactly at a limit passes, one over is refused with the
 * exact message. Pure checks and the zip/tar readers on generated archives (no database).
 */
import { deflateSync, gzipSync } from "fflate";
import { packTar, type TarEntry } from "modern-tar";
import { describe, expect, it } from "vitest";
import {
  type ArchiveLimits,
  checkEntryRatio,
  checkExpansion,
  DEFAULT_ARCHIVE_LIMITS,
  formatBytes,
  MAX_ARCHIVE_ENTRIES,
  MAX_ARCHIVE_FILE_BYTES,
  MAX_ARCHIVE_TOTAL_BYTES,
  MAX_EXPANSION_RATIO,
  RATIO_FLOOR_BYTES,
} from "@/lib/vfs/archive-limits";
import { openTar } from "@/lib/vfs/archive-tar";
import { openZip } from "@/lib/vfs/archive-zip";
import { type CentralRecord, craftZip, type LocalEntry } from "../../helpers/zip-craft";

const MiB = 1024 * 1024;
const SPLIT = "Split it into smaller archives, or clone the repository by its git URL.";
const TOO_MANY = `Archive refused: more than 10000 entries (files and directories count; the limit for one import). ${SPLIT}`;
const TOO_LARGE = `Archive refused: it expands to more than 64 MiB (limit for one import). ${SPLIT}`;
const L = DEFAULT_ARCHIVE_LIMITS;
const RATIO =
  "Archive refused: it expands more than 100 times its compressed size (the limit once it expands to over 1 MiB; a compression bomb).";

describe("the limits", () => {
  it("are the documented values", () => {
    expect([
      MAX_ARCHIVE_FILE_BYTES,
      MAX_ARCHIVE_TOTAL_BYTES,
      MAX_ARCHIVE_ENTRIES,
      MAX_EXPANSION_RATIO,
      RATIO_FLOOR_BYTES,
      L.maxPathDepth,
      L.maxPathLength,
    ]).toEqual([10 * MiB, 64 * MiB, 10_000, 100, MiB, 64, 4096]);
    expect([formatBytes(64 * MiB), formatBytes(20 * 1024), formatBytes(1000)]).toEqual([
      "64 MiB",
      "20 KiB",
      "1000 bytes",
    ]);
  });

  it.each([
    { output: 64 * MiB, archive: 10 * MiB, error: null },
    { output: 64 * MiB + 1, archive: 10 * MiB, error: TOO_LARGE },
    // The ratio: 100 times the archive passes, one byte more is refused (above the 1 MiB floor).
    { output: 2_000_000, archive: 20_000, error: null },
    {
      output: 2_000_001,
      archive: 20_000,
      error: RATIO,
    },
    // Up to the floor any ratio passes.
    { output: MiB, archive: 1, error: null },
    {
      output: MiB + 1,
      archive: 1,
      error: RATIO,
    },
  ])("checkExpansion($output from $archive)", ({ output, archive, error }) => {
    const run = () => checkExpansion(output, archive, L);
    if (error === null) expect(run).not.toThrow();
    else expect(run).toThrow(error);
  });

  it.each([
    { size: 2_000_000, compressed: 20_000, error: null },
    {
      size: 2_000_001,
      compressed: 20_000,
      error:
        'Archive refused: entry "a.bin" expands from 20000 to 2000001 bytes, more than 100 times (the limit for entries over 1 MiB; a zip bomb).',
    },
    { size: MiB, compressed: 0, error: null },
    {
      size: MiB + 1,
      compressed: 0,
      error:
        'Archive refused: entry "a.bin" expands from 0 to 1048577 bytes, more than 100 times (the limit for entries over 1 MiB; a zip bomb).',
    },
  ])("checkEntryRatio($size from $compressed)", ({ size, compressed, error }) => {
    const run = () => checkEntryRatio("a.bin", size, compressed, L);
    if (error === null) expect(run).not.toThrow();
    else expect(run).toThrow(error);
  });
});

const empty = (name: string): LocalEntry => ({ name, data: new Uint8Array(), method: 0 });
const noRatio: ArchiveLimits = { ...L, maxRatio: Number.POSITIVE_INFINITY };

describe("openZip at the limits (central directory only, nothing inflated)", () => {
  it("accepts exactly 10000 entries and refuses 10001", () => {
    const names = Array.from({ length: MAX_ARCHIVE_ENTRIES + 1 }, (_, i) => `d/f${i}`);
    const atLimit = craftZip(names.slice(0, MAX_ARCHIVE_ENTRIES).map(empty));
    expect(openZip(atLimit, "ok.zip", L).entries).toHaveLength(10_000);
    expect(() => openZip(craftZip(names.map(empty)), "many.zip", L)).toThrow(TOO_MANY);
  });

  it("counts declared sizes of the entries it would inflate: 64 MiB passes, one byte more is refused", () => {
    const kernel = deflateSync(new Uint8Array(16));
    // Seven entries at the file limit (70 MiB) would be too much; the sizes below add up exactly.
    const sizes = [10 * MiB, 10 * MiB, 10 * MiB, 10 * MiB, 10 * MiB, 10 * MiB, 4 * MiB];
    const locals = sizes.map((size, i) => ({ name: `f${i}`, data: kernel, size }));
    expect(openZip(craftZip(locals), "exact.zip", noRatio).entries).toHaveLength(7);
    locals[6].size = 4 * MiB + 1;
    expect(() => openZip(craftZip(locals), "over.zip", noRatio)).toThrow(TOO_LARGE);
    // An entry over the file limit is skipped later, never inflated, so it does not count.
    locals[6].size = 4 * MiB;
    locals.push({ name: "big", data: kernel, size: 10 * MiB + 1 });
    expect(openZip(craftZip(locals), "skip.zip", noRatio).entries.map((e) => e.size)).toEqual([
      ...sizes,
      10 * MiB + 1,
    ]);
  });

  it("accepts adjacent entries and refuses one byte of overlap, naming both entries", () => {
    const a = { name: "a.txt", data: new TextEncoder().encode("hello"), method: 0 };
    const b = { name: "b.txt", data: new TextEncoder().encode("world"), method: 0 };
    // a's header + data end at byte 40, where b's local header starts.
    expect(openZip(craftZip([a, b]), "ok.zip", L).entries.map((e) => e.name)).toEqual(["a.txt", "b.txt"]);
    // The directory claims one byte more of data for a: its range now covers b's first header byte.
    const longer: CentralRecord[] = [
      { name: "a.txt", local: 0, size: 6, compressedSize: 6 },
      { name: "b.txt", local: 1 },
    ];
    expect(() => openZip(craftZip([a, b], longer), "over.zip", L)).toThrow(
      'Archive refused: entry "b.txt" overlaps entry "a.txt" (a zip with overlapping entries is a zip bomb).',
    );
    // Two directory records for one local entry.
    const twice: CentralRecord[] = [
      { name: "a.txt", local: 0 },
      { name: "again.txt", local: 0 },
    ];
    expect(() => openZip(craftZip([a], twice), "twice.zip", L)).toThrow(
      'Archive refused: entry "again.txt" overlaps entry "a.txt" (a zip with overlapping entries is a zip bomb).',
    );
  });

  it("refuses an entry expanding more than 100 times once over 1 MiB, before inflating", () => {
    const zeros = deflateSync(new Uint8Array(2 * MiB), { level: 9 });
    expect(() => openZip(craftZip([{ name: "z.bin", data: zeros, size: 2 * MiB }]), "z.zip", L)).toThrow(
      `Archive refused: entry "z.bin" expands from ${zeros.length} to 2097152 bytes, more than 100 times (the limit for entries over 1 MiB; a zip bomb).`,
    );
  });
});

const file = (name: string, size: number): TarEntry => ({
  header: { name, size, type: "file", mode: 0o644 },
  body: new Uint8Array(size),
});

describe("openTar at the limits (streamed, counted while inflating)", () => {
  it("accepts exactly maxEntries entries and refuses one more", async () => {
    const three = await packTar([file("a", 1), file("b", 1), file("c", 1)]);
    const four = await packTar([file("a", 1), file("b", 1), file("c", 1), file("d", 1)]);
    const limits = { ...L, maxEntries: 3 };
    expect((await openTar(gzipSync(three), "t.tgz", ".tar.gz", limits)).entries).toHaveLength(3);
    await expect(openTar(gzipSync(four), "t.tgz", ".tar.gz", limits)).rejects.toThrow(
      `Archive refused: more than 3 entries (files and directories count; the limit for one import). ${SPLIT}`,
    );
  });

  it("accepts a stream of exactly maxTotalBytes and refuses one that is a block longer", async () => {
    const tar = await packTar([file("a.bin", 4096)]);
    const limits = { ...L, maxTotalBytes: tar.length };
    const source = await openTar(gzipSync(tar), "t.tgz", ".tar.gz", limits);
    expect(source.entries.map((e) => [e.name, e.size])).toEqual([["a.bin", 4096]]);
    const longer = await packTar([file("a.bin", 4097)]);
    await expect(openTar(gzipSync(longer), "t.tgz", ".tar.gz", limits)).rejects.toThrow(
      `Archive refused: it expands to more than ${tar.length} bytes (limit for one import). ${SPLIT}`,
    );
  });
});
