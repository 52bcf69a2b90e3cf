/** JSON views of domain objects for the HTTP API (docs/http-api.md). */
import type { Model } from "@/lib/llm/models";
import type { Project } from "@/lib/projects/projects";
import type { SessionRow } from "@/lib/session/store";

export function toModelInfo(m: Model) {
  return {
    id: `${m.provider}/${m.id}`,
    provider: m.provider,
    modelId: m.id,
    name: m.name,
    api: m.api,
    input: m.input,
    reasoning: m.reasoning,
    contextWindow: m.contextWindow,
  };
}

export function toProjectView(p: Project) {
  return { id: p.id, name: p.name, rootPath: p.rootPath, createdAt: p.createdAt };
}

export function toSessionView(s: SessionRow, model: string | null) {
  return {
    id: s.id,
    projectId: s.projectId,
    title: s.title,
    model,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
