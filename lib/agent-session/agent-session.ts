/**
 * pi's `AgentSession` (coding-agent `core/agent-session.ts`): one session's agent with its request path and input
 * pipeline. It owns pi's `Agent` (lib/agent), wired as pi wires it — the transcript's current system message is the
 * request's system prompt (`buildRequestFromTranscript`), `transformContext` runs the extensions' `context` hooks and
 * a forced system prompt, `convertToLlm` applies `images.blockImages` — and runs a prompt through pi's input pipeline
 * (`processPrompt`: extension command → `input` hook → `/skill:` → `/template` → model check → compaction check →
 * `before_agent_start` → system patch + user message → `agent.prompt`), keeping the agent's tools in step with the
 * runtime's active set (pi's tool loadout).
 *
 * Where the messages go and where the model is reached are the caller's: a live run (session-run.ts) persists each
 * message as an entry, checkpoints the files and streams from the provider; the context inspector
 * (lib/inspector/context-preview.ts) keeps everything in memory and hands the agent a stream that captures the
 * provider payload and answers without the network. Both therefore build the request with this same code.
 */

import { Agent, type AgentHooks, type ExternalQueue } from "@/lib/agent/agent";
import type { AgentMessage } from "@/lib/agent/messages";
import type { AgentEvent, StreamFn } from "@/lib/agent/types";
import { createConvertToLlm } from "@/lib/context/block-images";
import type { Model } from "@/lib/llm/models";
import type { ImageContent, Message, ThinkingLevel } from "@/lib/llm/types";
import { getSystemMessageText } from "@/lib/prompt/system-message";
import type { AgentTool } from "@/lib/tools/types";
import { applyForcedSystemPrompt, type InputDeps, processPrompt } from "./input-pipeline";
import type { SessionRuntimeCore } from "./runtime";
import {
  buildRequestFromTranscript,
  buildSessionSections,
  buildSystemPatch,
  declareToolsForPrompt,
} from "./system-state";

/** Observers of one request's layers (the context inspector reads them; a live run passes none). */
export interface RequestTap {
  /** The messages before and after `transformContext` (the extensions' `context` hooks, a forced system prompt). */
  context?(before: AgentMessage[], after: AgentMessage[]): void;
  /** The messages `convertToLlm` produced (after `blockImages`). */
  llm?(messages: Message[]): void;
  /** The messages a prompt starts the agent with: the system patch (if any), the user message, hook messages. */
  prompt?(messages: AgentMessage[]): void;
}

/** What an {@link AgentSession} is built from. */
export interface AgentSessionOptions {
  runtime: SessionRuntimeCore;
  /** The prompt's model; undefined = none configured (a prompt then fails with `modelError()`). */
  model: Model | undefined;
  thinkingLevel: ThinkingLevel;
  /** The branch's projection (pi's `buildSessionContext().messages`). */
  messages: AgentMessage[];
  /** The model call: `streamAssistant` in a live run, a capturing stream in the inspector. */
  stream: StreamFn;
  /** pi's `images.blockImages`, read for every request (a run reads the settings files each time). */
  blockImages: () => boolean | Promise<boolean>;
  /** The text of a missing model's error (default `No model configured.`). */
  modelError?: () => string;
  /** Called with every agent event, after the message of a `message_end` is stored by `persist`. */
  emit?: (event: AgentEvent) => Promise<void>;
  /** Stores a message as it ends (a live run: `messageToEntry` → an entry). Default: kept in memory only. */
  persist?: (message: AgentMessage) => Promise<void>;
  /** The loop hooks a live run adds: connection release before requests, checkpoints after tool batches. */
  hooks?: Pick<AgentHooks, "beforeRequest" | "afterToolExecution" | "afterToolResults">;
  /** Messages queued outside this process (`session_queue`). */
  queueSource?: ExternalQueue;
  /** pi's compaction check before a prompt (6.1 step 9); returns the reloaded history when it compacted. */
  checkCompaction?: (lastAssistant: AgentMessage | undefined) => Promise<AgentMessage[] | undefined>;
  /** Before a prompt starts the agent (a live run records the model and the title). */
  beforeRun?: () => Promise<void>;
  /** Wraps each start of the agent (a live run's auto-retry). Default: `start()`. */
  runTurns?: (start: () => Promise<void>) => Promise<void>;
  tap?: RequestTap;
  /** Timestamps of the system patch and the user message, epoch ms. Default `Date.now`. */
  now?: () => number;
}

const NO_MODEL = () => "No model configured.";

export class AgentSession {
  readonly agent: Agent;
  private forcedSystemPrompt: string | undefined;
  private readonly runtime: SessionRuntimeCore;
  private readonly options: AgentSessionOptions;

