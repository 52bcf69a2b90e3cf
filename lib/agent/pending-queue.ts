/**
 * pi's `PendingMessageQueue` (agent.ts, pi's `agent-loop.ts`, pi's `agent-session.ts`): steering and follow-up messages waiting for the loop,
 * drained `one-at-a-time` (default) or `all` at once.
 */
import type { AgentMessage } from "./messages";

export type QueueMode = "one-at-a-time" | "all";

export class PendingMessageQueue {
  private items: AgentMessage[] = [];

  constructor(public mode: QueueMode = "one-at-a-time") {}

  enqueue(message: AgentMessage): void {
    this.items.push(message);
  }

  hasItems(): boolean {
    return this.items.length > 0;
  }

  /** The messages to deliver now: the first one, or all of them in `all` mode. */
  drain(): AgentMessage[] {
    if (this.mode === "all") return this.items.splice(0);
    const first = this.items.shift();
    return first ? [first] : [];
  }

  /** Everything queued, emptying the queue. */
  takeAll(): AgentMessage[] {
    return this.items.splice(0);
  }

  /** A copy of the queued messages. */
  peek(): AgentMessage[] {
    return [...this.items];
  }

  clear(): void {
    this.items = [];
  }
}
