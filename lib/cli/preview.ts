/**
 * The library side of `strata preview` (bin/commands/preview.mjs), loaded through tsx: host files already read
 * by the bin side become in-memory workspaces (`MemoryVfsStore`), the session text is parsed, the model and
 * flags are resolved, and `buildContextPreview` runs. No database, no API key, no network. Edge-safe like the
 * rest of `lib/`: file and process I/O stay in `bin/`.
 */
import {
  buildContextPreview,
  type ContextPreview,
  ContextPreviewError,
  PREVIEW_TOOL_NAMES,
  type PreviewDiagnostic,
  redactSecrets,
  resolvePreviewModel,
} from "@/lib/inspector/context-preview";
import type { Env } from "@/lib/llm/models";
import type { ThinkingLevel } from "@/lib/llm/types";
import { AGENT_DIR } from "@/lib/projects/agent-dir";
import { parseDefaultTools } from "@/lib/prompt/sections";
import { CONTEXT_FILE_CANDIDATES } from "@/lib/resources/context-files";
import type { SessionEntry } from "@/lib/session/entries";
import type { JsonlDiagnostic } from "@/lib/session/jsonl";
import { buildSessionContext } from "@/lib/session/projection";
import { readSessionFile } from "@/lib/session/session-file";
import { type MemorySeedNode, MemoryVfsStore } from "@/lib/vfs/memory-store";
import { joinPosix, normalizePosix } from "@/lib/vfs/paths";
import { Vfs } from "@/lib/vfs/vfs";

export { InvalidSessionFileError } from "@/lib/session/jsonl";
export { ContextPreviewError, resolvePreviewModel };

/** Where the host directory is mounted in the preview's workspace VFS. */
export const WORKSPACE_ROOT = "/workspace";

/** pi's thinking levels, accepted by `--thinking`. */
export const THINKING_LEVELS: readonly ThinkingLevel[] = [
  "off",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
  "max",
];

/**
 * Whether a host path (relative, POSIX) is one pi reads whatever `.gitignore` says, so the bin side keeps it
 * even when ignored: a context file (`AGENTS.md`, `CLAUDE.md`, … at any depth) or anything under a `.pi` or
 * `.agents` directory (settings, SYSTEM.md, skills, prompt templates).
 */
export function isPiResourcePath(relativePath: string): boolean {
  const parts = relativePath.split("/");
  if (parts.some((p) => p === ".pi" || p === ".agents")) return true;
  return CONTEXT_FILE_CANDIDATES.includes(parts[parts.length - 1] ?? "");
}

/** A file read from the host by the bin side: a POSIX path relative to the mounted directory. */
export interface HostFile {
  path: string;
  kind: "file" | "symlink";
  /** File bytes, or a symlink's target. */
  data: Uint8Array | string;
  /** Git-style mode (0o100755 for executables); default by kind. */
  mode?: number;
  mtimeMs?: number;
}

/** Input of {@link runPreview}: the parsed flags and what the bin side read. */
export interface PreviewCommandInput {
  /** The workspace directory's files (`--dir`), mounted at {@link WORKSPACE_ROOT}. */
  workspace: HostFile[];
  /** The agent dir's files (`--agent-dir`), mounted at `/.pi/agent` of an agent VFS; absent = no agent dir. */
  agentDir?: HostFile[];
  /** `--cwd`: an absolute VFS path, or a path relative to {@link WORKSPACE_ROOT}; default the root. */
  cwd?: string;
  /** `--session`: the JSONL text and its file name (for messages). */
  session?: { text: string; path: string };
  /** `--leaf` entry id. */
  leaf?: string;
  /** `--model` `<provider>/<id>`; default the session's model, else the default model. */
  model?: string;
  /** `--trust` / `--no-trust`; absent = the loader's default. */
  trust?: boolean;
  /** `--tools`: comma-separated names, `+name` / `-name` against pi's defaults, or `none`. */
  tools?: string;
  /** `--thinking` level; default the session's. */
  thinking?: string;
  /** `--text`. */
  text: string;
  /** The process environment (base URLs, `STRATA_MODELS`, `STRATA_DEFAULT_MODEL`); keys are never used. */
  env: Env;
  /** Timestamp of the new messages (tests); default now. */
  now?: number;
}

/** {@link runPreview} result: the preview, and session parse warnings for stderr. */
export interface PreviewCommandResult {
  preview: ContextPreview;
  warnings: JsonlDiagnostic[];
}

/** A user-facing failure of the command; the CLI prints its message without a stack (exit 1). */
export class PreviewCommandError extends Error {
  override name = "PreviewCommandError";
}

/** Seed nodes for host files mounted at `root`. */
function seedNodes(root: string, files: readonly HostFile[]): MemorySeedNode[] {
  const rootNode: MemorySeedNode = { path: root, kind: "dir" };
  return [
    rootNode,
    ...files.map((f) => ({
      path: joinPosix(root, f.path),
      kind: f.kind,
      data: f.data,
      ...(f.mode !== undefined ? { mode: f.mode } : {}),
      ...(f.mtimeMs !== undefined ? { mtimeMs: f.mtimeMs } : {}),
    })),
  ];
}

/**
 * The session cwd of `--cwd`: absolute, or relative to {@link WORKSPACE_ROOT}, normalised; it must be the
 * workspace root or below it (`..`, `/`, `/workspace/..`, `/etc` are not), whether or not it exists.
 * @throws ContextPreviewError `Working directory <normalised cwd> is not a directory of the workspace`.
 */
