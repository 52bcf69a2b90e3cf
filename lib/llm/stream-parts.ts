/**
 * The provider's stream parts (AI SDK `LanguageModelV3StreamPart`) mapped onto pi's assistant message and events:
 * the content half of pi-ai's per-provider stream handlers (`packages/ai/src/providers/*.ts`), used by
 * `streamAssistant` (./stream.ts). Deltas pass the response's output cap (./stream-guards.ts) first.
 */
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { FinishReason, LanguageModelUsage } from "ai";
import type { AssistantMessageEvent } from "./events";
import { languageModelUsage } from "./language-model-call";
import type { Model } from "./models";
import { asArguments, type OutputBudget, PartialArguments } from "./stream-guards";
import {
  type AssistantMessage,
  emptyUsage,
  type TextContent,
  type ThinkingContent,
  type ToolCall,
  type Usage,
} from "./types";

/** pi `Usage` from AI SDK usage, with cost from the model's prices (pi's `calculateCost`). */
export function usageFromSdk(model: Model, usage: LanguageModelUsage | undefined): Usage {
  const result = emptyUsage();
  if (!usage) return result;
  const cacheRead = usage.inputTokenDetails?.cacheReadTokens ?? 0;
  const cacheWrite = usage.inputTokenDetails?.cacheWriteTokens ?? 0;
  result.input =
    usage.inputTokenDetails?.noCacheTokens ?? Math.max(0, (usage.inputTokens ?? 0) - cacheRead - cacheWrite);
  result.output = usage.outputTokens ?? 0;
  result.cacheRead = cacheRead;
  result.cacheWrite = cacheWrite;
  result.totalTokens = result.input + result.output + result.cacheRead + result.cacheWrite;
  result.cost.input = (model.cost.input / 1_000_000) * result.input;
  result.cost.output = (model.cost.output / 1_000_000) * result.output;
  result.cost.cacheRead = (model.cost.cacheRead / 1_000_000) * result.cacheRead;
  result.cost.cacheWrite = (model.cost.cacheWrite / 1_000_000) * result.cacheWrite;
  result.cost.total = result.cost.input + result.cost.output + result.cost.cacheRead + result.cost.cacheWrite;
  return result;
}

type Metadata = Record<string, Record<string, unknown> | undefined> | undefined;

function metaString(metadata: Metadata, provider: string, key: string): string | undefined {
  const value = metadata?.[provider]?.[key];
  return typeof value === "string" ? value : undefined;
}

/** What a {@link PartMapper} needs from its response. */
export interface PartMapperContext {
  model: Model;
  /** The live message (pi's `partial`), filled in place. */
  output: AssistantMessage;
  emit: (event: AssistantMessageEvent) => void;
  /** The response's output cap; {@link PartMapperContext.onCapped} runs when a delta goes past it. */
  budget: OutputBudget;
  onCapped: () => void;
}

/**
 * Maps one response's stream parts onto `output` with pi's events (see `streamAssistant` for the content rules).
 * Text, thinking and tool-argument deltas are cut at the output cap: the part that fits is applied and emitted,
 * then `onCapped` runs once (the caller stops reading).
 */
export class PartMapper {
  /** `<kind>:<part id>` → index in `output.content`. */
  private readonly blocks = new Map<string, number>();
  /** Tool calls whose arguments are still streaming. */
  private readonly toolArgs = new Map<string, { index: number; args: PartialArguments }>();
  /** The provider's finish reason, once its `finish` part came. */
  finishReason: FinishReason | undefined;
  /** The first `error` part's error. */
  failure: unknown;

  constructor(private readonly ctx: PartMapperContext) {}

  /** Apply one part; a promise only while a partial tool input is parsed (await it before the next part). */
  handle(part: LanguageModelV3StreamPart): Promise<void> | undefined {
    switch (part.type) {
      case "text-start":
      case "text-delta":
      case "text-end":
        this.text(part);
        return undefined;
      case "reasoning-start":
      case "reasoning-delta":
      case "reasoning-end":
        this.reasoning(part);
        return undefined;
      case "tool-input-start":
      case "tool-input-delta":
      case "tool-call":
        return this.tool(part);
      case "response-metadata":
        if (part.id) this.ctx.output.responseId = part.id;
        return undefined;
      case "finish":
        this.finishReason = part.finishReason.unified;
        this.ctx.output.usage = usageFromSdk(this.ctx.model, languageModelUsage(part.usage));
        return undefined;
      case "error":
        this.failure ??= part.error;
        return undefined;
      default:
        return undefined;
    }
  }

  /**
   * The best-effort arguments of tool calls the stream did not complete (a cut, a timeout, an abort), parsed from
   * all that arrived.
   */
  async settleOpenToolCalls(): Promise<void> {
    for (const { index, args } of this.toolArgs.values()) {
      const parsed = await args.flush();
      const block = this.ctx.output.content[index];
      if (parsed && block?.type === "toolCall") block.arguments = parsed;
    }
    this.toolArgs.clear();
  }

  private open(key: string, block: AssistantMessage["content"][number]): number {
    this.ctx.output.content.push(block);
    const index = this.ctx.output.content.length - 1;
    this.blocks.set(key, index);
    return index;
  }

  private block<T extends AssistantMessage["content"][number]["type"]>(key: string, type: T) {
    const index = this.blocks.get(key);
    const block = index === undefined ? undefined : this.ctx.output.content[index];
    return index !== undefined && block?.type === type
      ? { index, block: block as Extract<AssistantMessage["content"][number], { type: T }> }
      : undefined;
  }

