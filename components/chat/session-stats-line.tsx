"use client";

import type { AgentMessage } from "@/lib/agent/messages";
import { computeSessionStats, formatSessionStats } from "./session-stats";

/** Tokens, cost and context use of the conversation, under the composer (pi's footer). */
export function SessionStatsLine({
  messages,
  contextWindow,
}: {
  messages: readonly AgentMessage[];
  contextWindow?: number;
}) {
  if (!messages.some((m) => m.role === "assistant")) return null;
  const stats = computeSessionStats(messages);
  return (
    <p
      className="session-stats"
      role="status"
      aria-label="Session usage"
      title="Input ↑, output ↓, cache read R / write W, cost, context used of the window"
    >
      {formatSessionStats(stats, contextWindow)}
    </p>
  );
}
