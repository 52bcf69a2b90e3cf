/**
 * Reading a `.tar.gz`/`.tgz`/`.tar` for import without trusting it: the gzip stream is inflated with
 * fflate's streaming `Gunzip` in small steps and the tar is parsed incrementally (modern-tar's streaming
 * decoder), so nothing is ever held whole. The decompressed bytes are counted as they appear: the first
 * crossed limit (total, ratio, entry count) aborts at once, long before a bomb is inflated, and the
 * event loop gets a turn every `YIELD_EVERY_BYTES`.
 *
 * A tar has no directory, so it is read twice: once for its headers (bodies skipped, every limit
 * checked, nothing kept), then for the data of the entries the importer wants.
 */
import { Gunzip } from "fflate";
import { createTarDecoder, type ParsedTarEntry } from "modern-tar";
import {
  type ArchiveEntry,
  type ArchiveLimits,
  ArchiveRefusedError,
  type ArchiveSource,
  checkExpansion,
  gunzipStep,
  REFUSED,
  timeSlicer,
  YIELD_EVERY_BYTES,
  yieldToEventLoop,
} from "./archive-limits";
import { utf8Length } from "./limits";

const decoder = new TextDecoder();
const RAW_STEP = 64 * 1024;

/** A ustar/gnu/pax header block: a valid checksum. */
function looksLikeTar(block: Uint8Array): boolean {
  if (block.length < 512) return false;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : block[i];
  const stored = Number.parseInt(decoder.decode(block.subarray(148, 156)).replace(/\0.*$/, "").trim(), 8);
  return stored === sum;
}

class InvalidTar extends Error {}

/**
 * The tar stream of `bytes` (gunzipped when `gzipped`), produced on demand in small steps; every
 * output byte is counted against the limits (`checkExpansion`), and the first block must be a tar header.
 */
function tarStream(bytes: Uint8Array, gzipped: boolean, limits: ArchiveLimits): ReadableStream<Uint8Array> {
  let input = 0;
  let total = 0;
  let sinceYield = 0;
  const tick = timeSlicer();
  const pending: Uint8Array[] = [];
  let head: Uint8Array | null = new Uint8Array(0);
  const gunzip = gzipped
    ? new Gunzip((chunk) => {
        total += chunk.length;
        // Against the compressed bytes consumed so far: a bomb is refused after ~1 MiB of output.
        checkExpansion(total, input, limits);
        pending.push(chunk);
      })
    : null;
  const checkHead = (chunk: Uint8Array) => {
    if (!head) return;
    const joined = new Uint8Array(head.length + chunk.length);
    joined.set(head);
    joined.set(chunk, head.length);
    head = joined.length >= 512 ? null : joined;
    if (!head && !looksLikeTar(joined.subarray(0, 512))) throw new InvalidTar("no tar header");
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (pending.length === 0) {
          if (input >= bytes.length) {
            if (head) throw new InvalidTar("no tar header");
            controller.close();
            return;
          }
          const step = gzipped ? gunzipStep(input, total) : RAW_STEP;
          const part = bytes.subarray(input, input + step);
          input += part.length;
          if (gunzip) {
            try {
              gunzip.push(part, input >= bytes.length);
            } catch (error) {
              if (error instanceof ArchiveRefusedError) throw error;
              throw new InvalidTar((error as Error).message);
            }
          } else {
            total += part.length;
            checkExpansion(total, bytes.length, limits);
            pending.push(part);
          }
        }
        for (const chunk of pending) {
          checkHead(chunk);
          sinceYield += chunk.length;
          controller.enqueue(chunk);
        }
        pending.length = 0;
        if (sinceYield >= YIELD_EVERY_BYTES) {
          sinceYield = 0;
          await yieldToEventLoop();
        } else await tick();
      },
    },
    { highWaterMark: 0 },
  );
}