export function previewCwd(cwd: string | undefined): string {
  if (cwd === undefined) return WORKSPACE_ROOT;
  const resolved = cwd.startsWith("/") ? normalizePosix(cwd) : joinPosix(WORKSPACE_ROOT, cwd);
  if (resolved !== WORKSPACE_ROOT && !resolved.startsWith(`${WORKSPACE_ROOT}/`))
    throw new ContextPreviewError(`Working directory ${resolved} is not a directory of the workspace`);
  return resolved;
}

/**
 * Refuse a cwd whose symlinks lead out of the workspace (`--cwd up` with `up -> ..`): each component is resolved
 * with `lstat` / `readlink` (40 links at most); a missing component ends the check (buildContextPreview then
 * refuses the cwd as not a directory).
 * @throws ContextPreviewError `Working directory <cwd> is not a directory of the workspace`.
 */
async function assertInsideWorkspace(fs: Vfs, cwd: string): Promise<void> {
  const refuse = () =>
    new ContextPreviewError(`Working directory ${cwd} is not a directory of the workspace`);
  const pending = cwd.split("/").filter(Boolean);
  let real = "/";
  for (let links = 0; pending.length > 0; ) {
    const next = joinPosix(real, pending.shift() as string);
    const stat = await fs.lstat(next).catch(() => undefined);
    if (!stat) return;
    if (stat.kind === "symlink") {
      if (++links > 40) throw refuse();
      const target = await fs.readlink(next);
      pending.unshift(...target.split("/").filter(Boolean));
      // A relative target continues from the link's directory (`real`); `..` is resolved against it as it comes.
      if (target.startsWith("/")) real = "/";
      continue;
    }
    real = next;
  }
  if (real !== WORKSPACE_ROOT && !real.startsWith(`${WORKSPACE_ROOT}/`)) throw refuse();
}

/**
 * Run the preview for the `strata preview` flags. The session file is read exactly as `strata session import`
 * reads a local file (`readSessionFile`): its diagnostics (skipped lines, repairs, schema notes) are warnings,
 * returned in `warnings` and in the preview's `diagnostics`.
 * @throws PreviewCommandError for an unknown model or thinking level, a `tools` list without a tool name;
 *   InvalidSessionFileError for a text without a pi header, and its subclasses as import throws them:
 *   InvalidSessionEntriesError for refused entries (no usable id, parentId, type or message; nested too deep),
 *   InvalidSessionTreeError for entries that are not a tree (duplicate id, self-parent, parent cycle); ContextPreviewError for an unknown leaf or tool or a cwd that is not `/workspace` or a
 *   directory below it (normalised, symlinks followed). The preview is passed through `redactSecrets` (again,
 *   for the session notes added here).
 */
export async function runPreview(input: PreviewCommandInput): Promise<PreviewCommandResult> {
  let entries: SessionEntry[] = [];
  let warnings: JsonlDiagnostic[] = [];
  let sessionModel: { provider: string; modelId: string } | null = null;
  if (input.session) {
    // The reading `strata session import` uses (lib/session/session-file.ts): what import accepts, the preview
    // accepts, with the same diagnostics (warnings); what import refuses, it refuses with the same text.
    const parsed = await readSessionFile(input.session.text, input.session.path, { root: WORKSPACE_ROOT });
    warnings = parsed.diagnostics;
    entries = parsed.entries;
    // The branch's model (pi's settings of the leaf's path), as a run defaults to it.
    if (input.leaf === undefined || entries.some((e) => e.id === input.leaf))
      sessionModel = buildSessionContext(entries, input.leaf).model;
  }
  if (input.thinking !== undefined && !(THINKING_LEVELS as readonly string[]).includes(input.thinking))
    throw new PreviewCommandError(
      `Unknown thinking level: ${input.thinking} (known: ${THINKING_LEVELS.join(", ")})`,
    );
  const model = resolvePreviewModel(input.model, sessionModel, input.env);
  if (input.tools !== undefined && !/[^\s,+-]/.test(input.tools))
    throw new PreviewCommandError(
      `--tools names no tool: '${input.tools}' (a list of ${PREVIEW_TOOL_NAMES.join(",")}, +name / -name, or none)`,
    );
  const tools =
    input.tools === undefined
      ? undefined
      : input.tools.trim() === "none"
        ? []
        : parseDefaultTools(input.tools);
  const cwd = previewCwd(input.cwd);

  const fs = new Vfs(new MemoryVfsStore(seedNodes(WORKSPACE_ROOT, input.workspace)));
  await assertInsideWorkspace(fs, cwd);
  const agentFs = input.agentDir
    ? new Vfs(new MemoryVfsStore(seedNodes(AGENT_DIR, input.agentDir)))
    : undefined;
  const preview = await buildContextPreview({
    fs,
    cwd,
    projectRoot: WORKSPACE_ROOT,
    ...(agentFs ? { agentFs } : {}),
    entries,
    ...(input.leaf !== undefined ? { leafId: input.leaf } : {}),
    model,
    ...(input.trust !== undefined ? { trust: input.trust } : {}),
    ...(tools ? { tools } : {}),
    text: input.text,
    ...(input.thinking !== undefined ? { thinkingLevel: input.thinking as ThinkingLevel } : {}),
    env: input.env,
    ...(input.now !== undefined ? { now: input.now } : {}),
  });
  const sessionNotes: PreviewDiagnostic[] = warnings.map((d) => ({
    source: "session",
    type: "warning",
    message: `${input.session?.path}:${d.line}: ${d.kind}: ${d.message}`,
  }));
  preview.diagnostics.unshift(...sessionNotes);
  return { preview: redactSecrets(preview, input.env), warnings };
}
