/**
 * The branch of a session's checkpoints, `refs/heads/strata/session-<id>` (docs/checkpoints.md): one definition for
 * the checkpointer, merges and pushes, and the IDE's dialogs (no I/O, safe in the browser).
 */

/** The checkpoint ref of session `sessionId` (a full ref name). */
export const sessionRef = (sessionId: string) => `refs/heads/strata/session-${sessionId}`;
