/**
 * Everything a request needs to act on one stored session: the session and project rows, the project's
 * VFS, the resources in effect (pi's `DefaultResourceLoader` with project trust), the coding tools bound to
 * the session's cwd, the extension runner with Strata's registered extensions, and pi's `/skill:` and
 * template expansions. Shared by a prompt run, a queued steer/follow-up and a `!command`.
 */

import type { DbScope } from "@/lib/db/client";
import { StrataError } from "@/lib/errors/strata-error";
import { createExecutor } from "@/lib/exec/client";
import { getSandboxEnabled } from "@/lib/exec/sandbox-setting";
import type { ExtensionError, ExtensionModule } from "@/lib/extensions/types";
import { getProject, type Project } from "@/lib/projects/projects";
import { loadSessionResources, skillFileSystem } from "@/lib/projects/session-resources";
import { recordPendingPaths } from "@/lib/session/pending-paths";
import { getSession, type SessionRow } from "@/lib/session/store";
import type { ToolContext, ToolExec } from "@/lib/tools/types";
import { checkPathLimits } from "@/lib/vfs/limits";
import type { Vfs } from "@/lib/vfs/vfs";
import { openSessionVfs } from "@/lib/vfs/workspace";
import { createSessionRuntime, type SessionRuntimeCore } from "./runtime";

export { NO_RUN_FOR_CUSTOM_MESSAGE } from "./runtime";

/** A session not found (or its project gone); the message is `Session <id> not found` / `Project <id> not found`. */
export class SessionUnavailableError extends StrataError {
  constructor(message: string) {
    super(404, "not_found", message);
    this.name = "SessionUnavailableError";
  }
}

/** A stored session's runtime: the core (runtime.ts) plus its rows, the project's VFS and the user's agent VFS. */
export interface SessionRuntime extends SessionRuntimeCore {
  session: SessionRow;
  project: Project;
  vfs: Vfs;
  /** The project's root directory in the VFS. */
  root: string;
  /** The user's agent VFS (`/.pi/agent`: global settings, user skills). */
  agentFs: Vfs;
}

/**
 * The session's cwd, or the project root when the cwd's part below the root passes the VFS path limits
 * (`MAX_PATH_DEPTH` 64 / `MAX_PATH_LENGTH` 4096): rows stored before imports checked the header's cwd could hold a
 * 2,000-level cwd, and every shell command resolved paths against it (minutes of event-loop time). The fallback is
 * logged with the limit.
 */
function usableCwd(sessionId: string, cwd: string, root: string): string {
  if (cwd === root || !cwd.startsWith(`${root}/`)) return cwd;
  try {
    checkPathLimits(cwd.slice(root.length + 1));
    return cwd;
  } catch (error) {
    console.warn(
      `[strata] session ${sessionId}: its working directory is over the path limits (${error instanceof Error ? error.message : String(error)}); working in the project root ${root} instead.`,
    );
    return root;
  }
}

/** git's identity variables for `author` (author and committer). */
export function gitIdentityEnv(author: { name: string; email: string }): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: author.name,
    GIT_COMMITTER_EMAIL: author.email,
  };
}

let inProcessLogged = false;

/**
 * The tool context's way to the execution service when `STRATA_EXEC_URL` is set (lib/exec/client.ts): `sync`
 * flushes the session's VFS (its pending project paths recorded first, as a lock-less writer the checkpointer then
 * takes over), `absorb` makes the VFS forget what the service changed (`Vfs.forget`), which the checkpointer then
 * commits. `target.userId` (the run's caller) goes with every command, for the service's sharing of its workers
 * by workspace and user. Without the URL, undefined — shell commands run in process, on this event loop, logged once.
 * Also used by the context preview (lib/inspector/session-preview.ts), which runs no command but declares the
 * `bash` tool as a run does (its description names the runtimes only when the service is there).
 */
