/**
 * pi's `read` tool (`core/tools/read.ts`) on the workspace VFS.
 */

import { z } from "zod";
import type { ImageContent, TextContent } from "@/lib/llm/types";
import { bytesToBase64, detectImageMimeType } from "./image";
import { resolveToolPath, throwIfAborted } from "./resolve";
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatSize,
  type TruncationResult,
  truncateHead,
  utf8ByteLength,
} from "./truncate";
import type { AgentTool, ToolContext } from "./types";

const readSchema = z.object({
  path: z.string().describe("Path to the file to read (relative or absolute)"),
  offset: z.number().optional().describe("Line number to start reading from (1-indexed)"),
  limit: z.number().optional().describe("Maximum number of lines to read"),
});

export type ReadToolInput = z.infer<typeof readSchema>;

export interface ReadToolDetails {
  truncation?: TruncationResult;
}

/** Decodes UTF-8 keeping a BOM, like Node's `buffer.toString("utf-8")`. */
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Formats a text file's selected lines with pi's continuation notices. */
function readTextResult(
  text: string,
  path: string,
  offset: number | undefined,
  limit: number | undefined,
): { text: string; details?: ReadToolDetails } {
  const allLines = text.split("\n");
  const startLine = offset ? Math.max(0, offset - 1) : 0;
  const startDisplay = startLine + 1;
  if (startLine >= allLines.length) {
    throw new Error(`Offset ${offset} is beyond end of file (${allLines.length} lines total)`);
  }
  let selected: string;
  let userLimited: number | undefined;
  if (limit !== undefined) {
    const endLine = Math.min(startLine + limit, allLines.length);
    selected = allLines.slice(startLine, endLine).join("\n");
    userLimited = endLine - startLine;
  } else {
    selected = allLines.slice(startLine).join("\n");
  }
  const truncation = truncateHead(selected);
  if (truncation.firstLineExceedsLimit) {
    const size = formatSize(utf8ByteLength(allLines[startLine]));
    return {
      text: `[Line ${startDisplay} is ${size}, exceeds ${formatSize(DEFAULT_MAX_BYTES)} limit. Use bash: sed -n '${startDisplay}p' ${path} | head -c ${DEFAULT_MAX_BYTES}]`,
      details: { truncation },
    };
  }
  if (truncation.truncated) {
    const endDisplay = startDisplay + truncation.outputLines - 1;
    const next = endDisplay + 1;
    const range = `Showing lines ${startDisplay}-${endDisplay} of ${allLines.length}`;
    const notice =
      truncation.truncatedBy === "lines"
        ? `[${range}. Use offset=${next} to continue.]`
        : `[${range} (${formatSize(DEFAULT_MAX_BYTES)} limit). Use offset=${next} to continue.]`;
    return { text: `${truncation.content}\n\n${notice}`, details: { truncation } };
  }
  if (userLimited !== undefined && startLine + userLimited < allLines.length) {
    const remaining = allLines.length - (startLine + userLimited);
    const next = startLine + userLimited + 1;
    return {
      text: `${truncation.content}\n\n[${remaining} more lines in file. Use offset=${next} to continue.]`,
    };
  }
  return { text: truncation.content };
}

/**
 * Creates pi's `read` tool: text files with head truncation (2000 lines / 50KB) and offset/limit
 * paging; JPEG/PNG/GIF/WebP files (sniffed by magic bytes) as an image attachment.
 * Errors: VFS errors (e.g. `ENOENT`), `PathEscapeError`, pi's "Offset N is beyond end of file (M lines total)".
 */
export function createReadTool(ctx: ToolContext): AgentTool<ReadToolInput, ReadToolDetails | undefined> {
  return {
    name: "read",
    label: "read",
    description: `Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent as attachments. For text files, output is truncated to ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). Use offset/limit for large files. When you need the full file, continue with offset until complete.`,
    promptSnippet: "Read file contents",
    promptGuidelines: ["Use read to examine files instead of cat or sed."],
    parameters: readSchema,
    async execute(_toolCallId, { path, offset, limit }, signal) {
      throwIfAborted(signal);
      const absolutePath = await resolveToolPath(ctx, path);
      const bytes = await ctx.fs.readFile(absolutePath);
      throwIfAborted(signal);
      const mimeType = detectImageMimeType(bytes);
      if (mimeType) {
        const content: (TextContent | ImageContent)[] = [
          { type: "text", text: `Read image file [${mimeType}]` },
          { type: "image", data: bytesToBase64(bytes), mimeType },
        ];
        return { content, details: undefined };
      }
      const result = readTextResult(decoder.decode(bytes), path, offset, limit);
      return { content: [{ type: "text", text: result.text }], details: result.details };
    },
  };
}
