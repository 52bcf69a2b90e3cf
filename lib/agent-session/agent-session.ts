/**
 * pi's `AgentSession` (coding-agent `core/agent-session.ts`): one session's agent with its request path and input
 * pipeline. It owns pi's `Agent` (lib/agent), wired as pi wires it — the transcript's current system message is the
 * request's system prompt (`buildRequestFromTranscript`), `transformContext` runs the extensions' `context` hooks and
 * a forced system prompt, `convertToLlm` applies `images.blockImages` — and runs a prompt through pi's input pipeline
 * (`processPrompt`: extension command → `input` hook → `/skill:` → `/template` → model check → compaction check →
 * `before_agent_start` → system patch + user message → `agent.prompt`), keeping the agent's tools in step with the
 * runtime's active set (pi's tool loadout). As pi's class it also steers, queues follow-ups, aborts, compacts
 * (`compact`, and `checkCompaction` after a run: overflow → compact and retry once) and re-runs a failed answer
 * (`retry`); the run's auto-retry wraps each start of the agent (`runTurns`).
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
import type { AssistantMessage, ImageContent, Message, ThinkingLevel } from "@/lib/llm/types";
import { getSystemMessageText } from "@/lib/prompt/system-message";
import { calculateContextTokens } from "@/lib/session/compaction/compaction";
import type { AgentTool } from "@/lib/tools/types";
import { withoutFailedTurn } from "./auto-retry";
import { isContextOverflow, shouldAutoCompact } from "./compaction-run";
import { applyForcedSystemPrompt, type InputDeps, processPrompt } from "./input-pipeline";
import type { CompactionReason } from "./run-types";
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

/** pi's compaction as a session uses it: compact now (→ whether it did), then read the branch's history again. */
export interface SessionCompactor {
  compactNow(reason: CompactionReason, focus?: string): Promise<boolean>;
  reloadHistory(): Promise<AgentMessage[]>;
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
  /** pi's compaction for this session (a live run's `createCompactor`); without it the session never compacts. */
  compactor?: SessionCompactor;
  /** Before the Retry button's re-run starts the agent (a live run records the model). */
  beforeRetry?: () => Promise<void>;
  /** Before a prompt starts the agent (a live run records the model and the title). */
  beforeRun?: () => Promise<void>;
  /** Wraps each start of the agent (a live run's auto-retry). Default: `start()`. */
  runTurns?: (start: () => Promise<void>) => Promise<void>;
  tap?: RequestTap;
  /** Timestamps of the system patch and the user message, epoch ms. Default `Date.now`. */
  now?: () => number;
}

const NO_MODEL = () => "No model configured.";

/** Whether `last` (an answer that neither failed nor was aborted) used more of the context than `shouldAutoCompact` allows. */
function answeredOverThreshold(last: AssistantMessage, model: Model): boolean {
  return (
    last.stopReason !== "error" &&
    last.stopReason !== "aborted" &&
    shouldAutoCompact(calculateContextTokens(last.usage), model)
  );
}

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

  /** pi's `AgentSession.compact(customInstructions)`: summarise now with `focus`. @returns whether it compacted. */
  compact(focus?: string): Promise<boolean> {
    return this.options.compactor?.compactNow("manual", focus) ?? Promise.resolve(false);
  }

  /**
   * The Retry button's re-run: pi's `agent.continue()` from before the failed answer (`withoutFailedTurn`), after
   * `beforeRetry`. @throws the model error when no model is configured.
   */
  async retry(): Promise<void> {
    if (!this.options.model) throw new Error((this.options.modelError ?? NO_MODEL)());
    this.agent.state.messages = withoutFailedTurn(this.agent.state.messages);
    await this.options.beforeRetry?.();
    await this.continue();
  }

  /**
   * pi's compaction check after a run (`AgentSession._checkCompaction`): a context overflow from this model compacts
   * and retries once from the history without the failed answer; a context over the threshold compacts without a
   * retry. Nothing after an abort (`signal`) or without a model.
   */
  async checkCompaction(signal?: AbortSignal): Promise<void> {
    const { model, compactor } = this.options;
    const { agent } = this;
    const last = [...agent.state.messages]
      .reverse()
      .find((m): m is AssistantMessage => m.role === "assistant");
    if (!model || !compactor || !last || signal?.aborted) return;
    const overflow =
      isContextOverflow(last, model.contextWindow) &&
      last.provider === model.provider &&
      last.model === model.id;
    const threshold = !overflow && answeredOverThreshold(last, model);
    if (
      !(overflow || threshold) ||
      !(await compactor.compactNow(overflow ? "overflow" : "threshold")) ||
      !overflow
    )
      return;
    const history = await compactor.reloadHistory();
    // Retry from the history without the failed answer (pi removes it before `agent.continue()`).
    const tail = history[history.length - 1];
    agent.state.messages =
      tail?.role === "assistant" && tail.stopReason === "error" ? history.slice(0, -1) : history;
    await this.continue();
  }

  /** pi's `agent-session.ts` before a new prompt: compact when the last answer already crossed the threshold. */
  private async compactBeforePrompt(): Promise<void> {
    const { model, compactor } = this.options;
    const last = [...this.agent.state.messages].reverse().find((m) => m.role === "assistant");
    if (!model || !compactor || last?.role !== "assistant" || !answeredOverThreshold(last, model)) return;
    if (await compactor.compactNow("threshold")) this.agent.state.messages = await compactor.reloadHistory();
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
      checkCompaction: () => this.compactBeforePrompt(),
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
