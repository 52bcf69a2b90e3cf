/**
 * The agent loop (pi's `runAgentLoop` / `runAgentLoopContinue` / `runLoop` in packages/agent/src/agent-loop.ts,
 * pi's `agent-loop.ts`): turns until the model stops calling tools and no steering or follow-up message waits.
 *
 * Per turn: [`prepareNextTurn` → `turn_start`] (turns after the first) → tool declarations (pi's `agent-loop.ts`) and the
 * prepared/pending messages → `prepareRequest` → one streamed response → tool calls → `finishTurn` →
 * `turn_end` → steering poll. When the inner loop would stop, follow-ups (pi's `agent-loop.ts`) or a `finishTurn` continue
 * (pi's `agent-loop.ts`) start it again.
 */
import type { ToolResultMessage } from "@/lib/llm/types";
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

  const append = async (messages: AgentMessage[]) => {
    for (const m of messages) {
      await emit({ type: "message_start", message: m });
      await emit({ type: "message_end", message: m });
      context.messages.push(m);
      added.push(m);
    }
  };

  for (;;) {
    let hasMoreToolCalls = true;
    while (hasMoreToolCalls || pending.length > 0 || forceTurn) {
      forceTurn = false;
      if (!firstTurn && lastTurn) {
        // pi's `agent-loop.ts`: before every turn after the first.
        const snapshot = await config.prepareNextTurn?.(lastTurn, signal);
        if (snapshot) {
          if (snapshot.context)
            context = { messages: [...snapshot.context.messages], tools: snapshot.context.tools };
          config = {
            ...config,
            tools: context.tools,
            ...(snapshot.model ? { model: snapshot.model } : {}),
            ...(snapshot.thinkingLevel === undefined
              ? {}
              : { thinkingLevel: snapshot.thinkingLevel === "off" ? undefined : snapshot.thinkingLevel }),
          };
          prepared = snapshot.messages ?? [];
        }
        // pi's `agent-loop.ts`: polled again only when nothing is pending.
        if (pending.length === 0) pending = (await config.getSteeringMessages?.()) ?? [];
        await emit({ type: "turn_start" });
      }
      firstTurn = false;
      let batch = [...prepared, ...pending];
      prepared = [];
      pending = [];
      if (batch.length > 0 || declare) batch = declareToolChanges(context.messages, context.tools, batch);
      declare = false;
      await append(batch);

      // pi's `agent-loop.ts`: right before every request.
      const replaced = await config.prepareRequest?.(
        { context, model: config.model, thinkingLevel: config.thinkingLevel },
        signal,
      );
      if (replaced) {
        if (replaced.context)
          context = { messages: [...replaced.context.messages], tools: replaced.context.tools };
        config = {
          ...config,
          tools: context.tools,
          ...(replaced.model ? { model: replaced.model } : {}),
          ...("thinkingLevel" in replaced ? { thinkingLevel: replaced.thinkingLevel } : {}),
        };
      }

      const message = await streamAssistantResponse(context, config, emit, signal);
      added.push(message);
      const turnOf = (toolResults: ToolResultMessage[]): TurnContext => ({
        message,
        toolResults,
        context,
        newMessages: added,
      });

      if (message.stopReason === "error" || message.stopReason === "aborted") {
        // pi's `agent-loop.ts`: finishTurn runs, its decision is ignored.
        await config.finishTurn?.(turnOf([]), signal);
        await emit({ type: "turn_end", message, toolResults: [] });
        await emit({ type: "agent_end", messages: added });
        return;
      }

      const calls = message.content.filter((c) => c.type === "toolCall");
      const toolResults: ToolResultMessage[] = [];
      hasMoreToolCalls = false;
      if (calls.length > 0) {
        const batchResult =
          message.stopReason === "length"
            ? await failTruncatedToolCalls(calls, emit)
            : await executeToolCalls(context, message, config, emit, signal);
        toolResults.push(...batchResult.messages);
        hasMoreToolCalls = !batchResult.terminate;
        for (const r of toolResults) {
          context.messages.push(r);
          added.push(r);
        }
        await config.afterToolResults?.(toolResults);
      }

      lastTurn = turnOf(toolResults);
      const decision = await config.finishTurn?.(lastTurn, signal);
      await emit({ type: "turn_end", message, toolResults });
      if (decision?.action === "end") {
        await emit({ type: "agent_end", messages: added });
        return;
      }
      continueRequested = decision?.action === "continue";
      pending = (await config.getSteeringMessages?.()) ?? [];
    }

    const followUps = (await config.getFollowUpMessages?.()) ?? [];
    if (followUps.length > 0) {
      pending = followUps;
      continueRequested = false;
      continue;
    }
    if (continueRequested) {
      continueRequested = false;
      forceTurn = true;
      continue;
    }
    break;
  }
  await emit({ type: "agent_end", messages: added });
}
