/**
 * pi's `grep` tool (`core/tools/grep.ts`), with ripgrep's search reimplemented over the VFS.
 */

import picomatch from "picomatch";
import { z } from "zod";
import { basenamePosix, relativePosix } from "@/lib/vfs/paths";
import { resolveToolPath, throwIfAborted } from "./resolve";
import { walkSearchable } from "./search-walk";
import {
  DEFAULT_MAX_BYTES,
  formatSize,
  GREP_MAX_LINE_LENGTH,
  type TruncationResult,
  truncateHead,
  truncateLine,
} from "./truncate";
import type { AgentTool, AgentToolResult, ToolContext } from "./types";

const grepSchema = z.object({
  pattern: z.string().describe("Search pattern (regex or literal string)"),
  path: z.string().optional().describe("Directory or file to search (default: current directory)"),
  glob: z.string().optional().describe("Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'"),
  ignoreCase: z.boolean().optional().describe("Case-insensitive search (default: false)"),
  literal: z
    .boolean()
    .optional()
    .describe("Treat pattern as literal string instead of regex (default: false)"),
  context: z.number().optional().describe("Number of lines to show before and after each match (default: 0)"),
  limit: z.number().optional().describe("Maximum number of matches to return (default: 100)"),
});

export type GrepToolInput = z.infer<typeof grepSchema>;

const DEFAULT_LIMIT = 100;

export interface GrepToolDetails {
  truncation?: TruncationResult;
  matchLimitReached?: number;
  linesTruncated?: boolean;
}

/**
 * Compiles the search regex like `rg [--ignore-case] [--fixed-strings]` would (JS regex syntax).
 * @throws Error "regex parse error: ..." for an invalid pattern.
 */
