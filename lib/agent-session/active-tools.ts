/**
 * A session's tool registry and its active (declared) tools: pi's `AgentSession.setActiveToolsByName` /
 * `getActiveToolNames` / `getAllTools` (agent-session.ts, pi's `agent-session.ts`) for the tools Strata registers. The active tools
 * are what the next prompt's system patch declares (sections from their snippets and guidelines, `toolsAdded` /
 * `toolsRemoved` against the transcript, pi's `system-prompt.ts`).
 */
import { getCurrentTools } from "@/lib/prompt/system-message";
import type { AgentTool } from "@/lib/tools/types";

/** pi's `DEFAULT_TOOL_NAMES` (pi's `agent-session.ts`): the tools a session starts with. */
export const DEFAULT_ACTIVE_TOOL_NAMES: readonly string[] = ["read", "bash", "edit", "write"];

/**
 * The active tool names a transcript declares — the replayed `toolsAdded` (pi's `system-prompt.ts`), in that order, restricted to
 * `registered` — or undefined when none of its system messages carries tool fields (nothing was ever declared).
 */
export function transcriptActiveToolNames(
  messages: readonly { role: string }[],
  registered: readonly string[],
): string[] | undefined {
  const declares = messages.some(
    (m) =>
      m.role === "system" &&
      ((m as { toolsAdded?: unknown[] }).toolsAdded !== undefined ||
        (m as { toolsRemoved?: unknown[] }).toolsRemoved !== undefined),
  );
  if (!declares) return undefined;
  return getCurrentTools(messages)
    .map((t) => t.name)
    .filter((name) => registered.includes(name));
}

export class ActiveTools {
  private active: AgentTool[];
  private readonly listeners = new Set<(tools: AgentTool[]) => void>();

  /**
   * @param registry every tool the session can activate, in registry order (pi's registered tools).
   * @param initial the names active at first (default pi's `DEFAULT_TOOL_NAMES`), applied as
   *   {@link setActiveToolsByName} applies them.
   */
  constructor(
    private readonly registry: readonly AgentTool[],
    initial: readonly string[] = DEFAULT_ACTIVE_TOOL_NAMES,
  ) {
    this.active = this.resolve(initial);
  }

  private resolve(names: readonly string[]): AgentTool[] {
    const out: AgentTool[] = [];
    for (const name of names) {
      const tool = this.registry.find((t) => t.name === name);
      if (tool && !out.includes(tool)) out.push(tool);
    }
    return out;
  }

  /** The active tools (pi `agent.state.tools`), in the order they were named. */
  get tools(): AgentTool[] {
    return this.active.slice();
  }

  /** Every registered tool (pi `getAllTools`), in registry order. */
  get all(): AgentTool[] {
    return this.registry.slice();
  }

  /**
   * pi `setActiveToolsByName(names)` (pi's `agent-session.ts`): the named tools in the order named, duplicates and unregistered
   * names dropped (silently, as pi), become the active tools. Listeners (e.g. a live run's agent) are told.
   */
  setActiveToolsByName(names: readonly string[]): void {
    this.active = this.resolve(names);
    for (const listener of this.listeners) listener(this.tools);
  }

  /** pi `getActiveToolNames()`. */
  getActiveToolNames(): string[] {
    return this.active.map((t) => t.name);
  }

  /** Be told of every {@link setActiveToolsByName}; returns an unsubscribe. */
  onChange(listener: (tools: AgentTool[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Strata: the active set a branch's transcript declares — the replayed `toolsAdded` (pi's `system-prompt.ts`) restricted to
   * registered tools — when any of its system messages carries tool fields; otherwise the set is left as it is
   * (a new session starts with the defaults). Every Strata request resumes the session, so this is how a set
   * chosen earlier (the IDE's toggles, an extension's `setActiveTools`) is kept.
   */
  restoreFromTranscript(messages: readonly { role: string }[]): void {
    const names = transcriptActiveToolNames(
      messages,
      this.registry.map((t) => t.name),
    );
    if (names) this.active = this.resolve(names);
  }
}
