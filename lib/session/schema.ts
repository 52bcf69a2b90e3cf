/**
 * zod schemas for every line of a pi session JSONL file (pi's `session-manager.ts`), mirroring the entry
 * interfaces of pi's `packages/coding-agent/src/core/session-manager.ts` and the message shapes of
 * `packages/ai/src/types.ts` / `packages/coding-agent/src/core/messages.ts`.
 *
 * All object schemas are loose (unknown fields are accepted and kept), because pi adds optional fields
 * over time. Use the schemas to *validate*; keep the original object for storage and export — a zod
 * parse rebuilds objects and may change key order, which would break byte-identical export.
 */
import { z } from "zod";

/** `{type:"text", text, textSignature?}` */
export const textContentSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  textSignature: z.string().optional(),
});

/** `{type:"image", data (base64), mimeType}` */
export const imageContentSchema = z.looseObject({
  type: z.literal("image"),
  data: z.string(),
  mimeType: z.string(),
});

/** `{type:"thinking", thinking, thinkingSignature?, redacted?}` */
export const thinkingContentSchema = z.looseObject({
  type: z.literal("thinking"),
  thinking: z.string(),
  thinkingSignature: z.string().optional(),
  redacted: z.boolean().optional(),
});

/** `{type:"toolCall", id, name, arguments, thoughtSignature?, namespace?}` */
export const toolCallSchema = z.looseObject({
  type: z.literal("toolCall"),
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  thoughtSignature: z.string().optional(),
  namespace: z.string().optional(),
});

/** Token usage with cost (pi's `session-manager.ts`). */
export const usageSchema = z.looseObject({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  totalTokens: z.number(),
  cost: z.looseObject({
    input: z.number(),
    output: z.number(),
    cacheRead: z.number(),
    cacheWrite: z.number(),
    total: z.number(),
  }),
});

/** pi's thinking levels (pi's `session-manager.ts`). */
export const thinkingLevelSchema = z.enum(["off", "minimal", "low", "medium", "high", "xhigh", "max"]);

