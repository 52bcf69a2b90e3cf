/**
 * Message and content shapes of pi's `@earendil-works/pi-ai` package (`packages/ai/src/types.ts`),
 * reimplemented. These are the shapes stored in session entries and exchanged with pi as JSONL,
 * so field names and optionality follow pi exactly.
 */

/** Provider API families Strata can talk to through the AI SDK. */
export type Api =
  | "anthropic-messages"
  | "openai-responses"
  | "openai-completions"
  | "google-generative-ai"
  | "mistral-conversations";

export interface TextContent {
  type: "text";
  text: string;
  /** Opaque provider signature of the text (OpenAI Responses message id). */
  textSignature?: string;
}

export interface ImageContent {
  type: "image";
  /** Base64 without the `data:` prefix. */
  data: string;
  mimeType: string;
}

export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  /** Anthropic signature, OpenAI reasoning item JSON, or redacted payload when `redacted`. */
  thinkingSignature?: string;
  redacted?: boolean;
}

export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Google thought signature attached to a function call. */
  thoughtSignature?: string;
  namespace?: string;
}

export interface Cost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: Cost;
}

export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** A tool declaration as carried by system messages (`toolsAdded`). `parameters` is JSON Schema. */
export interface ToolDeclaration {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface SystemMessage {
  role: "system";
  content: string | TextContent[];
  sections?: Record<string, string | null>;
  toolsAdded?: ToolDeclaration[];
  toolsRemoved?: { name: string }[];
  timestamp: number;
}

export interface UserMessage {
  role: "user";
  content: string | (TextContent | ImageContent)[];
  timestamp: number;
}

export interface AssistantMessage {
  role: "assistant";
  content: (TextContent | ThinkingContent | ToolCall)[];
  api: Api | string;
  provider: string;
  model: string;
  usage: Usage;
  stopReason: StopReason;
  responseId?: string;
  errorMessage?: string;
  thinkingLevel?: ThinkingLevel;
  timestamp: number;
}

export interface ToolResultMessage<TDetails = unknown> {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  details?: TDetails;
  isError: boolean;
  timestamp: number;
}

/** Messages that providers understand. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** A fresh zero usage record. */
export function emptyUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}
