/**
 * The tool contract of pi's agent core (`AgentTool` / `AgentToolResult` in `@earendil-works/pi-agent-core`),
 * reimplemented with zod 4 schemas instead of TypeBox.
 */

import { z } from "zod";
import type { Executor } from "@/lib/exec/types";
import type { ImageContent, TextContent } from "@/lib/llm/types";
import type { FileSystem } from "@/lib/vfs/types";

/** What a tool returns: content for the model, plus structured `details` for the UI and session. */
export interface AgentToolResult<D = unknown> {
  content: (TextContent | ImageContent)[];
  details?: D;
}

/**
 * A tool's failure that carries `details` for the UI (e.g. the bash tool's `sandbox: true`): the agent loop stores
 * them on the error result, whose content is the message as for any thrown `Error` (pi's `createErrorToolResult`
 * keeps `details: {}`; details never reach the model).
 */
export class ToolError<D = unknown> extends Error {
  constructor(
    message: string,
    readonly details: D,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

/** A tool the agent loop can call. `execute` throws an `Error` with pi's message on failure. */
// biome-ignore lint/suspicious/noExplicitAny: heterogeneous tool lists need an open parameter type, as in pi.
export interface AgentTool<P = any, D = unknown> {
  name: string;
  label: string;
  description: string;
  /** zod 4 schema of the arguments; see `toolParametersJsonSchema` for the provider form. */
  parameters: z.ZodType<P>;
  /** One-line summary for the system prompt's tool list. */
  promptSnippet?: string;
  /** Extra bullet points for the system prompt's guidelines. */
  promptGuidelines?: string[];
  executionMode?: "parallel" | "sequential";
  /**
   * Optional repair of raw model arguments before schema validation (pi's `ToolDefinition.prepareArguments`),
   * e.g. edit's legacy top-level `oldText`/`newText`.
   */
  prepareArguments?(args: unknown): unknown;
  execute(
    toolCallId: string,
    params: P,
    signal?: AbortSignal,
    onUpdate?: (partial: AgentToolResult<D>) => void,
  ): Promise<AgentToolResult<D>>;
}

/** Where the coding tools act: a workspace filesystem, the working directory and the project root. */
export interface ToolContext {
  fs: FileSystem;
  /** Absolute workspace path relative paths resolve against, e.g. "/strata". */
  cwd: string;
  /** Absolute workspace path no tool may leave, e.g. "/strata". */
  projectRoot: string;
  /**
   * Where the shell runs when not in process: the execution service (lib/exec). Without it (a memory VFS in unit
   * tests, no `STRATA_EXEC_URL`) the bash tool runs `runShell` on this event loop — the same code.
   */
  exec?: ToolExec;
  /**
   * Environment every shell command of this context gets (below a call's own `env`): the acting user as git's
   * author and committer (`GIT_AUTHOR_NAME`/`_EMAIL`, `GIT_COMMITTER_NAME`/`_EMAIL`), so `git commit` in the shell
   * is theirs.
   */
  shellEnv?: Record<string, string>;
}

/** A tool context's way to the execution service (built by lib/agent-session/session-runtime.ts). */
export interface ToolExec {
  executor: Executor;
  /** The workspace whose VFS (in Postgres) the service opens; `fs` must be a VFS of it. */
  workspaceId: string;
  /** The user the commands run for (the run's caller): the service shares its workers by workspace and user. */
  userId?: string;
  /** The session (and run) whose pending paths the service records before it flushes. */
  pending?: { sessionId: string; runId?: string };
  /** The workspace has the real sandbox enabled (`workspaces.sandbox_enabled`). */
  sandbox: boolean;
  /** Flush this context's VFS before a command, so the service sees its unflushed writes. */
  sync(): Promise<void>;
  /** After a command: forget the VFS's cached state of `paths` (absolute, changed by the service) and have them checkpointed. */
  absorb(paths: string[]): Promise<void>;
}

/**
 * JSON Schema (draft 2020-12, as produced by `z.toJSONSchema`) of a tool's parameters, for the
 * provider's tool declaration. The `$schema` key is dropped because providers reject or ignore it.
 */
export function toolParametersJsonSchema(tool: AgentTool): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.parameters) as Record<string, unknown>;
  return schema;
}
