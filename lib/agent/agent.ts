/**
 * pi's `Agent` (packages/agent/src/agent.ts, pi's `agent-loop.ts`): state, a run at a time, steering and follow-up
 * queues, listeners. Strata difference: `abort()` hands back the queued-but-undelivered messages.
 */
import type { Model } from "@/lib/llm/models";
import {
  type AssistantMessage,
  emptyUsage,
  type ImageContent,
  type SystemMessage,
  type ThinkingLevel,
  type ToolResultMessage,
} from "@/lib/llm/types";
import {
  getCurrentSystemMessage,
  getCurrentSystemPrompt,
  onlyLlmMessages,
} from "@/lib/prompt/system-message";
import type { AgentTool } from "@/lib/tools/types";
import { toolDeclaration } from "./declare-tools";
import { agentLoopContinue, runAgentLoop } from "./loop";
import type { AgentMessage } from "./messages";
import { PendingMessageQueue, type QueueMode } from "./pending-queue";
import type { AgentContext, AgentEvent, AgentLoopConfig, StreamFn } from "./types";

/** pi's `agent-loop.ts` / pi's `agent-loop.ts` texts. */
export const PROMPT_WHILE_RUNNING_ERROR =
  "Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.";
export const CONTINUE_WHILE_RUNNING_ERROR =
  "Agent is already processing. Wait for completion before continuing.";
export const NO_MESSAGES_TO_CONTINUE_ERROR = "No messages to continue from";

/** pi's `AgentState`. `systemPrompt` is the replay view of the transcript's system messages (pi's `system-prompt.ts`). */
export interface AgentState {
  readonly systemPrompt: string;
  model?: Model;
  thinkingLevel: ThinkingLevel;
  tools: AgentTool[];
  messages: AgentMessage[];
  isStreaming: boolean;
  streamMessage: AgentMessage | null;
  pendingToolCalls: Set<string>;
  error?: string;
}

/** Hooks of the loop an `Agent` forwards (everything but the tools, the stream and the model state). */
export type AgentHooks = Omit<
  AgentLoopConfig,
  "tools" | "stream" | "model" | "thinkingLevel" | "getSteeringMessages" | "getFollowUpMessages"
>;

export interface AgentOptions extends AgentHooks {
  /** The model call. */
  stream: StreamFn;
  initialState?: {
    /**
     * With `tools`, becomes the leading system message when the messages do not start with one (pi
     * `createInitialSystemMessage`, pi's `agent-loop.ts`): `{ role: "system", content: systemPrompt, toolsAdded?, timestamp: 0 }`.
     */
    systemPrompt?: string;
    model?: Model;
    thinkingLevel?: ThinkingLevel;
    tools?: AgentTool[];
    messages?: AgentMessage[];
  };
  steeringMode?: QueueMode;
  followUpMode?: QueueMode;
  /**
   * Strata: messages queued outside this process (another request, tab or server instance), consulted
   * when the in-memory queue of that kind is empty, with the queue's drain mode.
   */
  queueSource?: ExternalQueue;
}

/** A queue the `Agent` drains after its own (e.g. `session_queue` in Postgres). */
export interface ExternalQueue {
  take(kind: "steer" | "followUp", mode: QueueMode): Promise<AgentMessage[]>;
}

/**
 * pi's `createInitialSystemMessage(systemPrompt, tools)` (packages/ai/src/utils/transcript.ts) for an `Agent`'s
 * tools: `{ role: "system", content: systemPrompt ?? "", toolsAdded?: <declarations>, timestamp: 0 }`, with
 * `toolsAdded` only when there are tools; `undefined` when the prompt is empty and there is no tool (an empty
 * transcript stays empty). The loop then finds the tools declared and adds no declaration-only message (pi's `agent-loop.ts`).
 */
export function createInitialSystemMessage(
  systemPrompt: string | undefined,
  tools: readonly AgentTool[],
): SystemMessage | undefined {
  const hasPrompt = systemPrompt !== undefined && systemPrompt.length > 0;
  if (!hasPrompt && tools.length === 0) return undefined;
  return {
    role: "system",
    content: systemPrompt ?? "",
    ...(tools.length > 0 ? { toolsAdded: tools.map(toolDeclaration) } : {}),
    timestamp: 0,
  };
}

export type AgentListener = (event: AgentEvent, signal: AbortSignal) => void | Promise<void>;

/** What `abort()` returns: the steering and follow-up messages that were queued and never delivered. */
export interface AbortResult {
  undelivered: AgentMessage[];
}

