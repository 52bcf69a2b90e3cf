"use client";

import { type FormEvent, type KeyboardEvent, useId } from "react";
import type { StreamingBehavior } from "@/components/api-client";
import { NoModelNote } from "./no-model-note";
import { parseShellCommand } from "./shell-state";

/** What a submit asks for: a prompt (queued as steer/follow-up while a run is going) or a shell command. */
export type ComposerIntent = { kind: "prompt"; behavior: StreamingBehavior } | { kind: "shell" };

const IDLE_PLACEHOLDER =
  "Ask the agent… (!command runs it in the project shell, !!command keeps it out of the context)";
const RUNNING_PLACEHOLDER = "Steer the agent, or queue a follow-up…";
const NO_MODEL_PLACEHOLDER = "No model configured: !command runs in the project shell";

function hintText(running: boolean, shell: boolean, noModel: boolean): string {
  if (shell) return "Enter to run the command · Shift+Enter for a new line";
  if (noModel) return "Prompts need a model · !command runs in the project shell";
  if (running) return "Enter to steer · Alt+Enter to follow up";
  return "Enter to send · Shift+Enter for a new line";
}

/**
 * The prompt box. Idle: Enter sends, Shift+Enter adds a newline. While a run is going the box stays
 * usable: Enter steers the agent, Alt+Enter queues a follow-up (pi's keys), Abort stops the run.
 * `!command` runs a shell command in either state. Without a model (`noModel`) the box says so (with how to
 * configure one) and only `!commands` can be submitted: the typed text stays.
 */
export function Composer({
  value,
  onChange,
  onSubmit,
  onAbort,
  running,
  aborting,
  disabled,
  noModel = false,
  noModelHelp,
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: (intent: ComposerIntent) => void;
  onAbort: () => void;
  running: boolean;
  aborting: boolean;
  disabled: boolean;
  /** The server has no model: prompts cannot be sent (shell commands can). */
  noModel?: boolean;
  /** The server's full configuration help, folded out under the no-model note. */
  noModelHelp?: string;
}) {
  const hintId = useId();
  const shell = parseShellCommand(value) !== null;
  const canSubmit = !disabled && value.trim() !== "" && (shell || !noModel);

  const submit = (behavior: StreamingBehavior) => {
    if (!canSubmit) return;
    onSubmit(shell ? { kind: "shell" } : { kind: "prompt", behavior });
  };

  const onFormSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit("steer");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    submit(e.altKey ? "followUp" : "steer");
  };

  return (
    <form className="composer" onSubmit={onFormSubmit} aria-label="Composer">
      {noModel ? <NoModelNote help={noModelHelp} /> : null}
      <textarea
        aria-label="Message"
        aria-describedby={hintId}
        placeholder={
          disabled
            ? "No session"
            : running
              ? RUNNING_PLACEHOLDER
              : noModel
                ? NO_MODEL_PLACEHOLDER
                : IDLE_PLACEHOLDER
        }
        value={value}
        rows={3}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-actions">
        <span id={hintId} className="hint">
          {hintText(running, shell, noModel)}
        </span>
        <div className="composer-buttons">
          {running ? (
            <button
              type="button"
              className="btn btn-danger"
              onClick={onAbort}
              disabled={aborting}
              aria-busy={aborting || undefined}
            >
              Abort
            </button>
          ) : null}
          {shell ? (
            <button type="submit" className="btn btn-primary" disabled={!canSubmit}>
              Run
            </button>
          ) : running ? (
            <>
              <button
                type="button"
                className="btn"
                disabled={!canSubmit}
                onClick={() => submit("followUp")}
                title="Deliver when the agent has finished (Alt+Enter)"
              >
                Follow up
              </button>
              <button
                type="submit"
                className="btn btn-primary"
                disabled={!canSubmit}
                title="Deliver after the current tool calls (Enter)"
              >
                Steer
              </button>
            </>
          ) : (
            <button type="submit" className="btn btn-primary" disabled={!canSubmit}>
              Send
            </button>
          )}
        </div>
      </div>
    </form>
  );
}
