/**
 * The shapes of the context preview (context-preview.ts): its input, its diagnostics and its result, every layer of
 * one prompt's request as the inspector shows it.
 */

import type { AgentMessage } from "@/lib/agent/messages";
import type { ExtensionModule } from "@/lib/extensions/types";
import type { CapturedPayload } from "@/lib/llm/capture-payload";
import type { Env, Model } from "@/lib/llm/models";
import type { TransformReport } from "@/lib/llm/transform-report";
import type { Message, SystemMessage, ThinkingLevel, ToolDeclaration } from "@/lib/llm/types";
import type { SystemPromptSections } from "@/lib/prompt/sections";
import type { ResourceProvenance } from "@/lib/resources/resource-loader";
import type { SessionEntry } from "@/lib/session/entries";
import type { ToolName } from "@/lib/tools";
import type { ToolExec } from "@/lib/tools/types";
import type { FileSystem } from "@/lib/vfs/types";
import type { PreviewEntry, RecentCost } from "./context-preview-entries";
import type { ContextHookChanges, SectionSource, TokenEstimate } from "./context-preview-layers";

/** Tool names the preview can activate, in pi's `createAllTools` order. */
export const PREVIEW_TOOL_NAMES: readonly ToolName[] = [
  "read",
  "bash",
  "edit",
  "write",
  "grep",
  "find",
  "ls",
];

/** Input of `buildContextPreview`. */
export interface ContextPreviewInput {
  /** The workspace filesystem (a `Vfs`; over `MemoryVfsStore` for a host directory). */
  fs: FileSystem;
  /** Absolute VFS working directory (the session cwd); must be a directory of `fs`. */
  cwd: string;
  /** The project root on `fs` the tools confine `.git` writes to (a live run: the project's root path). Default `cwd`. */
  projectRoot?: string;
  /** The user's agent filesystem (pi `~/.pi/agent` lives at `agentDir` on it). */
  agentFs?: FileSystem;
  /** Default `/.pi/agent` (`AGENT_DIR`, as in a live run). */
  agentDir?: string;
  /** pi's `~` on `agentFs` (its `.agents/skills`). Default `/` (`AGENT_HOME`). */
  agentHomeDir?: string;
  /** Strata: the team rules root of a team project (`dir` on `fs`), as a run of the session loads it. */
  team?: { fs: FileSystem; dir: string };
  /** The session's entries (pi `SessionEntry[]`, already parsed); none = a new session. */
  entries?: readonly SessionEntry[];
  /** Leaf entry id; default the last entry (pi `buildSessionPath`); `null` = before the first entry. */
  leafId?: string | null;
  /** The target model. */
  model: Model;
  /** Project trust; undefined = resolved as the loader does without a stored decision (untrusted when anything needs trust). */
  trust?: boolean;
  /**
   * Active tool names (see {@link PREVIEW_TOOL_NAMES}), in the order given; default as a run: the set the branch's
   * transcript declares (`ActiveTools.restoreFromTranscript`: the IDE's toggles), else pi's `read, bash, edit, write`.
   */
  tools?: readonly string[];
  /** The prompt text as typed (`/skill:` and `/template` commands are expanded). */
  text: string;
  /** Default: the session's thinking level (its last `thinking_level_change`, else `off`), as a live run uses. */
  thinkingLevel?: ThinkingLevel;
  /** Server environment: base URLs and `STRATA_MODELS` for the request; its API keys are never used nor printed. */
  env?: Env;
  /** Timestamp of the new system patch and user message, epoch ms. Default `Date.now()`. */
  now?: number;
  /**
   * pi's `images.blockImages`; default: read from the settings in effect (`<agentDir>/settings.json` on `agentFs`,
   * then the trusted project's `<cwd>/.pi/settings.json`), as a run reads it.
   */
  blockImages?: boolean;
  /**
   * Extensions registered for the run, in load order: their `context` / `context_with_system` hooks run on the
   * messages as in a live run (layer 3). A stored session's prompt run registers none (the product loads no
   * extension code), so neither does its preview.
   */
  extensions?: readonly ExtensionModule[];
  /** The session id the extensions' `ctx.sessionId` names. Default `""`. */
  sessionId?: string;
  /**
   * The run's way to the execution service (`toolExec` of session-runtime.ts), so the tools are declared as a run
   * declares them (the `bash` description names node/python3/sqlite3 and the sandbox note only with it). Never
   * called: the preview runs no tool. Default none (the in-process shell's description).
   */
  exec?: ToolExec;
}

/** A problem or note found while building the preview. */
export interface PreviewDiagnostic {
  /**
   * `resources`: the loader's and settings files' diagnostics; `input`: skill expansion, commands; `session`: model
   * switch; `extensions`: a `context` hook failed (pi's `{ extensionPath, event, error }` as `path` and message);
   * `payload`: capture.
   */
  source: "resources" | "input" | "session" | "extensions" | "payload";
  type: "warning" | "error" | "collision" | "info";
  message: string;
  path?: string;
}

/** Result of `buildContextPreview`; JSON-serialisable, without keys or auth headers. */
export interface ContextPreview {
  /** The target model (its ref is `<provider>/<id>`). */
  model: Model & { ref: string };
  thinkingLevel: ThinkingLevel;
  cwd: string;
  trusted: boolean;
  /** Active tool names, in order. */
  tools: string[];
  /** The request's system prompt: the text of the current system message (after the patch). */
  systemPrompt: string;
  /** The sections built for this prompt (pi's order). */
  sections: SystemPromptSections;
  /** Each section's source file(s) and trust gate, in section order (see `buildSectionSources`). */
  sectionSources: SectionSource[];
  /** The system message the prompt starts with, or null when the transcript's system state is already current. */
  systemPatch: SystemMessage | null;
  /** The input after `/skill:` and `/template` expansion (the user message's text). */
  expandedText: string;
  /** Resources in effect, with where they come from. */
  provenance: ResourceProvenance[];
  /** Layer 1: the session entries on the root→leaf path, in path order, with the messages each produces. */
  entries: PreviewEntry[];
  /** Layer 2: the session projection of the leaf, then the system patch (if any) and the user message. */
  agentMessages: AgentMessage[];
  /** Layer 3: what the extensions' `context` hooks changed (nothing without extensions; never stored). */
  contextHookChanges: ContextHookChanges;
  /** pi's `images.blockImages` in effect: when true, `llmMessages` has every user / tool-result image replaced. */
  blockImages: boolean;
  /** Layer 4: `convertToLlm` of the messages after the hooks, then `blockImages` when the setting is on. */
  llmMessages: Message[];
  /** The request's messages (system messages removed) after `transformMessages` for the target model. */
  transformedMessages: Message[];
  /** Layer 5: every change `transformMessages` made for the target model, with its reason (transform-report.ts). */
  transformReport: TransformReport;
  /** For each request message (the transform's input, whose indexes `transformReport` uses): its `llmMessages` index. */
  requestMessageIndexes: number[];
  /** The request's tool declarations (name, description, JSON Schema parameters) as passed to the provider. */
  toolDeclarations: ToolDeclaration[];
  /** Layer 6: the request as the provider would receive it (URL without user info, query string as `?[redacted]`; JSON body, secrets masked), or null when none was built. */
  payload: CapturedPayload | null;
  /** The request's size, ceil(chars / 4) as pi's `estimateTokens`, against the model's context window. */
  tokenEstimate: TokenEstimate;
  /** Usage and cost of the last 5 assistant turns on the path. */
  recentCost: RecentCost;
  diagnostics: PreviewDiagnostic[];
}
