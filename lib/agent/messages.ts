/**
 * Coding-agent message roles beyond the LLM roles, as in pi's
 * `packages/coding-agent/src/core/messages.ts`. `AgentMessage` is what a session holds;
 * `convertToLlm` (lib/context) turns it into provider `Message`s.
 */
import type { ImageContent, Message, TextContent } from "@/lib/llm/types";

export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  exitCode?: number;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
  /** `!!command`: shown to the user, never sent to the model. */
  excludeFromContext?: boolean;
  /** Strata: it ran in the real sandbox, not the simulated shell (the chat says so; not sent to the model). */
  sandbox?: true;
  timestamp: number;
}

export interface CustomMessage<T = unknown> {
  role: "custom";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: T;
  timestamp: number;
}

export interface BranchSummaryMessage {
  role: "branchSummary";
  summary: string;
  fromId: string;
  timestamp: number;
}

export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: string;
  tokensBefore: number;
  timestamp: number;
}

export type AgentMessage =
  | Message
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage;