export function toolExec(
  scope: DbScope,
  vfs: Vfs,
  target: { workspaceId: string; sessionId: string; root: string; runId?: string; userId?: string },
) {
  const executor = createExecutor(process.env);
  if (!executor) {
    if (!inProcessLogged) {
      inProcessLogged = true;
      console.warn(
        "[strata] STRATA_EXEC_URL is not set: shell commands run in process, on the server's event loop, without the execution service's limits. `npm start` starts the service and sets it (docs/exec.md).",
      );
    }
    return undefined;
  }
  const exec: ToolExec = {
    executor,
    workspaceId: target.workspaceId,
    ...(target.userId ? { userId: target.userId } : {}),
    pending: { sessionId: target.sessionId, ...(target.runId ? { runId: target.runId } : {}) },
    sandbox: false,
    async sync() {
      const dirty = vfs.dirtyPaths();
      if (dirty.length === 0) return;
      const inProject = (p: string) =>
        p.startsWith(`${target.root}/`) && !p.startsWith(`${target.root}/.git/`);
      await recordPendingPaths(scope, target.sessionId, target.runId ?? null, dirty.filter(inProject));
      await vfs.flush();
      vfs.forget(dirty);
    },
    async absorb(paths) {
      vfs.forget(paths);
    },
  };
  return exec;
}

/**
 * Open `sessionId`'s runtime on `scope`. A session cwd over the VFS path limits is replaced by the project root
 * (see `usableCwd`), in `session.cwd` too.
 * @param options.extensions modules registered in order (Strata never loads code from a project);
 * @param options.onExtensionError receives every handler failure in pi's `{ extensionPath, event, error }` shape.
 * @param options.userId the user acting (the request's caller): their agent dir and trust decisions apply (default:
 *   the session's creator).
 * @param options.runId the run lock the caller holds: the execution service records the shell's pending paths
 *   under it (without it they are recorded as a lock-less writer's, which the run's checkpointer takes over).
 * @throws SessionUnavailableError when the session or its project does not exist.
 */
export async function openSessionRuntime(
  scope: DbScope,
  sessionId: string,
  options: {
    extensions?: readonly ExtensionModule[];
    onExtensionError?: (error: ExtensionError) => void;
    userId?: string;
    runId?: string;
    /** The acting user: `git commit` in the shell commits as them (`ToolContext.shellEnv`). */
    author?: { name: string; email: string };
    /** The rows the request already read (its authorisation): not read again. */
    loaded?: { session: SessionRow; project: Project };
  } = {},
): Promise<SessionRuntime> {
  const stored = options.loaded?.session ?? (await getSession(scope, sessionId));
  if (!stored) throw new SessionUnavailableError(`Session ${sessionId} not found`);
  const project = options.loaded?.project ?? (await getProject(scope, stored.projectId));
  if (!project) throw new SessionUnavailableError(`Project ${stored.projectId} not found`);
  const { vfs } = openSessionVfs(project, stored.id, scope);
  const root = project.rootPath;
  const cwd = usableCwd(stored.id, stored.cwd, root);
  const session = cwd === stored.cwd ? stored : { ...stored, cwd };
  const exec = toolExec(scope, vfs, {
    workspaceId: project.workspaceId,
    sessionId: session.id,
    root,
    runId: options.runId,
    // The service shares its workers by workspace and user: the caller's commands count as theirs.
    userId: options.userId ?? stored.userId ?? undefined,
  });
  // The real sandbox only through the execution service, and only where an owner enabled it (docs/sandbox.md).
  if (exec) exec.sandbox = await getSandboxEnabled(scope, project.workspaceId);
  const toolContext: ToolContext = {
    fs: vfs,
    cwd: session.cwd,
    projectRoot: root,
    ...(exec ? { exec } : {}),
    ...(options.author ? { shellEnv: gitIdentityEnv(options.author) } : {}),
  };
  // The row was read in this request (here or by its authorisation): it is current.
  const loaded = await loadSessionResources(scope, {
    session,
    project,
    vfs,
    userId: options.userId,
    current: true,
  });
  const core = await createSessionRuntime({
    session,
    toolContext,
    resources: loaded.resources,
    skillFs: (skill) => skillFileSystem(loaded, skill),
    ...(options.extensions ? { extensions: options.extensions } : {}),
    ...(options.onExtensionError ? { onExtensionError: options.onExtensionError } : {}),
  });
  // The core's getters (tools, allTools) stay live: the stored parts are added as own properties.
  return Object.assign(core, { session, project, vfs, root, agentFs: loaded.agentFs });
}
