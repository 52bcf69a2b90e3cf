/**
 * Project trust (pi `core/project-trust.ts`, `trust-manager.ts`), as a pure decision over an injected
 * store and UI. Persistence lives in `trust-store.ts` (Postgres); `MemoryTrustStore` is for tests and
 * single-request use. Product name: Strata where pi names itself.
 */
import { dirnamePosix, normalizePosix } from "@/lib/vfs/paths";
import type { FileSystem } from "@/lib/vfs/types";
import { ancestorsUp, childPath, tryStat } from "./fs-util";

/** One store change: `decision: null` deletes the key. */
export interface TrustUpdate {
  path: string;
  decision: boolean | null;
}

/**
 * Stored trust decisions keyed by canonical absolute directory (pi `ProjectTrustStore` / `trust.json`).
 * `get` returns the decision for `dir` or its nearest ancestor with one, else `null`.
 */
export interface TrustStore {
  get(dir: string): Promise<boolean | null>;
  set(dir: string, trusted: boolean): Promise<void>;
  setMany(updates: TrustUpdate[]): Promise<void>;
}

/** An in-memory {@link TrustStore} (pi's `trust.json` semantics without the file). */
export class MemoryTrustStore implements TrustStore {
  readonly decisions = new Map<string, boolean>();
  /** @inheritdoc */
  async get(dir: string): Promise<boolean | null> {
    for (const d of ancestorsUp(dir)) {
      const v = this.decisions.get(d);
      if (v !== undefined) return v;
    }
    return null;
  }
  /** @inheritdoc */
  async set(dir: string, trusted: boolean): Promise<void> {
    this.decisions.set(normalizePosix(dir), trusted);
  }
  /** @inheritdoc */
  async setMany(updates: TrustUpdate[]): Promise<void> {
    for (const u of updates) {
      if (u.decision === null) this.decisions.delete(normalizePosix(u.path));
      else this.decisions.set(normalizePosix(u.path), u.decision);
    }
  }
}

/** Entries of `<cwd>/.pi/` that require trust (pi `trust-manager.ts`, pi's `resource-loader.ts`). */
export const TRUST_REQUIRING_PROJECT_ENTRIES = [
  "settings.json",
  "mcp.json",
  "extensions",
  "skills",
  "prompts",
  "themes",
  "SYSTEM.md",
  "APPEND_SYSTEM.md",
];

/**
 * The project resources that need trust (pi's `resource-loader.ts`), in pi's order: each of {@link TRUST_REQUIRING_PROJECT_ENTRIES}
 * present in `<cwd>/.pi/`, then every `.agents/skills` directory in `cwd` or an ancestor (the user's agent
 * filesystem is separate, so it never counts).
 * @returns absolute paths; empty when nothing needs trust.
 */
export async function listTrustRequiringProjectResources(fs: FileSystem, cwd: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of TRUST_REQUIRING_PROJECT_ENTRIES) {
    const path = childPath(childPath(cwd, ".pi"), name);
    if (await tryStat(fs, path)) found.push(path);
  }
  for (const dir of ancestorsUp(cwd)) {
    const path = childPath(dir, ".agents/skills");
    if ((await tryStat(fs, path))?.kind === "dir") found.push(path);
  }
  return found;
}

/** Entries of a team rules root that require the project's trust (Strata: the team's prompt files). */
export const TRUST_REQUIRING_TEAM_ENTRIES = ["SYSTEM.md", "APPEND_SYSTEM.md"];

/**
 * Strata: the team rules root's resources that need the project's trust — each of
 * {@link TRUST_REQUIRING_TEAM_ENTRIES} that exists in `teamDir` on `teamFs`, in that order.
 * @returns absolute paths on `teamFs`; empty when nothing needs trust.
 */
export async function listTeamTrustRequiringResources(
  teamFs: FileSystem,
  teamDir: string,
): Promise<string[]> {
  const found: string[] = [];
  for (const name of TRUST_REQUIRING_TEAM_ENTRIES) {
    const path = childPath(normalizePosix(teamDir), name);
    if ((await tryStat(teamFs, path))?.kind === "file") found.push(path);
  }
  return found;
}

/** Whether any project resource needs trust (pi `hasTrustRequiringProjectResources`, pi's `resource-loader.ts`). */
export async function hasTrustRequiringProjectResources(fs: FileSystem, cwd: string): Promise<boolean> {
  return (await listTrustRequiringProjectResources(fs, cwd)).length > 0;
}

/**
 * The trust question (pi `formatProjectTrustPrompt`, pi's `resource-loader.ts`, product name Strata; `.pi` is the project
 * config directory's name and stays):
 * `"Trust project folder?\n<cwd>\n\nThis allows Strata to load .pi settings and resources, install missing project packages, and execute project extensions."`
 */
export function formatProjectTrustPrompt(cwd: string): string {
  return `Trust project folder?\n${cwd}\n\nThis allows Strata to load .pi settings and resources, install missing project packages, and execute project extensions.`;
}

