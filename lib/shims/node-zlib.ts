/**
 * `node:zlib` for the edge runtime, on fflate: the subset just-bash's browser build imports
 * (`gzipSync`, `gunzipSync`, `constants`), so `gzip`/`gunzip`/`tar -z` work in the VFS shell on edge.
 * Wired by `turbopack.resolveAlias` in next.config.ts.
 */
import { gunzipSync as fflateGunzip, gzipSync as fflateGzip } from "fflate";

export const constants = { Z_BEST_COMPRESSION: 9, Z_BEST_SPEED: 1, Z_DEFAULT_COMPRESSION: -1 };

type Level = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

/** gzip `data` at `level` (-1 = default 6). `maxOutputLength` in bytes. @throws when the output exceeds it. */
export function gzipSync(
  data: Uint8Array,
  options: { level?: number; maxOutputLength?: number } = {},
): Uint8Array {
  const level = (options.level === undefined || options.level < 0 ? 6 : Math.min(9, options.level)) as Level;
  const out = fflateGzip(data, { level });
  if (options.maxOutputLength !== undefined && out.length > options.maxOutputLength) {
    throw new RangeError(`Cannot create a Buffer larger than ${options.maxOutputLength} bytes`);
  }
  return out;
}

/** gunzip `data`. `maxOutputLength` in bytes. @throws on corrupt input or when the output exceeds it. */
export function gunzipSync(data: Uint8Array, options: { maxOutputLength?: number } = {}): Uint8Array {
  const out = fflateGunzip(data);
  if (options.maxOutputLength !== undefined && out.length > options.maxOutputLength) {
    throw new RangeError(`Cannot create a Buffer larger than ${options.maxOutputLength} bytes`);
  }
  return out;
}

export default { constants, gzipSync, gunzipSync };
