import { Spinner } from "@/components/ui/spinner";
import type { RetryWait } from "./reduce-events";

/** pi's retry indicator text (interactive-mode.ts), without its key hint: Strata has a Cancel button. */
export const retryingText = (wait: Pick<RetryWait, "attempt" | "maxAttempts" | "delayMs">) =>
  `Retrying (${wait.attempt}/${wait.maxAttempts}) in ${Math.round(wait.delayMs / 1000)}s...`;

/**
 * pi's auto-retry wait in the chat: its "Retrying (n/max) in Ns..." line, the error being retried, and a Cancel
 * button (the run's abort, which cancels the wait as pi's `abortRetry()` does).
 */
export function RetryNotice({
  wait,
  onCancel,
  cancelling,
}: {
  wait: RetryWait;
  onCancel?: () => void;
  cancelling?: boolean;
}) {
  return (
    <div className="notice notice-warning retry-notice" role="status" aria-label="Automatic retry">
      <div className="notice-body">
        <strong className="notice-title">
          <Spinner label="Waiting to retry" /> {retryingText(wait)}
        </strong>
        <span className="retry-error">{wait.errorMessage}</span>
      </div>
      {onCancel ? (
        <div className="notice-actions">
          <button type="button" className="btn btn-small" onClick={onCancel} disabled={cancelling}>
            {cancelling ? "Cancelling…" : "Cancel"}
          </button>
        </div>
      ) : null}
    </div>
  );
}
