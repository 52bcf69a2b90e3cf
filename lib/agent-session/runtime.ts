/**
 * The part of a session's runtime that needs no database (pi's `AgentSession` state around the agent): the resources
 * in effect, the coding tools bound to the session's cwd and the active set (pi's tool loadout), the extension runner
 * with the session's actions bound, pi's input state, and the `/skill:` and template expansions. A stored session's
 * runtime (`openSessionRuntime`, session-runtime.ts) builds one from Postgres; the context inspector
 * (lib/inspector/context-preview.ts) builds one from any filesystem, so both run the same `AgentSession`.
 */

import type { AgentMessage } from "@/lib/agent/messages";
import { ExtensionRunner } from "@/lib/extensions/runner";
import type { ExtensionError, ExtensionModule } from "@/lib/extensions/types";
import type { SystemMessage } from "@/lib/llm/types";
import { diffTools, getCurrentTools } from "@/lib/prompt/system-message";
import { expandPromptTemplate } from "@/lib/resources/prompt-templates";
import type { LoadedResources } from "@/lib/resources/resource-loader";
import { expandSkillCommand } from "@/lib/resources/skills";
import { createAllTools } from "@/lib/tools";
import type { AgentTool, ToolContext } from "@/lib/tools/types";
import type { FileSystem } from "@/lib/vfs/types";
import { ActiveTools } from "./active-tools";
import { createInputState, type InputDeps, type InputState, sendCustomMessage } from "./input-pipeline";
import { buildSessionSections, buildSystemPatch, declareToolsForPrompt } from "./system-state";

/** The error of `sendCustomMessage` (extension `sendMessage`) on a runtime without a prompt run. */
export const NO_RUN_FOR_CUSTOM_MESSAGE =
  "sendMessage needs a prompt run on this session: this request runs none (send it from a prompt's handler or command).";

export interface SessionRuntimeCore {
  /** The session this runtime acts for: its id (the extensions' `ctx.sessionId`) and working directory. */
  session: { id: string; cwd: string };
  /** The tool context of the session: its filesystem, cwd and project root. */
  toolContext: ToolContext;
  resources: LoadedResources;
  /**
   * The active tools (pi `agent.state.tools`), bound to the session's cwd: pi's defaults (read, bash, edit,
   * write) until {@link SessionRuntimeCore.setActiveToolsByName} or {@link SessionRuntimeCore.restoreActiveTools}.
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
   * {@link SessionRuntimeCore.sendCustomMessage} delivers as pi's session does; returns `deps` with `state: input`.
   */
  bindInput(deps: Omit<InputDeps, "state">): InputDeps;
  /**
   * pi `sendCustomMessage(message, { triggerTurn, deliverAs })` (pi's `agent-session.ts`) through the bound run: `nextTurn` → joins
   * the next prompt after its user message; streaming → steer (follow-up with `deliverAs: "followUp"`), or
   * appended after the turn with `triggerTurn: false`; idle with `triggerTurn` → a run; else appended now.
   * @throws Error {@link NO_RUN_FOR_CUSTOM_MESSAGE} when no prompt run is bound (e.g. a route without a run).
   */
  sendCustomMessage(
    message: Parameters<typeof sendCustomMessage>[0],
    options?: Parameters<typeof sendCustomMessage>[1],
  ): ReturnType<typeof sendCustomMessage>;
  /**
   * The system patch that declares the active tools against `history` (pi's `system-prompt.ts`: the changed sections and
   * `toolsAdded` / `toolsRemoved`, as the next prompt would start with), or undefined when `history` already
   * declares exactly the active tools (section-only changes wait for the next prompt, as in pi).
   */
  buildToolsPatch(history: readonly AgentMessage[]): SystemMessage | undefined;
  /**
   * Strata, at the end of a request with a bound run (a server request is pi's whole session lifetime): a tool
   * set changed during the request and not declared by a prompt's patch since is recorded ({@link SessionRuntimeCore.buildToolsPatch}), then
   * messages waiting for an idle agent and the `nextTurn` messages still held are appended (a `custom_message` entry each) — never lost, but before the
   * next user message instead of after it. No-op without a bound run.
   */
  flushHeldMessages(history: readonly AgentMessage[]): Promise<void>;
  extensions: ExtensionRunner;
  /** pi's `skills.ts` `/skill:name args` → the skill block; a read failure comes back as `error` (pi's extension error shape). */
  expandSkill(text: string): Promise<{
    text: string;
    error?: { extensionPath: string; event: string; error: string };
  }>;
  /** pi's `prompt-templates.ts` `/template args` → the template's text with arguments. */
  expandTemplate(text: string): string;
}

/** What {@link createSessionRuntime} builds a runtime from. */
export interface SessionRuntimeParts {
  session: { id: string; cwd: string };
  toolContext: ToolContext;
  resources: LoadedResources;
  /** The filesystem a loaded skill's file is read from (`/skill:` expansion): the agent dir, team root or project. */
  skillFs: (skill: { source: string }) => FileSystem;
  /** Modules registered in order (Strata never loads code from a project). */
  extensions?: readonly ExtensionModule[];
  /** Receives every handler failure in pi's `{ extensionPath, event, error }` shape (also `/skill:` read errors). */
  onExtensionError?: (error: ExtensionError) => void;
}

/**
 * A session runtime over `parts`: the tools `createAllTools(toolContext)` makes (pi's defaults active), an
 * `ExtensionRunner` with `parts.extensions` registered and bound to the runtime's actions (`sendMessage`,
 * `setActiveTools`, `getActiveTools`, `getAllTools`), and the input state a prompt run binds.
 */
export async function createSessionRuntime(parts: SessionRuntimeParts): Promise<SessionRuntimeCore> {
  const { session, toolContext, resources } = parts;
  const extensions = new ExtensionRunner(() => ({ cwd: session.cwd, sessionId: session.id }));
  if (parts.onExtensionError) extensions.onError(parts.onExtensionError);
  const active = new ActiveTools(Object.values(createAllTools(toolContext)));
  const input = createInputState();
  let bound: InputDeps | undefined;
  const send: SessionRuntimeCore["sendCustomMessage"] = (message, sendOptions = {}) => {
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
  for (const module of parts.extensions ?? []) await extensions.registerExtension(module);
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
    toolContext,
    resources,
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
    expandSkill: (text) => expandSkillCommand(text, resources.skills, parts.skillFs),
    expandTemplate: (text) => expandPromptTemplate(text, resources.promptTemplates),
  };
}
