/**
 * The system side of a prompt, shared by a live run (`runPrompt`) and the context preview: the sections
 * built from the loaded resources and the active tools (pi `buildSystemPromptSections` as called by
 * `AgentSession`), and the patch a prompt starts with when sections or tools differ from the transcript's
 * replayed system state (pi 3.x: SystemMessage with `sections`, `toolsAdded` / `toolsRemoved`).
 */
import type { Message, SystemMessage, ToolDeclaration } from "@/lib/llm/types";
import {
  buildSystemPromptSections,
  diffSystemPromptSections,
  type SystemPromptSections,
} from "@/lib/prompt/sections";
import { diffTools, getCurrentSystemMessage, getSystemMessageText } from "@/lib/prompt/system-message";
import type { LoadedResources } from "@/lib/resources/resource-loader";
import { type AgentTool, toolParametersJsonSchema } from "@/lib/tools/types";

/** The tools' wire declarations (name, description, JSON Schema parameters), in tool order. */
export function declareToolsForPrompt(tools: readonly AgentTool[]): ToolDeclaration[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: toolParametersJsonSchema(t),
  }));
}

/**
 * Sections for `cwd` from the resources in effect and the active tools (snippets and guidelines from each tool).
 * @returns pi's section map, in pi's section order.
 */
export function buildSessionSections(input: {
  cwd: string;
  resources: Pick<LoadedResources, "systemPrompt" | "appendSystemPrompt" | "agentsFiles" | "skills">;
  tools: readonly AgentTool[];
}): SystemPromptSections {
  const { resources, tools } = input;
  return buildSystemPromptSections({
    cwd: input.cwd,
    customPrompt: resources.systemPrompt,
    appendSystemPrompt:
      resources.appendSystemPrompt.length > 0 ? resources.appendSystemPrompt.join("\n\n") : undefined,
    selectedTools: tools.map((t) => t.name),
    toolSnippets: Object.fromEntries(
      tools.filter((t) => t.promptSnippet).map((t) => [t.name, t.promptSnippet as string]),
    ),
    toolGuidelines: Object.fromEntries(tools.map((t) => [t.name, t.promptGuidelines ?? []])),
    contextFiles: resources.agentsFiles,
    skills: resources.skills,
  });
}

/**
 * The SystemMessage a prompt starts with, or undefined when the transcript's replayed sections and tools
 * already equal `sections` and `declarations` (pi: only changed sections, `null` for removed ones).
 */
export function buildSystemPatch(
  history: readonly { role: string }[],
  sections: SystemPromptSections,
  declarations: ToolDeclaration[],
  timestamp: number,
): SystemMessage | undefined {
  const head = getCurrentSystemMessage(history);
  const patch = diffSystemPromptSections(head?.sections ?? {}, sections);
  const toolDelta = diffTools(head?.toolsAdded ?? [], declarations);
  if (!patch && !toolDelta.toolsAdded && !toolDelta.toolsRemoved) return undefined;
  return {
    role: "system",
    content: "",
    ...(patch ? { sections: patch } : {}),
    ...toolDelta,
    timestamp,
  };
}

/**
 * The request pi builds from the converted transcript (pi's `agent-loop.ts`): the current system message's text as the system
 * prompt, its `toolsAdded` as the declarations, and the conversation without system messages.
 */
export function buildRequestFromTranscript(messages: Message[]): {
  systemPrompt: string;
  messages: Message[];
  tools: ToolDeclaration[];
} {
  const current = getCurrentSystemMessage(messages);
  return {
    systemPrompt: current ? getSystemMessageText(current) : "",
    messages: messages.filter((m) => m.role !== "system"),
    tools: current?.toolsAdded ?? [],
  };
}
