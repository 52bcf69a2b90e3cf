import { type QueueKind, type QueueState, queuedMessages } from "./queue";

const KIND_LABEL: Record<QueueKind, string> = { steer: "Steer", followUp: "Follow-up" };

/**
 * The messages waiting for the running agent, above the composer: steering messages (delivered after the
 * current tool calls) then follow-ups (delivered when the agent would stop). Nothing when both are empty.
 */
export function QueuedList({ queue }: { queue: QueueState }) {
  const items = queuedMessages(queue);
  if (items.length === 0) return null;
  return (
    <div className="queued">
      <ul className="queued-list" aria-label="Queued messages">
        {items.map((m) => (
          <li
            key={m.id}
            className={`queued-item queued-${m.kind}`}
            data-kind={m.kind}
            aria-label={`${KIND_LABEL[m.kind]}: ${m.text}`}
          >
            <span className={`badge queued-tag queued-tag-${m.kind}`}>{KIND_LABEL[m.kind]}</span>
            <span className="queued-text">{m.text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
