/**
 * pi's `write` tool (`core/tools/write.ts`) on the workspace VFS.
 */

import { z } from "zod";
import { dirnamePosix } from "@/lib/vfs/paths";
import { withFileMutationQueue } from "./mutation-queue";
import { resolveToolWritePath, throwIfAborted } from "./resolve";
import type { AgentTool, ToolContext } from "./types";

const writeSchema = z.object({
  path: z.string().describe("Path to the file to write (relative or absolute)"),
  content: z.string().describe("Content to write to the file"),
});

export type WriteToolInput = z.infer<typeof writeSchema>;

/**
 * Creates pi's `write` tool: creates or overwrites a file (UTF-8), creating parent directories.
 * Result text: "Successfully wrote N bytes to PATH" where N is the string's UTF-16 length, as in pi.
 * Errors: `PathEscapeError`, VFS errors (e.g. `EISDIR`), "Operation aborted".
 */
export function createWriteTool(ctx: ToolContext): AgentTool<WriteToolInput, undefined> {
  return {
    name: "write",
    label: "write",
    description:
      "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.",
    promptSnippet: "Create or overwrite files",
    promptGuidelines: ["Use write only for new files or complete rewrites."],
    parameters: writeSchema,
    async execute(_toolCallId, { path, content }, signal) {
      const absolutePath = await resolveToolWritePath(ctx, path);
      return withFileMutationQueue(absolutePath, async () => {
        throwIfAborted(signal);
        await ctx.fs.mkdir(dirnamePosix(absolutePath), { recursive: true });
        throwIfAborted(signal);
        await ctx.fs.writeFile(absolutePath, content);
        throwIfAborted(signal);
        return {
          content: [{ type: "text", text: `Successfully wrote ${content.length} bytes to ${path}` }],
          details: undefined,
        };
      });
    },
  };
}
