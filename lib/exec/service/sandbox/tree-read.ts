/**
 * Reading back the files a sandbox command changed in its materialised tree (tree.ts, `diffTree`), in bounded
 * memory: `readBounded` reads one file, never through a symlink and never past a byte limit; `nextReadGroup`
 * says which files to read in parallel.
 *
 * Node-only (lib/exec/service/).
 */
import { constants } from "node:fs";
import { open } from "node:fs/promises";

/** Bytes read at once (several files in parallel up to this, then one after another). */
const READ_GROUP_BYTES = 8 * 1024 * 1024;

/** What reading one file gave: its bytes, its size when over the limit, the error, or that it is no file now. */
export type Read = { data: Uint8Array } | { tooLarge: number } | { error: string } | { gone: true };

/** A regular file's bytes, never through a symlink, never more than `max` bytes (checked on the open file). */
export async function readBounded(file: string, max: number): Promise<Read> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? { gone: true } : { error: (error as Error).message };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { gone: true };
    if (st.size > max) return { tooLarge: st.size };
    const data = new Uint8Array(st.size);
    let off = 0;
    while (off < data.byteLength) {
      const { bytesRead } = await handle.read(data, off, data.byteLength - off, off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    return { data: off === data.byteLength ? data : data.subarray(0, off) };
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    await handle.close();
  }
}

/**
 * The files of `files` from index `start` to read in parallel: at most `maxFiles`, together at most
 * {@link READ_GROUP_BYTES} (each counted up to the file limit `fileBytes`), or one larger file.
 */
export function nextReadGroup<T extends { size: number }>(
  files: T[],
  start: number,
  fileBytes: number,
  maxFiles: number,
): T[] {
  const group: T[] = [];
  let groupBytes = 0;
  for (let i = start; i < files.length && group.length < maxFiles; i++) {
    const size = Math.min(files[i].size, fileBytes);
    if (group.length > 0 && groupBytes + size > READ_GROUP_BYTES) break;
    group.push(files[i]);
    groupBytes += size;
  }
  return group;
}
