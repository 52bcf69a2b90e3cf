/**
 * Hostile session imports against the real route handlers and Postgres (adversarial findings F1, F4, F7): a header
 * cwd over the VFS path limits, entries nested deeper than 64 levels (one request and an 8-million-level staged
 * upload), and concurrent commits / a DELETE / a part PUT during a commit. Each is refused with an exact status and
 * message, stores nothing, and leaves no staged upload behind. The 8-million-level line is refused without
 * JSON.parse ever seeing it (parsing it held the event loop for seconds); how long the commit holds the loop is
 * measured by `npm run bench` (section hostile).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postImport } from "@/app/api/projects/[id]/sessions/import/route";
import { PUT as putPart } from "@/app/api/projects/[id]/sessions/import/uploads/[uploadId]/parts/[part]/route";
import {
  POST as commitUpload,
  DELETE as deleteUpload,
} from "@/app/api/projects/[id]/sessions/import/uploads/[uploadId]/route";
import { POST as createUpload } from "@/app/api/projects/[id]/sessions/import/uploads/route";
import { GET as getSessionRoute } from "@/app/api/sessions/[id]/route";
import { openSessionRuntime } from "@/lib/agent-session/session-runtime";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { runShell } from "@/lib/tools/bash";
import { asUser, createTestUser, signedInUser } from "../../helpers/auth";
import { largeSessionFile, SESSION_HEADER, sessionFile } from "../../helpers/session-files";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

const MiB = 1024 * 1024;
let scope: DbScope;
let projectId: string;
let root: string;

beforeAll(async () => {
  scope = new DbScope();
  const actor = await signedIn.actor();
  const project = await insertProject(scope, {
    workspaceId: actor.workspaceId,
    name: "import-hostile",
    source: null,
  });
  projectId = project.id;
  root = project.rootPath;
});
afterAll(() => scope.release());

const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });
const raw = (text: string) =>
  postImport(
    asUser(signedIn.user, "http://strata.test/?name=s.jsonl", {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: text,
    }),
    params({ id: projectId }),
  );
const counts = async () => {
  const [row] = await scope.query<{ sessions: number; uploads: number }>(
    `SELECT (SELECT count(*)::int FROM sessions WHERE project_id = $1) AS sessions,
            (SELECT count(*)::int FROM session_uploads WHERE project_id = $1) AS uploads`,
    [projectId],
  );
  return row;
};
const header = (cwd: string) =>
  JSON.stringify({ type: "session", version: 3, id: "h1", timestamp: "2026-01-01T09:00:00.000Z", cwd });
const info = JSON.stringify({ type: "session_info", id: "a", parentId: null, timestamp: "t", name: "x" });
const dropSession = (res: { session: { id: string } }) =>
  scope.query("DELETE FROM sessions WHERE id = $1", [res.session.id]);

const create = async (name = "u.jsonl") => {
  const res = await createUpload(
    asUser(signedIn.user, "http://strata.test/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name }),
    }),
    params({ id: projectId }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { upload: { id: string } }).upload.id;
};
const put = (uploadId: string, part: number, body: Uint8Array<ArrayBuffer>) =>
  putPart(
    asUser(signedIn.user, "http://strata.test/", {
      method: "PUT",
      headers: { "content-type": "application/octet-stream" },
      body,
    }),
    params({ id: projectId, uploadId, part: String(part) }),
  );
const commit = (uploadId: string, body: { parts: number; bytes: number }) =>
  commitUpload(
    asUser(signedIn.user, "http://strata.test/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    params({ id: projectId, uploadId }),
  );
const cancel = (uploadId: string) =>
  deleteUpload(
    asUser(signedIn.user, "http://strata.test/", { method: "DELETE" }),
    params({ id: projectId, uploadId }),
  );
/** Stage `text` in parts of `partBytes`; returns the commit body. */
async function stage(uploadId: string, text: string, partBytes = 4 * MiB) {
  const bytes = new TextEncoder().encode(text);
  let parts = 0;
  for (let offset = 0; offset < bytes.length; offset += partBytes, parts++)
    expect((await put(uploadId, parts, bytes.slice(offset, offset + partBytes))).status).toBe(200);
  return { parts, bytes: bytes.length };
}

