/**
 * Everything a request needs to act on one stored session: the session and project rows, the project's
 * VFS, the resources in effect (pi's `DefaultResourceLoader` with project trust), the coding tools bound to
 * the session's cwd, the extension runner with Strata's registered extensions, and pi's `/skill:` and
 * template expansions. Shared by a prompt run, a queued steer/follow-up and a `!command`.
 */

import type { AgentMessage } from "@/lib/agent/messages";
import type { DbScope } from "@/lib/db/client";
import { createExecutor } from "@/lib/exec/client";
import { getSandboxEnabled } from "@/lib/exec/sandbox-setting";
import { ExtensionRunner } from "@/lib/extensions/runner";
import type { ExtensionError, ExtensionModule } from "@/lib/extensions/types";
import type { SystemMessage } from "@/lib/llm/types";
import { getProject, type Project } from "@/lib/projects/projects";
import { loadSessionResources, skillFileSystem } from "@/lib/projects/session-resources";
import { diffTools, getCurrentTools } from "@/lib/prompt/system-message";
import { expandPromptTemplate } from "@/lib/resources/prompt-templates";
import type { LoadedResources } from "@/lib/resources/resource-loader";
import { expandSkillCommand } from "@/lib/resources/skills";
import { recordPendingPaths } from "@/lib/session/pending-paths";
import { getSession, type SessionRow } from "@/lib/session/store";
import { createAllTools } from "@/lib/tools";
import type { AgentTool, ToolContext, ToolExec } from "@/lib/tools/types";
import { checkPathLimits } from "@/lib/vfs/limits";
import type { Vfs } from "@/lib/vfs/vfs";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { ActiveTools } from "./active-tools";
import { createInputState, type InputDeps, type InputState, sendCustomMessage } from "./input-pipeline";
import { buildSessionSections, buildSystemPatch, declareToolsForPrompt } from "./system-state";

/** The error of `sendCustomMessage` (extension `sendMessage`) on a runtime without a prompt run. */
export const NO_RUN_FOR_CUSTOM_MESSAGE =
  "sendMessage needs a prompt run on this session: this request runs none (send it from a prompt's handler or command).";

/** A session not found (or its project gone); the message is `Session <id> not found` / `Project <id> not found`. */
export class SessionUnavailableError extends Error {
  override name = "SessionUnavailableError";
}

