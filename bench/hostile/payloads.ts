/**
 * The hostile payloads of issue 9, built in memory: archives (overlapping zip, a zip of ten 9.9 MB zero files,
 * a gzip bomb, a zip of 19,999 files), a 1,600-level path and poisoned session files (the large session file
 * is tests/helpers/session-files.ts).
 * Shared by the hostile-request bench; every builder is deterministic.
 */
import zlib from "node:zlib";
import { deflateSync, Gzip, zipSync } from "fflate";
import { sessionFile } from "../../tests/helpers/session-files";

const MB = 1024 * 1024;

function u16(n: number): Uint8Array {
  return new Uint8Array([n & 0xff, (n >>> 8) & 0xff]);
}
function u32(n: number): Uint8Array {
  return new Uint8Array([n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff]);
}
function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * A zip whose central directory lists `entries` files that all point at the same deflated local entry of
 * `size` zero bytes (David Fifield's overlapping-entry bomb): ≈ 11 KB that declares `entries × size` bytes.
 */
export function overlappingZip(entries = 10, size = Math.round(9.9 * MB)): Uint8Array {
  const data = new Uint8Array(size);
  const compressed = deflateSync(data, { level: 9 });
  const crc = zlib.crc32(data);
  const name = new TextEncoder().encode("zeros.bin");
  const local = concat([
    u32(0x04034b50),
    u16(20),
    u16(0),
    u16(8),
    u16(0),
    u16(0x21),
    u32(crc),
    u32(compressed.length),
    u32(size),
    u16(name.length),
    u16(0),
    name,
    compressed,
  ]);
  const central: Uint8Array[] = [];
  for (let i = 0; i < entries; i++) {
    const n = new TextEncoder().encode(`file${i}.bin`);
    central.push(
      concat([
        u32(0x02014b50),
        u16(20),
        u16(20),
        u16(0),
        u16(8),
        u16(0),
        u16(0x21),
        u32(crc),
        u32(compressed.length),
        u32(size),
        u16(n.length),
        u16(0),
        u16(0),
        u16(0),
        u16(0),
        u32(0),
        u32(0),
        n,
      ]),
    );
  }
  const cd = concat(central);
  const eocd = concat([
    u32(0x06054b50),
    u16(0),
    u16(0),
    u16(entries),
    u16(entries),
    u32(cd.length),
    u32(local.length),
    u16(0),
  ]);
  return concat([local, cd, eocd]);
}

/** A zip of `count` files of `size` zero bytes each, deflated (ten 9.9 MB files ≈ 100 KB). */
export function zeroFilesZip(count = 10, size = Math.round(9.9 * MB)): Uint8Array {
  const zero = new Uint8Array(size);
  const files: Record<string, [Uint8Array, { level: 9 }]> = {};
  for (let i = 0; i < count; i++) files[`zero${i}.bin`] = [zero, { level: 9 }];
  return zipSync(files);
}

/** A zip of `count` files in 100 folders, each holding `content` (one line by default). */
export function manyFilesZip(count = 19_999, content = "x\n"): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const line = new TextEncoder().encode(content);
  for (let i = 0; i < count; i++) files[`d${i % 100}/f${i}.txt`] = line;
  return zipSync(files, { level: 1 });
}

/** A ustar header for one regular file of `size` bytes. */
function tarHeader(name: string, size: number): Uint8Array {
  const h = new Uint8Array(512);
  const put = (text: string, at: number) => h.set(new TextEncoder().encode(text), at);
  put(name, 0);
  put("0000644\0", 100);
  put("0000000\0", 108);
  put("0000000\0", 116);
  put(`${size.toString(8).padStart(11, "0")}\0`, 124);
  put("00000000000\0", 136);
  put("        ", 148);
  put("0", 156);
  put("ustar\0", 257);
  put("00", 263);
  let sum = 0;
  for (const b of h) sum += b;
  put(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return h;
}

/** A .tar.gz holding one file of `size` zero bytes (1 GiB ≈ 1 MB compressed). */
export function gzipBomb(size = 1024 * MB): Uint8Array {
  const out: Uint8Array[] = [];
  const gz = new Gzip({ level: 9 }, (chunk) => out.push(chunk));
  gz.push(tarHeader("bomb.bin", size));
  const block = new Uint8Array(MB);
  for (let written = 0; written < size; written += MB) gz.push(block);
  gz.push(new Uint8Array(1024), true);
  return concat(out);
}

/** `a/a/…/a/f.txt` with `levels` components in all. */
export function deepPath(levels = 1600): string {
  return `${"a/".repeat(levels - 1)}f.txt`;
}

const entry = (fields: Record<string, unknown>) => ({
  type: "message",
  parentId: null,
  timestamp: "2026-01-01T09:00:01.000Z",
  ...fields,
});

/** Session files each holding one poisoned entry on line 2, by name. */
export const POISONED_SESSIONS: Record<string, string> = {
  "entry without id": sessionFile(entry({ message: { role: "user", content: "hi", timestamp: 1 } })),
  "entry with id null": sessionFile(
    entry({ id: null, message: { role: "user", content: "hi", timestamp: 1 } }),
  ),
  "message null": sessionFile(entry({ id: "p1", message: null })),
  "message missing": sessionFile(entry({ id: "p1" })),
  "content array holding null": sessionFile(
    entry({ id: "p1", message: { role: "user", content: [null], timestamp: 1 } }),
  ),
};