  constructor(options: AgentSessionOptions) {
    this.options = options;
    const { runtime, model, tap } = options;
    this.runtime = runtime;
    const convert = createConvertToLlm(async () => options.blockImages());
    this.agent = new Agent({
      stream: options.stream,
      initialState: { model, thinkingLevel: options.thinkingLevel, messages: options.messages },
      convertToLlm: async (messages) => {
        const llm = await convert(messages);
        tap?.llm?.(llm);
        return llm;
      },
      buildRequest: buildRequestFromTranscript,
      transformContext: async (messages) => {
        const after = applyForcedSystemPrompt(
          await runtime.extensions.emitContext(messages),
          this.forcedSystemPrompt,
        );
        tap?.context?.(messages, after);
        return after;
      },
      ...options.hooks,
      ...(options.queueSource ? { queueSource: options.queueSource } : {}),
    });
    // Tools after construction (as pi's AgentSession): no initial system message; the prompt's patch declares them.
    this.agent.state.tools = runtime.tools;
    // pi's `agent-loop.ts`: a set changed during the run is declared before the next request of a later prompt of this run.
    runtime.onActiveToolsChange((tools) => {
      this.agent.state.tools = tools;
    });
    this.agent.subscribe(async (event) => {
      if (event.type === "message_end") await options.persist?.(event.message);
      await options.emit?.(event);
    });
  }

  /** The agent's messages (the branch's projection plus what this session added). */
  get messages(): AgentMessage[] {
    return this.agent.state.messages;
  }

  /**
   * pi's `AgentSession.prompt(text, { images })` through the input pipeline; resolves when the agent is idle.
   * Throws what the pipeline throws (no model: `modelError()`; extension command errors).
   */
  async prompt(text: string, images: ImageContent[] = []): Promise<void> {
    await processPrompt(text, images.length > 0 ? { images } : {}, this.runtime.bindInput(this.inputDeps()));
  }

  /** pi's `agent.continue()` from the current messages (a retry, an overflow retry), wrapped by `runTurns`. */
  continue(): Promise<void> {
    return this.turns(() => this.agent.continue());
  }

  /** Start the agent on `messages` (queued follow-ups a run delivers itself), wrapped by `runTurns`. */
  promptMessages(messages: AgentMessage[]): Promise<void> {
    return this.turns(() => this.agent.prompt(messages));
  }

  /** pi's `steer(message)`: delivered after the current tool batch. */
  steer(message: AgentMessage): void {
    this.agent.steer(message);
  }

  /** pi's `followUp(message)`: delivered when the agent would stop. */
  followUp(message: AgentMessage): void {
    this.agent.followUp(message);
  }

  /** pi's `abort()`: the undelivered queued messages come back. */
  abort() {
    return this.agent.abort();
  }

  private turns(start: () => Promise<void>): Promise<void> {
    return this.options.runTurns ? this.options.runTurns(start) : start();
  }

  private sectionsFor(tools: AgentTool[]) {
    return buildSessionSections({ cwd: this.runtime.session.cwd, resources: this.runtime.resources, tools });
  }

  private toolsFor(options: Record<string, unknown>): AgentTool[] {
    const selected = options.selectedTools;
    const tools = this.runtime.tools;
    return Array.isArray(selected) ? tools.filter((t) => selected.includes(t.name)) : tools;
  }

  private inputDeps(): Omit<InputDeps, "state"> {
    const { runtime, options, agent } = this;
    const now = options.now ?? Date.now;
    return {
      extensions: runtime.extensions,
      isStreaming: () => agent.state.isStreaming,
      expandSkill: runtime.expandSkill,
      expandTemplate: runtime.expandTemplate,
      steer: (message) => agent.steer(message),
      followUp: (message) => agent.followUp(message),
      appendMessage: async (message) => {
        await options.persist?.(message);
        agent.state.messages.push(message);
        await options.emit?.({ type: "message_start", message });
        await options.emit?.({ type: "message_end", message });
      },
      checkModel: () => {
        if (!options.model) throw new Error((options.modelError ?? NO_MODEL)());
      },
      checkCompaction: async () => {
        const last = [...agent.state.messages].reverse().find((m) => m.role === "assistant");
        const reloaded = await options.checkCompaction?.(last);
        if (reloaded) agent.state.messages = reloaded;
      },
      systemPromptOptions: () => ({ selectedTools: runtime.tools.map((t) => t.name) }),
      renderSystemPrompt: (promptOptions) =>
        getSystemMessageText({ content: "", sections: this.sectionsFor(this.toolsFor(promptOptions)) }),
      buildSystemPatch: (promptOptions) => {
        const tools = this.toolsFor(promptOptions);
        agent.state.tools = tools;
        return buildSystemPatch(
          agent.state.messages,
          this.sectionsFor(tools),
          declareToolsForPrompt(tools),
          now(),
        );
      },
      run: async (messages, runOptions) => {
        this.forcedSystemPrompt = runOptions.forceSystemPrompt;
        options.tap?.prompt?.(messages);
        await options.beforeRun?.();
        await this.turns(() => agent.prompt(messages));
      },
      now,
    };
  }
}
