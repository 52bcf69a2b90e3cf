/**
 * The input pipeline of pi's `AgentSession` (agent-session.ts `prompt`, `steer`, `followUp`, `sendUserMessage`,
 * `sendCustomMessage`; pi's `agent-session.ts` and `system-prompt.ts`). Everything it touches is injected, so the session runner
 * can adopt it: the extension runner (structurally, see {@link PromptExtensions}), skill and template expansion,
 * the agent's queues, persistence and the current system state.
 */

import type { AgentMessage, CustomMessage } from "@/lib/agent/messages";
import type { ImageContent, SystemMessage, TextContent, UserMessage } from "@/lib/llm/types";
import { getCurrentSystemMessage } from "@/lib/prompt/system-message";

export { messageToEntry } from "./message-entry";

/** pi's `agent-session.ts` step 2. */
export const COMPACTION_IN_PROGRESS_ERROR =
  "Cannot submit a prompt while compaction is in progress. Wait for compaction to finish and retry.";
/** pi's `agent-session.ts`. */
export const STREAMING_BEHAVIOR_REQUIRED_ERROR =
  "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";
/** pi's `agent-session.ts`. */
export const extensionCommandQueuedError = (name: string) =>
  `Extension command "/${name}" cannot be queued. Use prompt() or execute the command when not streaming.`;

type Awaitable<T> = T | Promise<T>;
type InputSource = "interactive" | "rpc" | "extension";
type PromptOptionsBag = Record<string, unknown> & { selectedTools?: string[] };

/** What the pipeline needs of the extension runner (`ExtensionRunner` satisfies it). */
export interface PromptExtensions {
  getCommand(name: string): unknown;
  runCommand(text: string): Promise<boolean>;
  emitInput(
    text: string,
    images: ImageContent[] | undefined,
    source: InputSource,
  ): Promise<
    | { action: "continue" }
    | { action: "transform"; text: string; images?: ImageContent[] }
    | { action: "handled" }
  >;
  emitBeforeAgentStart(
    prompt: string,
    images: ImageContent[] | undefined,
    options: PromptOptionsBag,
    render: (options: PromptOptionsBag) => string,
  ): Promise<{
    messages: CustomMessage[];
    forceSystemPrompt?: string;
    systemPromptOptions: PromptOptionsBag;
  }>;
  report(extensionPath: string, event: string, error: unknown): void;
}

/** Mutable pipeline state one session keeps between calls. */
export interface InputState {
  /** `sendCustomMessage(..., { deliverAs: "nextTurn" })` messages, joined to the next prompt (pi's `agent-session.ts`). */
  nextTurn: CustomMessage[];
  /** Messages to append once the agent is idle (`triggerTurn: false` while streaming; pending bash results). */
  pendingAppend: AgentMessage[];
  /** Queued texts (for `queue_update`). */
  steering: string[];
  followUp: string[];
}

export function createInputState(): InputState {
  return { nextTurn: [], pendingAppend: [], steering: [], followUp: [] };
}

