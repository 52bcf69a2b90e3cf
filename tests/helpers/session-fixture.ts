/**
 * A project with committed files and an empty session in it, for runs against the real Postgres and the mock
 * provider: the fixture the run tests share (one git repository, one `init` commit, in the local owner's workspace or
 * a route test's signed-in user's).
 */
import { type RunEvent, runPrompt } from "@/lib/agent-session/session-run";
import { DbScope } from "@/lib/db/client";
import { type Actor, getLocalActor } from "@/lib/projects/identity";
import { insertProject, type Project } from "@/lib/projects/projects";
import { createSession, type SessionRow } from "@/lib/session/store";
import { commitAll, initRepository } from "@/lib/vfs/git";
import type { Vfs } from "@/lib/vfs/vfs";
import { openSessionVfs, openWorkspaceVfs } from "@/lib/vfs/workspace";
import type { MockProvider } from "../mock-provider";

/** What {@link projectWithSession} made. */
export interface SessionFixture {
  actor: Actor;
  project: Project;
  session: SessionRow;
  /** The `init` commit of `files`. */
  initCommit: string;
  /** A fresh VFS of the session's working tree (the workspace elsewhere) on its own scope (release it after use). */
  openVfs(): { vfs: Vfs; scope: DbScope };
}

/** Whose workspace {@link projectWithSession} makes the project in, and its name. */
export interface ProjectWithSessionOptions {
  /** Default: the local owner. Route tests pass their signed-in user (`signedInUser` of tests/helpers/auth.ts). */
  actor?: Actor;
  /** Default `demo`. */
  name?: string;
}

/**
 * `files` (project-relative path → text) committed as `init` in a new project of `options.actor` (default: the local
 * owner), and a session.
 */
export async function projectWithSession(
  scope: DbScope,
  files: Record<string, string>,
  options: ProjectWithSessionOptions = {},
): Promise<SessionFixture> {
  const actor = options.actor ?? (await getLocalActor(scope));
  const project = await insertProject(scope, {
    workspaceId: actor.workspaceId,
    name: options.name ?? "demo",
    source: null,
  });
  const { vfs, scope: s } = openWorkspaceVfs(actor.workspaceId, new DbScope());
  await initRepository(vfs, project.rootPath);
  for (const [p, c] of Object.entries(files)) await vfs.writeFile(`${project.rootPath}/${p}`, c);
  const initCommit = await commitAll(vfs, project.rootPath, {
    message: "init",
    author: { name: "t", email: "t@x" },
  });
  await vfs.flush();
  await s.release();
  const session = await createSession(scope, { projectId: project.id, cwd: project.rootPath });
  const openVfs = () => openSessionVfs(project, session.id, new DbScope());
  return { actor, project, session, initCommit, openVfs };
}

/** The text of project file `rel` as stored now (a fresh read), or null when it does not exist. */
export async function readProjectFile(fixture: SessionFixture, rel: string): Promise<string | null> {
  const { vfs, scope } = fixture.openVfs();
  try {
    return await vfs.readText(`${fixture.project.rootPath}/${rel}`).catch(() => null);
  } finally {
    await scope.release();
  }
}

/** Write project file `rel` (an editor save between turns). */
export async function writeProjectFile(fixture: SessionFixture, rel: string, text: string): Promise<void> {
  const { vfs, scope } = fixture.openVfs();
  try {
    await vfs.writeFile(`${fixture.project.rootPath}/${rel}`, text);
    await vfs.flush();
  } finally {
    await scope.release();
  }
}

/** The prompting user of the run tests (author of the checkpoints). */
export const ADA = { name: "Ada Lovelace", email: "ada@example.com" };

/**
 * One prompt on `fixture`'s session whose answer writes `files` (one `write` call each, ids `<prefix>_<n>`) and then
 * says `Done.`, through `runPrompt` against the mock provider at `env`. @returns the run's events (no `error` one).
 */
export async function promptWriting(
  mock: MockProvider,
  env: Record<string, string>,
  fixture: SessionFixture,
  text: string,
  files: Record<string, string>,
  prefix = "w",
): Promise<RunEvent[]> {
  mock.enqueue(
    {
      toolCalls: Object.entries(files).map(([path, content], i) => ({
        id: `${prefix}_${i + 1}`,
        name: "write",
        input: { path, content },
      })),
    },
    { text: "Done." },
  );
  const events: RunEvent[] = [];
  await runPrompt({
    sessionId: fixture.session.id,
    text,
    env,
    author: ADA,
    emit: async (e) => void events.push(e),
  });
  const errors = events.filter((e) => e.type === "error");
  if (errors.length > 0) throw new Error(`the run failed: ${JSON.stringify(errors)}`);
  return events;
}
