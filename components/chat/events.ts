/** The agent event stream of `POST /api/sessions/:id/prompt` (docs/http-api.md), as typed values. */
import type { AgentMessage } from "@/lib/agent/messages";
import type { ToolResultMessage } from "@/lib/llm/types";

export type AssistantMessageEvent =
  | { type: "text_start" | "thinking_start"; contentIndex: number }
  | { type: "text_delta" | "thinking_delta" | "toolcall_delta"; contentIndex: number; delta: string }
  | { type: "toolcall_start"; contentIndex: number; id: string; name: string };

export type AgentEvent =
  | { type: "agent_start" }
  | { type: "turn_start" }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; assistantMessageEvent: AssistantMessageEvent }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown }
  | { type: "tool_execution_end"; toolCallId: string; toolName: string; result: unknown; isError: boolean }
  /** A running tool's partial result (e.g. the bash tool's notice while its command waits for a worker). */
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; partialResult: unknown }
  | { type: "turn_end"; message: AgentMessage; toolResults: ToolResultMessage[] }
  | { type: "agent_end"; messages: AgentMessage[] }
  | { type: "files_changed"; paths: string[]; commit?: string }
  | { type: "queue_update"; steering: string[]; followUp: string[] }
  /** pi's auto-retry: a wait before retry `attempt` of `maxAttempts` after a transient provider error. */
  | { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
  /** The retry series is over: `success`, or `finalError` (the last error, or `Retry cancelled`). */
  | { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
  | { type: "error"; message: string }
  /**
   * Before a turn's provider request: what was dropped or replaced for its model, one line per kind of change
   * (`summarizeTransformReport`, e.g. `2 images not sent: this model has no image input`).
   */
  | { type: "request_notice"; notices: string[] }
  /** The first event of a server-owned run (its log's seq 1): `mode` retry re-runs the failed last turn. */
  | { type: "run_start"; runId: string; kind: string; mode: RunMode }
  /** The last event of a run: how it ended (`taken_over`: closed by the server after it went silent). */
  | { type: "run_end"; outcome: RunOutcome };

/** What started a run: a prompt, the Retry button, or a `!command`. */
export type RunMode = "prompt" | "retry" | "bash";
export type RunOutcome = "done" | "aborted" | "error" | "taken_over";

const KNOWN = new Set<string>([
  "agent_start",
  "turn_start",
  "message_start",
  "message_update",
  "message_end",
  "tool_execution_start",
  "tool_execution_end",
  "tool_execution_update",
  "turn_end",
  "agent_end",
  "files_changed",
  "queue_update",
  "auto_retry_start",
  "auto_retry_end",
  "error",
  "request_notice",
  "run_start",
  "run_end",
]);

/**
 * Turns one server-sent event (name + JSON data) into an AgentEvent, or null for unknown names
 * and unparsable data. The SSE `event:` name wins over any `type` inside the data.
 */
export function toAgentEvent(name: string, data: string): AgentEvent | null {
  let payload: unknown;
  try {
    payload = data === "" ? {} : JSON.parse(data);
  } catch {
    return null;
  }
  const body = payload && typeof payload === "object" ? (payload as Record<string, unknown>) : {};
  const type = name && name !== "message" ? name : typeof body.type === "string" ? body.type : "";
  if (!KNOWN.has(type)) return null;
  if (type === "error") {
    const nested = body.error as { message?: unknown } | undefined;
    const message =
      typeof body.message === "string"
        ? body.message
        : typeof nested?.message === "string"
          ? nested.message
          : "The agent reported an error";
    return { type: "error", message };
  }
  const texts = (v: unknown) => (Array.isArray(v) ? v.filter((t): t is string => typeof t === "string") : []);
  if (type === "queue_update")
    return { type, steering: texts(body.steering), followUp: texts(body.followUp) };
  if (type === "request_notice") return { type, notices: texts(body.notices) };
  return { ...body, type } as AgentEvent;
}
