/**
 * Moving the session to another point of its tree, with or without its files (docs/checkpoints.md, "Moving
 * between points"): the three choices the tree panel offers and the requests behind them (`POST …/restore`, undo
 * with `POST …/restores/:restoreId/undo`). With `RESTORE_API` false (a server without the restore route) "Conversation
 * only" is pi's `navigateTree` through `POST …/branch` and the choices that change files are disabled.
 */
import { branchSession } from "@/components/chat/session-tree-client";
import { apiJson, jsonInit } from "@/components/http/api-fetch";

/** Whether `POST /api/sessions/:id/restore` and `…/restores/:restoreId/undo` exist on the server. */
export const RESTORE_API = true;

/** What a move restores. */
export type MoveMode = "both" | "conversation" | "files";

/** The choices, in the order the panel lists them, with their labels. */
export const MOVE_CHOICES: readonly { mode: MoveMode; label: string; hint: string }[] = [
  {
    mode: "both",
    label: "Restore files and conversation",
    hint: "The project's files become what they were at this point, and the conversation continues from here.",
  },
  {
    mode: "conversation",
    label: "Conversation only",
    hint: "The conversation continues from here; the files stay as they are.",
  },
  {
    mode: "files",
    label: "Files only",
    hint: "The files become what they were at this point; the conversation stays where it is.",
  },
];

/** Whether the server can do `mode` now. */
export function moveAvailable(mode: MoveMode): boolean {
  return RESTORE_API || mode === "conversation";
}

/** A move's request. */
export interface MoveInput {
  entryId: string;
  mode: MoveMode;
  /** Summarize the branch being left (pi's branch summary). */
  summarize?: boolean;
  /** Additional focus for the summary (pi's "Summarize with custom prompt"). */
  customInstructions?: string;
  /** The editor's unsaved buffers, kept before files change. */
  buffers?: { path: string; content: string }[];
  /** Drop the working tree's uncommitted changes instead of keeping them. */
  discard?: boolean;
}

/** A move's answer (the restore contract; the branch API answers the conversation part of it). */
export interface MoveResult {
  leafId: string | null;
  /** A user or custom message was selected: its text goes back to the composer. */
  editorText?: string;
  /** The restore's id, for "Undo restore". */
  restoreId?: string;
  /** Project-relative paths the restore wrote or deleted. */
  changed?: string[];
  /** The commit that kept what the working tree held (unsaved buffers included) before files changed. */
  keptCommit?: string | null;
  /** The branch summary was cancelled: nothing changed. */
  aborted?: boolean;
}

const enc = encodeURIComponent;

function postJson<T>(url: string, body: unknown): Promise<T> {
  return apiJson<T>(url, jsonInit("POST", body));
}

/**
 * Move the session to `input.entryId` as `input.mode` says.
 * @throws ApiError (the server's refusal), or Error when the mode needs the restore route and it is not there.
 */
export async function moveTo(sessionId: string, input: MoveInput): Promise<MoveResult> {
  if (!moveAvailable(input.mode))
    throw new Error("Restoring files needs the restore API, which this server lacks");
  if (!RESTORE_API) {
    const { leafId, editorText, aborted } = await branchSession(sessionId, {
      entryId: input.entryId,
      summarize: input.summarize,
      customInstructions: input.customInstructions,
    });
    return { leafId, editorText, aborted };
  }
  const body: Record<string, unknown> = { entryId: input.entryId, mode: input.mode };
  if (input.summarize) body.summarize = true;
  if (input.customInstructions) body.customInstructions = input.customInstructions;
  if (input.buffers?.length) body.buffers = input.buffers;
  if (input.discard) body.discard = true;
  return postJson(`/api/sessions/${enc(sessionId)}/restore`, body);
}

/** Undo a restore (itself a restore, so it answers like one). */
export function undoRestore(
  sessionId: string,
  restoreId: string,
  buffers?: { path: string; content: string }[],
): Promise<MoveResult> {
  return postJson(
    `/api/sessions/${enc(sessionId)}/restores/${enc(restoreId)}/undo`,
    buffers?.length ? { buffers } : {},
  );
}
