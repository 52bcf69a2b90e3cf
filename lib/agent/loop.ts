/**
 * The agent loop (pi's `runAgentLoop` / `runAgentLoopContinue` / `runLoop` in packages/agent/src/agent-loop.ts,
 * pi's `agent-loop.ts`): turns until the model stops calling tools and no steering or follow-up message waits.
 *
 * Per turn: [`prepareNextTurn` → `turn_start`] (turns after the first) → tool declarations (pi's `agent-loop.ts`) and the
 * prepared/pending messages → `prepareRequest` → one streamed response → tool calls → `finishTurn` →
 * `turn_end` → steering poll. When the inner loop would stop, follow-ups (pi's `agent-loop.ts`) or a `finishTurn` continue
 * (pi's `agent-loop.ts`) start it again.
 */
import type { AssistantMessage, ToolResultMessage } from "@/lib/llm/types";
import { declareToolChanges } from "./declare-tools";
import type { AgentMessage } from "./messages";
import { streamAssistantResponse } from "./stream-response";
import { executeToolCalls, failTruncatedToolCalls } from "./tool-execution";
import type { AgentContext, AgentEvent, AgentLoopConfig, TurnContext } from "./types";

type Emit = (event: AgentEvent) => Promise<void>;

/** pi's `agent-loop.ts` texts. */
export const CONTINUE_EMPTY_ERROR = "Cannot continue: no messages in context";
export const continueFromRoleError = (role: string) => `Cannot continue from message role: ${role}`;

/**
 * Run from `context` (the transcript so far, never modified) plus `prompts` (new messages, emitted first after
 * the tool declarations of pi's `agent-loop.ts`) with pi's event order. `emit` is awaited per event.
 * @returns the messages the run added (declarations and prompts included), in order.
 */
export async function runAgentLoop(
  prompts: AgentMessage[],
  context: AgentMessage[],
  config: AgentLoopConfig,
  emit: Emit,
  signal?: AbortSignal,
): Promise<AgentMessage[]> {
  const initial = declareToolChanges(context, config.tools, prompts);
  const current: AgentContext = { messages: [...context, ...initial], tools: config.tools };
  const added: AgentMessage[] = [...initial];
  await emit({ type: "agent_start" });
  await emit({ type: "turn_start" });
  for (const m of initial) {
    await emit({ type: "message_start", message: m });
    await emit({ type: "message_end", message: m });
  }
  await runLoop(current, added, config, emit, signal, false);
  return added;
}

type LoopState = { context: AgentContext; config: AgentLoopConfig };

/**
 * The context and config after a hook replaced some of them: `change.context` (copied), `change.model`, and the
 * `thinking` override (an empty object keeps the config's level; `{ thinkingLevel: undefined }` clears it).
 */
function replaceState(
  state: LoopState,
  change: { context?: AgentContext; model?: AgentLoopConfig["model"] },
  thinking: { thinkingLevel?: AgentLoopConfig["thinkingLevel"] },
): LoopState {
  const context = change.context
    ? { messages: [...change.context.messages], tools: change.context.tools }
    : state.context;
  return {
    context,
    config: {
      ...state.config,
      tools: context.tools,
      ...(change.model ? { model: change.model } : {}),
      ...thinking,
    },
  };
}

/** The state after `prepareRequest` replaced parts of it: a `thinkingLevel` key, even undefined, wins. */
function requestState(
  state: LoopState,
  replaced: NonNullable<Awaited<ReturnType<NonNullable<AgentLoopConfig["prepareRequest"]>>>>,
): LoopState {
  return replaceState(
    state,
    replaced,
    "thinkingLevel" in replaced ? { thinkingLevel: replaced.thinkingLevel } : {},
  );
}

/**
 * Run the tool calls of `message` (none: no results; a `length` stop fails them all as truncated) and append the
 * results to `context.messages` and the run's `added` messages, then `afterToolResults`. @returns the results and whether another turn follows
 * (false when there were no calls or a tool asked to terminate).
 */
async function runTurnToolCalls(
  { context, added }: { context: AgentContext; added: AgentMessage[] },
  message: AssistantMessage,
  config: AgentLoopConfig,
  emit: Emit,
  signal: AbortSignal | undefined,
): Promise<{ results: ToolResultMessage[]; more: boolean }> {
  const calls = message.content.filter((c) => c.type === "toolCall");
  if (calls.length === 0) return { results: [], more: false };
  const batchResult =
    message.stopReason === "length"
      ? await failTruncatedToolCalls(calls, emit)
      : await executeToolCalls(context, message, config, emit, signal);
  const results = [...batchResult.messages];
  for (const r of results) {
    context.messages.push(r);
    added.push(r);
  }
  await config.afterToolResults?.(results);
  return { results, more: !batchResult.terminate };
}

/** Emit `message_start` / `message_end` for each message and add it to the context and the run's new messages. */
async function appendMessages(
  messages: AgentMessage[],
  to: { context: AgentContext; added: AgentMessage[] },
  emit: Emit,
): Promise<void> {
  for (const m of messages) {
    await emit({ type: "message_start", message: m });
    await emit({ type: "message_end", message: m });
    to.context.messages.push(m);
    to.added.push(m);
  }
}

/**
 * pi's `agent-loop.ts` before every turn after the first: `prepareNextTurn`'s snapshot (context, model, thinking level,
 * messages to add), the steering queue polled again only when nothing is pending, then `turn_start`.
 */
