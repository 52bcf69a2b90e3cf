/**
 * Layer 1 of the context preview (context-preview.ts) and the cost of recent turns: the session entries on the
 * root→leaf path, each with a one-line summary, its compaction / `context_edit` boundary and the agent messages it
 * produces after the session projection (pi's `buildSessionProjection`: compaction, context edits); and the usage
 * and cost of the last assistant turns on that path.
 */

import type { AgentMessage } from "@/lib/agent/messages";
import type { AssistantMessage, ImageContent, TextContent, Usage } from "@/lib/llm/types";
import type { SessionEntry } from "@/lib/session/entries";
import { normalizeMessage } from "@/lib/session/entry-repair";
import type { SessionProjection } from "@/lib/session/projection";

/** One session entry on the path (layer 1 of the inspector). */
export interface PreviewEntry {
  id: string;
  parentId: string | null;
  /** The entry's `type` (`message`, `compaction`, `context_edit`, `model_change`, …; unknown types as stored). */
  type: string;
  /** The message's role for a `message` entry. */
  role?: string;
  /** One line, at most {@link SUMMARY_MAX} characters (see {@link summarizeEntry}). */
  summary: string;
  /** `compaction` / `context_edit`: the entry changes what earlier entries contribute. */
  boundary?: "compaction" | "context_edit";
  /**
   * Indexes into the preview's `agentMessages` of the messages this entry turns into: `[]` for an entry outside the
   * context (before the latest compaction's first kept entry, an older compaction), for settings, labels, usage,
   * custom state and context edits themselves, and for a message a `context_edit` omits.
   */
  producesMessageIndexes: number[];
  /** The entry is one of the context entries (the latest compaction, the kept entries, everything after it). */
  inContext: boolean;
  /** The id of the `context_edit` (the last on the path) that replaced or omitted this entry's content. */
  editedBy?: string;
  /** For a `context_edit`: the target entry, and whether it replaces the content or omits the entry. */
  target?: { id: string; action: "replace" | "omit" };
}

/** Longest summary line. */
export const SUMMARY_MAX = 160;

const oneLine = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > SUMMARY_MAX ? `${flat.slice(0, SUMMARY_MAX - 1)}…` : flat;
};

type Block = { type?: string; text?: string; thinking?: string; name?: string };

function blocksText(content: unknown): { text: string; images: number } {
  if (typeof content === "string") return { text: content, images: 0 };
  if (!Array.isArray(content)) return { text: "", images: 0 };
  const blocks = content as (TextContent | ImageContent | Block)[];
  return {
    text: blocks
      .filter((b): b is TextContent => b?.type === "text" && typeof (b as Block).text === "string")
      .map((b) => b.text)
      .join(" "),
    images: blocks.filter((b) => b?.type === "image").length,
  };
}

const withImages = (text: string, images: number) =>
  images > 0 ? `${text} [${images} image${images === 1 ? "" : "s"}]` : text;

function messageSummary(message: AgentMessage | undefined): string {
  if (!message) return "message (unreadable)";
  switch (message.role) {
    case "user":
    case "custom": {
      const { text, images } = blocksText(message.content);
      const head = message.role === "custom" ? `custom ${message.customType}` : "user";
      return withImages(`${head}: ${text}`, images);
    }
    case "assistant": {
      const blocks = (message.content ?? []) as Block[];
      const text = blocks.filter((b) => b.type === "text").map((b) => b.text ?? "");
      const thinking = blocks.filter((b) => b.type === "thinking").length;
      const calls = blocks.filter((b) => b.type === "toolCall").map((b) => b.name ?? "?");
      const parts = [text.join(" ")];
      if (thinking > 0) parts.push(`[${thinking} thinking]`);
      if (calls.length > 0) parts.push(`[calls ${calls.join(", ")}]`);
      const stop = message.stopReason ?? "?";
      return `assistant ${message.provider ?? "?"}/${message.model ?? "?"} (${stop}): ${parts.filter(Boolean).join(" ")}`;
    }
    case "toolResult": {
      const { text, images } = blocksText(message.content);
      return withImages(
        `toolResult ${message.toolName}${message.isError ? " (error)" : ""}: ${text}`,
        images,
      );
    }
    case "system": {
      const sections = Object.keys(message.sections ?? {});
      const added = (message.toolsAdded ?? []).map((t) => `+${t.name}`);
      const removed = (message.toolsRemoved ?? []).map((t) => `-${t.name}`);
      const parts = [blocksText(message.content).text];
      if (sections.length > 0) parts.push(`sections ${sections.join(", ")}`);
      if (added.length + removed.length > 0) parts.push(`tools ${[...added, ...removed].join(" ")}`);
      return `system: ${parts.filter(Boolean).join("; ")}`;
    }
    case "bashExecution":
      return `!${message.excludeFromContext ? "!" : ""}${message.command} (${message.cancelled ? "cancelled" : `exit ${message.exitCode ?? "?"}`})`;
    case "branchSummary":
      return `branch summary: ${message.summary}`;
    case "compactionSummary":
      return `compaction summary: ${message.summary}`;
  }
  return `message ${(message as { role?: string }).role ?? "?"}`;
}

/**
 * One line describing `entry`, e.g. `user: What does this show? [1 image]`,
 * `assistant anthropic/claude-sonnet-4-5 (toolUse): [2 thinking] [calls read]`,
 * `compaction: keeps from e5, 1200 tokens before: <summary>`, `context_edit of e3: omit`,
 * `model_change: openai/gpt-5`, `thinking_level_change: low`; collapsed whitespace, cut at {@link SUMMARY_MAX}
 * characters with `…`.
 */