const userContent = z.union([z.string(), z.array(z.union([textContentSchema, imageContentSchema]))]);
/** Stored content may be null or missing in old/hand-edited files (pi's `transform-messages.ts`); the projection normalises it. */
const lax = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** `role:"system"`: content string or text blocks, section patch, tool deltas (pi's `session-manager.ts`). */
export const systemMessageSchema = z.looseObject({
  role: z.literal("system"),
  content: lax(z.union([z.string(), z.array(textContentSchema)])),
  sections: z.record(z.string(), z.string().nullable()).optional(),
  toolsAdded: z
    .array(
      z.looseObject({
        name: z.string(),
        description: z.string(),
        parameters: z.record(z.string(), z.unknown()),
      }),
    )
    .optional(),
  toolsRemoved: z.array(z.looseObject({ name: z.string() })).optional(),
  timestamp: z.number(),
});

/** `role:"user"` */
export const userMessageSchema = z.looseObject({
  role: z.literal("user"),
  content: lax(userContent),
  timestamp: z.number(),
});

/** `role:"assistant"` */
export const assistantMessageSchema = z.looseObject({
  role: z.literal("assistant"),
  content: lax(z.array(z.union([textContentSchema, thinkingContentSchema, toolCallSchema]))),
  api: z.string(),
  provider: z.string(),
  model: z.string(),
  usage: usageSchema,
  stopReason: z.enum(["stop", "length", "toolUse", "error", "aborted"]),
  responseId: z.string().optional(),
  errorMessage: z.string().optional(),
  thinkingLevel: thinkingLevelSchema.optional(),
  timestamp: z.number(),
});

/** `role:"toolResult"` (`usage?`, `nestedCalls?` kept as they are). */
export const toolResultMessageSchema = z.looseObject({
  role: z.literal("toolResult"),
  toolCallId: z.string(),
  toolName: z.string(),
  content: lax(z.array(z.union([textContentSchema, imageContentSchema]))),
  details: z.unknown().optional(),
  isError: z.boolean(),
  timestamp: z.number(),
});

/** `role:"bashExecution"` (`!command` output; `excludeFromContext` for `!!command`). */
export const bashExecutionMessageSchema = z.looseObject({
  role: z.literal("bashExecution"),
  command: z.string(),
  output: z.string(),
  exitCode: z.number().nullable().optional(),
  cancelled: z.boolean(),
  truncated: z.boolean(),
  fullOutputPath: z.string().optional(),
  excludeFromContext: z.boolean().optional(),
  timestamp: z.number(),
});

/** `role:"custom"` (v3 name of v2's `hookMessage`). */
export const customMessageSchema = z.looseObject({
  role: z.literal("custom"),
  customType: z.string(),
  content: lax(userContent),
  display: z.boolean(),
  details: z.unknown().optional(),
  timestamp: z.number(),
});

/** Any AgentMessage a `message` entry may hold. */
export const agentMessageSchema = z.discriminatedUnion("role", [
  systemMessageSchema,
  userMessageSchema,
  assistantMessageSchema,
  toolResultMessageSchema,
  bashExecutionMessageSchema,
  customMessageSchema,
]);

/** pi's `session-manager.ts` header line. */
export const sessionHeaderSchema = z.looseObject({
  type: z.literal("session"),
  version: z.number().optional(),
  id: z.string(),
  timestamp: z.string(),
  cwd: z.string(),
  parentSession: z.string().optional(),
});

const base = {
  id: z.string(),
  parentId: z.string().nullable(),
  timestamp: z.string(),
};

/** pi's `session-manager.ts` */
export const messageEntrySchema = z.looseObject({
  type: z.literal("message"),
  ...base,
  message: agentMessageSchema,
});
/** pi's `session-manager.ts` */
export const thinkingLevelChangeEntrySchema = z.looseObject({
  type: z.literal("thinking_level_change"),
  ...base,
  thinkingLevel: z.string(),
});
/** pi's `session-manager.ts` */
export const modelChangeEntrySchema = z.looseObject({
  type: z.literal("model_change"),
  ...base,
  provider: z.string(),
  modelId: z.string(),
});
/** pi's `session-manager.ts` */
export const usageEntrySchema = z.looseObject({
  type: z.literal("usage"),
  ...base,
  kind: z.string(),
  provider: z.string(),
  model: z.string(),
  usage: usageSchema,
  note: z.string().optional(),
});
/** pi's `session-manager.ts` */
export const compactionEntrySchema = z.looseObject({
  type: z.literal("compaction"),
  ...base,
  summary: z.string(),
  firstKeptEntryId: z.string(),
  tokensBefore: z.number(),
  details: z.unknown().optional(),
  usage: usageSchema.optional(),
  fromHook: z.boolean().optional(),
  systemMessage: systemMessageSchema.optional(),
});
/** pi's `session-manager.ts` */
export const branchSummaryEntrySchema = z.looseObject({
  type: z.literal("branch_summary"),
  ...base,
  fromId: z.string(),
  summary: z.string(),
  details: z.unknown().optional(),
  usage: usageSchema.optional(),
  fromHook: z.boolean().optional(),
});
/** pi's `session-manager.ts` */
export const customEntrySchema = z.looseObject({
  type: z.literal("custom"),
  ...base,
  customType: z.string(),
  data: z.unknown().optional(),
});
/** pi's `session-manager.ts` */
export const customMessageEntrySchema = z.looseObject({
  type: z.literal("custom_message"),
  ...base,
  customType: z.string(),
  content: lax(userContent),
  display: z.boolean(),
  details: z.unknown().optional(),
});
/** pi's `session-manager.ts` */
export const contextEditEntrySchema = z.looseObject({
  type: z.literal("context_edit"),
  ...base,
  targetId: z.string(),
  replacement: z.looseObject({ content: z.union([z.string(), z.array(z.unknown())]) }).nullable(),
});
/** pi's `session-manager.ts` */
export const labelEntrySchema = z.looseObject({
  type: z.literal("label"),
  ...base,
  targetId: z.string(),
  label: z.string().optional(),
});
/** pi's `session-manager.ts` */
export const sessionInfoEntrySchema = z.looseObject({
  type: z.literal("session_info"),
  ...base,
  name: z.string().optional(),
});

/** Entry types Strata knows (pi's `session-manager.ts`). */
export const KNOWN_ENTRY_TYPES = [
  "message",
  "thinking_level_change",
  "model_change",
  "usage",
  "compaction",
  "branch_summary",
  "custom",
  "custom_message",
  "context_edit",
  "label",
  "session_info",
] as const;

const knownSchemas: Record<(typeof KNOWN_ENTRY_TYPES)[number], z.ZodType> = {
  message: messageEntrySchema,
  thinking_level_change: thinkingLevelChangeEntrySchema,
  model_change: modelChangeEntrySchema,
  usage: usageEntrySchema,
  compaction: compactionEntrySchema,
  branch_summary: branchSummaryEntrySchema,
  custom: customEntrySchema,
  custom_message: customMessageEntrySchema,
  context_edit: contextEditEntrySchema,
  label: labelEntrySchema,
  session_info: sessionInfoEntrySchema,
};

/** An entry of an unknown (future) type: only the common fields are required; the rest is kept. */
export const unknownEntrySchema = z.looseObject({ type: z.string(), ...base });

/**
 * Validate one session entry: known types against their schema, unknown types against the common
 * fields only (they are preserved and ignored by the projection).
 * @returns `{ success: true }` or `{ success: false, error }` with zod's message; never throws.
 */
export function validateSessionEntry(value: unknown): { success: true } | { success: false; error: string } {
  const type = (value as { type?: unknown } | null)?.type;
  const schema =
    typeof type === "string" && type in knownSchemas
      ? knownSchemas[type as keyof typeof knownSchemas]
      : unknownEntrySchema;
  const result = schema.safeParse(value);
  return result.success ? { success: true } : { success: false, error: z.prettifyError(result.error) };
}
