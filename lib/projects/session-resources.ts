/**
 * The resources in effect for a session (pi `DefaultResourceLoader.reload()` for the session's cwd) and
 * the project trust decision behind them: the project's workspace VFS, the user's agent VFS
 * (`lib/projects/agent-dir.ts`), the user's stored decisions (`PgTrustStore`) and the session's
 * "this session only" override (`sessions.trust_override`) — and, for a project of a team workspace, the team
 * rules root (`./team-rules-resources.ts`: main, or the proposal the session previews). Used by every prompt run,
 * by `GET /api/sessions/:id/resources` and `POST /api/projects/:id/trust`.
 */

import type { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import type { ResourceDiagnostic } from "@/lib/resources/fs-util";
import { loadPiSettings } from "@/lib/resources/pi-settings";
import {
  formatProjectTrustPrompt,
  getProjectTrustOptions,
  listTeamTrustRequiringResources,
  listTrustRequiringProjectResources,
} from "@/lib/resources/project-trust";
import { type LoadedResources, loadResources } from "@/lib/resources/resource-loader";
import { PgTrustStore } from "@/lib/resources/trust-store";
import { getSession, type SessionRow } from "@/lib/session/store";
import { normalizePosix } from "@/lib/vfs/paths";
import type { Vfs } from "@/lib/vfs/vfs";
import { openSessionVfs } from "@/lib/vfs/workspace";
import { AGENT_DIR, AGENT_HOME, openAgentVfs } from "./agent-dir";
import { getProject, type Project } from "./projects";
import { describeProvenance, type ProvenanceView } from "./resource-history";
import { listSlashCommands, type SlashCommand } from "./slash-commands";
import { openSessionTeamRules, type RulesPreview, type SessionTeamRules } from "./team-rules-resources";

/** The trust prompt's choices, in pi's order (pi's `resource-loader.ts`); `trust_parent` is absent at `/`. */
export const TRUST_CHOICES = [
  "trust",
  "trust_parent",
  "session_only",
  "do_not_trust",
  "do_not_trust_session",
] as const;
export type TrustChoice = (typeof TRUST_CHOICES)[number];

/** Project trust as the IDE sees it for one session. */
export interface TrustStatus {
  /** Trust in effect for the session (pi `projectTrusted`). */
  trusted: boolean;
  /** Trust-requiring resources exist and neither a stored decision nor a session override decides them. */
  needsDecision: boolean;
  /** pi's question (`formatProjectTrustPrompt`, product name Strata). */
  prompt: string;
  /** pi's choices in order, with the label pi shows. */
  options: { choice: TrustChoice; label: string }[];
  /** The directory the decision is about (the session cwd). */
  cwd: string;
  /** The session's "this session only" choice, or null. */
  sessionOverride: boolean | null;
  /** Trust-requiring project entries present but not loaded because the project is untrusted. */
  withheld: string[];
}

export interface SessionResources {
  resources: LoadedResources;
  trust: TrustStatus;
  /** The user's agent VFS (skills with source `user` are read from it). */
  agentFs: Vfs;
  /** The team rules root read (skills with source `team` are read from its `fs`), or null outside a team. */
  team: SessionTeamRules | null;
  /** The project's workspace VFS the resources were read from. */
  vfs: Vfs;
  /** The user whose agent dir and trust decisions apply. */
  userId: string;
}

/** The filesystem a loaded skill's file is read from (for `/skill:` expansion). */
export function skillFileSystem(r: SessionResources, skill: { source: string }): Vfs {
  if (skill.source === "user") return r.agentFs;
  if (skill.source === "team" && r.team) return r.team.fs;
  return r.vfs;
}

/** The view `GET /api/sessions/:id/resources` answers. */
export interface SessionResourcesView {
  /** Each resource in effect with its scope, path and last change (`./resource-history.ts`). */
  provenance: ProvenanceView[];
  /** The proposal whose team rules this session previews (not merged), or null. */
  preview: RulesPreview | null;
  diagnostics: ResourceDiagnostic[];
  trust: TrustStatus;
  /** The `/` commands for the composer's autocomplete (`listSlashCommands`). */
  commands: SlashCommand[];
}

/**
 * The user whose agent dir and trust decisions apply: `userId` (the caller; routes always pass it), else the
 * project's personal workspace owner for a session stored without a user (only a personal workspace has one user).
 * @throws Error when neither names a user (a team session without a caller).
 */
async function actingUser(scope: DbScope, userId: string | null, project: Project): Promise<string> {
  if (userId) return userId;
  const rows = await scope.query<{ owner_user_id: string | null }>(
    "SELECT owner_user_id FROM workspaces WHERE id = $1 AND kind = 'personal'",
    [project.workspaceId],
  );
  const owner = rows[0]?.owner_user_id;
  if (!owner) throw new Error(`No user for project ${project.id}'s resources: pass the caller's userId.`);
  return owner;
}

/** The session's "this session only" trust choice (null = none). */
export async function getSessionTrustOverride(scope: DbScope, sessionId: string): Promise<boolean | null> {
  const rows = await scope.query<{ trust_override: boolean | null }>(
    "SELECT trust_override FROM sessions WHERE id = $1",
    [sessionId],
  );
  return rows[0]?.trust_override ?? null;
}

/** Store (or clear with null) the session's "this session only" trust choice. */
export async function setSessionTrustOverride(
  scope: DbScope,
  sessionId: string,
  value: boolean | null,
): Promise<void> {
  await scope.query("UPDATE sessions SET trust_override = $2 WHERE id = $1", [sessionId, value]);
}

/** pi's options for `cwd`, each tagged with its API choice. */
export function trustOptionsFor(
  cwd: string,
): { choice: TrustChoice; label: string; option: ReturnType<typeof getProjectTrustOptions>[number] }[] {
  const options = getProjectTrustOptions(cwd);
  const choices = TRUST_CHOICES.filter((c) => c !== "trust_parent" || options.length === 5);
  return options.map((option, i) => ({ choice: choices[i], label: option.label, option }));
}

/**
 * Load the resources in effect for `session` (pi order and gating, `loadResources`) with trust from the
 * session override (explicit flag) or the user's stored decision, plus the trust status for the IDE.
 * @param vfs the project's workspace VFS (opened on `scope` when absent).
 * @throws the driver's error when a query fails.
 */
export async function loadSessionResources(
  scope: DbScope,
  input: {
    session: SessionRow;
    project: Project;
    userId?: string;
    vfs?: Vfs;
    /**
     * True when `session` was read in this request after any change to it (a run's authorised row): its trust
     * override and rules preview are used as they are. Default: both are read again (the row may be older).
     */
    current?: boolean;
  },
): Promise<SessionResources> {
  const { session, project } = input;
  const userId = await actingUser(scope, input.userId ?? session.userId, project);
  const vfs = input.vfs ?? openSessionVfs(project, session.id, scope).vfs;
  const { vfs: agentFs } = await openAgentVfs(scope, userId);
  const trustStore = new PgTrustStore(scope, userId, project.workspaceId);
  // A current row (one read of `sessions` per request) already has the "this session only" trust choice.
  const override = input.current ? session.trustOverride : await getSessionTrustOverride(scope, session.id);
  const cwd = normalizePosix(session.cwd);
  const team = await openSessionTeamRules(scope, {
    session,
    current: input.current ?? false,
    workspaceId: project.workspaceId,
    vfs,
  });
  const resources = await loadResources({
    fs: vfs,
    cwd,
    root: "/",
    agentFs,
    agentDir: AGENT_DIR,
    agentHomeDir: AGENT_HOME,
    ...(team ? { teamFs: team.fs, teamRulesDir: team.dir } : {}),
    trust: { trustStore, ...(override === null ? {} : { trustOverride: override }) },
  });
  // pi's settings files (retry settings, …): one that is skipped is listed with the other resource problems.
  const settings = await loadPiSettings({
    agentFs,
    agentDir: AGENT_DIR,
    projectFs: vfs,
    cwd,
    projectTrusted: resources.projectTrusted,
  });
  resources.diagnostics.push(...settings.errors);
  const undecided = !resources.projectTrusted && override === null && (await trustStore.get(cwd)) === null;
  const withheld = resources.projectTrusted
    ? []
    : [
        ...(await listTrustRequiringProjectResources(vfs, cwd)),
        ...(team ? await listTeamTrustRequiringResources(team.fs, team.dir) : []),
      ];
  return {
    resources,
    agentFs,
    team,
    vfs,
    userId,
    trust: {
      trusted: resources.projectTrusted,
      needsDecision: undecided,
      prompt: formatProjectTrustPrompt(cwd),
      options: trustOptionsFor(cwd).map(({ choice, label }) => ({ choice, label })),
      cwd,
      sessionOverride: override,
      withheld,
    },
  };
}

/**
 * The view of {@link loadSessionResources} the HTTP API answers: provenance with each file's last change (git
 * history where there is one), the previewed proposal, diagnostics, trust and the slash commands.
 * @throws the driver's error when a query fails.
 */
export async function toSessionResourcesView(
  scope: DbScope,
  r: SessionResources,
  context: { session: SessionRow; project: Project },
): Promise<SessionResourcesView> {
  const users = await scope.query<{ name: string }>("SELECT name FROM users WHERE id = $1", [r.userId]);
  const provenance = await describeProvenance(scope, {
    provenance: r.resources.provenance,
    workspaceId: context.project.workspaceId,
    projectRoot: context.project.rootPath,
    sessionId: context.session.id,
    vfs: r.vfs,
    agentFs: r.agentFs,
    team: r.team,
    userName: users[0]?.name ?? "you",
  });
  return {
    provenance,
    preview: r.team?.preview ?? null,
    diagnostics: r.resources.diagnostics,
    trust: r.trust,
    commands: listSlashCommands(r.resources),
  };
}

/** A trust choice that cannot apply (unknown session, `trust_parent` at `/`, a session choice without a session). */
export class TrustChoiceError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 = 400,
  ) {
    super(message);
    this.name = "TrustChoiceError";
  }
}