function toEntry(index: number, header: ParsedTarEntry["header"]): ArchiveEntry {
  const type = header.type ?? "file";
  const name = header.name;
  if (type === "file") {
    const e: ArchiveEntry = { index, name, kind: "file", size: header.size };
    if (header.mode !== undefined) e.mode = header.mode;
    return e;
  }
  if (type === "directory") return { index, name, kind: "dir", size: 0 };
  if (type === "symlink") return { index, name, kind: "symlink", size: 0, linkTarget: header.linkname ?? "" };
  if (type === "link") return { index, name, kind: "hardlink", size: 0 };
  return { index, name, kind: "other", size: 0, typeName: type };
}

/** One pass over the archive: every entry in order, with its body stream (read or cancel it). */
async function eachEntry(
  bytes: Uint8Array,
  gzipped: boolean,
  limits: ArchiveLimits,
  visit: (entry: ArchiveEntry, body: ReadableStream<Uint8Array>) => Promise<void>,
): Promise<void> {
  const reader = tarStream(bytes, gzipped, limits).pipeThrough(createTarDecoder()).getReader();
  let index = 0;
  let pathBytes = 0;
  const tick = timeSlicer();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const type = value.header.type ?? "file";
      if (type.startsWith("pax-") || type.startsWith("gnu-")) {
        await value.body.cancel();
        continue;
      }
      if (index >= limits.maxEntries) throw REFUSED.tooManyEntries(limits.maxEntries);
      pathBytes += utf8Length(value.header.name);
      if (pathBytes > limits.maxPathBytes) throw REFUSED.pathsTooLong(limits.maxPathBytes);
      await visit(toEntry(index++, value.header), value.body);
      await tick();
    }
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
}

async function readBody(body: ReadableStream<Uint8Array>, size: number): Promise<Uint8Array> {
  const out = new Uint8Array(size);
  let at = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.length > size) throw new InvalidTar("an entry holds more data than its header declares");
    out.set(value, at);
    at += value.length;
  }
  if (at !== size) throw new InvalidTar("the archive is truncated");
  return out;
}

/**
 * Open a tar (gzipped or not) for import: read its headers once, checking the limits while the stream
 * is inflated — total decompressed bytes over `maxTotalBytes`, more than `maxRatio` times the archive
 * once over `ratioFloorBytes`, more than `maxEntries` entries, entry names totalling more than
 * `maxPathBytes` (UTF-8) — and keep only the entry list.
 *
 * @param label ".tar.gz" or ".tar", for messages. @param fileName for messages.
 * @returns an `ArchiveSource` whose `readData` streams the archive again for the wanted entries.
 * @throws ArchiveRefusedError at the first crossed limit, or Error "Not a valid <label> archive:
 *   <fileName> (<detail>)" ("no gzip signature", "no tar header", a gzip or tar error).
 */
export async function openTar(
  bytes: Uint8Array,
  fileName: string,
  label: ".tar.gz" | ".tar",
  limits: ArchiveLimits,
): Promise<ArchiveSource> {
  const gzipped = label === ".tar.gz";
  if (gzipped && (bytes.length < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b))
    throw new Error(`Not a valid .tar.gz archive: ${fileName} (no gzip signature)`);
  const invalid = (error: unknown) =>
    error instanceof ArchiveRefusedError
      ? error
      : new Error(`Not a valid ${label} archive: ${fileName} (${(error as Error).message})`, {
          cause: error,
        });
  const entries: ArchiveEntry[] = [];
  try {
    await eachEntry(bytes, gzipped, limits, async (entry, body) => {
      entries.push(entry);
      await body.cancel();
    });
  } catch (error) {
    throw invalid(error);
  }
  return {
    entries,
    async readData(wanted, onData) {
      // An error of `onData` (a write, the database) is passed on as it is, never as "not valid".
      let callbackError: unknown;
      try {
        await eachEntry(bytes, gzipped, limits, async (entry, body) => {
          if (!wanted.has(entry.index) || entry.kind !== "file") return body.cancel();
          const data = await readBody(body, entry.size);
          try {
            await onData(entry, data);
          } catch (error) {
            callbackError = error;
            throw error;
          }
        });
      } catch (error) {
        if (callbackError !== undefined && error === callbackError) throw error;
        throw invalid(error);
      }
    },
  };
}
