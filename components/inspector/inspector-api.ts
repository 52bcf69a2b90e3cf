/**
 * The context inspector's HTTP client: `POST /api/sessions/:id/preview` (the same `buildContextPreview` as
 * `npx strata preview`, lib/inspector/context-preview.ts) and the JSON shape it answers. Browser-only. Kept apart
 * from components/api-client.ts (which is large enough) on purpose.
 */
import { apiJson, jsonInit } from "@/components/http/api-fetch";
import type { ContextPreview } from "@/lib/inspector/context-preview";
import type { ThinkingLevel } from "@/lib/llm/types";

/**
 * The preview as the route answers it (`ContextPreview` of lib/inspector/context-preview.ts, JSON): the six layers
 * (`entries`, `agentMessages`, `contextHookChanges`, `llmMessages`, `transformReport` with `transformedMessages`,
 * `payload`), `sections` with `sectionSources`, `toolDeclarations`, `tokenEstimate`, `recentCost`, `diagnostics`.
 */
export type InspectorPreview = ContextPreview;

/** Input of {@link postPreview}: what the route takes (`leafId` default the session's leaf; `model` a `provider/id` ref). */
export interface PreviewRequest {
  text: string;
  leafId?: string | null;
  model?: string;
  tools?: string;
  thinkingLevel?: ThinkingLevel;
}

/**
 * The context the session's next prompt would send, stopped before the network (changes nothing).
 * @throws ApiError with the server's message (e.g. 400 `Unknown model: …`, 404 for a session not visible), or
 *   `network_error` when the server could not be reached; an AbortError when `signal` aborted.
 */
export function postPreview(
  sessionId: string,
  body: PreviewRequest,
  signal?: AbortSignal,
): Promise<InspectorPreview> {
  return apiJson(`/api/sessions/${encodeURIComponent(sessionId)}/preview`, jsonInit("POST", body, signal));
}
