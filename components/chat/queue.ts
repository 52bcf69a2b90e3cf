/**
 * The messages queued for a running agent (pi's steering and follow-up queues), as the chat shows them:
 * the run's stream reports the server's queue in `queue_update` events; a `202` answer to a queued prompt
 * adds its message at once, until a `queue_update` that reflects it arrives.
 */

export type QueueKind = "steer" | "followUp";

export interface QueuedMessage {
  id: string;
  kind: QueueKind;
  text: string;
}

export interface QueueState {
  /** The server's queues as last reported (texts as typed, queue order). */
  steering: string[];
  followUp: string[];
  /** Accepted (`202`) but not reported by a `queue_update` yet. */
  optimistic: QueuedMessage[];
  /** Number of `queue_update` events seen: a queued prompt remembers the count when it was sent. */
  updates: number;
  /** For each kind and text, the `updates` count of the last report that listed it. */
  lastListed: Record<QueueKind, Record<string, number>>;
}

export type QueueAction =
  | { type: "queue_update"; steering: string[]; followUp: string[] }
  /** A `202` answer; `sentAt` is `updates` when the request was sent. */
  | { type: "local_queued"; message: QueuedMessage; sentAt: number }
  | { type: "queue_cleared" };

export function emptyQueue(): QueueState {
  return { steering: [], followUp: [], optimistic: [], updates: 0, lastListed: { steer: {}, followUp: {} } };
}

function listed(seen: Record<string, number>, texts: string[], at: number): Record<string, number> {
  const next = { ...seen };
  for (const t of texts) next[t] = at;
  return next;
}

export function reduceQueue(q: QueueState, action: QueueAction): QueueState {
  switch (action.type) {
    case "queue_update": {
      const updates = q.updates + 1;
      return {
        steering: action.steering,
        followUp: action.followUp,
        optimistic: [],
        updates,
        lastListed: {
          steer: listed(q.lastListed.steer, action.steering, updates),
          followUp: listed(q.lastListed.followUp, action.followUp, updates),
        },
      };
    }
    case "local_queued": {
      const { message, sentAt } = action;
      // A report sent after the request already listed it (and may since have delivered it).
      if ((q.lastListed[message.kind][message.text] ?? 0) > sentAt) return q;
      if (q.optimistic.some((m) => m.id === message.id)) return q;
      return { ...q, optimistic: [...q.optimistic, message] };
    }
    case "queue_cleared":
      return { ...emptyQueue(), updates: q.updates, lastListed: q.lastListed };
  }
}

/** What the queue list shows: steering messages first, then follow-ups (pi's order), each in queue order. */
export function queuedMessages(q: QueueState): QueuedMessage[] {
  const server = (kind: QueueKind, texts: string[]): QueuedMessage[] =>
    texts.map((text, i) => ({ id: `${kind}:${i}`, kind, text }));
  const mine = (kind: QueueKind) => q.optimistic.filter((m) => m.kind === kind);
  return [
    ...server("steer", q.steering),
    ...mine("steer"),
    ...server("followUp", q.followUp),
    ...mine("followUp"),
  ];
}

/** The composer's text after an abort: the undelivered queued texts, then the current draft. */
export function restoreDraft(undelivered: readonly string[], draft: string): string {
  return [...undelivered, draft].filter((t) => t.trim() !== "").join("\n\n");
}
