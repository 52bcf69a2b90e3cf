/**
 * pi's `ExtensionRunner` (packages/coding-agent/src/core/extensions/runner.ts, pi's `extensions/runner.ts`): handlers run per
 * extension in load (registration) order, each extension's handlers in registration order; a throwing handler
 * is reported to `onError` listeners as `{ extensionPath, event, error, stack }` and the chain goes on.
 */
import type { AgentMessage, CustomMessage } from "@/lib/agent/messages";
import type { ImageContent } from "@/lib/llm/types";
import { getCurrentSystemMessage } from "@/lib/prompt/system-message";
import type {
  BeforeAgentStartEvent,
  ExtensionAPI,
  ExtensionCommand,
  ExtensionContext,
  ExtensionError,
  ExtensionEventName,
  ExtensionHandlers,
  ExtensionModule,
  ExtensionSessionActions,
  InputEventResult,
  InputSource,
  NotifyEvent,
  SessionBeforeEvent,
  SessionBeforeEventType,
  SessionBeforeResult,
  SystemPromptOptions,
} from "./types";

/** pi's text for an action method (`sendMessage`, `setActiveTools`, …) called before the runtime was bound. */
export const RUNTIME_NOT_INITIALIZED_ERROR =
  "Extension runtime not initialized. Action methods cannot be called during extension loading.";

/** pi's `extensions/runner.ts`: reported when a `context_with_system` handler drops the leading system message. */
export const LEADING_SYSTEM_REMOVED_ERROR =
  "Handler removed the leading system message; the request has no prompt or initial tool declarations. Keep it at index 0 or replace a dropped prefix with getCurrentSystemMessage().";

// biome-ignore lint/suspicious/noExplicitAny: handlers of every event share one table.
type AnyHandler = (event: any, ctx: ExtensionContext) => unknown;

interface LoadedExtension {
  path: string;
  handlers: Map<string, AnyHandler[]>;
}

/** Result of {@link ExtensionRunner.emitBeforeAgentStart}. */
export interface BeforeAgentStartOutcome {
  /** One custom message per returned `message`, in order (content `null` → `[]`, pi's `transform-messages.ts`). */
  messages: CustomMessage[];
  /** The last returned `systemPrompt` (pi's `system-prompt.ts`: used for the request, never persisted). */
  forceSystemPrompt?: string;
  /** The options after every handler (mutated in place). */
  systemPromptOptions: SystemPromptOptions;
  /** Set when a handler changed `systemPromptOptions.selectedTools` (pi's `extensions/runner.ts`). */
  selectedTools?: string[];
}

export class ExtensionRunner {
  private readonly extensions: LoadedExtension[] = [];
  private readonly commands = new Map<string, ExtensionCommand & { extensionPath: string }>();
  private readonly errorListeners = new Set<(error: ExtensionError) => void>();
  private session: ExtensionSessionActions | undefined;

  /** @param contextFor extra fields of the `ctx` each handler gets (e.g. cwd, session accessors). */
  constructor(private readonly contextFor: (extensionPath: string) => Record<string, unknown> = () => ({})) {}

  /**
   * pi `bindCore`: the session's action methods, behind every extension's `sendMessage`, `setActiveTools`,
   * `getActiveTools` and `getAllTools`. Until bound (e.g. inside `setup`) they throw
   * {@link RUNTIME_NOT_INITIALIZED_ERROR}.
   */
  bindSession(actions: ExtensionSessionActions): void {
    this.session = actions;
  }

  private actions(): ExtensionSessionActions {
    if (!this.session) throw new Error(RUNTIME_NOT_INITIALIZED_ERROR);
    return this.session;
  }

  /** Load one extension: its `setup` runs now; its place in the load order is its registration order. */
  async registerExtension(module: ExtensionModule): Promise<void> {
    const loaded: LoadedExtension = { path: module.path, handlers: new Map() };
    const api: ExtensionAPI = {
      sendMessage: (message, options) => this.actions().sendMessage(message, options),
      setActiveTools: (names) => this.actions().setActiveTools(names),
      getActiveTools: () => this.actions().getActiveTools(),
      getAllTools: () => this.actions().getAllTools(),
      on: (event: string, handler: AnyHandler) => {
        const list = loaded.handlers.get(event) ?? [];
        list.push(handler);
        loaded.handlers.set(event, list);
      },
      registerCommand: (name, options) => {
        if (!this.commands.has(name))
          this.commands.set(name, { name, ...options, extensionPath: module.path });
      },
    };
    this.extensions.push(loaded);
    try {
      await module.setup(api);
    } catch (error) {
      this.report(module.path, "setup", error);
    }
  }

