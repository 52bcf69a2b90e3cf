/**
 * Request bodies at every state-changing JSON route, through the real handlers and Postgres: a cross-site
 * `text/plain` no-cors POST of a `!command` answers 415 and runs nothing; a 20 MB JSON body answers 413 with the
 * limit (never 400 "not valid JSON"); nothing is written, and the server keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as putAgentFile } from "@/app/api/agent/file/route";
import { PUT as putFile } from "@/app/api/projects/[id]/file/route";
import { POST as postSessions } from "@/app/api/projects/[id]/sessions/route";
import { POST as postTrust } from "@/app/api/projects/[id]/trust/route";
import { POST as postProjects } from "@/app/api/projects/route";
import { POST as postBranch } from "@/app/api/sessions/[id]/branch/route";
import { POST as postCompact } from "@/app/api/sessions/[id]/compact/route";
import { POST as postFork } from "@/app/api/sessions/[id]/fork/route";
import { POST as postPrompt } from "@/app/api/sessions/[id]/prompt/route";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { createSession } from "@/lib/session/store";
import { commitAll, initRepository } from "@/lib/vfs/git";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, signedInUser } from "../../helpers/auth";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

const MiB = 1024 * 1024;
let scope: DbScope;
let project: { id: string; rootPath: string; workspaceId: string };
let sessionId: string;

beforeAll(async () => {
  scope = new DbScope();
  const actor = await signedIn.actor();
  project = await insertProject(scope, { workspaceId: actor.workspaceId, name: "bodies", source: null });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(actor.workspaceId, s);
  await initRepository(vfs, project.rootPath);
  await vfs.writeFile(`${project.rootPath}/a.txt`, "alpha\n");
  await commitAll(vfs, project.rootPath, { message: "init", author: { name: "t", email: "t@x" } });
  await vfs.flush();
  await s.release();
  sessionId = (await createSession(scope, { projectId: project.id, cwd: project.rootPath })).id;
});
afterAll(() => scope.release());

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const send = (method: string, body: BodyInit, headers: Record<string, string>) =>
  asUser(signedIn.user, "http://strata.test/", { method, headers, body, duplex: "half" } as RequestInit);
const CROSS_SITE = {
  origin: "http://evil.example",
  "sec-fetch-site": "cross-site",
  "content-type": "text/plain",
};
const UNSUPPORTED = {
  code: "unsupported_media_type",
  message:
    "This endpoint accepts application/json only (got Content-Type: text/plain). Send the body with Content-Type: application/json.",
};

/** What must stay unchanged: the session's entries, the project's sessions, and the project's files. */
async function state() {
  const [row] = await scope.query<{ entries: number; sessions: number; files: string[] }>(
    `SELECT (SELECT count(*)::int FROM session_entries WHERE session_id = $1) AS entries,
            (SELECT count(*)::int FROM sessions WHERE project_id = $2) AS sessions,
            (SELECT array_agg(path ORDER BY path) FROM vfs_nodes
               WHERE workspace_id = $3 AND kind = 'file' AND path LIKE $4 AND path NOT LIKE $5) AS files`,
    [sessionId, project.id, project.workspaceId, `${project.rootPath}/%`, `${project.rootPath}/.git/%`],
  );
  return row;
}

/** The server still answers: a JSON file write succeeds and reads back. */
async function stillServing(name: string) {
  const res = await putFile(
    send("PUT", JSON.stringify({ path: name, content: "ok\n" }), { "content-type": "application/json" }),
    params(project.id),
  );
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ path: name, size: 3 });
}

describe("cross-site text/plain", () => {
  it("a no-cors text/plain POST of a !command answers 415 and runs nothing", async () => {
    const before = await state();
    const res = await postPrompt(
      send("POST", JSON.stringify({ text: "!echo pwned > pwned.txt" }), CROSS_SITE),
      params(sessionId),
    );
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: UNSUPPORTED });
    expect(await state()).toEqual(before);
    expect(before.files).toEqual([`${project.rootPath}/a.txt`]);
  });

  it("every other JSON route answers 415 for text/plain and changes nothing", async () => {
    const before = await state();
    const body = JSON.stringify({ path: "pwned.txt", content: "x", entryId: "e", choice: "trust" });
    const answers = [
      await putFile(send("PUT", body, CROSS_SITE), params(project.id)),
      await putAgentFile(send("PUT", body, CROSS_SITE)),
      await postSessions(send("POST", "{}", CROSS_SITE), params(project.id)),
      await postTrust(send("POST", body, CROSS_SITE), params(project.id)),
      await postProjects(send("POST", JSON.stringify({ gitUrl: "http://127.0.0.1:1/x.git" }), CROSS_SITE)),
      await postBranch(send("POST", body, CROSS_SITE), params(sessionId)),
      await postFork(send("POST", body, CROSS_SITE), params(sessionId)),
      await postCompact(send("POST", "{}", CROSS_SITE), params(sessionId)),
    ];
    for (const res of answers) {
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ error: UNSUPPORTED });
    }
    expect(await state()).toEqual(before);
    await stillServing("after-415.txt");
  });
});

describe("20 MB JSON bodies", () => {
  const big = () => JSON.stringify({ text: "x".repeat(20 * MiB) });

  it("the prompt route answers 413 with its 10 MiB limit (text and images), declared or counted; nothing is stored", async () => {
    const before = await state();
    const text = big();
    const declared = await postPrompt(
      send("POST", text, { "content-type": "application/json", "content-length": String(text.length) }),
      params(sessionId),
    );
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({
      error: {
        code: "too_large",
        message: `The request body is ${text.length} bytes; this endpoint accepts at most 10485760 bytes (10 MiB). Send a smaller body.`,
      },
    });
    const counted = await postPrompt(
      send("POST", new Blob([text]).stream(), { "content-type": "application/json" }),
      params(sessionId),
    );
    expect(counted.status).toBe(413);
    expect(await counted.json()).toEqual({
      error: {
        code: "too_large",
        message:
          "The request body is larger than the limit; this endpoint accepts at most 9437184 bytes (9 MiB) when sent without a Content-Length (10485760 bytes (10 MiB) with one). Send a smaller body.",
      },
    });
    expect(await state()).toEqual(before);
  });

  it("a file write answers 413 with the 10 MiB limit and writes nothing", async () => {
    const before = await state();
    const body = JSON.stringify({ path: "big.txt", content: "x".repeat(20 * MiB) });
    const res = await putFile(
      send("PUT", new Blob([body]).stream(), { "content-type": "application/json" }),
      params(project.id),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: {
        code: "too_large",
        message:
          "The request body is larger than the limit; this endpoint accepts at most 9437184 bytes (9 MiB) when sent without a Content-Length (10485760 bytes (10 MiB) with one). Send a smaller body.",
      },
    });
    expect(await state()).toEqual(before);
    await stillServing("after-413.txt");
  });

  it("invalid JSON under the limit is still 400 'not valid JSON'", async () => {
    const res = await postPrompt(
      send("POST", '{"text": "hi"', { "content-type": "application/json" }),
      params(sessionId),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: "bad_request", message: "The request body is not valid JSON" },
    });
  });
});
