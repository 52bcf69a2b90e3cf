/**
 * The limit on the total bytes of entry names in one archive (`maxPathBytes`, 4 MiB by default), checked
 * while the zip central directory or the tar headers are read: exactly at the limit passes, one byte
 * over refuses with the exact message. Generated archives, no database.
 */
import { gzipSync, strToU8, zipSync } from "fflate";
import { packTar } from "modern-tar";
import { describe, expect, it } from "vitest";
import { DEFAULT_ARCHIVE_LIMITS, MAX_ARCHIVE_PATH_BYTES } from "@/lib/vfs/archive-limits";
import { openTar } from "@/lib/vfs/archive-tar";
import { openZip } from "@/lib/vfs/archive-zip";

const SPLIT = "Split it into smaller archives, or clone the repository by its git URL.";
const refusal = (limit: string) =>
  `Archive refused: its paths total more than ${limit} (limit for one import; the git index holds every path). ${SPLIT}`;
/** Three names of 10 bytes each, one of them 2-byte characters (UTF-8 bytes count, not characters). */
const NAMES = ["dir/a.txt1", "dir/b.txt2", "dir/ééé.t"];

async function names(kind: "zip" | "tar.gz", maxPathBytes: number): Promise<string[]> {
  const limits = { ...DEFAULT_ARCHIVE_LIMITS, maxPathBytes };
  if (kind === "zip") {
    const zip = zipSync(Object.fromEntries(NAMES.map((n) => [n, strToU8("x")])));
    return openZip(zip, "a.zip", limits).entries.map((e) => e.name);
  }
  const tar = await packTar(
    NAMES.map((name) => ({ header: { name, size: 1, type: "file" as const }, body: "x" })),
  );
  return (await openTar(gzipSync(tar), "a.tar.gz", ".tar.gz", limits)).entries.map((e) => e.name);
}

describe("maxPathBytes", () => {
  it("is 4 MiB by default", () => {
    expect([MAX_ARCHIVE_PATH_BYTES, DEFAULT_ARCHIVE_LIMITS.maxPathBytes]).toEqual([
      4 * 1024 * 1024,
      4 * 1024 * 1024,
    ]);
    expect(NAMES.map((n) => new TextEncoder().encode(n).length)).toEqual([10, 10, 12]);
  });

  it.each(["zip", "tar.gz"] as const)("passes a %s whose names total exactly the limit", async (kind) => {
    expect(await names(kind, 32)).toEqual(NAMES);
  });

  it.each(["zip", "tar.gz"] as const)("refuses a %s whose names total one byte more", async (kind) => {
    await expect(names(kind, 31)).rejects.toThrow(refusal("31 bytes"));
  });
});
