/**
 * pi's `ls` tool (`core/tools/ls.ts`) on the workspace VFS.
 */

import { z } from "zod";
import { joinPosix } from "@/lib/vfs/paths";
import { resolveToolPath, throwIfAborted } from "./resolve";
import { DEFAULT_MAX_BYTES, formatSize, type TruncationResult, truncateHead } from "./truncate";
import type { AgentTool, ToolContext } from "./types";

const lsSchema = z.object({
  path: z.string().optional().describe("Directory to list (default: current directory)"),
  limit: z.number().optional().describe("Maximum number of entries to return (default: 500)"),
});

export type LsToolInput = z.infer<typeof lsSchema>;

const DEFAULT_LIMIT = 500;

export interface LsToolDetails {
  truncation?: TruncationResult;
  entryLimitReached?: number;
}

/**
 * Creates pi's `ls` tool: entries sorted case-insensitively, "/" after directories (symlinks
 * followed), dotfiles included, capped at `limit` (500) entries and 50KB.
 * Errors: "Path not found: ABS", "Not a directory: ABS", "Cannot read directory: MSG".
 */
export function createLsTool(ctx: ToolContext): AgentTool<LsToolInput, LsToolDetails | undefined> {
  return {
    name: "ls",
    label: "ls",
    description: `List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories. Includes dotfiles. Output is truncated to ${DEFAULT_LIMIT} entries or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first).`,
    promptSnippet: "List directory contents",
    parameters: lsSchema,
    async execute(_toolCallId, { path, limit }, signal) {
      throwIfAborted(signal);
      const dirPath = await resolveToolPath(ctx, path || ".");
      const effectiveLimit = limit ?? DEFAULT_LIMIT;
      if (!(await ctx.fs.exists(dirPath))) throw new Error(`Path not found: ${dirPath}`);
      if ((await ctx.fs.stat(dirPath)).kind !== "dir") throw new Error(`Not a directory: ${dirPath}`);
      let entries: string[];
      try {
        entries = await ctx.fs.readdir(dirPath);
      } catch (e) {
        throw new Error(`Cannot read directory: ${e instanceof Error ? e.message : String(e)}`);
      }
      entries.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
      const results: string[] = [];
      let entryLimitReached = false;
      for (const entry of entries) {
        if (results.length >= effectiveLimit) {
          entryLimitReached = true;
          break;
        }
        try {
          const stat = await ctx.fs.stat(joinPosix(dirPath, entry));
          results.push(entry + (stat.kind === "dir" ? "/" : ""));
        } catch {
          // Entries that cannot be stat'ed (e.g. dangling symlinks) are skipped, as in pi.
        }
      }
      throwIfAborted(signal);
      if (results.length === 0)
        return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };
      const truncation = truncateHead(results.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
      const details: LsToolDetails = {};
      const notices: string[] = [];
      if (entryLimitReached) {
        notices.push(`${effectiveLimit} entries limit reached. Use limit=${effectiveLimit * 2} for more`);
        details.entryLimitReached = effectiveLimit;
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
