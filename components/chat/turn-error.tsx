import "./turn-error.css";
import { describeProviderError } from "@/lib/llm/provider-errors";
import type { AssistantMessage } from "@/lib/llm/types";

/**
 * The end of a failed or aborted turn: what went wrong in words (lib/llm/provider-errors.ts: a refused key names
 * its variable, an unknown model, a context overflow, a transient outage), the provider's own message with its
 * status, and — on the last turn while nothing runs (`onRetry`) — what to do next and a Retry button.
 */
export function TurnError({ message, onRetry }: { message: AssistantMessage; onRetry?: () => void }) {
  const retry = onRetry ? (
    <button type="button" className="btn btn-small stop-retry" onClick={onRetry}>
      Retry
    </button>
  ) : null;
  if (message.stopReason === "aborted")
    return (
      <div className="stop-marker stop-aborted" role="note">
        <span>
          Aborted
          {message.errorMessage ? `: ${message.errorMessage}` : ""}
        </span>
        {retry}
      </div>
    );
  const info = describeProviderError(message.errorMessage || "Error", {
    provider: message.provider,
    model: message.model,
  });
  return (
    <div className="stop-marker stop-error" role="note" data-error-kind={info.kind}>
      <strong className="stop-title">{info.title}</strong>
      <span className="stop-detail">{info.detail}</span>
      {onRetry ? <span className="stop-hint">{info.hint}</span> : null}
      {retry}
    </div>
  );
}