describe("F1: a header cwd over the path limits", () => {
  const refusal = (name: string, reason: string, line = 1) => ({
    error: {
      code: "invalid_session_file",
      message: `Session file has entries that cannot be imported: ${name}\n${name}:${line}: invalid-entry: Line ${line}: the header's cwd is over the path limits below the project root (${reason}) Set the header's cwd to a shallower folder, or remove it, and import again.`,
    },
  });

  it("2,000 and 65 levels, or 6,001 bytes, below the project root: 400 with line 1, nothing stored", async () => {
    const before = await counts();
    const deep = await raw(`${header(`${root}/${"c/".repeat(2000)}`)}\n${info}\n`);
    expect(deep.status).toBe(400);
    expect(await deep.json()).toEqual(
      refusal("s.jsonl", "Path is 2000 levels deep; the limit is 64. Use a shallower path."),
    );
    const over = await raw(`${header(`${root}/${Array(65).fill("d").join("/")}`)}\n${info}\n`);
    expect(await over.json()).toEqual(
      refusal("s.jsonl", "Path is 65 levels deep; the limit is 64. Use a shallower path."),
    );
    const long = await raw(`${header(`${root}/${"x".repeat(3000)}/${"y".repeat(3000)}`)}\n${info}\n`);
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual(
      refusal("s.jsonl", "Path is 6001 bytes long; the limit is 4096. Use a shorter path."),
    );
    // A blank line first: the diagnostic names the header's own line.
    const later = await raw(`\n${header(`${root}/${"c/".repeat(100)}`)}\n${info}\n`);
    expect(await later.json()).toEqual(
      refusal("s.jsonl", "Path is 100 levels deep; the limit is 64. Use a shallower path.", 2),
    );
    expect(await counts()).toEqual(before);
  });

  it("64 levels is accepted (the session works there); a cwd outside the project still maps to the root", async () => {
    const cwd = `${root}/${Array(64).fill("d").join("/")}`;
    const ok = await raw(`${header(cwd)}\n${info}\n`);
    expect(ok.status).toBe(201);
    const body = (await ok.json()) as { session: { id: string } };
    const [row] = await scope.query<{ cwd: string }>("SELECT cwd FROM sessions WHERE id = $1", [
      body.session.id,
    ]);
    expect(row.cwd).toBe(cwd);
    await dropSession(body);
    const outside = await raw(`${header(`/elsewhere/${"c/".repeat(2000)}`)}\n${info}\n`);
    expect(outside.status).toBe(201);
    const other = (await outside.json()) as { session: { id: string } };
    const [mapped] = await scope.query<{ cwd: string }>("SELECT cwd FROM sessions WHERE id = $1", [
      other.session.id,
    ]);
    expect(mapped.cwd).toBe(root);
    await dropSession(other);
  });

  it("a staged upload with such a cwd is refused at commit and deleted", async () => {
    const before = await counts();
    const id = await create("deep-cwd.jsonl");
    const body = await stage(id, `${header(`${root}/${"c/".repeat(2000)}`)}\n${info}\n`);
    const res = await commit(id, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(
      refusal("deep-cwd.jsonl", "Path is 2000 levels deep; the limit is 64. Use a shallower path."),
    );
    expect(await counts()).toEqual(before);
  });

  it("a session stored before with a 2,000-level cwd works in the project root: `pwd` prints the root", async () => {
    const ok = await raw(sessionFile({ type: "session_info", id: "r", parentId: null, timestamp: "t" }));
    const body = (await ok.json()) as { session: { id: string } };
    await scope.query("UPDATE sessions SET cwd = $2 WHERE id = $1", [
      body.session.id,
      `${root}/${"c/".repeat(1999)}c`,
    ]);
    const runtime = await openSessionRuntime(scope, body.session.id);
    expect(runtime.toolContext.cwd).toBe(root);
    expect(runtime.session.cwd).toBe(root);
    expect(await runShell(runtime.toolContext, "pwd")).toEqual({
      output: `${root}\n`,
      exitCode: 0,
      timedOut: false,
      aborted: false,
    });
    await dropSession(body);
  });
});

describe("F4: entries nested deeper than 64 levels", () => {
  const prefix = '{"type":"custom","id":"n1","parentId":null,"timestamp":"t","customType":"x","data":';
  const nested = (levels: number) => `${prefix}${"[".repeat(levels)}${"]".repeat(levels)}}`;
  const tooDeep = (name: string, line: number, at: number) =>
    `Session file has entries that cannot be imported: ${name}\n${name}:${line}: invalid-entry: Line ${line}: JSON nested more than 64 levels deep (at character ${at}); the limit is 64 (pi entries nest fewer than 10). Remove or flatten the entry and import again.`;

  it("63 arrays inside the entry (64 levels) import; 64 and 4,100 arrays are refused with the line", async () => {
    const ok = await raw(`${SESSION_HEADER}\n${nested(63)}\n`);
    expect(ok.status).toBe(201);
    await dropSession((await ok.json()) as { session: { id: string } });
    const before = await counts();
    // The entry's object is level 1, so the 64th array opens level 65: character prefix + 64 (1-based).
    const over = await raw(`${SESSION_HEADER}\n${nested(64)}\n`);
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({
      error: { code: "invalid_session_file", message: tooDeep("s.jsonl", 2, prefix.length + 64) },
    });
    const deep = await raw(`${SESSION_HEADER}\n${info}\n${nested(4100)}\n`);
    expect(deep.status).toBe(400);
    expect(await deep.json()).toEqual({
      error: { code: "invalid_session_file", message: tooDeep("s.jsonl", 3, prefix.length + 64) },
    });
    // Brackets inside strings (escaped quotes included) are not nesting.
    const strings = await raw(
      `${SESSION_HEADER}\n${JSON.stringify({ type: "custom", id: "s1", parentId: null, timestamp: "t", customType: "x", data: `\\"${"[".repeat(5000)}` })}\n`,
    );
    expect(strings.status).toBe(201);
    await dropSession((await strings.json()) as { session: { id: string } });
    expect(await counts()).toEqual(before);
  });

  it("a row stored before with a 4,100-level message is left out of the context and reported, never thrown", async () => {
    const userEntry = (id: string, parentId: string | null, text: string) => ({
      type: "message",
      id,
      parentId,
      timestamp: "2026-01-01T09:00:01.000Z",
      message: { role: "user", content: [{ type: "text", text }], timestamp: 1 },
    });
    const ok = await raw(sessionFile(userEntry("m1", null, "hello"), userEntry("m2", "m1", "later")));
    const body = (await ok.json()) as { session: { id: string } };
    const deep = `{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-01T09:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"x","extra":${"[".repeat(4100)}${"]".repeat(4100)}}],"timestamp":1}}`;
    await scope.query("UPDATE session_entries SET entry = $3::json WHERE session_id = $1 AND id = $2", [
      body.session.id,
      "m2",
      deep,
    ]);
    const view = await getSessionRoute(
      asUser(signedIn.user, "http://strata.test/"),
      params({ id: body.session.id }),
    );
    expect(view.status).toBe(200);
    const json = (await view.json()) as {
      messages: { content: unknown }[];
      repairs: { entryId: string; message: string }[];
    };
    expect(json.messages.map((m) => m.content)).toEqual([[{ type: "text", text: "hello" }]]);
    expect(json.repairs).toEqual([
      { entryId: "m2", message: "the entry is nested more than 64 levels deep (the limit); left out" },
    ]);
    await dropSession(body);
  });

  it("an 8-million-level line as a staged upload: 400 with the line, the upload deleted, never parsed", async () => {
    const before = await counts();
    const id = await create("deep.jsonl");
    const levels = 8_000_000;
    const body = await stage(id, `${SESSION_HEADER}\n${info}\n${"[".repeat(levels)}${"]".repeat(levels)}\n`);
    expect(body.parts).toBe(4);
    const parse = vi.spyOn(JSON, "parse");
    let res: Response;
    try {
      res = await commit(id, body);
      // The deep line (16 MB) never reached JSON.parse: the depth scan refused it first.
      expect(parse.mock.calls.filter(([arg]) => typeof arg === "string" && arg.length >= 2 * levels)).toEqual(
        [],
      );
    } finally {
      parse.mockRestore();
    }
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: "invalid_session_file", message: tooDeep("deep.jsonl", 3, 65) },
    });
    expect(await counts()).toEqual(before);
  }, 60_000);
});