  /** Listen to handler failures; returns an unsubscribe. */
  onError(listener: (error: ExtensionError) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /** Report an error in pi's shape (also used for `skill_expansion` and `command`). */
  report(extensionPath: string, event: string, error: unknown): void {
    const report: ExtensionError = {
      extensionPath,
      event,
      error: error instanceof Error ? error.message : String(error),
      ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
    };
    for (const listener of this.errorListeners) listener(report);
  }

  /** Extension paths in load order. */
  get extensionPaths(): string[] {
    return this.extensions.map((e) => e.path);
  }

  getCommand(name: string): (ExtensionCommand & { extensionPath: string }) | undefined {
    return this.commands.get(name);
  }

  getCommands(): (ExtensionCommand & { extensionPath: string })[] {
    return [...this.commands.values()];
  }

  /** The paths of the extensions with a handler for any of `events`, in load order. */
  handlerPaths(...events: string[]): string[] {
    return this.extensions
      .filter((e) => events.some((event) => (e.handlers.get(event)?.length ?? 0) > 0))
      .map((e) => e.path);
  }

  hasHandlers(event: string): boolean {
    return this.extensions.some((e) => (e.handlers.get(event)?.length ?? 0) > 0);
  }

  private *handlersOf(event: string): Generator<{ path: string; handler: AnyHandler }> {
    for (const ext of this.extensions)
      for (const handler of ext.handlers.get(event) ?? []) yield { path: ext.path, handler };
  }

  private ctx(extensionPath: string): ExtensionContext {
    return { ...this.contextFor(extensionPath), extensionPath };
  }

  /**
   * Run a registered command (`/name args`, args = the text after the first space). A throwing handler is
   * reported with event `command`.
   * @returns false when no extension registered `name`.
   */
  async runCommand(text: string): Promise<boolean> {
    const space = text.indexOf(" ");
    const name = space === -1 ? text.slice(1) : text.slice(1, space);
    const command = this.commands.get(name);
    if (!command) return false;
    const args = space === -1 ? "" : text.slice(space + 1);
    try {
      await command.handler(args, this.ctx(command.extensionPath));
    } catch (error) {
      this.report(command.extensionPath, "command", error);
    }
    return true;
  }

  /** Notify handlers of `event.type`; results are ignored, errors reported. */
  async emit(event: NotifyEvent): Promise<void> {
    for (const { path, handler } of this.handlersOf(event.type)) {
      try {
        await handler(event, this.ctx(path));
      } catch (error) {
        this.report(path, event.type, error);
      }
    }
  }

  /**
   * pi's `extensions/runner.ts`: `input` handlers chain; `transform` replaces the text (images kept when omitted), `handled` stops
   * at once. `{ action: "continue" }` when nothing transformed, else `{ action: "transform", text, images }`.
   */
  async emitInput(
    text: string,
    images: ImageContent[] | undefined,
    source: InputSource,
  ): Promise<InputEventResult> {
    let currentText = text;
    let currentImages = images;
    let transformed = false;
    for (const { path, handler } of this.handlersOf("input")) {
      try {
        const result = (await handler(
          { type: "input", text: currentText, images: structuredClone(currentImages), source },
          this.ctx(path),
        )) as InputEventResult | undefined;
        if (result?.action === "handled") return { action: "handled" };
        if (result?.action === "transform") {
          transformed = true;
          currentText = result.text;
          if (result.images !== undefined) currentImages = result.images;
        }
      } catch (error) {
        this.report(path, "input", error);
      }
    }
    return transformed
      ? { action: "transform", text: currentText, images: currentImages }
      : { action: "continue" };
  }

  /**
   * pi's `extensions/runner.ts`: every handler gets `{ prompt, images, systemPrompt, systemPromptOptions }` (options mutable and
   * shared). A returned `systemPrompt` is written to `systemPromptOptions.forceSystemPrompt` (pi's
   * `currentOptions.forceSystemPrompt`), so later handlers see it in their options and as `event.systemPrompt`
   * (a forced prompt renders as itself, pi's `system-prompt.ts`); otherwise `systemPrompt` is rendered from the options now.
   * `forceSystemPrompt` of the outcome is the options' string `forceSystemPrompt` after the last handler (also
   * one a handler set or cleared in the options directly).
   */
  async emitBeforeAgentStart(
    prompt: string,
    images: ImageContent[] | undefined,
    systemPromptOptions: SystemPromptOptions,
    renderSystemPrompt: (options: SystemPromptOptions) => string,
    now: () => number = Date.now,
  ): Promise<BeforeAgentStartOutcome> {
    const options = systemPromptOptions;
    const selectedBefore = JSON.stringify(options.selectedTools);
    const messages: CustomMessage[] = [];
    const forcedNow = () =>
      typeof options.forceSystemPrompt === "string" ? options.forceSystemPrompt : undefined;
    for (const { path, handler } of this.handlersOf("before_agent_start")) {
      const event: BeforeAgentStartEvent = {
        type: "before_agent_start",
        prompt,
        images: structuredClone(images),
        get systemPrompt() {
          return forcedNow() ?? renderSystemPrompt(options);
        },
        systemPromptOptions: options,
      };
      try {
        const result = (await handler(event, this.ctx(path))) as
          | Awaited<ReturnType<ExtensionHandlers["before_agent_start"]>>
          | undefined;
        if (!result) continue;
        if (result.message) {
          const m = result.message;
          messages.push({
            role: "custom",
            customType: m.customType,
            content: m.content ?? [],
            display: m.display,
            ...(m.details !== undefined ? { details: m.details } : {}),
            timestamp: now(),
          });
        }
        if (result.systemPrompt !== undefined) options.forceSystemPrompt = result.systemPrompt;
      } catch (error) {
        this.report(path, "before_agent_start", error);
      }
    }
    const selectedChanged = JSON.stringify(options.selectedTools) !== selectedBefore;
    const forced = forcedNow();
    return {
      messages,
      ...(forced !== undefined ? { forceSystemPrompt: forced } : {}),
      systemPromptOptions: options,
      ...(selectedChanged && options.selectedTools ? { selectedTools: options.selectedTools } : {}),
    };
  }

  /**
   * pi's `extensions/runner.ts`: `context` handlers get a `structuredClone` of the conversation without system messages; if
   * none changed it (a returned list or an in-place edit), the original list with its system messages in place
   * is used, else `[replayed system head, ...changed]`. Then `context_with_system` handlers get and return the
   * full list (used as returned; dropping the leading system message is reported with pi's text).
   */
  async emitContext(messages: AgentMessage[]): Promise<AgentMessage[]> {
    let result = messages;
    if (this.hasHandlers("context")) {
      const conversation = messages.filter((m) => m.role !== "system");
      const before = JSON.stringify(conversation);
      let current: AgentMessage[] = structuredClone(conversation);
      for (const { path, handler } of this.handlersOf("context")) {
        const event = { type: "context" as const, messages: current };
        try {
          const out = (await handler(event, this.ctx(path))) as { messages?: AgentMessage[] } | undefined;
          current = out?.messages ?? event.messages;
        } catch (error) {
          this.report(path, "context", error);
        }
      }
      if (JSON.stringify(current) !== before) {
        const head = getCurrentSystemMessage(messages);
        result = head ? [head, ...current] : current;
      }
    }
    if (this.hasHandlers("context_with_system")) {
      let current = structuredClone(result);
      for (const { path, handler } of this.handlersOf("context_with_system")) {
        const hadHead = current[0]?.role === "system";
        const event = { type: "context_with_system" as const, messages: current };
        try {
          const out = (await handler(event, this.ctx(path))) as { messages?: AgentMessage[] } | undefined;
          current = out?.messages ?? event.messages;
          if (hadHead && current[0]?.role !== "system")
            this.report(path, "context_with_system", new Error(LEADING_SYSTEM_REMOVED_ERROR));
        } catch (error) {
          this.report(path, "context_with_system", error);
        }
      }
      result = current;
    }
    return result;
  }

  /**
   * pi's `extensions/runner.ts`: `before_provider_request` handlers chain; a non-`undefined` return replaces the payload. Then the
   * final payload is announced as Strata's `provider_payload`.
   */
  async emitBeforeProviderRequest(payload: unknown, url?: string): Promise<unknown> {
    let current = payload;
    for (const { path, handler } of this.handlersOf("before_provider_request")) {
      try {
        const out = await handler({ type: "before_provider_request", payload: current, url }, this.ctx(path));
        if (out !== undefined) current = out;
      } catch (error) {
        this.report(path, "before_provider_request", error);
      }
    }
    await this.emit({ type: "provider_payload", payload: current, url });
    return current;
  }

  /**
   * For `streamAssistant`'s `onPayload`: runs {@link emitBeforeProviderRequest}; returns the replacement, or
   * `undefined` when the payload is unchanged.
   */
  createOnPayload(): (payload: unknown, url: string) => Promise<unknown | undefined> {
    return async (payload, url) => {
      const out = await this.emitBeforeProviderRequest(payload, url);
      return out === payload ? undefined : out;
    };
  }

  /** pi's `extensions/runner.ts`: `before_provider_headers` handlers mutate `headers` in place; returns them. */
  async emitBeforeProviderHeaders(
    headers: Record<string, string>,
    url?: string,
  ): Promise<Record<string, string>> {
    for (const { path, handler } of this.handlersOf("before_provider_headers")) {
      try {
        await handler({ type: "before_provider_headers", headers, url }, this.ctx(path));
      } catch (error) {
        this.report(path, "before_provider_headers", error);
      }
    }
    return headers;
  }

  /**
   * pi's `extensions/runner.ts`: the first result with `cancel` stops the chain and is returned; otherwise the last result a
   * handler returned (or `undefined`).
   */
  async emitSessionBefore(
    type: SessionBeforeEventType,
    fields: Omit<SessionBeforeEvent, "type"> = {},
  ): Promise<SessionBeforeResult | undefined> {
    let last: SessionBeforeResult | undefined;
    for (const { path, handler } of this.handlersOf(type)) {
      try {
        const out = (await handler({ ...fields, type }, this.ctx(path))) as SessionBeforeResult | undefined;
        if (out?.cancel) return out;
        if (out) last = out;
      } catch (error) {
        this.report(path, type, error);
      }
    }
    return last;
  }
}

export type { ExtensionEventName };
