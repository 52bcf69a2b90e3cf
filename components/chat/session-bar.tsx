import type { ModelInfo, SessionSummary } from "@/components/api-client";
import { formatDateTime } from "@/components/ui/format";

export function sessionLabel(s: SessionSummary): string {
  return s.title?.trim() || `Session ${formatDateTime(s.createdAt)}`;
}

/** Session picker, "New session" and the model selector. */
export function SessionBar({
  sessions,
  sessionId,
  onSelectSession,
  onNewSession,
  models,
  model,
  onSelectModel,
  busy,
}: {
  sessions: SessionSummary[];
  sessionId: string | null;
  onSelectSession: (id: string) => void;
  onNewSession: () => void;
  models: ModelInfo[];
  model: string;
  onSelectModel: (id: string) => void;
  busy: boolean;
}) {
  return (
    <div className="session-bar">
      <select
        aria-label="Session"
        value={sessionId ?? ""}
        disabled={busy || sessions.length === 0}
        onChange={(e) => onSelectSession(e.target.value)}
      >
        {sessionId === null ? <option value="">No session</option> : null}
        {sessions.map((s) => (
          <option key={s.id} value={s.id}>
            {sessionLabel(s)}
          </option>
        ))}
      </select>
      <button type="button" className="btn btn-small" onClick={onNewSession} disabled={busy}>
        New session
      </button>
      <select
        aria-label="Model"
        value={model}
        disabled={models.length === 0}
        onChange={(e) => onSelectModel(e.target.value)}
      >
        {models.length === 0 ? <option value="">No models configured</option> : null}
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name || m.id}
          </option>
        ))}
      </select>
    </div>
  );
}
