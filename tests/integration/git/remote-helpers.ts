/**
 * Reading a downloaded `.zip` in tests: fflate's `unzipSync` for the contents, and the central directory read by
 * hand for each entry's Unix mode (external attributes >> 16), which fflate does not report.
 */
import { unzipSync } from "fflate";

/** Entries of `zip` by name: bytes and Unix mode. */
export async function unzipEntries(
  zip: Uint8Array,
): Promise<Map<string, { data: Uint8Array; mode: number }>> {
  const files = unzipSync(zip);
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = zip.length - 22;
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error("no end of central directory");
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const modes = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error(`bad central directory entry at ${at}`);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const external = view.getUint32(at + 38, true);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
    modes.set(name, external >>> 16);
    at += 46 + nameLength + extra + comment;
  }
  const out = new Map<string, { data: Uint8Array; mode: number }>();
  for (const [name, data] of Object.entries(files)) out.set(name, { data, mode: modes.get(name) ?? -1 });
  return out;
}
