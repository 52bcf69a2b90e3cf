/**
 * The context inspector's HTTP client: `POST /api/sessions/:id/preview` (the same `buildContextPreview` as
 * `npx strata preview`, lib/agent/context-preview.ts) and the JSON shape it answers. Browser-only. Kept apart
 * from components/api-client.ts (which is large enough) on purpose.
 */
import { ApiError, errorFromResponse } from "@/components/api-client";
import type { ContextPreview } from "@/lib/agent/context-preview";
import type { ThinkingLevel } from "@/lib/llm/types";

/** Layer 1: one session entry on the path to the leaf (issue 13 contract). */
export interface PreviewEntry {
  id: string;
  type: string;
  /** One line for a person. */
  summary: string;
  /** The entry starts what the model sees after a compaction or a `context_edit`. */
  boundary?: "compaction" | "context_edit";
  /** Indexes into `agentMessages` of the messages this entry turns into (none: it produces no message). */
  producesMessageIndexes: number[];
}

/** Layer 3: what extensions' `context` hooks changed for this request (never stored). */
export interface ContextHookChanges {
  added: number;
  removed: number;
  edited: number;
  details: { kind: "added" | "removed" | "edited"; index: number; role: string }[];
}

/** One change `transformMessages` made for the target model (lib/llm/transform-report.ts). */
export interface InspectorTransformChange {
  kind: string;
  reason: string;
  /** Index into the request's messages (the LLM messages without system messages); null = inserted. */
  messageIndex: number | null;
  blockIndex?: number;
  from?: string;
  to?: string;
  count?: number;
  detail?: unknown;
}

/** Layer 5. */
export interface InspectorTransformReport {
  changes: InspectorTransformChange[];
  /** For each transformed message, the request message it came from (null = inserted). */
  origins: (number | null)[];
}

/** Token estimate (characters / 4, pi's `estimateTokens`) against the model's context window. */
export interface TokenEstimate {
  system: number;
  messages: number;
  tools: number;
  total: number;
  contextWindow: number;
}

/** Cost of the last assistant turns on the path (US$). */
export interface RecentCost {
  turns: {
    entryId: string;
    model: string;
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
    costUsd: number;
  }[];
  totalUsd: number;
}

/** Where a system prompt section comes from and whether it waits for project trust. */
export interface SectionSource {
  section: string;
  path?: string;
  trustGated: boolean;
  trusted: boolean;
}

/** A tool declaration the request carries. */
export interface ToolDeclarationView {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * The preview as the inspector reads it: the fields the route answers today plus the issue 13 ones (optional here:
 * a server without them still renders, and each missing layer says so).
 */
export type InspectorPreview = ContextPreview & {
  entries?: PreviewEntry[];
  contextHookChanges?: ContextHookChanges;
  transformReport?: InspectorTransformReport;
  tokenEstimate?: TokenEstimate;
  recentCost?: RecentCost;
  toolDeclarations?: ToolDeclarationView[];
  sectionSources?: SectionSource[];
};

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
export async function postPreview(
  sessionId: string,
  body: PreviewRequest,
  signal?: AbortSignal,
): Promise<InspectorPreview> {
  let res: Response;
  try {
    res = await fetch(`/api/sessions/${encodeURIComponent(sessionId)}/preview`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "network_error", err instanceof Error ? err.message : String(err));
  }
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as InspectorPreview;
}
