/**
 * The database side of `strata session import|export` (bin/commands/session.mjs), loaded through tsx.
 * Edge-safe like the rest of `lib/`: file and process I/O stay in `bin/`.
 */

import { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { getLocalActor } from "@/lib/projects/identity";
import { getProject } from "@/lib/projects/projects";
import { exportSessionFile, importSessionJsonl } from "@/lib/session/import-export";
import type { JsonlDiagnostic } from "@/lib/session/jsonl";
import { getSession, type SessionRow } from "@/lib/session/store";

export { setNodeWebSocket } from "@/lib/db/client";
export { InvalidSessionFileError } from "@/lib/session/jsonl";

/** A user-facing failure (unknown project or session); the CLI prints its message without a stack. */
export class CommandError extends Error {
  override name = "CommandError";
}

async function withScope<T>(fn: (scope: DbScope) => Promise<T>): Promise<T> {
  const scope = new DbScope();
  try {
    return await fn(scope);
  } finally {
    await scope.release();
  }
}

/**
 * Import pi JSONL `text` as a new session of `projectId` (see `importSessionJsonl`).
 * @throws CommandError `Project <id> not found`; InvalidSessionFileError for a text without a pi header.
 */
export async function importSession(input: {
  projectId: string;
  text: string;
  path: string;
}): Promise<{ session: SessionRow; diagnostics: JsonlDiagnostic[] }> {
  return withScope(async (scope) => {
    const project = isUuid(input.projectId) ? await getProject(scope, input.projectId) : null;
    if (!project) throw new CommandError(`Project ${input.projectId} not found`);
    const actor = await getLocalActor(scope);
    const { session, diagnostics } = await importSessionJsonl(scope, project.id, input.text, {
      path: input.path,
      userId: actor.userId,
    });
    return { session, diagnostics };
  });
}

/**
 * The session as a pi file and pi's default file name for it (see `exportSessionFile`).
 * @throws CommandError `Session <id> not found`.
 */
export async function exportSession(sessionId: string): Promise<{ fileName: string; text: string }> {
  return withScope(async (scope) => {
    if (!isUuid(sessionId) || !(await getSession(scope, sessionId)))
      throw new CommandError(`Session ${sessionId} not found`);
    return exportSessionFile(scope, sessionId);
  });
}