describe("F7: one commit per upload; parts and DELETE wait for it", () => {
  const committing = (id: string, what: string) => ({
    error: {
      code: "upload_committing",
      message: `Session upload ${id} is being committed; ${what}. Wait for the commit's answer (the upload is deleted when it ends).`,
    },
  });
  const gone = (id: string) => ({
    error: {
      code: "not_found",
      message: `Session upload ${id} not found (it expired after an hour, was committed, or belongs to another project); start a new upload`,
    },
  });
  const untilCommitting = async (id: string) => {
    for (;;) {
      const [row] = await scope.query<{ state: string }>("SELECT state FROM session_uploads WHERE id = $1", [
        id,
      ]);
      if (row?.state === "committing") return;
      if (!row) throw new Error("the commit ended before the test could act");
      await new Promise((r) => setTimeout(r, 2));
    }
  };

  it("three commits at once: exactly one 201, the others 409 upload_committing or 404", async () => {
    const before = await counts();
    const id = await create();
    const body = await stage(
      id,
      sessionFile({ type: "session_info", id: "c", parentId: null, timestamp: "t" }),
    );
    const answers = await Promise.all([commit(id, body), commit(id, body), commit(id, body)]);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBe(1);
    for (const other of answers.filter((a) => a.status !== 201)) {
      const json = await other.json();
      if (other.status === 409) expect(json).toEqual(committing(id, "it cannot be committed twice"));
      else {
        expect(other.status).toBe(404);
        expect(json).toEqual(gone(id));
      }
    }
    expect(await counts()).toEqual({ sessions: before.sessions + 1, uploads: 0 });
    await dropSession((await created[0].json()) as { session: { id: string } });
  });

  it("a DELETE and a part PUT during a commit answer 409; the commit imports the original parts", async () => {
    const before = await counts();
    const file = largeSessionFile(6 * MiB);
    const id = await create();
    const body = await stage(id, file.text);
    const pending = commit(id, body);
    await untilCommitting(id);
    const del = await cancel(id);
    expect(del.status).toBe(409);
    expect(await del.json()).toEqual(committing(id, "it cannot be cancelled now"));
    const part = await put(id, 1, new TextEncoder().encode("replacement"));
    expect(part.status).toBe(409);
    expect(await part.json()).toEqual(committing(id, "its parts cannot change"));
    const res = await pending;
    expect(res.status).toBe(201);
    const imported = (await res.json()) as { session: { id: string } };
    const [stored] = await scope.query<{ n: number; leaf: string }>(
      "SELECT count(*)::int AS n, (SELECT leaf_id FROM sessions WHERE id = $1) AS leaf FROM session_entries WHERE session_id = $1",
      [imported.session.id],
    );
    expect(stored).toEqual({ n: file.entries, leaf: file.leafId });
    expect(await counts()).toEqual({ sessions: before.sessions + 1, uploads: 0 });
    // Committed: the upload is gone, and cancelling it answers so.
    const after = await cancel(id);
    expect({ status: after.status, body: await after.json() }).toEqual({ status: 404, body: gone(id) });
    await dropSession(imported);
  }, 60_000);
});

describe("cancelling an upload that is not the project's", () => {
  it("another tenant's upload id answers 404, and their upload stays until they cancel it", async () => {
    const id = await create("theirs.jsonl");
    const intruder = await createTestUser("Upload Intruder");
    const own = await insertProject(scope, { workspaceId: intruder.workspaceId, name: "mine", source: null });
    const asIntruder = await deleteUpload(
      asUser(intruder, "http://strata.test/", { method: "DELETE" }),
      params({ id: own.id, uploadId: id }),
    );
    const message = `Session upload ${id} not found (it expired after an hour, was committed, or belongs to another project); start a new upload`;
    expect({ status: asIntruder.status, body: await asIntruder.json() }).toEqual({
      status: 404,
      body: { error: { code: "not_found", message } },
    });
    expect((await counts()).uploads).toBe(1);
    const asOwner = await cancel(id);
    expect({ status: asOwner.status, body: await asOwner.json() }).toEqual({
      status: 200,
      body: { deleted: true },
    });
    const again = await cancel(id);
    expect({ status: again.status, body: await again.json() }).toEqual({
      status: 404,
      body: { error: { code: "not_found", message } },
    });
  });
});
