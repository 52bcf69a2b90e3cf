/**
 * Size caps for context files (AGENTS.md / CLAUDE.md). pi loads every file whole; Strata caps each file and all of
 * them together so that one oversized file cannot fill the model's context — and never cuts silently: the cut text
 * ends with a visible marker line and a `truncated` warning names the file, its size and the bytes loaded.
 * Documented in docs/pi-differences.md and docs/library.md ("Rule files: symlinks and size caps").
 */
import type { ResourceDiagnostic } from "./fs-util";

/** Largest number of UTF-8 bytes of one context file put in the prompt (64 KiB). */
export const CONTEXT_FILE_MAX_BYTES = 65_536;
/** Largest number of UTF-8 bytes of all context files of one prompt together (128 KiB). */
export const CONTEXT_FILES_TOTAL_BYTES = 131_072;

/** Caps of {@link applyContextFileBudget}, bytes (defaults: the constants above). */
export interface ContextFileLimits {
  maxFileBytes?: number;
  maxTotalBytes?: number;
}

/** Why a file was cut: its own cap, or the shared budget. */
export type TruncationReason = "file" | "total";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The marker line that ends a cut context file's text, exactly:
 * `[Strata: truncated <path>: loaded <loaded> of <size> bytes (per-file cap <max> bytes)]`, or with
 * `(total cap <max> bytes for all context files; nearer files are kept first)`.
 */
export function truncationMarker(
  path: string,
  loadedBytes: number,
  sizeBytes: number,
  reason: TruncationReason,
  capBytes: number,
): string {
  const why =
    reason === "file"
      ? `per-file cap ${capBytes} bytes`
      : `total cap ${capBytes} bytes for all context files; nearer files are kept first`;
  return `[Strata: truncated ${path}: loaded ${loadedBytes} of ${sizeBytes} bytes (${why})]`;
}

/**
 * The longest prefix of `bytes` of at most `limit` bytes that ends after a line break; when no line break lies
 * within the limit, the longest prefix that does not split a UTF-8 character.
 * @returns the number of bytes kept.
 */
export function cutPoint(bytes: Uint8Array, limit: number): number {
  if (bytes.length <= limit) return bytes.length;
  if (limit <= 0) return 0;
  const newline = bytes.lastIndexOf(0x0a, limit - 1);
  if (newline >= 0) return newline + 1;
  let end = limit;
  // Back up over continuation bytes (10xxxxxx) so the kept prefix ends on a character boundary.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return end;
}

/**
 * Cap `files` (in prompt order: agent dir, team, root-most ancestor … cwd) to `maxFileBytes` each and
 * `maxTotalBytes` together. The budget is spent nearest first: the last file (the cwd's) is sized first, then
 * each earlier one with what remains, so farther ancestors (and the agent dir's file) are cut first. A cut file keeps
 * the prefix {@link cutPoint} gives, then `\n` (unless it already ends with one) and the {@link truncationMarker}
 * line; a file the budget leaves no room for is kept as the marker line alone, so the prompt still names it.
 * Each cut adds a `truncated` warning:
 * `Context file <path> truncated: <size> bytes, <loaded> loaded (per-file cap <max> bytes)` (or
 * `(total cap <max> bytes for all context files)`).
 * Sizes are UTF-8 bytes of the text (BOM removed); the marker is not counted.
 * @returns new file objects where cut, the same objects otherwise, in the same order.
 */
export function applyContextFileBudget<F extends { path: string; content: string }>(
  files: F[],
  diagnostics: ResourceDiagnostic[] | undefined,
  limits: ContextFileLimits = {},
): F[] {
  const maxFile = limits.maxFileBytes ?? CONTEXT_FILE_MAX_BYTES;
  const maxTotal = limits.maxTotalBytes ?? CONTEXT_FILES_TOTAL_BYTES;
  const out = files.slice();
  const notes: ResourceDiagnostic[] = [];
  let remaining = maxTotal;
  for (let i = files.length - 1; i >= 0; i--) {
    const file = files[i];
    const bytes = encoder.encode(file.content);
    const allowed = Math.min(bytes.length, maxFile, remaining);
    if (allowed === bytes.length) {
      remaining -= bytes.length;
      continue;
    }
    const reason: TruncationReason = remaining < Math.min(bytes.length, maxFile) ? "total" : "file";
    const cap = reason === "file" ? maxFile : maxTotal;
    const loaded = cutPoint(bytes, allowed);
    remaining -= loaded;
    const kept = decoder.decode(bytes.subarray(0, loaded));
    const marker = truncationMarker(file.path, loaded, bytes.length, reason, cap);
    out[i] = { ...file, content: `${kept}${kept === "" || kept.endsWith("\n") ? "" : "\n"}${marker}` };
    const why =
      reason === "file" ? `per-file cap ${cap} bytes` : `total cap ${cap} bytes for all context files`;
    notes.unshift({
      type: "warning",
      message: `Context file ${file.path} truncated: ${bytes.length} bytes, ${loaded} loaded (${why})`,
      path: file.path,
      code: "truncated",
      sizeBytes: bytes.length,
      loadedBytes: loaded,
      marker,
    });
  }
  diagnostics?.push(...notes);
  return out;
}
