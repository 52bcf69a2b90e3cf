/**
 * pi's `find` tool (`core/tools/find.ts`), with fd's glob semantics reimplemented over the VFS.
 */

import picomatch from "picomatch";
import { z } from "zod";
import { basenamePosix, relativePosix } from "@/lib/vfs/paths";
import { resolveToolPath, throwIfAborted } from "./resolve";
import { walkSearchable } from "./search-walk";
import { DEFAULT_MAX_BYTES, formatSize, type TruncationResult, truncateHead } from "./truncate";
import type { AgentTool, ToolContext } from "./types";

const findSchema = z.object({
  pattern: z
    .string()
    .describe("Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'"),
  path: z.string().optional().describe("Directory to search in (default: current directory)"),
  limit: z.number().optional().describe("Maximum number of results (default: 1000)"),
});

export type FindToolInput = z.infer<typeof findSchema>;

const DEFAULT_LIMIT = 1000;

export interface FindToolDetails {
  truncation?: TruncationResult;
  resultLimitReached?: number;
}

/**
 * A matcher with `fd --glob` semantics as pi invokes it: a pattern without "/" matches the entry's
 * basename; one with "/" matches the absolute path (`--full-path`), with "**\/" prepended unless it
 * starts with "/" or "**\/". Hidden files match (`--hidden`).
 */
export function fdGlobMatcher(pattern: string): (absolutePath: string) => boolean {
  if (!pattern.includes("/")) {
    const isMatch = picomatch(pattern, { dot: true });
    return (p) => isMatch(basenamePosix(p));
  }
  const full =
    pattern.startsWith("/") || pattern.startsWith("**/") || pattern === "**" ? pattern : `**/${pattern}`;
  const isMatch = picomatch(full.startsWith("/") ? full.slice(1) : full, { dot: true });
  return (p) => isMatch(p.slice(1));
}

/**
 * Creates pi's `find` tool: entries (files, directories with a trailing "/") whose name or path
 * matches a glob, relative to the search directory, respecting `.gitignore`, capped at `limit`
 * (1000) results and 50KB. Errors: "Path not found: ABS".
 */
export function createFindTool(ctx: ToolContext): AgentTool<FindToolInput, FindToolDetails | undefined> {
  return {
    name: "find",
    label: "find",
    description: `Search for files by glob pattern. Returns matching file paths relative to the search directory. Respects .gitignore. Output is truncated to ${DEFAULT_LIMIT} results or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first).`,
    promptSnippet: "Find files by glob pattern (respects .gitignore)",
    parameters: findSchema,
    async execute(_toolCallId, { pattern, path, limit }, signal) {
      throwIfAborted(signal);
      const searchPath = await resolveToolPath(ctx, path || ".");
      const effectiveLimit = limit ?? DEFAULT_LIMIT;
      if (!(await ctx.fs.exists(searchPath))) throw new Error(`Path not found: ${searchPath}`);
      const matches = fdGlobMatcher(pattern);
      const results: string[] = [];
      for (const entry of await walkSearchable(ctx, searchPath)) {
        if (results.length >= effectiveLimit) break;
        if (!matches(entry.path)) continue;
        const rel = relativePosix(searchPath, entry.path);
        results.push(entry.stat.kind === "dir" ? `${rel}/` : rel);
      }
      throwIfAborted(signal);
      if (results.length === 0) {
        return { content: [{ type: "text", text: "No files found matching pattern" }], details: undefined };
      }
      const truncation = truncateHead(results.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
      const details: FindToolDetails = {};
      const notices: string[] = [];
      if (results.length >= effectiveLimit) {
        notices.push(
          `${effectiveLimit} results limit reached. Use limit=${effectiveLimit * 2} for more, or refine pattern`,
        );
        details.resultLimitReached = effectiveLimit;
      }
      if (truncation.truncated) {
        notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
        details.truncation = truncation;
      }
      const text =
        notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
      return {
        content: [{ type: "text", text }],
        details: Object.keys(details).length > 0 ? details : undefined,
      };
    },
  };
}
