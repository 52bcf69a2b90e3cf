/**
 * Layers of the context preview (context-preview.ts) beside the pipeline itself: what `context` extension hooks
 * changed (layer 3), where each system-prompt section comes from and whether trust gates it, the token estimate of
 * the request against the model's context window, and the session's `images.blockImages` setting (layer 4).
 */

import type { AgentMessage } from "@/lib/agent/messages";
import { blockImagesSetting } from "@/lib/context/block-images";
import type { Message, ToolDeclaration } from "@/lib/llm/types";
import type { SystemPromptSections } from "@/lib/prompt/sections";
import type { ResourceDiagnostic } from "@/lib/resources/fs-util";
import { loadPiSettings } from "@/lib/resources/pi-settings";
import type { ResourceProvenance } from "@/lib/resources/resource-loader";
import { estimateTokens } from "@/lib/session/compaction/compaction";
import { MemoryVfsStore } from "@/lib/vfs/memory-store";
import type { FileSystem } from "@/lib/vfs/types";
import { Vfs } from "@/lib/vfs/vfs";

/** One message a `context` hook added, removed or edited. */
export interface ContextHookChange {
  kind: "added" | "removed" | "edited";
  /** `added` / `edited`: index in the messages after the hooks; `removed`: index in `agentMessages` (before). */
  index: number;
  role: string;
}

/** Layer 3: what the `context` / `context_with_system` hooks changed for this request (never stored). */
export interface ContextHookChanges {
  added: number;
  removed: number;
  edited: number;
  /** Gap by gap in list order: a gap's removed and edited messages (old order), then its added ones. */
  details: ContextHookChange[];
  /** Paths of the extensions with a `context` or `context_with_system` handler, in load order. */
  hooks: string[];
  /** The agent messages after the hooks, when they changed anything (what `convertToLlm` got); else absent. */
  messages?: AgentMessage[];
}

/** No hook, or hooks that changed nothing. */
export const NO_CONTEXT_HOOK_CHANGES: ContextHookChanges = {
  added: 0,
  removed: 0,
  edited: 0,
  details: [],
  hooks: [],
};

/** The largest alignment table (cells) {@link diffContextMessages} builds; past it the middle is one gap. */
export const MAX_LCS_CELLS = 4_000_000;

/**
 * The changes from `before` to `after`: messages equal as JSON are matched along a longest common subsequence
 * (after the common head and tail are cut); in each gap between matches, a removed message and the next unpaired
 * added message of its role (in order) count as one `edited` message, the rest as `removed` / `added`. `details`
 * lists each gap in order: its removed and edited messages (in the old order), then its added ones. When the
 * changed middle would need more than {@link MAX_LCS_CELLS} table cells, it is compared as one gap (linear).
 */
export function diffContextMessages(
  before: readonly AgentMessage[],
  after: readonly AgentMessage[],
): Pick<ContextHookChanges, "added" | "removed" | "edited" | "details"> {
  const a = before.map((m) => JSON.stringify(m));
  const b = after.map((m) => JSON.stringify(m));
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  // lcs[i][j]: LCS length of a[head+i..] and b[head+j..] within the middle (none past MAX_LCS_CELLS: one gap).
  const aligned = (n + 1) * (m + 1) <= MAX_LCS_CELLS;
  const lcs = aligned ? Array.from({ length: n + 1 }, () => new Int32Array(m + 1)) : [];
  if (aligned)
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lcs[i][j] =
          a[head + i] === b[head + j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const details: ContextHookChange[] = [];
  let removedGap: number[] = [];
  let addedGap: number[] = [];
  const flush = () => {
    // Each removed message pairs with the next unpaired added one of its role (in order): that is an edit.
    let next = 0;
    const paired = new Set<number>();
    for (const index of removedGap) {
      let q = next;
      while (q < addedGap.length && after[addedGap[q]].role !== before[index].role) q++;
      if (q < addedGap.length) {
        paired.add(q);
        next = q + 1;
        details.push({ kind: "edited", index: addedGap[q], role: after[addedGap[q]].role });
      } else details.push({ kind: "removed", index, role: before[index].role });
    }
    addedGap.forEach((index, q) => {
      if (!paired.has(q)) details.push({ kind: "added", index, role: after[index].role });
    });
    removedGap = [];
    addedGap = [];
  };
  let i = 0;
  let j = 0;
  if (!aligned) {
    removedGap = Array.from({ length: n }, (_, k) => head + k);
    addedGap = Array.from({ length: m }, (_, k) => head + k);
    i = n;
    j = m;
  }
  while (i < n || j < m) {
    if (i < n && j < m && a[head + i] === b[head + j]) {
      flush();
      i++;
      j++;
    } else if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) removedGap.push(head + i++);
    else addedGap.push(head + j++);
  }
  flush();
  const count = (kind: ContextHookChange["kind"]) => details.filter((d) => d.kind === kind).length;
  return { added: count("added"), removed: count("removed"), edited: count("edited"), details };
}