export class Agent {
  private readonly hooks: AgentHooks;
  private readonly streamFn: StreamFn;
  private readonly listeners = new Set<AgentListener>();
  private readonly steeringQueue: PendingMessageQueue;
  private readonly followUpQueue: PendingMessageQueue;
  private readonly data: Omit<AgentState, "systemPrompt">;
  private controller: AbortController | undefined;
  private activeRun: Promise<void> | undefined;
  private skipInitialSteeringPoll = false;
  private readonly queueSource: ExternalQueue | undefined;

  constructor(options: AgentOptions) {
    const { stream, initialState = {}, steeringMode, followUpMode, queueSource, ...hooks } = options;
    this.streamFn = stream;
    this.queueSource = queueSource;
    this.hooks = hooks;
    this.steeringQueue = new PendingMessageQueue(steeringMode);
    this.followUpQueue = new PendingMessageQueue(followUpMode);
    const messages = [...(initialState.messages ?? [])];
    const tools = [...(initialState.tools ?? [])];
    const head = createInitialSystemMessage(initialState.systemPrompt, tools);
    if (head && messages[0]?.role !== "system") messages.unshift(head);
    this.data = {
      model: initialState.model,
      thinkingLevel: initialState.thinkingLevel ?? "off",
      tools,
      messages,
      isStreaming: false,
      streamMessage: null,
      pendingToolCalls: new Set(),
    };
  }

  /** The live state (`systemPrompt` replayed from the messages). */
  get state(): AgentState {
    const data = this.data;
    return Object.defineProperty(data, "systemPrompt", {
      get: () => getCurrentSystemPrompt(data.messages),
      configurable: true,
      enumerable: true,
    }) as AgentState;
  }

  get steeringMode(): QueueMode {
    return this.steeringQueue.mode;
  }
  set steeringMode(mode: QueueMode) {
    this.steeringQueue.mode = mode;
  }
  get followUpMode(): QueueMode {
    return this.followUpQueue.mode;
  }
  set followUpMode(mode: QueueMode) {
    this.followUpQueue.mode = mode;
  }

  /** Listen to every event, awaited in subscription order after the state was updated. Returns an unsubscribe. */
  subscribe(listener: AgentListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A copy of the context the next run starts from (`{ messages, tools }`). */
  createContextSnapshot(): AgentContext {
    return { messages: this.data.messages.slice(), tools: this.data.tools.slice() };
  }

  /** Queue a message delivered after the current tool batch, before the next request (pi's `agent-loop.ts`). */
  steer(message: AgentMessage): void {
    this.steeringQueue.enqueue(message);
  }

  /** Queue a message delivered when the agent would stop (pi's `agent-loop.ts`). */
  followUp(message: AgentMessage): void {
    this.followUpQueue.enqueue(message);
  }

  hasQueuedMessages(): boolean {
    return this.steeringQueue.hasItems() || this.followUpQueue.hasItems();
  }

  clearAllQueues(): void {
    this.steeringQueue.clear();
    this.followUpQueue.clear();
  }

  /**
   * Start a run with a text (plus images), a message or messages.
   * @throws Error pi's `agent-loop.ts` text while a run is active.
   */
  async prompt(input: string | AgentMessage | AgentMessage[], images: ImageContent[] = []): Promise<void> {
    if (this.activeRun) throw new Error(PROMPT_WHILE_RUNNING_ERROR);
    const messages: AgentMessage[] =
      typeof input === "string"
        ? [{ role: "user", content: [{ type: "text", text: input }, ...images], timestamp: Date.now() }]
        : Array.isArray(input)
          ? input
          : [input];
    await this.run((config, emit, signal) =>
      runAgentLoop(messages, this.data.messages.slice(), config, emit, signal),
    );
  }

  /**
   * Continue from the transcript (pi's `agent-loop.ts`): after an assistant message, queued steering (one message) runs as a
   * prompt, else queued follow-ups, else it throws `Cannot continue from message role: assistant`.
   */
  async continue(): Promise<void> {
    if (this.activeRun) throw new Error(CONTINUE_WHILE_RUNNING_ERROR);
    const conversation = this.data.messages.filter((m) => m.role !== "system");
    const last = conversation[conversation.length - 1];
    if (!last) throw new Error(NO_MESSAGES_TO_CONTINUE_ERROR);
    if (last.role === "assistant") {
      const steering = this.steeringQueue.drain();
      if (steering.length > 0) {
        this.skipInitialSteeringPoll = true;
        await this.prompt(steering);
        return;
      }
      const followUps = this.followUpQueue.drain();
      if (followUps.length > 0) {
        await this.prompt(followUps);
        return;
      }
      throw new Error(`Cannot continue from message role: ${last.role}`);
    }
    await this.run((config, emit, signal) =>
      agentLoopContinue(this.data.messages.slice(), config, emit, signal),
    );
  }

  /**
   * Abort the active run. Strata: the steering and follow-up messages still queued are removed and returned
   * (pi would keep them for a later run).
   */
  abort(): AbortResult {
    this.controller?.abort();
    return { undelivered: [...this.steeringQueue.takeAll(), ...this.followUpQueue.takeAll()] };
  }

  /** Resolves when no run is active. */
  async waitForIdle(): Promise<void> {
    await this.activeRun;
  }

  /** pi's `agent-loop.ts`: keep only the replayed system message, clear queues and run state. */
  reset(): void {
    const head = getCurrentSystemMessage(this.data.messages);
    this.data.messages = head ? [head] : [];
    this.data.isStreaming = false;
    this.data.streamMessage = null;
    this.data.pendingToolCalls = new Set();
    this.data.error = undefined;
    this.clearAllQueues();
  }

  private loopConfig(): AgentLoopConfig {
    return {
      ...this.hooks,
      convertToLlm: this.hooks.convertToLlm ?? onlyLlmMessages,
      tools: this.data.tools.slice(),
      stream: this.streamFn,
      model: this.data.model,
      thinkingLevel: this.data.thinkingLevel === "off" ? undefined : this.data.thinkingLevel,
      getSteeringMessages: () => {
        if (this.skipInitialSteeringPoll) {
          this.skipInitialSteeringPoll = false;
          return [];
        }
        return this.drainWithSource(this.steeringQueue, "steer");
      },
      getFollowUpMessages: () => this.drainWithSource(this.followUpQueue, "followUp"),
    };
  }

  private drainWithSource(
    queue: PendingMessageQueue,
    kind: "steer" | "followUp",
  ): AgentMessage[] | Promise<AgentMessage[]> {
    const local = queue.drain();
    if (local.length > 0 || !this.queueSource) return local;
    return this.queueSource.take(kind, queue.mode);
  }

  private async run(
    start: (
      config: AgentLoopConfig,
      emit: (event: AgentEvent) => Promise<void>,
      signal: AbortSignal,
    ) => Promise<AgentMessage[]>,
  ): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.data.isStreaming = true;
    this.data.streamMessage = null;
    this.data.error = undefined;
    const emit = (event: AgentEvent) => this.processEvent(event, controller.signal);
    let settle!: () => void;
    this.activeRun = new Promise((resolve) => {
      settle = resolve;
    });
    try {
      await start(this.loopConfig(), emit, controller.signal);
    } catch (error) {
      await this.handleRunFailure(error, controller.signal, emit);
    } finally {
      this.data.isStreaming = false;
      this.data.streamMessage = null;
      this.data.pendingToolCalls = new Set();
      this.controller = undefined;
      this.activeRun = undefined;
      this.skipInitialSteeringPoll = false;
      settle();
    }
  }