export interface InputDeps {
  state: InputState;
  extensions?: PromptExtensions;
  isStreaming(): boolean;
  isCompacting?(): boolean;
  /** `/skill:name args` expansion (pi's `skills.ts`); a read error is reported as an extension error. */
  expandSkill?(text: string): Awaitable<{
    text: string;
    error?: { extensionPath: string; event: string; error: string };
  }>;
  /** `/template args` expansion (pi's `prompt-templates.ts`). */
  expandTemplate?(text: string): string;
  /** Queue into the agent (pi `agent.steer` / `agent.followUp`). */
  steer(message: AgentMessage): void;
  followUp(message: AgentMessage): void;
  /** `queue_update` with the queued texts (pi's `agent-session.ts`). */
  onQueueUpdate?(queue: { steering: string[]; followUp: string[] }): void;
  /** Append a message outside a run: persist it (see `messageToEntry`) and emit `message_start`/`message_end`. */
  appendMessage(message: AgentMessage): Awaitable<void>;
  /** pi's `agent-session.ts` step 8: throws when there is no model or key. */
  checkModel?(): Awaitable<void>;
  /** pi's `agent-session.ts` step 9: compaction check against the last assistant message. */
  checkCompaction?(): Awaitable<void>;
  /** The base system prompt options of this prompt (handed to `before_agent_start`, mutable). */
  systemPromptOptions?(): PromptOptionsBag;
  /** Render options to the full prompt text (for `event.systemPrompt`). */
  renderSystemPrompt?(options: PromptOptionsBag): string;
  /** The system patch (sections diff + tool deltas) against the transcript, or undefined when nothing changed. */
  buildSystemPatch?(options: PromptOptionsBag): Awaitable<SystemMessage | undefined>;
  /** pi's `agent-session.ts` image normalisation for the chosen model: the images to send and notes appended to the text. */
  normalizeImages?(images: ImageContent[]): Awaitable<{ images: ImageContent[]; notes: string[] }>;
  /** Start the run with the built messages (pi `agent.prompt(messages)`); `forceSystemPrompt` for 3.30. */
  run(messages: AgentMessage[], options: { forceSystemPrompt?: string }): Awaitable<void>;
  now?(): number;
}

export interface PromptOptions {
  images?: ImageContent[];
  /** Default true; false skips extension commands, `/skill:` and templates (the `input` hook still runs). */
  expandPromptTemplates?: boolean;
  streamingBehavior?: "steer" | "followUp";
  source?: InputSource;
}

/** What {@link processPrompt} did. */
export type PromptOutcome =
  | { action: "command" }
  | { action: "handled" }
  | { action: "queued"; as: "steer" | "followUp"; message: UserMessage }
  | { action: "run"; messages: AgentMessage[]; forceSystemPrompt?: string };

const textOf = (text: string, images: ImageContent[], now: number): UserMessage => ({
  role: "user",
  content: [{ type: "text", text }, ...images],
  timestamp: now,
});

function commandName(text: string): string {
  const space = text.indexOf(" ");
  return space === -1 ? text.slice(1) : text.slice(1, space);
}

async function expand(text: string, deps: InputDeps): Promise<string> {
  let out = text;
  if (deps.expandSkill) {
    const result = await deps.expandSkill(out);
    if (result.error)
      deps.extensions?.report(result.error.extensionPath, result.error.event, new Error(result.error.error));
    out = result.text;
  }
  return deps.expandTemplate ? deps.expandTemplate(out) : out;
}

function queue(
  kind: "steer" | "followUp",
  text: string,
  images: ImageContent[],
  deps: InputDeps,
): UserMessage {
  const message = textOf(text, images, (deps.now ?? Date.now)());
  if (kind === "steer") {
    deps.state.steering.push(text);
    deps.steer(message);
  } else {
    deps.state.followUp.push(text);
    deps.followUp(message);
  }
  deps.onQueueUpdate?.({ steering: [...deps.state.steering], followUp: [...deps.state.followUp] });
  return message;
}

/** pi's `agent-session.ts` step 7: append what waited for an idle agent (pending bash and custom messages). */
export async function flushPendingMessages(deps: Pick<InputDeps, "state" | "appendMessage">): Promise<void> {
  for (const m of deps.state.pendingAppend.splice(0)) await deps.appendMessage(m);
}

/**
 * pi's `AgentSession.prompt(text, options)` in pi's order (pi's `agent-session.ts`): extension command → refusal during
 * compaction → `input` hook → `/skill:` → `/template` → queue when streaming (pi's `agent-session.ts`) → flush pending messages →
 * model check → compaction check → `before_agent_start` → image normalisation → messages: system patch,
 * user message, pending `nextTurn` custom messages, `before_agent_start` messages (pi's `agent-session.ts`) → `deps.run`.
 */
