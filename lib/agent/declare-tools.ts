/**
 * Declaring the executable tools to the model (pi's `declareToolChanges` / `withToolChanges` in agent-loop.ts,
 * pi's `agent-loop.ts`): the transcript's system messages declare what the model may call, `context.tools` is what can run;
 * before the first request and before each later batch of pending messages the difference becomes
 * `toolsAdded` / `toolsRemoved` on a system message.
 */
import type { SystemMessage, ToolDeclaration } from "@/lib/llm/types";
import { diffTools, getCurrentTools } from "@/lib/prompt/system-message";
import { type AgentTool, toolParametersJsonSchema } from "@/lib/tools/types";
import type { AgentMessage } from "./messages";

/** A tool's provider declaration: `{ name, description, parameters: <JSON Schema> }`. */
export function toolDeclaration(tool: AgentTool): ToolDeclaration {
  return { name: tool.name, description: tool.description, parameters: toolParametersJsonSchema(tool) };
}

type ToolChanges = ReturnType<typeof diffTools>;

/** `message` with its tool fields replaced by `changes` (empty lists omitted), other keys in their order. */
function withToolChanges(message: SystemMessage, changes: ToolChanges): SystemMessage {
  const out: Record<string, unknown> = {};
  let placed = false;
  const place = () => {
    if (placed) return;
    placed = true;
    if (changes.toolsAdded) out.toolsAdded = changes.toolsAdded;
    if (changes.toolsRemoved) out.toolsRemoved = changes.toolsRemoved;
  };
  for (const [key, value] of Object.entries(message)) {
    if (key === "toolsAdded" || key === "toolsRemoved") {
      place();
      continue;
    }
    if (key === "timestamp") place();
    out[key] = value;
  }
  place();
  return out as unknown as SystemMessage;
}

const hasToolFields = (m: SystemMessage) =>
  (m.toolsAdded?.length ?? 0) > 0 || (m.toolsRemoved?.length ?? 0) > 0;

/**
 * pi's `declareToolChanges(committed, tools, pending)`: the pending messages with the declarations the model
 * is missing. The last pending system message (e.g. a prompt's section patch) has its own tool fields treated
 * as intent and replaced by the delta between the committed transcript (plus the pending messages) and
 * `tools` (kept as the same object when it declares nothing and nothing is missing). Without one, a
 * `{ role: "system", content: "", toolsAdded?, toolsRemoved?, timestamp }` is inserted before the first
 * non-system pending message (at the end when there is none); nothing is added when nothing changed.
 * A changed definition is a removal plus an addition.
 */
export function declareToolChanges(
  committed: readonly AgentMessage[],
  tools: readonly AgentTool[],
  pending: AgentMessage[],
  now: () => number = Date.now,
): AgentMessage[] {
  const declared = tools.map(toolDeclaration);
  let systemIndex = -1;
  for (let i = pending.length - 1; i >= 0; i--) {
    if (pending[i].role === "system") {
      systemIndex = i;
      break;
    }
  }
  const pendingSystem = systemIndex >= 0 ? (pending[systemIndex] as SystemMessage) : undefined;
  const baseline = pending.map((m, i) =>
    i === systemIndex && pendingSystem ? withToolChanges(pendingSystem, {}) : m,
  );
  const changes = diffTools(getCurrentTools([...committed, ...baseline]), declared);
  const unchanged = !changes.toolsAdded && !changes.toolsRemoved;
  if (pendingSystem) {
    if (unchanged && !hasToolFields(pendingSystem)) return pending;
    const current = { toolsAdded: pendingSystem.toolsAdded, toolsRemoved: pendingSystem.toolsRemoved };
    if (
      JSON.stringify(current) ===
      JSON.stringify({ toolsAdded: changes.toolsAdded, toolsRemoved: changes.toolsRemoved })
    )
      return pending;
    return baseline.map((m, i) => (i === systemIndex ? withToolChanges(pendingSystem, changes) : m));
  }
  if (unchanged) return pending;
  const update: SystemMessage = { role: "system", content: "", ...changes, timestamp: now() };
  const at = pending.findIndex((m) => m.role !== "system");
  const out = [...pending];
  out.splice(at === -1 ? out.length : at, 0, update);
  return out;
}
