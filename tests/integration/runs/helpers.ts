/**
 * Drivers for the run tests: a session on a fresh project of a signed-in user, the prompt / abort / session /
 * run-events route handlers called in process, and an SSE reader that keeps each event's `id:`.
 */
import { POST as postAbort } from "@/app/api/sessions/[id]/abort/route";
import { POST as postPrompt } from "@/app/api/sessions/[id]/prompt/route";
import { POST as postRetry } from "@/app/api/sessions/[id]/retry/route";
import { GET as getSessionRoute } from "@/app/api/sessions/[id]/route";
import { GET as getRunEvents } from "@/app/api/sessions/[id]/runs/[runId]/events/route";
import { readSseStream, type SseEvent } from "@/components/chat/sse";
import type { DbScope } from "@/lib/db/client";
import { DbScope as Scope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { createSession } from "@/lib/session/store";
import { commitAll, initRepository } from "@/lib/vfs/git";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";

let user: TestUser | undefined;

/** The signed-in user every route is called as. */
export async function testUser(): Promise<TestUser> {
  user ??= await createTestUser("Runs tester");
  return user;
}

/** A session on a fresh project (one committed file `a.txt`). */
export async function newSession(scope: DbScope) {
  const u = await testUser();
  const project = await insertProject(scope, { workspaceId: u.workspaceId, name: "runs", source: null });
  const s = new Scope();
  const { vfs } = openWorkspaceVfs(u.workspaceId, s);
  await initRepository(vfs, project.rootPath);
  await vfs.writeFile(`${project.rootPath}/a.txt`, "alpha\n");
  await commitAll(vfs, project.rootPath, { message: "init", author: { name: "t", email: "t@x" } });
  await vfs.flush();
  await s.release();
  return createSession(scope, { projectId: project.id, cwd: project.rootPath });
}

/** `POST /api/sessions/:id/prompt` with `body`. */
export async function prompt(sessionId: string, body: Record<string, unknown>): Promise<Response> {
  return postPrompt(
    asUser(await testUser(), `http://t/api/sessions/${sessionId}/prompt`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: sessionId }) },
  );
}

/** `POST /api/sessions/:id/retry` (the Retry button). */
export async function retry(sessionId: string): Promise<Response> {
  return postRetry(
    asUser(await testUser(), `http://t/api/sessions/${sessionId}/retry`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    }),
    { params: Promise.resolve({ id: sessionId }) },
  );
}

/** `POST /api/sessions/:id/abort` → its JSON. */
export async function abort(sessionId: string): Promise<unknown> {
  const res = await postAbort(
    asUser(await testUser(), `http://t/api/sessions/${sessionId}/abort`, { method: "POST" }),
    { params: Promise.resolve({ id: sessionId }) },
  );
  return res.json();
}

/** `GET /api/sessions/:id` → status and JSON. */
export async function readSession(
  sessionId: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await getSessionRoute(asUser(await testUser(), `http://t/api/sessions/${sessionId}`), {
    params: Promise.resolve({ id: sessionId }),
  });
  return { status: res.status, body: await res.json() };
}

/** A fresh signed-in user who is a viewer of the test user's workspace (reads its sessions and runs). */
export async function viewer(scope: DbScope, name = "Runs viewer"): Promise<TestUser> {
  const [u, owner] = await Promise.all([createTestUser(name), testUser()]);
  await scope.query("INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'viewer')", [
    owner.workspaceId,
    u.id,
  ]);
  return u;
}

/** `GET /api/sessions/:id/runs/:runId/events` (`query` without `?`, optional `Last-Event-ID`), as `as` or the test user. */
export async function runEvents(
  sessionId: string,
  runId: string,
  options: { query?: string; lastEventId?: string; signal?: AbortSignal; as?: TestUser } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.lastEventId !== undefined) headers["last-event-id"] = options.lastEventId;
  const url = `http://t/api/sessions/${sessionId}/runs/${runId}/events${options.query ? `?${options.query}` : ""}`;
  const request = asUser(options.as ?? (await testUser()), url, { headers, signal: options.signal });
  // undici links `options.signal` to `request.signal` through a WeakRef to the Request's own controller: once
  // the Request is garbage-collected, aborting no longer reaches the handler. The listener keeps it alive.
  options.signal?.addEventListener("abort", () => void request, { once: true });
  return getRunEvents(request, { params: Promise.resolve({ id: sessionId, runId }) });
}

/** An SSE event with its id, name and parsed data. */
export interface WireEvent {
  id: number | undefined;
  event: string;
  data: Record<string, unknown>;
}

/** Read an SSE body in the background: `events` fill as they come; `waitFor` resolves on the first match. */
export function reader(res: Response) {
  const events: WireEvent[] = [];
  const waiters: { test: (e: WireEvent) => boolean; resolve: () => void }[] = [];
  const done = readSseStream(res.body as ReadableStream<Uint8Array>, (e: SseEvent) => {
    const event = {
      id: e.id === undefined ? undefined : Number(e.id),
      event: e.event,
      data: JSON.parse(e.data),
    };
    events.push(event);
    for (const w of waiters.filter((w) => w.test(event))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  return {
    events,
    done,
    waitFor: (test: (e: WireEvent) => boolean) =>
      new Promise<void>((resolve) => {
        if (events.some(test)) return resolve();
        waiters.push({ test, resolve });
      }),
  };
}

/**
 * Wait until `check` is true (polling every 20 ms). `ms` only detects a hang (far above what any check here takes
 * on a loaded machine, below the test's timeout); it is not a timing claim.
 */
export async function until(check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The stored log of run `runId`: `[seq, type, data]` rows. */
export async function storedEvents(scope: DbScope, runId: string) {
  const rows = await scope.query<{ seq: number; type: string; data: string }>(
    "SELECT seq, type, data FROM run_events WHERE run_id = $1 ORDER BY seq",
    [runId],
  );
  return rows.map((r) => ({ id: Number(r.seq), event: r.type, data: JSON.parse(r.data) }));
}

/** The run row's outcome and last seq. */
export async function runRow(scope: DbScope, runId: string) {
  const [r] = await scope.query<{ outcome: string | null; last_seq: number; finished: boolean }>(
    "SELECT outcome, last_seq, finished_at IS NOT NULL AS finished FROM session_runs WHERE id = $1",
    [runId],
  );
  return { outcome: r.outcome, lastSeq: Number(r.last_seq), finished: r.finished };
}
