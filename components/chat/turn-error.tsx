import "./turn-error.css";
import type { AssistantMessage } from "@/lib/llm/types";
import { type TurnPlace, turnErrorView } from "./turn-error-view";

/**
 * The end of a failed or aborted turn (view logic in ./turn-error-view.ts, from the stored message alone): a
 * superseded error (a later answer followed it) is one muted line; otherwise what went wrong in words
 * (lib/llm/provider-errors.ts) and the provider's message with its status, and — on the last turn while nothing
 * runs (`onRetry`) — what to do next and a Retry button.
 */
export function TurnError({
  message,
  superseded = false,
  onRetry,
}: {
  message: AssistantMessage;
  superseded?: boolean;
  onRetry?: () => void;
}) {
  const place: TurnPlace = { superseded, canRetry: onRetry !== undefined };
  const view = turnErrorView(message, place);
  if (view.variant === "compact")
    return (
      <div className="stop-marker stop-retried muted" role="note">
        {view.text}
      </div>
    );
  const retry =
    onRetry && view.retry ? (
      <button type="button" className="btn btn-small stop-retry" onClick={onRetry}>
        Retry
      </button>
    ) : null;
  if (view.kind === "aborted")
    return (
      <div className="stop-marker stop-aborted" role="note">
        <span>{view.title}</span>
        {retry}
      </div>
    );
  return (
    <div className="stop-marker stop-error" role="note" data-error-kind={view.kind}>
      <strong className="stop-title">{view.title}</strong>
      <span className="stop-detail">{view.detail}</span>
      {view.hint ? <span className="stop-hint">{view.hint}</span> : null}
      {retry}
    </div>
  );
}
