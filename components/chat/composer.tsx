"use client";

import { type FormEvent, type KeyboardEvent, useId } from "react";

/** The prompt box: Enter sends, Shift+Enter adds a newline; Abort shows beside Send while a run is going. */
export function Composer({
  value,
  onChange,
  onSend,
  onAbort,
  running,
  aborting,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onAbort: () => void;
  running: boolean;
  aborting: boolean;
  disabled: boolean;
}) {
  const hintId = useId();
  const canSend = !disabled && !running && value.trim() !== "";

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (canSend) onSend();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.altKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (canSend) onSend();
    }
  };

  return (
    <form className="composer" onSubmit={submit}>
      <textarea
        aria-label="Message"
        aria-describedby={hintId}
        placeholder={disabled ? "No session" : "Ask the agent…"}
        value={value}
        rows={3}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-actions">
        <span id={hintId} className="hint">
          Enter to send · Shift+Enter for a new line
        </span>
        {running ? (
          <button type="button" className="btn btn-danger" onClick={onAbort} disabled={aborting}>
            Abort
          </button>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={!canSend}>
          Send
        </button>
      </div>
    </form>
  );
}
