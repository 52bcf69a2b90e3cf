import "./request-notice.css";

/**
 * The notice line(s) of a request sent with something dropped or replaced for its model (a `request_notice`
 * run event, lib/agent-session/request-notice.ts): shown above that turn's answer, one `role="note"` line each, e.g.
 * `2 images not sent: this model has no image input`. Nothing when there are no lines.
 */
export function RequestNotice({ lines }: { lines: readonly string[] }) {
  if (lines.length === 0) return null;
  return (
    <div className="request-notices" data-testid="request-notice">
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one notice never change
        <p key={i} role="note" className="request-notice">
          {line}
        </p>
      ))}
    </div>
  );
}
