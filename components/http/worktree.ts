/**
 * Whose files the IDE shows: the session open in it has its own working tree (docs/checkpoints.md, "Sessions and the
 * main line"), so every call about a project's files names it (`?session=`); with none open, the project's main line.
 * The IDE sets it when the open session changes; the URL builders of the file tree, editor, search and git calls
 * read it, so no call can show one session's files beside another's.
 */

let current: { projectId: string; sessionId: string } | null = null;

/** The session whose working tree the calls about `projectId`'s files act on from now (null: the main line). */
export function setWorktreeSession(projectId: string, sessionId: string | null): void {
  current = sessionId ? { projectId, sessionId } : null;
}

/** The session the calls about `projectId`'s files act on, or null (the main line). */
export function worktreeSession(projectId: string): string | null {
  return current?.projectId === projectId ? current.sessionId : null;
}

/**
 * `/api/projects/<id><rest>` with the working tree's `session` parameter added (`rest` may hold a query already).
 * @param rest e.g. `/file?path=a.ts` or `/tree`.
 */
export function projectFilesUrl(projectId: string, rest: string): string {
  const url = `/api/projects/${encodeURIComponent(projectId)}${rest}`;
  const session = worktreeSession(projectId);
  if (!session) return url;
  return `${url}${url.includes("?") ? "&" : "?"}session=${encodeURIComponent(session)}`;
}
