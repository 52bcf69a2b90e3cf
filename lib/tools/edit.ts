/**
 * pi's `edit` tool (`core/tools/edit.ts`) on the workspace VFS.
 */

import { z } from "zod";
import {
  applyEditsToNormalizedContent,
  detectLineEnding,
  type Edit,
  generateDiffString,
  generateUnifiedPatch,
  normalizeToLF,
  restoreLineEndings,
  stripBom,
} from "./edit-diff";
import { withFileMutationQueue } from "./mutation-queue";
import { resolveToolWritePath, throwIfAborted } from "./resolve";
import type { AgentTool, ToolContext } from "./types";

const replaceEditSchema = z.object({
  oldText: z
    .string()
    .describe(
      "Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call.",
    ),
  newText: z.string().describe("Replacement text for this targeted edit."),
});

const editSchema = z.object({
  path: z.string().describe("Path to the file to edit (relative or absolute)"),
  edits: z
    .array(replaceEditSchema)
    .describe(
      "One or more targeted replacements. Each edit is matched against the original file, not incrementally. Do not include overlapping or nested edits. If two changes touch the same block or nearby lines, merge them into one edit instead.",
    ),
});

export type EditToolInput = z.infer<typeof editSchema>;

export interface EditToolDetails {
  /** Display diff ("+N line" / "-N line" rows). */
  diff: string;
  /** Standard unified patch. */
  patch: string;
  /** First changed line in the new file. */
  firstChangedLine?: number;
}

/**
 * Repairs raw edit arguments like pi's `prepareEditArguments`: `edits` sent as a JSON string is
 * parsed, and legacy top-level `oldText`/`newText` strings are appended to `edits`.
 */
export function prepareEditArguments(input: unknown): unknown {
  if (!input || typeof input !== "object") return input;
  const args = { ...(input as Record<string, unknown>) };
  if (typeof args.edits === "string") {
    try {
      const parsed = JSON.parse(args.edits);
      if (Array.isArray(parsed)) args.edits = parsed;
    } catch {}
  }
  if (typeof args.oldText !== "string" || typeof args.newText !== "string") return args;
  const edits = Array.isArray(args.edits) ? [...args.edits] : [];
  edits.push({ oldText: args.oldText, newText: args.newText });
  const { oldText: _o, newText: _n, ...rest } = args;
  return { ...rest, edits };
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Creates pi's `edit` tool: one or more exact, unique, non-overlapping replacements matched against
 * the original file, preserving BOM and CRLF endings. Result: "Successfully replaced N block(s) in PATH."
 * with `{ diff, patch, firstChangedLine }` details.
 * Errors: "Could not edit file: PATH. Error code: CODE." when missing, plus edit-diff's match errors.
 */
export function createEditTool(ctx: ToolContext): AgentTool<EditToolInput, EditToolDetails | undefined> {
  return {
    name: "edit",
    label: "edit",
    description:
      "Edit a single file using exact text replacement. Every edits[].oldText must match a unique, non-overlapping region of the original file. If two changes affect the same block or nearby lines, merge them into one edit instead of emitting overlapping edits. Do not include large unchanged regions just to connect distant changes.",
    promptSnippet:
      "Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
    promptGuidelines: [
      "Use edit for precise changes (edits[].oldText must match exactly)",
      "When changing multiple separate locations in one file, use one edit call with multiple entries in edits[] instead of multiple edit calls",
      "Each edits[].oldText is matched against the original file, not after earlier edits are applied. Do not emit overlapping or nested edits. Merge nearby changes into one edit.",
      "Keep edits[].oldText as small as possible while still being unique in the file. Do not pad with large unchanged regions.",
    ],
    parameters: editSchema,
    prepareArguments: prepareEditArguments,
    async execute(_toolCallId, input, signal) {
      const prepared = prepareEditArguments(input) as EditToolInput;
      if (!Array.isArray(prepared.edits) || prepared.edits.length === 0) {
        throw new Error("Edit tool input is invalid. edits must contain at least one replacement.");
      }
      const { path } = prepared;
      const edits: Edit[] = prepared.edits;
      const absolutePath = await resolveToolWritePath(ctx, path);
      return withFileMutationQueue(absolutePath, async () => {
        throwIfAborted(signal);
        try {
          await ctx.fs.stat(absolutePath);
        } catch (error: unknown) {
          throwIfAborted(signal);
          const message =
            error instanceof Error && "code" in error
              ? `Error code: ${(error as { code: unknown }).code}`
              : String(error);
          throw new Error(`Could not edit file: ${path}. ${message}.`);
        }
        const raw = decoder.decode(await ctx.fs.readFile(absolutePath));
        throwIfAborted(signal);
        const { bom, text } = stripBom(raw);
        const ending = detectLineEnding(text);
        const { baseContent, newContent } = applyEditsToNormalizedContent(normalizeToLF(text), edits, path);
        throwIfAborted(signal);
        await ctx.fs.writeFile(absolutePath, bom + restoreLineEndings(newContent, ending));
        throwIfAborted(signal);
        const { diff, firstChangedLine } = generateDiffString(baseContent, newContent);
        const patch = generateUnifiedPatch(path, baseContent, newContent);
        return {
          content: [{ type: "text", text: `Successfully replaced ${edits.length} block(s) in ${path}.` }],
          details: { diff, patch, firstChangedLine },
        };
      });
    },
  };
}