/** Where one system-prompt section comes from. */
export interface SectionSource {
  /** The section's name (`preamble`, `addendum`, `project_context`, `skills`, …). */
  section: string;
  /** The source file (absolute, on the filesystem `filesystem` names); absent for a section Strata builds itself. */
  path?: string;
  /** `project` = the workspace VFS, `agent` = the user's agent dir, `team` = the team rules root. */
  filesystem?: ResourceProvenance["filesystem"];
  /** The file needs project trust to be loaded (pi's `resource-loader.ts`: the project's SYSTEM.md, APPEND_SYSTEM.md, skills). */
  trustGated: boolean;
  /**
   * Whether the project is trusted for this preview. A `trustGated` row with `trusted: false` is a file that exists
   * but is withheld (the section does not contain it; `section` names where it would go).
   */
  trusted: boolean;
}

/** The section each loaded resource kind feeds (templates feed none). */
const SECTION_OF_KIND: Record<ResourceProvenance["kind"], string | undefined> = {
  system: "preamble",
  append: "addendum",
  context: "project_context",
  skill: "skills",
  template: undefined,
};

/** The section a withheld `<cwd>/.pi/<entry>` (or an `.agents/skills` dir) would feed. */
function withheldSection(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (name === "SYSTEM.md") return "preamble";
  if (name === "APPEND_SYSTEM.md") return "addendum";
  if (name === "skills") return "skills";
  return undefined;
}

/**
 * One row per source file of each section, in section order (a section from several files — `project_context`,
 * `skills` — has one row per file in load order; a section without a file, e.g. `tools`, `rules`, `docs`, `cwd`
 * or the default `preamble`, one row without `path`), then a row for each trust-requiring project file that the
 * untrusted project withholds (`withheld`: paths from `listTrustRequiringProjectResources` on the project's
 * filesystem and `listTeamTrustRequiringResources` on the team rules root's).
 */
export function buildSectionSources(
  sections: SystemPromptSections,
  provenance: readonly ResourceProvenance[],
  trusted: boolean,
  withheld: readonly { path: string; filesystem: ResourceProvenance["filesystem"] }[] = [],
): SectionSource[] {
  const out: SectionSource[] = [];
  for (const section of Object.keys(sections)) {
    const files = provenance.filter((p) => SECTION_OF_KIND[p.kind] === section);
    if (files.length === 0) out.push({ section, trustGated: false, trusted });
    for (const f of files)
      out.push({ section, path: f.path, filesystem: f.filesystem, trustGated: f.trustGated, trusted });
  }
  if (!trusted)
    for (const { path, filesystem } of withheld) {
      const section = withheldSection(path);
      if (section) out.push({ section, path, filesystem, trustGated: true, trusted: false });
    }
  return out;
}

/** The request's size in tokens, pi's `estimateTokens` rule (ceil(chars / 4), pi's `compaction/compaction.ts`). */
export interface TokenEstimate {
  /** ceil(system prompt characters / 4). */
  system: number;
  /** Σ pi `estimateTokens` of the messages sent (after `transformMessages`; 4,800 characters per image). */
  messages: number;
  /** ceil(characters of the tool declarations as JSON / 4). */
  tools: number;
  total: number;
  /** The target model's context window (tokens). */
  contextWindow: number;
}

/** The estimate of a request with `systemPrompt`, `messages` and `tools` against `contextWindow`. */
export function estimateRequestTokens(
  systemPrompt: string,
  messages: readonly Message[],
  tools: readonly ToolDeclaration[],
  contextWindow: number,
): TokenEstimate {
  const system = Math.ceil(systemPrompt.length / 4);
  const sent = messages.reduce((sum, m) => sum + estimateTokens(m), 0);
  const declared = tools.length > 0 ? Math.ceil(JSON.stringify(tools).length / 4) : 0;
  return { system, messages: sent, tools: declared, total: system + sent + declared, contextWindow };
}

/**
 * pi's `images.blockImages` setting (SettingsManager `getBlockImages`, pi's `sdk.ts`) from the settings in effect: the
 * global `<agentDir>/settings.json` on `agentFs` (none without one) merged with the trusted project's
 * `<cwd>/.pi/settings.json`, read by `blockImagesSetting` as a run reads it (any truthy value blocks, as in pi).
 * Skipped files come back in `errors`.
 */
export async function readBlockImagesSetting(input: {
  fs: FileSystem;
  cwd: string;
  agentFs?: FileSystem;
  agentDir: string;
  projectTrusted: boolean;
}): Promise<{ blockImages: boolean; errors: ResourceDiagnostic[] }> {
  const { settings, errors } = await loadPiSettings({
    agentFs: input.agentFs ?? new Vfs(new MemoryVfsStore([])),
    agentDir: input.agentDir,
    projectFs: input.fs,
    cwd: input.cwd,
    projectTrusted: input.projectTrusted,
  });
  return { blockImages: blockImagesSetting(settings), errors };
}