async function openNextTurn(
  state: LoopState,
  lastTurn: TurnContext,
  pending: AgentMessage[],
  emit: Emit,
  signal: AbortSignal | undefined,
): Promise<LoopState & { prepared: AgentMessage[]; pending: AgentMessage[] }> {
  let next = state;
  let prepared: AgentMessage[] = [];
  const snapshot = await state.config.prepareNextTurn?.(lastTurn, signal);
  if (snapshot) {
    // pi's `agent-loop.ts`: a snapshot's thinking level "off" clears it; none keeps it.
    const level = snapshot.thinkingLevel;
    next = replaceState(
      state,
      snapshot,
      level === undefined ? {} : { thinkingLevel: level === "off" ? undefined : level },
    );
    prepared = snapshot.messages ?? [];
  }
  const steering = pending.length === 0 ? ((await next.config.getSteeringMessages?.()) ?? []) : pending;
  await emit({ type: "turn_start" });
  return { ...next, prepared, pending: steering };
}

/** A turn that ended in an error or an abort: `turn_end` without tool results, then `agent_end`. */
async function endFailedTurn(message: AssistantMessage, added: AgentMessage[], emit: Emit): Promise<void> {
  await emit({ type: "turn_end", message, toolResults: [] });
  await emit({ type: "agent_end", messages: added });
}

/**
 * pi's `agent-loop.ts` once no tool call and no steering is left: queued follow-ups start another round; else a
 * `continue` decision of the last `finishTurn` forces one more turn; else null (the run ends).
 */
async function resumeAfterTurns(
  config: AgentLoopConfig,
  continueRequested: boolean,
): Promise<{ pending: AgentMessage[]; forceTurn: boolean } | null> {
  const followUps = (await config.getFollowUpMessages?.()) ?? [];
  if (followUps.length > 0) return { pending: followUps, forceTurn: false };
  if (continueRequested) return { pending: [], forceTurn: true };
  return null;
}

/** What `finishTurn` and `prepareNextTurn` see of a turn. */
function turnContext(
  message: AssistantMessage,
  toolResults: ToolResultMessage[],
  context: AgentContext,
  newMessages: AgentMessage[],
): TurnContext {
  return { message, toolResults, context, newMessages };
}

/**
 * Continue from `context` without a new message (pi `agentLoopContinue`, pi's `agent-loop.ts`): retries, or a transcript
 * ending in a user message or tool results. No message events for the existing messages; missing tool
 * declarations are added before the first request (pi's `agent-loop.ts`).
 * @throws Error `Cannot continue: no messages in context` / `Cannot continue from message role: assistant`
 *   (before any event).
 */
export async function agentLoopContinue(
  context: AgentMessage[],
  config: AgentLoopConfig,
  emit: Emit,
  signal?: AbortSignal,
): Promise<AgentMessage[]> {
  if (context.length === 0) throw new Error(CONTINUE_EMPTY_ERROR);
  const last = context[context.length - 1];
  if (last.role === "assistant") throw new Error(continueFromRoleError(last.role));
  const current: AgentContext = { messages: [...context], tools: config.tools };
  const added: AgentMessage[] = [];
  await emit({ type: "agent_start" });
  await emit({ type: "turn_start" });
  await runLoop(current, added, config, emit, signal, true);
  return added;
}

async function runLoop(
  initialContext: AgentContext,
  added: AgentMessage[],
  initialConfig: AgentLoopConfig,
  emit: Emit,
  signal: AbortSignal | undefined,
  declareFirst: boolean,
): Promise<void> {
  let context = initialContext;
  let config = initialConfig;
  let firstTurn = true;
  let declare = declareFirst;
  let lastTurn: TurnContext | undefined;
  let prepared: AgentMessage[] = [];
  // pi's `agent-loop.ts`: polled once at loop start (messages typed while waiting join the first turn).
  let pending: AgentMessage[] = (await config.getSteeringMessages?.()) ?? [];
  let continueRequested = false;
  let forceTurn = false;

  for (;;) {
    let hasMoreToolCalls = true;
    while (hasMoreToolCalls || pending.length > 0 || forceTurn) {
      forceTurn = false;
      if (!firstTurn && lastTurn)
        ({ context, config, prepared, pending } = await openNextTurn(
          { context, config },
          lastTurn,
          pending,
          emit,
          signal,
        ));
      firstTurn = false;
      let batch = [...prepared, ...pending];
      prepared = [];
      pending = [];
      if (batch.length > 0 || declare) batch = declareToolChanges(context.messages, context.tools, batch);
      declare = false;
      await appendMessages(batch, { context, added }, emit);

      // pi's `agent-loop.ts`: right before every request.
      const replaced = await config.prepareRequest?.(
        { context, model: config.model, thinkingLevel: config.thinkingLevel },
        signal,
      );
      if (replaced) ({ context, config } = requestState({ context, config }, replaced));

      const message = await streamAssistantResponse(context, config, emit, signal);
      added.push(message);

      if (message.stopReason === "error" || message.stopReason === "aborted") {
        // pi's `agent-loop.ts`: finishTurn runs, its decision is ignored.
        await config.finishTurn?.(turnContext(message, [], context, added), signal);
        return endFailedTurn(message, added, emit);
      }

      const tools = await runTurnToolCalls({ context, added }, message, config, emit, signal);
      const toolResults = tools.results;
      hasMoreToolCalls = tools.more;

      lastTurn = turnContext(message, toolResults, context, added);
      const decision = await config.finishTurn?.(lastTurn, signal);
      await emit({ type: "turn_end", message, toolResults });
      if (decision?.action === "end") {
        await emit({ type: "agent_end", messages: added });
        return;
      }
      continueRequested = decision?.action === "continue";
      pending = (await config.getSteeringMessages?.()) ?? [];
    }

    const resume = await resumeAfterTurns(config, continueRequested);
    if (!resume) break;
    ({ pending, forceTurn } = resume);
    continueRequested = false;
  }
  await emit({ type: "agent_end", messages: added });
}