export async function processPrompt(
  text: string,
  options: PromptOptions,
  deps: InputDeps,
): Promise<PromptOutcome> {
  const expandTemplates = options.expandPromptTemplates ?? true;
  const now = deps.now ?? Date.now;
  if (expandTemplates && text.startsWith("/") && deps.extensions?.getCommand(commandName(text))) {
    await deps.extensions.runCommand(text);
    return { action: "command" };
  }
  if (deps.isCompacting?.()) throw new Error(COMPACTION_IN_PROGRESS_ERROR);
  let current = text;
  let images = options.images ?? [];
  if (deps.extensions) {
    const result = await deps.extensions.emitInput(current, options.images, options.source ?? "interactive");
    if (result.action === "handled") return { action: "handled" };
    if (result.action === "transform") {
      current = result.text;
      images = result.images ?? images;
    }
  }
  if (expandTemplates) current = await expand(current, deps);
  if (deps.isStreaming()) {
    if (!options.streamingBehavior) throw new Error(STREAMING_BEHAVIOR_REQUIRED_ERROR);
    const message = queue(options.streamingBehavior, current, images, deps);
    return { action: "queued", as: options.streamingBehavior, message };
  }
  await flushPendingMessages(deps);
  await deps.checkModel?.();
  await deps.checkCompaction?.();
  let promptOptions = deps.systemPromptOptions?.() ?? {};
  let forceSystemPrompt: string | undefined;
  let hookMessages: CustomMessage[] = [];
  if (deps.extensions) {
    const outcome = await deps.extensions.emitBeforeAgentStart(
      current,
      images.length > 0 ? images : undefined,
      promptOptions,
      deps.renderSystemPrompt ?? (() => ""),
    );
    hookMessages = outcome.messages;
    forceSystemPrompt = outcome.forceSystemPrompt;
    promptOptions = outcome.systemPromptOptions;
  }
  if (deps.normalizeImages && images.length > 0) {
    const normalized = await deps.normalizeImages(images);
    images = normalized.images;
    if (normalized.notes.length > 0) current += `\n\n${normalized.notes.join("\n")}`;
  }
  const messages: AgentMessage[] = [];
  const patch = await deps.buildSystemPatch?.(promptOptions);
  if (patch) messages.push(patch);
  messages.push(textOf(current, images, now()));
  messages.push(...deps.state.nextTurn.splice(0));
  messages.push(...hookMessages);
  await deps.run(messages, forceSystemPrompt !== undefined ? { forceSystemPrompt } : {});
  return { action: "run", messages, ...(forceSystemPrompt !== undefined ? { forceSystemPrompt } : {}) };
}

/**
 * pi's `agent-session.ts` `steer(text)` / `followUp(text)`: refuses extension commands, runs `input` handlers, expands skill then
 * template, queues a user message and reports `queue_update`.
 * @returns the queued message, or undefined when an `input` handler handled it.
 */
export async function queueInput(
  kind: "steer" | "followUp",
  text: string,
  images: ImageContent[] | undefined,
  deps: InputDeps,
): Promise<UserMessage | undefined> {
  if (text.startsWith("/") && deps.extensions?.getCommand(commandName(text)))
    throw new Error(extensionCommandQueuedError(commandName(text)));
  let current = text;
  let currentImages = images ?? [];
  if (deps.extensions) {
    const result = await deps.extensions.emitInput(current, images, "interactive");
    if (result.action === "handled") return undefined;
    if (result.action === "transform") {
      current = result.text;
      currentImages = result.images ?? currentImages;
    }
  }
  current = await expand(current, deps);
  return queue(kind, current, currentImages, deps);
}

/** Drop a delivered queued text (call on the user message's `message_start`). */
export function noteDelivered(message: AgentMessage, deps: Pick<InputDeps, "state" | "onQueueUpdate">): void {
  if (message.role !== "user") return;
  const first =
    typeof message.content === "string" ? message.content : message.content.find((c) => c.type === "text");
  const text = typeof first === "string" ? first : first?.text;
  if (text === undefined) return;
  for (const list of [deps.state.steering, deps.state.followUp]) {
    const i = list.indexOf(text);
    if (i >= 0) {
      list.splice(i, 1);
      deps.onQueueUpdate?.({ steering: [...deps.state.steering], followUp: [...deps.state.followUp] });
      return;
    }
  }
}

