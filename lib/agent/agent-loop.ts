/**
 * pi's stream-shaped entry points (`agentLoop` / `agentLoopContinue` in packages/agent/src/agent-loop.ts):
 * the same loop as {@link runAgentLoop}, consumed as an async iterable of events whose `result()` resolves
 * with the messages the run added. For callers that pull events (a CLI, a test) instead of pushing them.
 */
import { agentLoopContinue, runAgentLoop } from "./loop";
import type { AgentMessage } from "./messages";
import type { AgentContext, AgentEvent, AgentLoopConfig } from "./types";

/** An event stream of one run: iterate it for the events; `result()` gives the added messages (or the error). */
export interface AgentEventStream extends AsyncIterable<AgentEvent> {
  result(): Promise<AgentMessage[]>;
}

function toStream(
  start: (emit: (event: AgentEvent) => Promise<void>) => Promise<AgentMessage[]>,
): AgentEventStream {
  const queue: AgentEvent[] = [];
  const waiting: ((r: IteratorResult<AgentEvent>) => void)[] = [];
  let finished = false;
  const close = () => {
    finished = true;
    for (const resolve of waiting.splice(0)) resolve({ value: undefined, done: true });
  };
  const result = start(async (event) => {
    const resolve = waiting.shift();
    if (resolve) resolve({ value: event, done: false });
    else queue.push(event);
  });
  result.then(close, close);
  return {
    result: () => result,
    [Symbol.asyncIterator]: () => ({
      next: () => {
        const event = queue.shift();
        if (event) return Promise.resolve({ value: event, done: false });
        if (finished) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => waiting.push(resolve));
      },
    }),
  };
}

/**
 * pi `agentLoop(prompts, context, config, signal)`: start a run from `context.messages` plus `prompts`, with
 * `context.tools` as the executable tools (they replace `config.tools`).
 */
export function agentLoop(
  prompts: AgentMessage[],
  context: AgentContext,
  config: Omit<AgentLoopConfig, "tools">,
  signal?: AbortSignal,
): AgentEventStream {
  return toStream((emit) =>
    runAgentLoop(prompts, context.messages, { ...config, tools: context.tools }, emit, signal),
  );
}

/**
 * pi `agentLoopContinue(context, config, signal)`: continue without a new message. Throws (through `result()`,
 * before any event) `Cannot continue: no messages in context` / `Cannot continue from message role: assistant`.
 */
export function agentLoopContinueStream(
  context: AgentContext,
  config: Omit<AgentLoopConfig, "tools">,
  signal?: AbortSignal,
): AgentEventStream {
  return toStream((emit) =>
    agentLoopContinue(context.messages, { ...config, tools: context.tools }, emit, signal),
  );
}
