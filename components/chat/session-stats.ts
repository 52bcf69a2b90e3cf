/**
 * Token, cost and context figures of a conversation, as pi's footer shows them: the sums of every assistant
 * message's usage (input, output, cache read, cache write, cost in US$) and the context the last answer
 * used (its input + output + cache tokens) against the model's window.
 */
import type { AgentMessage } from "@/lib/agent/messages";

export interface SessionStats {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** US$. */
  cost: number;
  /** Tokens of the last finished answer (not aborted, not an error, usage reported); null before the first one. */
  contextTokens: number | null;
}

/** Sum the usage of `messages`' assistant messages. Messages without usage count as zero. */
export function computeSessionStats(messages: readonly AgentMessage[]): SessionStats {
  const stats: SessionStats = {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    cost: 0,
    contextTokens: null,
  };
  for (const m of messages) {
    if (m.role !== "assistant" || !m.usage) continue;
    const u = m.usage;
    stats.input += u.input ?? 0;
    stats.output += u.output ?? 0;
    stats.cacheRead += u.cacheRead ?? 0;
    stats.cacheWrite += u.cacheWrite ?? 0;
    stats.cost += u.cost?.total ?? 0;
    const total = (u.input ?? 0) + (u.output ?? 0) + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0);
    // A message still streaming has no usage yet: the context stays the last finished answer's.
    if (m.stopReason !== "aborted" && m.stopReason !== "error" && total > 0) stats.contextTokens = total;
  }
  return stats;
}

/** pi's token format: `999`, `1.2k`, `12k`, `1.5M`. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/**
 * The footer line, e.g. `↑1.2k ↓340 R12k W1k $0.012 · 4.5%/200k`; cache and cost parts only when non-zero,
 * the context part only with a window.
 */
export function formatSessionStats(stats: SessionStats, contextWindow?: number): string {
  const parts = [`↑${formatTokens(stats.input)}`, `↓${formatTokens(stats.output)}`];
  if (stats.cacheRead > 0) parts.push(`R${formatTokens(stats.cacheRead)}`);
  if (stats.cacheWrite > 0) parts.push(`W${formatTokens(stats.cacheWrite)}`);
  if (stats.cost > 0) parts.push(`$${stats.cost.toFixed(3)}`);
  let line = parts.join(" ");
  if (contextWindow && contextWindow > 0) {
    const pct =
      stats.contextTokens === null ? "?" : `${((stats.contextTokens / contextWindow) * 100).toFixed(1)}%`;
    line += ` · ${pct}/${formatTokens(contextWindow)}`;
  }
  return line;
}