/**
 * pi's `agent-session.ts` `sendUserMessage(content, { deliverAs })`: through {@link processPrompt} with
 * `expandPromptTemplates: false` and source `"extension"`; array content → text parts joined with `"\n"`,
 * image parts as images.
 */
export function sendUserMessage(
  content: string | (TextContent | ImageContent)[],
  options: { deliverAs?: "steer" | "followUp" },
  deps: InputDeps,
): Promise<PromptOutcome> {
  const text =
    typeof content === "string"
      ? content
      : content
          .filter((c): c is TextContent => c.type === "text")
          .map((c) => c.text)
          .join("\n");
  const images =
    typeof content === "string" ? [] : content.filter((c): c is ImageContent => c.type === "image");
  return processPrompt(
    text,
    { expandPromptTemplates: false, source: "extension", images, streamingBehavior: options.deliverAs },
    deps,
  );
}

/** What {@link sendCustomMessage} did with the message. */
export type CustomDelivery = "nextTurn" | "steer" | "followUp" | "afterTurn" | "run" | "appended";

/**
 * pi's `agent-session.ts` `sendCustomMessage(message, { triggerTurn, deliverAs })`: `nextTurn` → held for the next prompt;
 * streaming → steer (follow-up with `deliverAs: "followUp"`), or appended after the turn with
 * `triggerTurn: false`; idle with `triggerTurn` → a run with the message; otherwise appended now.
 * `content` null/undefined → `[]` (pi's `transform-messages.ts`).
 */
export async function sendCustomMessage(
  message: Pick<CustomMessage, "customType" | "display" | "details"> & {
    content?: CustomMessage["content"] | null;
  },
  options: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" },
  deps: InputDeps,
): Promise<{ delivery: CustomDelivery; message: CustomMessage }> {
  const custom: CustomMessage = {
    role: "custom",
    customType: message.customType,
    content: message.content ?? [],
    display: message.display,
    ...(message.details !== undefined ? { details: message.details } : {}),
    timestamp: (deps.now ?? Date.now)(),
  };
  if (options.deliverAs === "nextTurn") {
    deps.state.nextTurn.push(custom);
    return { delivery: "nextTurn", message: custom };
  }
  if (deps.isStreaming()) {
    if (options.triggerTurn === false) {
      deps.state.pendingAppend.push(custom);
      return { delivery: "afterTurn", message: custom };
    }
    if (options.deliverAs === "followUp") {
      deps.followUp(custom);
      return { delivery: "followUp", message: custom };
    }
    deps.steer(custom);
    return { delivery: "steer", message: custom };
  }
  if (options.triggerTurn) {
    await deps.run([custom], {});
    return { delivery: "run", message: custom };
  }
  await deps.appendMessage(custom);
  return { delivery: "appended", message: custom };
}

/**
 * pi's `system-prompt.ts`: the request-time projection of a forced system prompt (applied after the `context` hooks): every
 * system message is removed and one head `{ role: "system", content: forced, toolsAdded?: <current tools>,
 * timestamp }` is put first. The transcript is not changed.
 */
export function applyForcedSystemPrompt(
  messages: AgentMessage[],
  forced: string | undefined,
): AgentMessage[] {
  if (forced === undefined) return messages;
  const current = getCurrentSystemMessage(messages);
  const head: SystemMessage = {
    role: "system",
    content: forced,
    ...(current?.toolsAdded ? { toolsAdded: current.toolsAdded } : {}),
    timestamp: current?.timestamp ?? Date.now(),
  };
  return [head, ...messages.filter((m) => m.role !== "system")];
}
