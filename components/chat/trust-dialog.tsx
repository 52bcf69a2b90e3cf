"use client";

import { useEffect, useId, useRef } from "react";
import type { TrustChoice, TrustStatus } from "@/components/api-client";
import { useFocusTrap } from "@/components/ui/use-focus-trap";

/**
 * pi's project trust prompt (pi's `resource-loader.ts`): the question `Trust project folder?`, the folder, the explanation,
 * and pi's choices in pi's order. "Decide later" closes it without a decision (pi's cancel: untrusted
 * for now, nothing stored). A modal (`useFocusTrap`): the first choice has the focus.
 */
export function TrustDialog({
  trust,
  busy,
  onChoose,
  onDismiss,
}: {
  trust: TrustStatus;
  busy: boolean;
  onChoose: (choice: TrustChoice) => void;
  onDismiss: () => void;
}) {
  const titleId = useId();
  const bodyId = useId();
  const first = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  useFocusTrap(dialog);
  const [title, folder, , ...rest] = trust.prompt.split("\n");
  useEffect(() => first.current?.focus(), []);
  return (
    <div className="modal-backdrop">
      <div
        ref={dialog}
        className="modal trust-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onKeyDown={(e) => {
          if (e.key === "Escape") onDismiss();
        }}
      >
        <h2 id={titleId}>{title}</h2>
        <div id={bodyId}>
          <p className="mono trust-folder">{folder}</p>
          <p>{rest.join("\n")}</p>
          {trust.withheld.length > 0 ? (
            <>
              <p className="muted">Not loaded until you decide:</p>
              <ul className="trust-withheld mono">
                {trust.withheld.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
        <div className="trust-choices">
          {trust.options.map((o, i) => (
            <button
              key={o.choice}
              ref={i === 0 ? first : undefined}
              type="button"
              className={`btn${i === 0 ? " btn-primary" : ""}`}
              disabled={busy}
              onClick={() => onChoose(o.choice)}
            >
              {o.label}
            </button>
          ))}
          <button type="button" className="btn btn-small trust-later" disabled={busy} onClick={onDismiss}>
            Decide later
          </button>
        </div>
      </div>
    </div>
  );
}
