/**
 * The context preview of a stored session (`POST /api/sessions/:id/preview`, `npx strata --server … preview
 * --session-id`): the same `buildContextPreview` as `strata preview`, on the session's own entries, its project's
 * VFS, the caller's agent dir and the caller's trust decision — the context the session's next prompt would send,
 * stopped before the network. Placeholder keys only; the result is passed through `redactSecrets`. The team rules
 * root of a team project is loaded as a run loads it; no extension is registered (a stored session's prompt run
 * registers none), so `contextHookChanges` is empty; `images.blockImages` comes from the user's and the trusted
 * project's settings files.
 */

import { toolExec } from "@/lib/agent-session/session-runtime";
import type { DbScope } from "@/lib/db/client";
import { getSandboxEnabled } from "@/lib/exec/sandbox-setting";
import {
  buildContextPreview,
  type ContextPreview,
  ContextPreviewError,
  redactSecrets,
  resolvePreviewModel,
} from "@/lib/inspector/context-preview";
import type { Env } from "@/lib/llm/models";
import type { ThinkingLevel } from "@/lib/llm/types";
import type { Project } from "@/lib/projects/projects";
import { loadSessionResources } from "@/lib/projects/session-resources";
import { parseDefaultTools } from "@/lib/prompt/sections";
import { loadAllEntries } from "@/lib/session/context-load";
import { buildSessionContext } from "@/lib/session/projection";
import type { SessionRow } from "@/lib/session/store";
import { openSessionVfs } from "@/lib/vfs/workspace";

export interface StoredPreviewInput {
  session: SessionRow;
  project: Project;
  /** The caller: whose agent dir and trust decision apply. */
  userId: string;
  /** The prompt as typed (`/skill:` and `/template` are expanded). */
  text: string;
  /** Default: the session's current leaf. */
  leafId?: string | null;
  /** `provider/id`; default the branch's model, else the default model. */
  model?: string;
  /** Active tools as `strata preview --tools` takes them (`read,bash`, `+grep`, `-bash`, `none`); default pi's. */
  tools?: string;
  thinkingLevel?: ThinkingLevel;
  env: Env;
}

/**
 * Build the preview. @throws ContextPreviewError for an unknown leaf, model or tool.
 */
export async function previewStoredSession(
  scope: DbScope,
  input: StoredPreviewInput,
): Promise<ContextPreview> {
  const { session, project } = input;
  const vfs = openSessionVfs(project, session.id, scope).vfs;
  // The tools as a run declares them: with the execution service (and the workspace's sandbox) when it is there.
  const exec = toolExec(scope, vfs, {
    workspaceId: project.workspaceId,
    sessionId: session.id,
    root: project.rootPath,
  });
  if (exec) exec.sandbox = await getSandboxEnabled(scope, project.workspaceId);
  const entries = await loadAllEntries(scope, session.id);
  const leafId = input.leafId === undefined ? session.leafId : input.leafId;
  if (leafId && !entries.some((e) => e.id === leafId))
    throw new ContextPreviewError(`Entry ${leafId} is not in session ${session.id}`);
  const loaded = await loadSessionResources(scope, { session, project, userId: input.userId, vfs });
  const model = resolvePreviewModel(
    input.model,
    leafId ? buildSessionContext(entries, leafId).model : null,
    input.env,
  );
  const preview = await buildContextPreview({
    fs: vfs,
    cwd: session.cwd,
    projectRoot: project.rootPath,
    agentFs: loaded.agentFs,
    ...(loaded.team ? { team: { fs: loaded.team.fs, dir: loaded.team.dir } } : {}),
    entries,
    leafId,
    model,
    trust: loaded.resources.projectTrusted,
    ...(input.tools !== undefined
      ? { tools: input.tools.trim() === "none" ? [] : parseDefaultTools(input.tools) }
      : {}),
    text: input.text,
    ...(input.thinkingLevel ? { thinkingLevel: input.thinkingLevel } : {}),
    env: input.env,
    sessionId: session.id,
    ...(exec ? { exec } : {}),
  });
  return redactSecrets(preview, input.env);
}