/** One prompt choice and the store updates it implies (pi `ProjectTrustOption`). */
export interface ProjectTrustOption {
  label: string;
  trusted: boolean;
  updates: TrustUpdate[];
}

/**
 * The five choices in pi's order (pi's `resource-loader.ts`): `Trust` (stores cwd true), `Trust parent folder (<parent>)`
 * (stores the parent true and deletes cwd; omitted at `/`), `Trust (this session only)`, `Do not trust`
 * (stores cwd false), `Do not trust (this session only)`.
 */
export function getProjectTrustOptions(cwd: string): ProjectTrustOption[] {
  const dir = normalizePosix(cwd);
  const parent = dirnamePosix(dir);
  const options: ProjectTrustOption[] = [
    { label: "Trust", trusted: true, updates: [{ path: dir, decision: true }] },
  ];
  if (parent !== dir) {
    options.push({
      label: `Trust parent folder (${parent})`,
      trusted: true,
      updates: [
        { path: parent, decision: true },
        { path: dir, decision: null },
      ],
    });
  }
  options.push(
    { label: "Trust (this session only)", trusted: true, updates: [] },
    { label: "Do not trust", trusted: false, updates: [{ path: dir, decision: false }] },
    { label: "Do not trust (this session only)", trusted: false, updates: [] },
  );
  return options;
}

/** A `project_trust` hook's answer (pi extension event result). */
export interface ProjectTrustHookResult {
  trusted: "yes" | "no" | "undecided";
  remember?: boolean;
}

/** Options of {@link resolveProjectTrusted}. */
export interface ResolveProjectTrustedOptions {
  /** Project filesystem and canonical cwd. */
  fs: FileSystem;
  cwd: string;
  trustStore: TrustStore;
  /** Explicit override (pi `--approve` / `--no-approve`); wins over everything. */
  trustOverride?: boolean;
  /**
   * Strata: trust-requiring resources outside `fs` that apply to this project (a team rules root's SYSTEM.md /
   * APPEND_SYSTEM.md, {@link listTeamTrustRequiringResources}); any of them means step (2) does not trust.
   */
  otherTrustRequiring?: string[];
  /** Setting `defaultProjectTrust` (default `"ask"`). */
  defaultProjectTrust?: "always" | "never" | "ask";
  /** `project_trust` handlers in load order (pi extensions). */
  hooks?: ((event: { type: "project_trust"; cwd: string }) => Promise<ProjectTrustHookResult | undefined>)[];
  /** Receives `Extension "<id>" project_trust error: <message>` for a throwing hook. */
  onHookError?: (message: string, index: number) => void;
  /** A UI that can ask; absent → untrusted at the ask step. `select` resolves to a label or undefined (cancel). */
  ui?: { select(title: string, options: string[]): Promise<string | undefined> };
}

/**
 * Decide whether the project at `cwd` is trusted (pi `resolveProjectTrusted`, pi's `resource-loader.ts`): (1) `trustOverride`;
 * (2) no trust-requiring resources (the project's, or Strata's `otherTrustRequiring`) → true; (3) hooks in order, the first `"yes"`/`"no"` decides (stored
 * when `remember`), a throwing hook is reported and skipped; (4) the stored decision for cwd or its
 * nearest ancestor; (5) `defaultProjectTrust` `"always"`/`"never"`; (6) no UI → false; (7) the prompt
 * (cancel → false; the choice's updates are stored).
 */
export async function resolveProjectTrusted(options: ResolveProjectTrustedOptions): Promise<boolean> {
  if (options.trustOverride !== undefined) return options.trustOverride;
  const cwd = normalizePosix(options.cwd);
  if (
    (options.otherTrustRequiring ?? []).length === 0 &&
    !(await hasTrustRequiringProjectResources(options.fs, cwd))
  )
    return true;
  for (const [index, hook] of (options.hooks ?? []).entries()) {
    let result: ProjectTrustHookResult | undefined;
    try {
      result = await hook({ type: "project_trust", cwd });
    } catch (error) {
      options.onHookError?.(
        `Extension "${index}" project_trust error: ${error instanceof Error ? error.message : String(error)}`,
        index,
      );
      continue;
    }
    if (!result || result.trusted === "undecided") continue;
    const trusted = result.trusted === "yes";
    if (result.remember === true) await options.trustStore.set(cwd, trusted);
    return trusted;
  }
  const decision = await options.trustStore.get(cwd);
  if (decision !== null) return decision;
  switch (options.defaultProjectTrust ?? "ask") {
    case "always":
      return true;
    case "never":
      return false;
    default:
      break;
  }
  if (!options.ui) return false;
  const choices = getProjectTrustOptions(cwd);
  const label = await options.ui.select(
    formatProjectTrustPrompt(cwd),
    choices.map((c) => c.label),
  );
  const selected = choices.find((c) => c.label === label);
  if (!selected) return false;
  if (selected.updates.length > 0) await options.trustStore.setMany(selected.updates);
  return selected.trusted;
}
