import { ApiError } from "@/components/api-client";

/** A "Go here" that failed: the entry it aimed at, whether it summarized, and the server's answer. */
export interface BranchFailure {
  entryId: string;
  summarize: boolean;
  /** The server's message (`Branch summarization failed: …`) or the transport error. */
  message: string;
  /** The API error code (`summarization_failed`, `no_model`, `network_error`, …) if any. */
  code?: string;
}

/** The failure of `branchSession` for `entryId`, as the history panel shows it. */
export function branchFailureOf(entryId: string, summarize: boolean, err: unknown): BranchFailure {
  if (err instanceof ApiError) return { entryId, summarize, message: err.message, code: err.code };
  return { entryId, summarize, message: err instanceof Error ? err.message : String(err) };
}

/** What to do after a failed move: a summary failure names the model and its key; either way nothing changed. */
export function branchFailureAdvice(f: BranchFailure): string {
  if (f.summarize)
    return "Nothing changed: the session is still where it was. Retry, go there without a summary, or check the session's model and its API key.";
  return "Nothing changed: the session is still where it was. Retry, or reload the page if it keeps failing.";
}

/**
 * The failure notice under the history entry whose "Go here" failed (where the user clicked): the server's
 * message, what it means, and the ways on (Retry, Go without summary, Dismiss).
 */
export function BranchFailureNotice({
  failure,
  busy,
  onRetry,
  onWithoutSummary,
  onDismiss,
}: {
  failure: BranchFailure;
  busy: boolean;
  onRetry: () => void;
  onWithoutSummary: () => void;
  onDismiss: () => void;
}) {
  const title = failure.summarize ? "Could not summarize the branch you are leaving" : "Could not move here";
  // Stacked (text above the buttons): the history pane is narrow.
  return (
    <div className="notice notice-error notice-stacked branch-failure" role="alert">
      <div className="notice-body">
        <strong className="notice-title">{title}</strong>
        <p className="branch-failure-message">{failure.message}</p>
        <p className="branch-failure-advice">{branchFailureAdvice(failure)}</p>
      </div>
      <div className="notice-actions">
        <button type="button" className="btn btn-small" disabled={busy} onClick={onRetry}>
          Retry
        </button>
        {failure.summarize ? (
          <button type="button" className="btn btn-small" disabled={busy} onClick={onWithoutSummary}>
            Go without summary
          </button>
        ) : null}
        <button type="button" className="btn btn-small" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
