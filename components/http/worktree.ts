/**
 * Whose files the IDE shows: the session open in it has its own working tree (docs/checkpoints.md, "Sessions and the
 * main line"), so every call about a project's files names it (`?session=`); with none open, the project's main line.
 * The IDE sets it when the open session changes; the URL builders of the file tree, editor, search and git calls
 * read it, so no call can show one session's files beside another's.
 */

let current: { projectId: string; sessionId: string } | null = null;

/** The localStorage key of the session the IDE last had open in a project (components/chat/use-sessions.ts). */
export const sessionStorageKey = (projectId: string) => `strata.session.${projectId}`;

/**
 * The session to open in `projectId`: the one a link names (`/projects/:id?session=<id>`, as a merge commit's message
 * and the merge page link it), else the one the IDE last had open there (localStorage), or null.
 */
export function rememberedSession(projectId: string): string | null {
  if (typeof window === "undefined") return null;
  const linked = new URLSearchParams(window.location.search).get("session");
  if (linked) return linked;
  try {
    return window.localStorage.getItem(sessionStorageKey(projectId));
  } catch {
    return null;
  }
}

/**
 * The session whose working tree the calls about `projectId`'s files act on from now (null: the main line).
 * @returns whether that changed what the IDE had chosen (false: it was already this session).
 */
export function setWorktreeSession(projectId: string, sessionId: string | null): boolean {
  const same = sessionId
    ? current?.projectId === projectId && current.sessionId === sessionId
    : current === null;
  current = sessionId ? { projectId, sessionId } : null;
  return !same;
}

/**
 * The session the calls about `projectId`'s files act on, or null (the main line). Before the IDE has chosen one
 * (its first load), the session it remembers: the tree and the reopened tabs then load that session's files at once.
 */
export function worktreeSession(projectId: string): string | null {
  if (current?.projectId === projectId) return current.sessionId;
  return rememberedSession(projectId);
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