  /** pi's `agent-loop.ts`: a thrown error becomes an error (or aborted) assistant message closing the run. */
  private async handleRunFailure(
    error: unknown,
    signal: AbortSignal,
    emit: (event: AgentEvent) => Promise<void>,
  ): Promise<void> {
    const message: AssistantMessage = {
      role: "assistant",
      content: [{ type: "text", text: "" }],
      api: this.data.model?.api ?? "unknown",
      provider: this.data.model?.provider ?? "unknown",
      model: this.data.model?.id ?? "unknown",
      usage: emptyUsage(),
      stopReason: signal.aborted ? "aborted" : "error",
      errorMessage: error instanceof Error ? error.message : String(error),
      timestamp: Date.now(),
    };
    await emit({ type: "message_start", message });
    await emit({ type: "message_end", message });
    await emit({ type: "turn_end", message, toolResults: [] as ToolResultMessage[] });
    await emit({ type: "agent_end", messages: [message] });
  }

  private async processEvent(event: AgentEvent, signal: AbortSignal): Promise<void> {
    const s = this.data;
    switch (event.type) {
      case "message_start":
      case "message_update":
        s.streamMessage = event.message;
        break;
      case "message_end":
        s.streamMessage = null;
        s.messages.push(event.message);
        break;
      case "tool_execution_start":
        s.pendingToolCalls = new Set(s.pendingToolCalls).add(event.toolCallId);
        break;
      case "tool_execution_end": {
        const next = new Set(s.pendingToolCalls);
        next.delete(event.toolCallId);
        s.pendingToolCalls = next;
        break;
      }
      case "turn_end":
        if (event.message.role === "assistant" && event.message.errorMessage)
          s.error = event.message.errorMessage;
        break;
      case "agent_end":
        s.isStreaming = false;
        s.streamMessage = null;
        break;
      default:
        break;
    }
    for (const listener of this.listeners) await listener(event, signal);
  }
}
