/**
 * Hand-built zip files for the archive-bomb tests: local entries laid out as given, and a central
 * directory that may say anything (overlapping offsets, sizes that lie), so attacks fflate's `zipSync`
 * would never write can be reproduced byte for byte.
 */

/** One local entry: header + data, written in order. */
export interface LocalEntry {
  name: string;
  /** The bytes as stored (already deflated when `method` is 8). */
  data: Uint8Array;
  /** 0 stored, 8 deflated (default 8). */
  method?: number;
  /** Declared uncompressed size (default `data.length`). */
  size?: number;
}

/** One central directory record. `local` names the local entry it points at (its offset and sizes by default). */
export interface CentralRecord {
  name: string;
  local: number;
  /** Offset to point at instead of the local entry's (e.g. inside another entry's data). */
  offset?: number;
  size?: number;
  compressedSize?: number;
  method?: number;
}

const encoder = new TextEncoder();

function header(size: number): { bytes: Uint8Array; view: DataView } {
  const bytes = new Uint8Array(size);
  return { bytes, view: new DataView(bytes.buffer) };
}

/** The bytes of one local header + data for `e` (usable as another entry's stored data, to quote it). */
export function localBytes(e: LocalEntry): Uint8Array {
  const name = encoder.encode(e.name);
  const { bytes, view } = header(30 + name.length + e.data.length);
  view.setUint32(0, 0x04034b50, true);
  view.setUint16(4, 20, true);
  view.setUint16(6, 0x800, true);
  view.setUint16(8, e.method ?? 8, true);
  view.setUint32(18, e.data.length, true);
  view.setUint32(22, e.size ?? e.data.length, true);
  view.setUint16(26, name.length, true);
  bytes.set(name, 30);
  bytes.set(e.data, 30 + name.length);
  return bytes;
}

/**
 * A zip of `locals` laid out one after the other, with `central` as its directory (default: one
 * truthful record per local entry).
 */
export function craftZip(locals: LocalEntry[], central?: CentralRecord[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (const e of locals) {
    const b = localBytes(e);
    offsets.push(at);
    parts.push(b);
    at += b.length;
  }
  const records: CentralRecord[] = central ?? locals.map((e, i) => ({ name: e.name, local: i }));
  const cdStart = at;
  for (const r of records) {
    const e = locals[r.local];
    const name = encoder.encode(r.name);
    const { bytes, view } = header(46 + name.length);
    view.setUint32(0, 0x02014b50, true);
    view.setUint16(4, 20, true);
    view.setUint16(6, 20, true);
    view.setUint16(8, 0x800, true);
    view.setUint16(10, r.method ?? e.method ?? 8, true);
    view.setUint32(20, r.compressedSize ?? e.data.length, true);
    view.setUint32(24, r.size ?? e.size ?? e.data.length, true);
    view.setUint16(28, name.length, true);
    view.setUint32(42, r.offset ?? offsets[r.local], true);
    bytes.set(name, 46);
    parts.push(bytes);
    at += bytes.length;
  }
  const { bytes: eocd, view } = header(22);
  view.setUint32(0, 0x06054b50, true);
  view.setUint16(8, records.length, true);
  view.setUint16(10, records.length, true);
  view.setUint32(12, at - cdStart, true);
  view.setUint32(16, cdStart, true);
  parts.push(eocd);
  const out = new Uint8Array(at + 22);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