/**
 * Apply a trust prompt choice for `projectId` as pi does (pi's `resource-loader.ts`), in Postgres instead of trust.json:
 * `trust` stores the cwd as trusted; `trust_parent` stores the parent as trusted and deletes the cwd's
 * key; `do_not_trust` stores the cwd as untrusted; `session_only` / `do_not_trust_session` store nothing
 * and set the session's override (true / false). A stored choice clears the session's override. The cwd
 * is the session's when `sessionId` is given, else the project root.
 * @returns the trust now in effect and the store updates made.
 * @throws TrustChoiceError (404 unknown project/session, 400 inapplicable choice); the driver's errors.
 */
export async function applyProjectTrustChoice(
  scope: DbScope,
  input: { projectId: string; choice: TrustChoice; sessionId?: string; userId?: string },
): Promise<{ trusted: boolean; cwd: string; updates: { path: string; decision: boolean | null }[] }> {
  const project = await getProject(scope, input.projectId);
  if (!project) throw new TrustChoiceError(`Project ${input.projectId} not found`, 404);
  let session: SessionRow | null = null;
  if (input.sessionId !== undefined) {
    session = isUuid(input.sessionId) ? await getSession(scope, input.sessionId) : null;
    if (!session || session.projectId !== project.id)
      throw new TrustChoiceError(`Session ${input.sessionId} not found in this project`, 404);
  }
  const cwd = normalizePosix(session?.cwd ?? project.rootPath);
  const picked = trustOptionsFor(cwd).find((o) => o.choice === input.choice);
  if (!picked) throw new TrustChoiceError(`Choice ${input.choice} does not apply to ${cwd}`);
  const sessionOnly = input.choice === "session_only" || input.choice === "do_not_trust_session";
  if (sessionOnly && !session) throw new TrustChoiceError(`Choice ${input.choice} needs a sessionId`);
  const userId = await actingUser(scope, input.userId ?? session?.userId ?? null, project);
  if (sessionOnly) {
    await setSessionTrustOverride(scope, session!.id, picked.option.trusted);
  } else {
    await new PgTrustStore(scope, userId, project.workspaceId).setMany(picked.option.updates);
    if (session) await setSessionTrustOverride(scope, session.id, null);
  }
  return { trusted: picked.option.trusted, cwd, updates: picked.option.updates };
}