  /** The part of `delta` within the output cap; runs `onCapped` when it went past. */
  private capped(delta: string): string {
    const kept = this.ctx.budget.take(delta);
    if (this.ctx.budget.exceeded) this.ctx.onCapped();
    return kept;
  }

  private text(part: Extract<LanguageModelV3StreamPart, { type: "text-start" | "text-delta" | "text-end" }>) {
    const { output, emit } = this.ctx;
    const itemId = metaString(part.providerMetadata, "openai", "itemId");
    if (part.type === "text-start") {
      const block: TextContent = { type: "text", text: "" };
      if (itemId) block.textSignature = JSON.stringify({ v: 1, id: itemId });
      emit({ type: "text_start", contentIndex: this.open(`text:${part.id}`, block), partial: output });
      return;
    }
    const found = this.block(`text:${part.id}`, "text");
    if (!found) return;
    const { index, block } = found;
    if (part.type === "text-delta") {
      const thought = metaString(part.providerMetadata, "google", "thoughtSignature");
      if (thought) block.textSignature = thought;
      const delta = this.capped(part.delta);
      if (delta === "") return;
      block.text += delta;
      emit({ type: "text_delta", contentIndex: index, delta, partial: output });
      return;
    }
    const phase = metaString(part.providerMetadata, "openai", "phase");
    if (itemId)
      block.textSignature = JSON.stringify(phase ? { v: 1, id: itemId, phase } : { v: 1, id: itemId });
    emit({ type: "text_end", contentIndex: index, content: block.text, partial: output });
  }

  private reasoning(
    part: Extract<
      LanguageModelV3StreamPart,
      { type: "reasoning-start" | "reasoning-delta" | "reasoning-end" }
    >,
  ) {
    const { output, emit } = this.ctx;
    const thought = metaString(part.providerMetadata, "google", "thoughtSignature");
    if (part.type === "reasoning-start") {
      const redactedData = metaString(part.providerMetadata, "anthropic", "redactedData");
      const block: ThinkingContent = redactedData
        ? {
            type: "thinking",
            thinking: "[Reasoning redacted]",
            thinkingSignature: redactedData,
            redacted: true,
          }
        : { type: "thinking", thinking: "" };
      emit({
        type: "thinking_start",
        contentIndex: this.open(`reasoning:${part.id}`, block),
        partial: output,
      });
      return;
    }
    const found = this.block(`reasoning:${part.id}`, "thinking");
    if (!found) return;
    const { index, block } = found;
    if (part.type === "reasoning-delta") {
      const signature = metaString(part.providerMetadata, "anthropic", "signature");
      if (signature) block.thinkingSignature = (block.thinkingSignature ?? "") + signature;
      if (thought) block.thinkingSignature = thought;
      const delta = this.capped(part.delta);
      if (delta === "") return;
      block.thinking += delta;
      emit({ type: "thinking_delta", contentIndex: index, delta, partial: output });
      return;
    }
    const itemId = metaString(part.providerMetadata, "openai", "itemId");
    if (itemId) {
      const encrypted = part.providerMetadata?.openai?.reasoningEncryptedContent;
      block.thinkingSignature = JSON.stringify({
        type: "reasoning",
        id: itemId,
        ...(typeof encrypted === "string" ? { encrypted_content: encrypted } : {}),
        summary: block.thinking === "" ? [] : [{ type: "summary_text", text: block.thinking }],
      });
    }
    if (thought) block.thinkingSignature = thought;
    emit({ type: "thinking_end", contentIndex: index, content: block.thinking, partial: output });
  }

  private tool(
    part: Extract<LanguageModelV3StreamPart, { type: "tool-input-start" | "tool-input-delta" | "tool-call" }>,
  ): Promise<void> | undefined {
    const { output, emit } = this.ctx;
    if (part.type === "tool-input-start") {
      const block: ToolCall = { type: "toolCall", id: part.id, name: part.toolName, arguments: {} };
      const index = this.open(`tool:${part.id}`, block);
      this.toolArgs.set(part.id, { index, args: new PartialArguments() });
      emit({ type: "toolcall_start", contentIndex: index, partial: output });
      return undefined;
    }
    if (part.type === "tool-input-delta") {
      const found = this.block(`tool:${part.id}`, "toolCall");
      const streaming = this.toolArgs.get(part.id);
      if (!found || !streaming) return undefined;
      const delta = this.capped(part.delta);
      if (delta === "" && this.ctx.budget.exceeded) return undefined;
      const event = { type: "toolcall_delta", contentIndex: found.index, delta, partial: output } as const;
      const parsing = streaming.args.append(delta);
      if (!parsing) return void emit(event);
      return parsing.then((parsed) => {
        if (parsed) found.block.arguments = parsed;
        emit(event);
      });
    }
    this.toolArgs.delete(part.toolCallId);
    let index = this.blocks.get(`tool:${part.toolCallId}`);
    if (index === undefined) {
      const opened: ToolCall = { type: "toolCall", id: part.toolCallId, name: part.toolName, arguments: {} };
      index = this.open(`tool:${part.toolCallId}`, opened);
      emit({ type: "toolcall_start", contentIndex: index, partial: output });
    }
    const block = output.content[index];
    if (block?.type !== "toolCall") return undefined;
    block.name = part.toolName;
    block.arguments = asArguments(part.input);
    const thought = metaString(part.providerMetadata, "google", "thoughtSignature");
    if (thought) block.thoughtSignature = thought;
    emit({ type: "toolcall_end", contentIndex: index, toolCall: block, partial: output });
    return undefined;
  }
}
