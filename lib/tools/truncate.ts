/**
 * Output truncation shared by the tools, reimplementing pi's `core/tools/truncate.ts`.
 * Two independent limits, whichever is hit first: lines (2000) and UTF-8 bytes (50KB).
 * Head truncation never returns partial lines; tail truncation may keep the end of one long line.
 */

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;
/** Max characters kept per grep output line. */
export const GREP_MAX_LINE_LENGTH = 500;

export interface TruncationResult {
  content: string;
  truncated: boolean;
  truncatedBy: "lines" | "bytes" | null;
  totalLines: number;
  totalBytes: number;
  /** Complete lines in `content`. */
  outputLines: number;
  outputBytes: number;
  /** Tail truncation kept only the end of the last line. */
  lastLinePartial: boolean;
  /** Head truncation: the first line alone exceeds `maxBytes` (content is empty). */
  firstLineExceedsLimit: boolean;
  maxLines: number;
  maxBytes: number;
}

export interface TruncationOptions {
  maxLines?: number;
  maxBytes?: number;
}

const encoder = new TextEncoder();

/** UTF-8 byte length of `text` (pi: `Buffer.byteLength(text, "utf-8")`). */
export function utf8ByteLength(text: string): number {
  return encoder.encode(text).length;
}

/** Lines for counting: a trailing newline does not start another line; "" has zero lines. */
function splitLinesForCounting(content: string): string[] {
  if (content.length === 0) return [];
  const lines = content.split("\n");
  if (content.endsWith("\n")) lines.pop();
  return lines;
}

/** Human-readable size, pi's `formatSize`: "512B", "50.0KB", "1.5MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

function untruncated(content: string, lines: number, bytes: number, maxLines: number, maxBytes: number) {
  return {
    content,
    truncated: false,
    truncatedBy: null,
    totalLines: lines,
    totalBytes: bytes,
    outputLines: lines,
    outputBytes: bytes,
    lastLinePartial: false,
    firstLineExceedsLimit: false,
    maxLines,
    maxBytes,
  } satisfies TruncationResult;
}

/**
 * Keeps the first lines that fit both limits (pi's `truncateHead`), for file reads and listings.
 * If the first line alone exceeds `maxBytes`, content is "" and `firstLineExceedsLimit` is true.
 */
export function truncateHead(content: string, options: TruncationOptions = {}): TruncationResult {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const totalBytes = utf8ByteLength(content);
  const lines = splitLinesForCounting(content);
  const totalLines = lines.length;
  if (totalLines <= maxLines && totalBytes <= maxBytes) {
    return untruncated(content, totalLines, totalBytes, maxLines, maxBytes);
  }
  const base = { truncated: true, totalLines, totalBytes, lastLinePartial: false, maxLines, maxBytes };
  if (utf8ByteLength(lines[0]) > maxBytes) {
    return {
      ...base,
      content: "",
      truncatedBy: "bytes",
      outputLines: 0,
      outputBytes: 0,
      firstLineExceedsLimit: true,
    };
  }
  const kept: string[] = [];
  let bytes = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  for (let i = 0; i < lines.length && i < maxLines; i++) {
    const lineBytes = utf8ByteLength(lines[i]) + (i > 0 ? 1 : 0);
    if (bytes + lineBytes > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    kept.push(lines[i]);
    bytes += lineBytes;
  }
  if (kept.length >= maxLines && bytes <= maxBytes) truncatedBy = "lines";
  const out = kept.join("\n");
  return {
    ...base,
    content: out,
    truncatedBy,
    outputLines: kept.length,
    outputBytes: utf8ByteLength(out),
    firstLineExceedsLimit: false,
  };
}

/** The last `maxBytes` bytes of `text`, starting on a UTF-8 character boundary. */
function tailBytes(text: string, maxBytes: number): string {
  const buf = encoder.encode(text);
  if (buf.length <= maxBytes) return text;
  let start = buf.length - maxBytes;
  while (start < buf.length && (buf[start] & 0xc0) === 0x80) start++;
  return new TextDecoder().decode(buf.subarray(start));
}

/**
 * Keeps the last lines that fit both limits (pi's `truncateTail`), for command output.
 * If the last line alone exceeds `maxBytes`, its end is kept and `lastLinePartial` is true.
 */
export function truncateTail(content: string, options: TruncationOptions = {}): TruncationResult {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const totalBytes = utf8ByteLength(content);
  const lines = splitLinesForCounting(content);
  const totalLines = lines.length;
  if (totalLines <= maxLines && totalBytes <= maxBytes) {
    return untruncated(content, totalLines, totalBytes, maxLines, maxBytes);
  }
  const kept: string[] = [];
  let bytes = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  let lastLinePartial = false;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const lineBytes = utf8ByteLength(lines[i]) + (kept.length > 0 ? 1 : 0);
    if (bytes + lineBytes > maxBytes) {
      truncatedBy = "bytes";
      if (kept.length === 0) {
        const partial = tailBytes(lines[i], maxBytes);
        kept.unshift(partial);
        bytes = utf8ByteLength(partial);
        lastLinePartial = true;
      }
      break;
    }
    kept.unshift(lines[i]);
    bytes += lineBytes;
  }
  if (kept.length >= maxLines && bytes <= maxBytes) truncatedBy = "lines";
  const out = kept.join("\n");
  return {
    content: out,
    truncated: true,
    truncatedBy,
    totalLines,
    totalBytes,
    outputLines: kept.length,
    outputBytes: utf8ByteLength(out),
    lastLinePartial,
    firstLineExceedsLimit: false,
    maxLines,
    maxBytes,
  };
}

/** Cuts one line to `maxChars` characters plus "... [truncated]" (pi's `truncateLine`, for grep). */
export function truncateLine(
  line: string,
  maxChars: number = GREP_MAX_LINE_LENGTH,
): { text: string; wasTruncated: boolean } {
  if (line.length <= maxChars) return { text: line, wasTruncated: false };
  return { text: `${line.slice(0, maxChars)}... [truncated]`, wasTruncated: true };
}