export interface SessionRuntime {
  session: SessionRow;
  project: Project;
  vfs: Vfs;
  /** The project's root directory in the VFS. */
  root: string;
  /** The tool context of the session: its VFS, cwd and project root. */
  toolContext: ToolContext;
  resources: LoadedResources;
  /** The user's agent VFS (`/.pi/agent`: global settings, user skills). */
  agentFs: Vfs;
  /**
   * The active tools (pi `agent.state.tools`), bound to the session's cwd: pi's defaults (read, bash, edit,
   * write) until {@link SessionRuntime.setActiveToolsByName} or {@link SessionRuntime.restoreActiveTools}.
   */
  readonly tools: AgentTool[];
  /** Every tool the session can activate (pi's registry): read, bash, edit, write, grep, find, ls. */
  readonly allTools: AgentTool[];
  /** pi `setActiveToolsByName(names)`: unknown and duplicate names dropped; the next prompt's patch declares them. */
  setActiveToolsByName(names: readonly string[]): void;
  /** pi `getActiveToolNames()`. */
  getActiveToolNames(): string[];
  /** Take the active set the branch's transcript declares (see `ActiveTools.restoreFromTranscript`). */
  restoreActiveTools(messages: readonly { role: string }[]): void;
  /** Be told when the active set changes (a live run updates its agent); returns an unsubscribe. */
  onActiveToolsChange(listener: (tools: AgentTool[]) => void): () => void;
  /** The input pipeline's state of this runtime (pi's `_pendingNextTurnMessages` and queued texts). */
  readonly input: InputState;
  /**
   * A prompt run hands its pipeline hooks (streaming state, queues, append, run) to the runtime, so
   * {@link SessionRuntime.sendCustomMessage} delivers as pi's session does; returns `deps` with `state: input`.
   */
  bindInput(deps: Omit<InputDeps, "state">): InputDeps;
  /**
   * pi `sendCustomMessage(message, { triggerTurn, deliverAs })` (6.8) through the bound run: `nextTurn` → joins
   * the next prompt after its user message; streaming → steer (follow-up with `deliverAs: "followUp"`), or
   * appended after the turn with `triggerTurn: false`; idle with `triggerTurn` → a run; else appended now.
   * @throws Error {@link NO_RUN_FOR_CUSTOM_MESSAGE} when no prompt run is bound (e.g. a route without a run).
   */
  sendCustomMessage(
    message: Parameters<typeof sendCustomMessage>[0],
    options?: Parameters<typeof sendCustomMessage>[1],
  ): ReturnType<typeof sendCustomMessage>;
  /**
   * The system patch that declares the active tools against `history` (pi 3.28: the changed sections and
   * `toolsAdded` / `toolsRemoved`, as the next prompt would start with), or undefined when `history` already
   * declares exactly the active tools (section-only changes wait for the next prompt, as in pi).
   */
  buildToolsPatch(history: readonly AgentMessage[]): SystemMessage | undefined;
  /**
   * Strata, at the end of a request with a bound run (a server request is pi's whole session lifetime): a tool
   * set changed during the request and not declared by a prompt's patch since is recorded ({@link SessionRuntime.buildToolsPatch}), then
   * messages waiting for an idle agent and the `nextTurn` messages still held are appended (a `custom_message` entry each) — never lost, but before the
   * next user message instead of after it. No-op without a bound run.
   */
  flushHeldMessages(history: readonly AgentMessage[]): Promise<void>;
  extensions: ExtensionRunner;
  /** pi 4.16 `/skill:name args` → the skill block; a read failure comes back as `error` (pi's extension error shape). */
  expandSkill(text: string): Promise<{
    text: string;
    error?: { extensionPath: string; event: string; error: string };
  }>;
  /** pi 5.15 `/template args` → the template's text with arguments. */
  expandTemplate(text: string): string;
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
  } = {},
): Promise<SessionRuntime> {
  const stored = await getSession(scope, sessionId);
  if (!stored) throw new SessionUnavailableError(`Session ${sessionId} not found`);
  const project = await getProject(scope, stored.projectId);
  if (!project) throw new SessionUnavailableError(`Project ${stored.projectId} not found`);
  const { vfs } = openWorkspaceVfs(project.workspaceId, scope);
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
  const loaded = await loadSessionResources(scope, { session, project, vfs, userId: options.userId });
  const { resources, agentFs } = loaded;
  const extensions = new ExtensionRunner(() => ({ cwd: session.cwd, sessionId: session.id }));
  if (options.onExtensionError) extensions.onError(options.onExtensionError);
  const active = new ActiveTools(Object.values(createAllTools(toolContext)));
  const input = createInputState();
  let bound: InputDeps | undefined;
  const send: SessionRuntime["sendCustomMessage"] = (message, sendOptions = {}) => {
    if (!bound) throw new Error(NO_RUN_FOR_CUSTOM_MESSAGE);
    return sendCustomMessage(message, sendOptions, bound);
  };
  let toolsChanged = false;
  active.onChange(() => {
    toolsChanged = true;
  });
  const toolsPatch = (history: readonly AgentMessage[]): SystemMessage | undefined => {
    const declarations = declareToolsForPrompt(active.tools);
    const delta = diffTools(getCurrentTools(history), declarations);
    if (!delta.toolsAdded && !delta.toolsRemoved) return undefined;
    const sections = buildSessionSections({ cwd: session.cwd, resources, tools: active.tools });
    return buildSystemPatch(history, sections, declarations, Date.now());
  };
  for (const module of options.extensions ?? []) await extensions.registerExtension(module);
  // pi `bindCore`: action methods work once every extension is loaded.
  extensions.bindSession({
    sendMessage: async (message, sendOptions) => {
      await send(message, sendOptions);
    },
    setActiveTools: (names) => active.setActiveToolsByName(names),
    getActiveTools: () => active.getActiveToolNames(),
    getAllTools: () => active.all.map((t) => ({ name: t.name, description: t.description })),
  });
  return {
    session,
    project,
    vfs,
    root,
    toolContext,
    resources,
    agentFs,
    get tools() {
      return active.tools;
    },
    get allTools() {
      return active.all;
    },
    setActiveToolsByName: (names) => active.setActiveToolsByName(names),
    getActiveToolNames: () => active.getActiveToolNames(),
    restoreActiveTools: (messages) => active.restoreFromTranscript(messages),
    onActiveToolsChange: (listener) => active.onChange(listener),
    input,
    bindInput: (deps) => {
      bound = { ...deps, state: input };
      return bound;
    },
    sendCustomMessage: send,
    buildToolsPatch: (history) => toolsPatch(history),
    flushHeldMessages: async (history) => {
      if (!bound) return;
      const patch = toolsChanged ? toolsPatch(history) : undefined;
      if (patch) await bound.appendMessage(patch);
      // Messages waiting for an idle agent (`triggerTurn: false` while streaming), then the held nextTurn ones.
      for (const message of input.pendingAppend.splice(0)) await bound.appendMessage(message);
      for (const message of input.nextTurn.splice(0)) await bound.appendMessage(message);
    },
    extensions,
    expandSkill: (text) =>
      expandSkillCommand(text, resources.skills, (skill) => skillFileSystem(loaded, skill)),
    expandTemplate: (text) => expandPromptTemplate(text, resources.promptTemplates),
  };
}
