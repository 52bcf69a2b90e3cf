/**
 * Extension contracts (pi's `packages/coding-agent/src/core/extensions/types.ts`, the subset Strata runs).
 * Strata registers TypeScript modules in code (`registerExtension({ path, setup })`); it never loads code from a
 * project.
 */
import type { AgentMessage, CustomMessage } from "@/lib/agent/messages";
import type { ImageContent } from "@/lib/llm/types";

/** Where an input came from (pi `InputSource`). */
export type InputSource = "interactive" | "rpc" | "extension";

export interface InputEvent {
  type: "input";
  text: string;
  images?: ImageContent[];
  source: InputSource;
}

/** pi `InputEventResult`. */
export type InputEventResult =
  | { action: "continue" }
  | { action: "transform"; text: string; images?: ImageContent[] }
  | { action: "handled" };

/**
 * Options the system prompt is rendered from; handlers may mutate them (pi's `extensions/runner.ts`). `forceSystemPrompt` holds
 * the text an earlier handler forced (pi's `BuildSystemPromptOptions.forceSystemPrompt`).
 */
export type SystemPromptOptions = Record<string, unknown> & {
  selectedTools?: string[];
  forceSystemPrompt?: string;
};

export interface BeforeAgentStartEvent {
  type: "before_agent_start";
  prompt: string;
  images?: ImageContent[];
  /** The prompt rendered from the current options, or the text forced by an earlier handler. */
  readonly systemPrompt: string;
  systemPromptOptions: SystemPromptOptions;
}

/** A message a `before_agent_start` handler adds (becomes a `custom` message). */
export type ExtensionMessage = Pick<CustomMessage, "customType" | "display" | "details"> & {
  content: CustomMessage["content"] | null | undefined;
};

export interface BeforeAgentStartResult {
  message?: ExtensionMessage;
  /** Forces the request's system prompt for this run (never persisted, pi's `system-prompt.ts`). */
  systemPrompt?: string;
}

export interface ContextEvent {
  type: "context";
  /** The conversation without system messages (pi's `extensions/runner.ts`); edit in place or return `{ messages }`. */
  messages: AgentMessage[];
}

export interface ContextWithSystemEvent {
  type: "context_with_system";
  /** The full list, system messages included (pi's `extensions/runner.ts`). */
  messages: AgentMessage[];
}

export interface BeforeProviderRequestEvent {
  type: "before_provider_request";
  payload: unknown;
  url?: string;
}

/** Strata: the final payload after every `before_provider_request` handler (for inspectors). */
export interface ProviderPayloadEvent {
  type: "provider_payload";
  payload: unknown;
  url?: string;
}

export interface BeforeProviderHeadersEvent {
  type: "before_provider_headers";
  /** Mutate in place (pi's `extensions/runner.ts`). */
  headers: Record<string, string>;
  url?: string;
}

/** Session-before events (pi's `extensions/runner.ts`); a result with `cancel: true` stops the operation. */
export type SessionBeforeEventType =
  | "session_before_compact"
  | "session_before_tree"
  | "session_before_fork"
  | "session_before_switch";

export interface SessionBeforeEvent {
  type: SessionBeforeEventType;
  [key: string]: unknown;
}

export interface SessionBeforeResult {
  cancel?: boolean;
  [key: string]: unknown;
}

/** Events that only notify (their results are ignored), e.g. the agent events. */
export interface NotifyEvent {
  type: string;
  [key: string]: unknown;
}

/** What each handler gets besides the event. */
export interface ExtensionContext {
  /** The handling extension's path. */
  extensionPath: string;
  [key: string]: unknown;
}

type Awaitable<T> = T | Promise<T>;
/** A handler may return nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers that return nothing are typed `void`.
type Maybe<T> = T | undefined | void;

export interface ExtensionHandlers {
  input: (event: InputEvent, ctx: ExtensionContext) => Awaitable<Maybe<InputEventResult>>;
  before_agent_start: (
    event: BeforeAgentStartEvent,
    ctx: ExtensionContext,
  ) => Awaitable<Maybe<BeforeAgentStartResult>>;
  context: (event: ContextEvent, ctx: ExtensionContext) => Awaitable<Maybe<{ messages?: AgentMessage[] }>>;
  context_with_system: (
    event: ContextWithSystemEvent,
    ctx: ExtensionContext,
  ) => Awaitable<Maybe<{ messages?: AgentMessage[] }>>;
  before_provider_request: (event: BeforeProviderRequestEvent, ctx: ExtensionContext) => Awaitable<unknown>;
  provider_payload: (event: ProviderPayloadEvent, ctx: ExtensionContext) => Awaitable<void>;
  before_provider_headers: (event: BeforeProviderHeadersEvent, ctx: ExtensionContext) => Awaitable<void>;
  session_before_compact: SessionBeforeHandler;
  session_before_tree: SessionBeforeHandler;
  session_before_fork: SessionBeforeHandler;
  session_before_switch: SessionBeforeHandler;
}

type SessionBeforeHandler = (
  event: SessionBeforeEvent,
  ctx: ExtensionContext,
) => Awaitable<Maybe<SessionBeforeResult>>;

export type ExtensionEventName = keyof ExtensionHandlers;

/** A registered slash command (`/name args`). */
export interface ExtensionCommand {
  name: string;
  description?: string;
  handler(args: string, ctx: ExtensionContext): Awaitable<void>;
}

/** How a custom message is delivered (pi `sendMessage` options, pi's `agent-session.ts`). */
export interface SendMessageOptions {
  triggerTurn?: boolean;
  deliverAs?: "steer" | "followUp" | "nextTurn";
}

/** A registered tool as `getAllTools()` lists it. */
export interface ToolInfo {
  name: string;
  description: string;
}

/**
 * pi's action methods, bound to a session by its runtime after every extension was loaded
 * (`ExtensionRunner.bindSession`, pi `bindCore`).
 */
export interface ExtensionSessionActions {
  /** pi `sendMessage` → the session's `sendCustomMessage` (pi's `agent-session.ts`). */
  sendMessage(message: ExtensionMessage, options?: SendMessageOptions): Promise<void>;
  /** pi `setActiveTools(names)` → `setActiveToolsByName`. */
  setActiveTools(names: string[]): void;
  /** pi `getActiveTools()` → `getActiveToolNames()`. */
  getActiveTools(): string[];
  /** pi `getAllTools()`: every registered tool. */
  getAllTools(): ToolInfo[];
}

/** The API `setup` receives. */
export interface ExtensionAPI extends ExtensionSessionActions {
  on<E extends ExtensionEventName>(event: E, handler: ExtensionHandlers[E]): void;
  /** Any other (notification) event, e.g. `agent_start`, `turn_end`. */
  on(event: string, handler: (event: NotifyEvent, ctx: ExtensionContext) => Awaitable<void>): void;
  registerCommand(name: string, options: Omit<ExtensionCommand, "name">): void;
}

/** A TypeScript extension module registered in code. */
export interface ExtensionModule {
  /** Identifies the extension in errors (pi: its file path). */
  path: string;
  setup(api: ExtensionAPI): void | Promise<void>;
}

/** pi's extension error report (pi's `extensions/runner.ts`). */
export interface ExtensionError {
  extensionPath: string;
  event: string;
  error: string;
  stack?: string;
}
