/**
 * The share tests' fixture: a signed-up owner with a project (committed files) and a session in their personal
 * workspace, prompts through `runPrompt` against the mock provider, and the share routes called as a browser would.
 */
import { beforeAll } from "vitest";
import { type RunEvent, runPrompt } from "@/lib/agent-session/session-run";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { createSession } from "@/lib/session/store";
import { commitAll, initRepository } from "@/lib/vfs/git";
import { nameProblem } from "@/lib/vfs/names";
import { dirnamePosix } from "@/lib/vfs/paths";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";
import { mockStackEnv, withMockStack } from "../../helpers/mock-stack";
import type { SessionFixture } from "../../helpers/session-fixture";
import { storeBelowNameRule } from "../../helpers/vfs";
import type { MockProvider } from "../../mock-provider";

/** The environment pointing Anthropic (the default model) at `mock`: {@link withMockStack}'s default `env`. */
export const mockEnv = (mock: MockProvider) => mockStackEnv(mock.url);

/**
 * An owner and `files` committed in a new project of their personal workspace, with an empty session. A file whose
 * name the VFS refuses to create today (lib/vfs/names.ts: a bidi override…) is stored below the rule, as an older
 * Strata stored it, and committed with the rest when git can hold it.
 */
export async function ownerProject(
  scope: DbScope,
  files: Record<string, string>,
  owner?: TestUser,
): Promise<SessionFixture & { owner: TestUser }> {
  const user = owner ?? (await createTestUser("Share Owner"));
  const project = await insertProject(scope, { workspaceId: user.workspaceId, name: "shared", source: null });
  const openVfs = () => openWorkspaceVfs(user.workspaceId, new DbScope());
  const { vfs, scope: s } = openVfs();
  await initRepository(vfs, project.rootPath);
  const old: [string, string][] = [];
  for (const [p, c] of Object.entries(files)) {
    const abs = `${project.rootPath}/${p}`;
    if (p.split("/").some((name) => nameProblem(name))) {
      await vfs.mkdir(dirnamePosix(abs), { recursive: true });
      old.push([abs, c]);
    } else await vfs.writeFile(abs, c);
  }
  await vfs.flush();
  for (const [abs, c] of old) await storeBelowNameRule(user.workspaceId, abs, c);
  const initCommit = await commitAll(vfs, project.rootPath, {
    message: "init",
    author: { name: "t", email: "t@x" },
  });
  await vfs.flush();
  await s.release();
  const session = await createSession(scope, {
    projectId: project.id,
    cwd: project.rootPath,
    userId: user.id,
  });
  const actor = { userId: user.id, workspaceId: user.workspaceId } as unknown as SessionFixture["actor"];
  return { actor, project, session, initCommit, openVfs, owner: user };
}

/** One prompt whose answer makes `calls` (tool calls, ids `<prefix>_<n>`) then says `answer`. */
export async function prompt(
  mock: MockProvider,
  f: SessionFixture & { owner: TestUser },
  text: string,
  calls: { name: string; input: Record<string, unknown> }[],
  answer = "Done.",
  prefix = "c",
): Promise<RunEvent[]> {
  if (calls.length > 0)
    mock.enqueue({ toolCalls: calls.map((c, i) => ({ id: `${prefix}_${i + 1}`, ...c })) }, { text: answer });
  else mock.enqueue({ text: answer });
  const events: RunEvent[] = [];
  await runPrompt({
    sessionId: f.session.id,
    text,
    env: mockEnv(mock),
    author: { name: f.owner.name, email: f.owner.email },
    userId: f.owner.id,
    emit: async (e) => void events.push(e),
  });
  const errors = events.filter((e) => e.type === "error");
  if (errors.length > 0) throw new Error(`the run failed: ${JSON.stringify(errors)}`);
  return events;
}

/** Call route `handler` as `user` (null: signed out) with a JSON body (POST) or none (GET/DELETE). */
export async function call<P>(
  handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>,
  user: TestUser | null,
  url: string,
  params: P,
  init: { method?: string; json?: unknown; form?: Record<string, string> } = {},
): Promise<{ status: number; body: string; headers: Headers }> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.form).toString();
  }
  const method = init.method ?? (body === undefined ? "GET" : "POST");
  const res = await handler(asUser(user, url, { method, headers, body }), {
    params: Promise.resolve(params),
  });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

/**
 * A team workspace named `name` whose members are `members` (user and role), inserted directly.
 * @returns the team's workspace id.
 */
export async function createTeam(
  scope: DbScope,
  name: string,
  members: readonly (readonly [TestUser, "owner" | "admin" | "member" | "viewer"])[],
): Promise<string> {
  const [team] = await scope.query<{ id: string }>(
    "INSERT INTO workspaces (name, slug, kind) VALUES ($1, $2, 'team') RETURNING id",
    [name, `team-${crypto.randomUUID()}`],
  );
  for (const [user, role] of members)
    await scope.query("INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, $3)", [
      team.id,
      user.id,
      role,
    ]);
  return team.id;
}

/**
 * The file's mock provider and database scope ({@link withShareStack}), as live bindings: set before the file's
 * first test, the mock emptied before each test.
 */
export let mock: MockProvider;
export let scope: DbScope;

/**
 * Start the mock provider and open a scope for the calling test file ({@link withMockStack}); stopped and released
 * after its last test.
 */
export function withShareStack(): void {
  const stack = withMockStack();
  beforeAll(() => {
    mock = stack.mock;
    scope = stack.scope;
  });
}