export function compileGrepPattern(pattern: string, literal?: boolean, ignoreCase?: boolean): RegExp {
  const source = literal ? pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : pattern;
  const flags = ignoreCase ? "i" : "";
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    try {
      return new RegExp(source, flags);
    } catch (e) {
      throw new Error(`regex parse error: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/**
 * A `rg --glob` filter: a glob without "/" matches the basename, one with "/" the path relative to
 * the search root; a leading "!" excludes instead.
 */
export function rgGlobFilter(glob: string): (relativePath: string) => boolean {
  const negated = glob.startsWith("!");
  const body = negated ? glob.slice(1) : glob;
  const isMatch = picomatch(body.startsWith("/") ? body.slice(1) : body, { dot: true });
  const test = (rel: string) => (body.includes("/") ? isMatch(rel) : isMatch(basenamePosix(`/${rel}`)));
  return negated ? (rel) => !test(rel) : test;
}

/** True when the bytes look binary to ripgrep (a NUL byte), which rg skips by default. */
export function isGrepBinary(bytes: Uint8Array): boolean {
  return bytes.includes(0);
}

/**
 * The lines of a file as rg matches them: split on `\n` (a `\r` stays on its line), without the empty
 * last part after a final newline. Line `i` of the result is line number `i + 1`.
 */
export function grepLines(text: string): string[] {
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

/** The files a grep over `searchPath` reads: the searchable files below a directory, else the file itself; `glob` filtered. */
async function filesToSearch(
  ctx: ToolContext,
  searchPath: string,
  isDirectory: boolean,
  globFilter: ((relativePath: string) => boolean) | undefined,
): Promise<string[]> {
  if (isDirectory) {
    const entries = await walkSearchable(ctx, searchPath);
    return entries
      .filter((e) => e.stat.kind === "file")
      .map((e) => e.path)
      .filter((p) => !globFilter || globFilter(relativePosix(searchPath, p)));
  }
  return !globFilter || globFilter(basenamePosix(searchPath)) ? [searchPath] : [];
}

/** How to search the read files: the regex, context lines around a match, the match limit, a file's shown path. */
interface MatchOptions {
  regex: RegExp;
  contextValue: number;
  effectiveLimit: number;
  formatPath: (p: string) => string;
}

/** The rows of the matches in `files` (in order, up to the limit), how many matched, and whether a line was cut. */
function matchFiles(
  files: string[],
  contents: Map<string, Uint8Array>,
  { regex, contextValue, effectiveLimit, formatPath }: MatchOptions,
): { outputLines: string[]; matchCount: number; linesTruncated: boolean } {
  const decoder = new TextDecoder();
  const outputLines: string[] = [];
  let matchCount = 0;
  let linesTruncated = false;
  const push = (line: string) => {
    const { text, wasTruncated } = truncateLine(line);
    if (wasTruncated) linesTruncated = true;
    return text;
  };
  for (const file of files) {
    if (matchCount >= effectiveLimit) break;
    const bytes = contents.get(file);
    if (!bytes || isGrepBinary(bytes)) continue;
    const text = decoder.decode(bytes);
    const rawLines = grepLines(text);
    const lines = text.replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n");
    for (let i = 0; i < rawLines.length && matchCount < effectiveLimit; i++) {
      if (!regex.test(rawLines[i])) continue;
      matchCount++;
      const rel = formatPath(file);
      const lineNumber = i + 1;
      if (contextValue === 0) {
        outputLines.push(`${rel}:${lineNumber}: ${push(rawLines[i].replace(/\r/g, ""))}`);
        continue;
      }
      const start = Math.max(1, lineNumber - contextValue);
      const end = Math.min(lines.length, lineNumber + contextValue);
      for (let n = start; n <= end; n++) {
        const lineText = push((lines[n - 1] ?? "").replace(/\r/g, ""));
        outputLines.push(n === lineNumber ? `${rel}:${n}: ${lineText}` : `${rel}-${n}- ${lineText}`);
      }
    }
  }
  return { outputLines, matchCount, linesTruncated };
}

/** The tool's answer for the match rows: truncated to 50KB, with a notice for each limit reached. */
function grepResult(
  outputLines: string[],
  matchCount: number,
  effectiveLimit: number,
  linesTruncated: boolean,
): AgentToolResult<GrepToolDetails | undefined> {
  const truncation = truncateHead(outputLines.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
  const details: GrepToolDetails = {};
  const notices: string[] = [];
  if (matchCount >= effectiveLimit) {
    notices.push(
      `${effectiveLimit} matches limit reached. Use limit=${effectiveLimit * 2} for more, or refine pattern`,
    );
    details.matchLimitReached = effectiveLimit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  if (linesTruncated) {
    notices.push(`Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`);
    details.linesTruncated = true;
  }
  const out = notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
  return {
    content: [{ type: "text", text: out }],
    details: Object.keys(details).length > 0 ? details : undefined,
  };
}

/**
 * Creates pi's `grep` tool: "path:line: text" rows for matching lines ("path-line- text" for
 * context), respecting `.gitignore`, capped at `limit` (100) matches, 50KB and 500 chars per line.
 * Errors: "Path not found: ABS", "regex parse error: ...".
 */
export function createGrepTool(ctx: ToolContext): AgentTool<GrepToolInput, GrepToolDetails | undefined> {
  return {
    name: "grep",
    label: "grep",
    description: `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Output is truncated to ${DEFAULT_LIMIT} matches or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). Long lines are truncated to ${GREP_MAX_LINE_LENGTH} chars.`,
    promptSnippet: "Search file contents for patterns (respects .gitignore)",
    parameters: grepSchema,
    async execute(_toolCallId, params, signal) {
      throwIfAborted(signal);
      const { pattern, path, glob, ignoreCase, literal, context, limit } = params;
      const searchPath = await resolveToolPath(ctx, path || ".");
      let isDirectory: boolean;
      try {
        isDirectory = (await ctx.fs.stat(searchPath)).kind === "dir";
      } catch {
        throw new Error(`Path not found: ${searchPath}`);
      }
      const regex = compileGrepPattern(pattern, literal, ignoreCase);
      const contextValue = context && context > 0 ? context : 0;
      const effectiveLimit = Math.max(1, limit ?? DEFAULT_LIMIT);
      const globFilter = glob ? rgGlobFilter(glob) : undefined;

      const files = await filesToSearch(ctx, searchPath, isDirectory, globFilter);
      const formatPath = (p: string) => (isDirectory ? relativePosix(searchPath, p) : basenamePosix(p));

      const contents = await ctx.fs.readFiles(files);
      throwIfAborted(signal);
      const { outputLines, matchCount, linesTruncated } = matchFiles(files, contents, {
        regex,
        contextValue,
        effectiveLimit,
        formatPath,
      });
      if (matchCount === 0)
        return { content: [{ type: "text", text: "No matches found" }], details: undefined };

      return grepResult(outputLines, matchCount, effectiveLimit, linesTruncated);
    },
  };
}
