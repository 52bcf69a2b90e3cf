"use client";

import {
  type ClipboardEvent,
  type DragEvent,
  type FormEvent,
  type KeyboardEvent,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import type { StreamingBehavior } from "@/components/api-client";
import type { AttachmentsApi } from "./attachments";
import { AttachButton, AttachmentTray, IMAGES_NEED_TEXT, IMAGES_WHILE_RUNNING } from "./attachments-tray";
import { NoModelNote } from "./no-model-note";
import { SHELL_HINT, SHELL_HINT_TITLE } from "./shell-hint";
import { parseShellCommand } from "./shell-state";
import type { SlashCommand } from "./slash-commands";
import { SlashMenuList, useSlashMenu } from "./slash-menu";

/** What a submit asks for: a prompt (queued as steer/follow-up while a run is going) or a shell command. */
export type ComposerIntent = { kind: "prompt"; behavior: StreamingBehavior } | { kind: "shell" };

const IDLE_PLACEHOLDER =
  "Ask the agent… (!command runs it in the project shell, !!command keeps it out of the context)";
const RUNNING_PLACEHOLDER = "Steer the agent, or queue a follow-up…";
const NO_MODEL_PLACEHOLDER = "No model configured: !command runs in the project shell";

function hintText(running: boolean, shell: boolean, noModel: boolean): string {
  if (shell) return SHELL_HINT;
  if (noModel) return "Prompts need a model · !command runs in the project shell";
  if (running) return "Enter to steer · Alt+Enter to follow up";
  return "Enter to send · Shift+Enter for a new line · / for commands, templates and skills";
}

/**
 * The prompt box. Idle: Enter sends, Shift+Enter adds a newline. While a run is going the box stays
 * usable: Enter steers the agent, Alt+Enter queues a follow-up (pi's keys), Abort stops the run.
 * `!command` runs a shell command in either state. Without a model (`noModel`) the box says so (with how to
 * configure one) and only `!commands` can be submitted: the typed text stays. With `readOnlyReason` (the caller's
 * role cannot prompt) the box is disabled, says why, and offers no Send/Steer/Follow up/Abort.
 */
export function Composer({
  value,
  onChange,
  onSubmit,
  onAbort,
  running: live,
  steerable = true,
  aborting,
  disabled,
  disabledReason = "No session",
  noModel = false,
  noModelHelp,
  attachments,
  commands,
  imageNotice = null,
  readOnlyReason = null,
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: (intent: ComposerIntent) => void;
  onAbort: () => void;
  /** A run is live: Abort is offered. */
  running: boolean;
  /**
   * The live run is the agent's (Enter steers, Alt+Enter follows up); false for a shell command or a compaction:
   * the box then reads as idle (a prompt waits for the run) and only Abort shows the run.
   */
  steerable?: boolean;
  aborting: boolean;
  disabled: boolean;
  /** What the disabled box says (its placeholder): loading, or why there is no session. */
  disabledReason?: string;
  /** The server has no model: prompts cannot be sent (shell commands can). */
  noModel?: boolean;
  /** The server's full configuration help, folded out under the no-model note. */
  noModelHelp?: string;
  /** Images attached to the prompt (paste, drop, "Attach image"); sent with a new prompt only. */
  attachments?: AttachmentsApi;
  /** The session's `/` commands for the autocomplete. */
  commands?: readonly SlashCommand[];
  /** What happens to attached images with the chosen model (a model without image input), or null. */
  imageNotice?: string | null;
  /** Why the caller cannot prompt here (their role in the workspace), or null. */
  readOnlyReason?: string | null;
}) {
  const hintId = useId();
  // The steering words and buttons are for the agent's runs only.
  const running = live && steerable;
  const readOnly = readOnlyReason !== null;
  const shell = parseShellCommand(value) !== null;
  const images = attachments?.items.length ?? 0;
  const textarea = useRef<HTMLTextAreaElement>(null);
  /** Files are dragged over the composer: it shows itself as the drop target. */
  const [dropping, setDropping] = useState(false);
  // A pick's caret is placed as soon as its text is in the box (a layout effect: before any later key or click is
  // handled). Placed on the next frame, it collapsed a selection made meanwhile — select-all then Delete deleted
  // nothing (slash-autocomplete.spec failed once under load).
  const pendingCaret = useRef<number | null>(null);
  const slash = useSlashMenu(value, commands ?? [], (next, caret) => {
    pendingCaret.current = caret;
    onChange(next);
  });
  useLayoutEffect(() => {
    const caret = pendingCaret.current;
    if (caret === null || !textarea.current || textarea.current.value !== value) return;
    pendingCaret.current = null;
    textarea.current.focus();
    textarea.current.setSelectionRange(caret, caret);
  }, [value]);
  // Steering and follow-ups carry text only: attached images wait for the next prompt.
  const canSubmit =
    !disabled &&
    !readOnly &&
    value.trim() !== "" &&
    (shell || !noModel) &&
    (shell || !running || images === 0);
  const imagesNote = running ? IMAGES_WHILE_RUNNING : value.trim() === "" ? IMAGES_NEED_TEXT : imageNotice;
  const attachFiles = (files: FileList | null | undefined) => {
    const list = [...(files ?? [])];
    if (!attachments || list.length === 0) return false;
    void attachments.add(list);
    return true;
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    if (attachFiles(e.clipboardData.files)) e.preventDefault();
  };
  const onDragOver = (e: DragEvent<HTMLFormElement>) => {
    if (!attachments || disabled || !e.dataTransfer.types.includes("Files")) return;
    e.preventDefault();
    setDropping(true);
  };
  const onDragLeave = (e: DragEvent<HTMLFormElement>) => {
    // Leaving for a child of the form is not leaving the drop target.
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropping(false);
  };
  const onDrop = (e: DragEvent<HTMLFormElement>) => {
    setDropping(false);
    if (disabled || !attachments) return;
    e.preventDefault();
    attachFiles(e.dataTransfer.files);
  };

  const submit = (behavior: StreamingBehavior) => {
    if (!canSubmit) return;
    onSubmit(shell ? { kind: "shell" } : { kind: "prompt", behavior });
  };

  const onFormSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit("steer");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash.onKeyDown(e)) return;
    if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    submit(e.altKey ? "followUp" : "steer");
  };

  return (
    <form
      className={dropping ? "composer composer-dropping" : "composer"}
      onSubmit={onFormSubmit}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      aria-label="Composer"
    >
      {noModel && !readOnly ? <NoModelNote help={noModelHelp} /> : null}
      {attachments ? <AttachmentTray api={attachments} notice={imagesNote} /> : null}
      <SlashMenuList menu={slash} />
      <textarea
        ref={textarea}
        {...slash.inputProps}
        aria-label="Message"
        aria-describedby={hintId}
        placeholder={
          readOnlyReason
            ? readOnlyReason
            : disabled
              ? disabledReason
              : running
                ? RUNNING_PLACEHOLDER
                : noModel
                  ? NO_MODEL_PLACEHOLDER
                  : IDLE_PLACEHOLDER
        }
        value={value}
        rows={3}
        disabled={disabled || readOnly}
        onChange={(e) => {
          slash.onCaret(e.target.selectionStart);
          onChange(e.target.value);
        }}
        onSelect={(e) => slash.onCaret(e.currentTarget.selectionStart)}
        onPaste={onPaste}
        onKeyDown={onKeyDown}
      />
      <div className="composer-actions">
        <span id={hintId} className="hint" title={shell ? SHELL_HINT_TITLE : undefined}>
          {readOnly
            ? "Read-only: your role in this workspace cannot prompt"
            : hintText(running, shell, noModel)}
        </span>
        {readOnly ? null : (
          <div className="composer-buttons">
            {attachments ? <AttachButton api={attachments} disabled={disabled} /> : null}
            {live ? (
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
        )}
      </div>
    </form>
  );
}
