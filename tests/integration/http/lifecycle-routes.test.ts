/**
 * The rename and delete routes of sessions and projects against the real Postgres: exact statuses, codes and
 * messages, and that a deleted session or project answers 404 afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DELETE as deleteProjectRoute,
  GET as getProjectRoute,
  PATCH as patchProject,
} from "@/app/api/projects/[id]/route";
import {
  DELETE as deleteSessionRoute,
  GET as getSessionRoute,
  PATCH as patchSession,
} from "@/app/api/sessions/[id]/route";
import { DbScope } from "@/lib/db/client";
import { startRun } from "@/lib/session/runs";
import { asUser, signedInUser } from "../../helpers/auth";
import { makeProject, makeSession } from "../../helpers/lifecycle-fixture";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

let scope: DbScope;
beforeAll(() => {
  scope = new DbScope();
});
afterAll(async () => {
  await scope.release();
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const patch = (body: unknown, type = "application/json") =>
  asUser(signedIn.user, "http://127.0.0.1/x", {
    method: "PATCH",
    headers: { "content-type": type },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const del = () => asUser(signedIn.user, "http://127.0.0.1/x", { method: "DELETE" });
const get = () => asUser(signedIn.user, "http://127.0.0.1/x");

async function answer(res: Response) {
  return { status: res.status, body: await res.json() };
}

describe("PATCH/DELETE /api/sessions/:id", () => {
  it("renames, refuses bad bodies, refuses a running session, deletes and then answers 404", async () => {
    const project = await makeProject(scope, "routes-session", await signedIn.actor());
    const session = await makeSession(scope, project, "r.txt");
    const renamed = await answer(await patchSession(patch({ title: "Routes" }), params(session.id)));
    expect(renamed.status).toBe(200);
    expect(renamed.body.session).toMatchObject({ id: session.id, projectId: project.id, title: "Routes" });
    expect(await answer(await patchSession(patch({ title: "" }), params(session.id)))).toEqual({
      status: 400,
      body: { error: { code: "bad_request", message: "The session name must not be empty" } },
    });
    expect(await answer(await patchSession(patch({ name: "x" }), params(session.id)))).toMatchObject({
      status: 400,
      body: { error: { code: "bad_request" } },
    });
    expect((await patchSession(patch("title=x", "text/plain"), params(session.id))).status).toBe(415);
    expect(await answer(await patchSession(patch({ title: "x" }), params("nope")))).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: "Session nope not found" } },
    });

    const run = await startRun(scope, session.id, "prompt");
    expect(await answer(await deleteSessionRoute(del(), params(session.id)))).toEqual({
      status: 409,
      body: {
        error: {
          code: "session_running",
          message: `Session ${session.id} has a run in progress (an agent run); stop it, then delete the session`,
        },
      },
    });
    await scope.query("UPDATE session_runs SET finished_at = now() WHERE id = $1", [run]);
    expect(await answer(await deleteSessionRoute(del(), params(session.id)))).toEqual({
      status: 200,
      body: {
        deleted: { id: session.id, projectId: project.id, title: "Routes", entries: 3, branchDeleted: true },
      },
    });
    expect((await getSessionRoute(get(), params(session.id))).status).toBe(404);
    expect(await answer(await deleteSessionRoute(del(), params(session.id)))).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: `Session ${session.id} not found` } },
    });
  });
});

describe("PATCH /api/sessions/:id with control characters", () => {
  it("answers 400 for NUL, tab and ESC in the title and stores no entry and no title", async () => {
    const project = await makeProject(scope, "routes-session-ctl", await signedIn.actor());
    const session = await makeSession(scope, project, "c.txt");
    const count = async () =>
      (
        await scope.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM session_entries WHERE session_id = $1",
          [session.id],
        )
      )[0].n;
    expect(await count()).toBe(2);
    for (const title of ["a\u0000b", "a\tb", "a\u001b[31mb", "a\u007fb"]) {
      expect(await answer(await patchSession(patch({ title }), params(session.id)))).toEqual({
        status: 400,
        body: {
          error: {
            code: "bad_request",
            message: "The session name must not contain control characters (tabs, NUL and the like)",
          },
        },
      });
    }
    expect(await count()).toBe(2);
    const got = await answer(await getSessionRoute(get(), params(session.id)));
    expect(got.body.session.title).toBe(session.title);
    // Line breaks are still pi's: they become one space.
    const renamed = await answer(await patchSession(patch({ title: "a\r\nb" }), params(session.id)));
    expect(renamed).toMatchObject({ status: 200, body: { session: { title: "a b" } } });
    expect(await count()).toBe(3);
  });
});

describe("PATCH/DELETE /api/projects/:id", () => {
  it("renames, refuses a bad name, deletes and then answers 404", async () => {
    const project = await makeProject(scope, "routes-project", await signedIn.actor());
    await makeSession(scope, project, "p.txt");
    expect(await answer(await patchProject(patch({ name: " Renamed " }), params(project.id)))).toEqual({
      status: 200,
      body: {
        project: {
          id: project.id,
          name: "Renamed",
          rootPath: project.rootPath,
          createdAt: project.createdAt,
        },
      },
    });
    expect(await answer(await patchProject(patch({ name: "x".repeat(101) }), params(project.id)))).toEqual({
      status: 400,
      body: {
        error: { code: "bad_request", message: "The project name is 101 characters long; the limit is 100" },
      },
    });
    const deleted = await answer(await deleteProjectRoute(del(), params(project.id)));
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toMatchObject({
      id: project.id,
      name: "Renamed",
      rootPath: project.rootPath,
      sessions: 1,
    });
    expect(await answer(await getProjectRoute(get(), params(project.id)))).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: `Project ${project.id} not found` } },
    });
    expect((await patchProject(patch({ name: "again" }), params(project.id))).status).toBe(404);
  });
});