export function summarizeEntry(entry: SessionEntry): string {
  const e = entry as SessionEntry & Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  switch (entry.type) {
    case "message":
      return oneLine(messageSummary(normalizeMessage(e.message)));
    case "compaction":
      return oneLine(
        `compaction: keeps from ${str(e.firstKeptEntryId)}, ${String(e.tokensBefore)} tokens before: ${str(e.summary)}`,
      );
    case "branch_summary":
      return oneLine(`branch_summary from ${str(e.fromId)}: ${str(e.summary)}`);
    case "context_edit":
      return oneLine(`context_edit of ${str(e.targetId)}: ${e.replacement === null ? "omit" : "replace"}`);
    case "model_change":
      return oneLine(`model_change: ${str(e.provider)}/${str(e.modelId)}`);
    case "thinking_level_change":
      return oneLine(`thinking_level_change: ${str(e.thinkingLevel)}`);
    case "custom_message": {
      const { text, images } = blocksText(e.content);
      return oneLine(withImages(`custom_message ${str(e.customType)}: ${text}`, images));
    }
    case "custom":
      return oneLine(`custom ${str(e.customType)} (extension state, not in context)`);
    case "label":
      return oneLine(`label of ${str(e.targetId)}: ${str(e.label) || "(cleared)"}`);
    case "session_info":
      return oneLine(`session_info: ${str(e.name) || "(no name)"}`);
    case "usage":
      return oneLine(`usage ${str(e.kind)}: ${str(e.provider)}/${str(e.model)}`);
    default:
      return oneLine(`${entry.type} (not interpreted)`);
  }
}

/**
 * Layer 1: every entry of `path` (root→leaf, pi `buildSessionPath`) in path order, with the indexes of the
 * messages `projection` (the projection of that path) gives it — `projection.messages` being the head of the
 * preview's `agentMessages`, the indexes are the same there.
 */
export function buildPreviewEntries(
  path: readonly SessionEntry[],
  projection: Pick<SessionProjection, "entries">,
): PreviewEntry[] {
  const produced = new Map<string, number[]>();
  let index = 0;
  for (const projected of projection.entries) {
    const indexes = projected.messages.map((_, i) => index + i);
    index += projected.messages.length;
    produced.set(projected.sourceEntry.id, indexes);
  }
  const editedBy = new Map<string, string>();
  for (const entry of path)
    if (entry.type === "context_edit" && produced.has(entry.id))
      editedBy.set(String((entry as { targetId?: unknown }).targetId), entry.id);
  return path.map((entry) => {
    const e = entry as SessionEntry & Record<string, unknown>;
    const role = entry.type === "message" ? normalizeMessage(e.message)?.role : undefined;
    const edit = editedBy.get(entry.id);
    return {
      id: entry.id,
      parentId: entry.parentId ?? null,
      type: entry.type,
      ...(role ? { role } : {}),
      summary: summarizeEntry(entry),
      ...(entry.type === "compaction" || entry.type === "context_edit" ? { boundary: entry.type } : {}),
      producesMessageIndexes: produced.get(entry.id) ?? [],
      inContext: produced.has(entry.id),
      ...(edit && produced.has(entry.id) ? { editedBy: edit } : {}),
      ...(entry.type === "context_edit"
        ? {
            target: {
              id: String(e.targetId),
              action: e.replacement === null ? ("omit" as const) : ("replace" as const),
            },
          }
        : {}),
    };
  });
}

/** One assistant turn's usage and cost (USD, as the provider's pricing in the stored usage says). */
export interface TurnCost {
  entryId: string;
  /** `provider/model` of the turn. */
  model: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** `usage.cost.total`, USD. */
  costUsd: number;
}

/** The cost of the last turns on the path. */
export interface RecentCost {
  /** At most {@link RECENT_TURNS}, oldest first. */
  turns: TurnCost[];
  /** Sum of the turns' `costUsd`. */
  totalUsd: number;
}

/** How many assistant turns {@link buildRecentCost} lists. */
export const RECENT_TURNS = 5;

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/**
 * The last {@link RECENT_TURNS} assistant messages of `path` (the whole root→leaf path, compacted turns included),
 * oldest first, with their usage tokens and `usage.cost.total`; a turn stored without usage (pi files may lack
 * it) counts zeros. `totalUsd` is their sum.
 */
export function buildRecentCost(path: readonly SessionEntry[]): RecentCost {
  const turns: TurnCost[] = [];
  for (let i = path.length - 1; i >= 0 && turns.length < RECENT_TURNS; i--) {
    const entry = path[i];
    if (entry.type !== "message") continue;
    const message = (entry as { message?: unknown }).message as Partial<AssistantMessage> | undefined;
    if (message?.role !== "assistant") continue;
    const usage = (message.usage ?? {}) as Partial<Usage>;
    turns.unshift({
      entryId: entry.id,
      model: `${message.provider ?? "?"}/${message.model ?? "?"}`,
      input: num(usage.input),
      output: num(usage.output),
      cacheRead: num(usage.cacheRead),
      cacheWrite: num(usage.cacheWrite),
      costUsd: num(usage.cost?.total),
    });
  }
  return { turns, totalUsd: turns.reduce((sum, t) => sum + t.costUsd, 0) };
}
