/**
 * Session import against the real route handlers and Postgres: the IDE's client (`importSessionFile`) imports a
 * 15.7 MB file in parts with every entry stored; one request over 8 MiB answers 413 with the limit; a cut body, a
 * torn upload or an incomplete upload stores nothing; every poisoned entry is refused with its line (or repaired
 * with a line-numbered diagnostic); the server keeps answering throughout.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postImport } from "@/app/api/projects/[id]/sessions/import/route";
import { PUT as putPart } from "@/app/api/projects/[id]/sessions/import/uploads/[uploadId]/parts/[part]/route";
import {
  POST as commitUpload,
  DELETE as deleteUpload,
} from "@/app/api/projects/[id]/sessions/import/uploads/[uploadId]/route";
import { POST as createUpload } from "@/app/api/projects/[id]/sessions/import/uploads/route";
import { GET as getSessionRoute } from "@/app/api/sessions/[id]/route";
import { importSessionFile } from "@/components/chat/session-tree-client";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { asUser, signedInUser } from "../../helpers/auth";
import { largeSessionFile, SESSION_HEADER, sessionFile } from "../../helpers/session-files";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

const MiB = 1024 * 1024;
let scope: DbScope;
let projectId: string;

beforeAll(async () => {
  scope = new DbScope();
  const actor = await signedIn.actor();
  projectId = (
    await insertProject(scope, { workspaceId: actor.workspaceId, name: "import-limits", source: null })
  ).id;
});
afterAll(() => scope.release());
afterEach(() => vi.unstubAllGlobals());

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const ROUTES: [RegExp, string, Handler, string[]][] = [
  [/^\/api\/projects\/([^/]+)\/sessions\/import$/, "POST", postImport as Handler, ["id"]],
  [/^\/api\/projects\/([^/]+)\/sessions\/import\/uploads$/, "POST", createUpload as Handler, ["id"]],
  [
    /^\/api\/projects\/([^/]+)\/sessions\/import\/uploads\/([^/]+)$/,
    "POST",
    commitUpload as Handler,
    ["id", "uploadId"],
  ],
  [
    /^\/api\/projects\/([^/]+)\/sessions\/import\/uploads\/([^/]+)$/,
    "DELETE",
    deleteUpload as Handler,
    ["id", "uploadId"],
  ],
  [
    /^\/api\/projects\/([^/]+)\/sessions\/import\/uploads\/([^/]+)\/parts\/([^/]+)$/,
    "PUT",
    putPart as Handler,
    ["id", "uploadId", "part"],
  ],
];

/** The app's router for the import routes: what `fetch("/api/…")` reaches in the browser. */
const requests: string[] = [];
async function appFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = asUser(signedIn.user, new URL(String(input), "http://strata.test").href, init);
  const path = new URL(request.url).pathname;
  requests.push(`${request.method} ${path.replace(/[0-9a-f-]{36}/g, ":id")}`);
  for (const [pattern, method, handler, names] of ROUTES) {
    const match = pattern.exec(path);
    if (match && method === request.method)
      return handler(request, {
        params: Promise.resolve(
          Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1])])),
        ),
      });
  }
  return new Response("no route", { status: 404 });
}

const counts = async () => {
  const [row] = await scope.query<{ sessions: number; entries: number; uploads: number }>(
    `SELECT (SELECT count(*)::int FROM sessions WHERE project_id = $1) AS sessions,
            (SELECT count(*)::int FROM session_entries e JOIN sessions s ON s.id = e.session_id WHERE s.project_id = $1) AS entries,
            (SELECT count(*)::int FROM session_uploads WHERE project_id = $1) AS uploads`,
    [projectId],
  );
  return row;
};

const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });
const raw = (text: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  postImport(
    asUser(signedIn.user, "http://strata.test/?name=s.jsonl", {
      method: "POST",
      headers: { "content-type": "application/x-ndjson", ...headers },
      body: text,
      duplex: "half",
    } as RequestInit),
    params({ id: projectId }),
  );

/** The server still answers: a small valid import is stored. */
async function stillServing() {
  const res = await raw(
    sessionFile({ type: "session_info", id: "ok1", parentId: null, timestamp: "t", name: "ok" }),
  );
  expect(res.status).toBe(201);
  const { session } = (await res.json()) as { session: { id: string } };
  await scope.query("DELETE FROM sessions WHERE id = $1", [session.id]);
}

describe("large session files", () => {
  it("the IDE's import of a 15.7 MB file goes in parts and stores every entry", async () => {
    const file = largeSessionFile(Math.round(15.7 * 1000 * 1000));
    expect(file.bytes).toBeGreaterThan(15.7 * 1000 * 1000);
    const before = await counts();
    requests.length = 0;
    vi.stubGlobal("fetch", appFetch);
    const progress: number[] = [];
    const result = await importSessionFile(projectId, new File([file.text], "big.jsonl"), (p) =>
      progress.push(p.loaded),
    );
    expect(requests).toEqual([
      "POST /api/projects/:id/sessions/import/uploads",
      "PUT /api/projects/:id/sessions/import/uploads/:id/parts/0",
      "PUT /api/projects/:id/sessions/import/uploads/:id/parts/1",
      "PUT /api/projects/:id/sessions/import/uploads/:id/parts/2",
      "PUT /api/projects/:id/sessions/import/uploads/:id/parts/3",
      "POST /api/projects/:id/sessions/import/uploads/:id",
    ]);
    expect(progress).toEqual([4 * MiB, 8 * MiB, 12 * MiB, file.bytes]);
    expect(result.diagnostics).toEqual([]);
    const [stored] = await scope.query<{ n: number; leaf: string }>(
      "SELECT count(*)::int AS n, (SELECT leaf_id FROM sessions WHERE id = $1) AS leaf FROM session_entries WHERE session_id = $1",
      [result.session.id],
    );
    expect(stored).toEqual({ n: file.entries, leaf: file.leafId });
    expect(await counts()).toEqual({
      sessions: before.sessions + 1,
      entries: before.entries + file.entries,
      uploads: 0,
    });
    // Byte ranges split multi-byte characters; the stored text is exact.
    const [last] = await scope.query<{ entry: { message: { content: { text: string }[] } } }>(
      "SELECT entry FROM session_entries WHERE session_id = $1 AND id = $2",
      [result.session.id, file.leafId],
    );
    expect(last.entry.message.content[0].text).toContain("ünïcødé ✓");
    await scope.query("DELETE FROM sessions WHERE id = $1", [result.session.id]);
  }, 120_000);

  it("15.7 MB in one request answers 413 with the limit (declared or counted); nothing is stored", async () => {
    const file = largeSessionFile(Math.round(15.7 * 1000 * 1000));
    const before = await counts();
    const message = (what: string) =>
      `${what}; this endpoint accepts at most 8388608 bytes (8 MiB). Larger session files (up to 64 MiB) are imported in parts: POST /api/projects/:id/sessions/import/uploads (the IDE's Import does this).`;
    const declared = await raw(file.text, { "content-length": String(file.bytes) });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({
      error: { code: "too_large", message: message(`The request body is ${file.bytes} bytes`) },
    });
    const counted = await raw(new Blob([file.text]).stream());
    expect(counted.status).toBe(413);
    expect(await counted.json()).toEqual({
      error: { code: "too_large", message: message("The request body is larger than the limit") },
    });
    expect(await counts()).toEqual(before);
    await stillServing();
  });

  it("a body cut short of its Content-Length, and a torn last line, store nothing", async () => {
    const before = await counts();
    const text = sessionFile({ type: "session_info", id: "a", parentId: null, timestamp: "t", name: "x" });
    const cut = await raw(new Blob([text]).stream(), { "content-length": String(text.length + 100) });
    expect(cut.status).toBe(400);
    expect(await cut.json()).toEqual({
      error: {
        code: "incomplete_body",
        message: `The request body ended after ${text.length} of the ${text.length + 100} bytes its Content-Length announced; nothing was changed. Send the request again.`,
      },
    });
    const torn = await raw(
      `${SESSION_HEADER}\n{"type":"session_info","id":"a","parentId":null,"timestamp":"t"}\n{"type":"mess`,
    );
    expect(torn.status).toBe(400);
    expect((await torn.json()).error.message).toBe(
      "Session file ends in an incomplete line (it was cut); nothing was imported: s.jsonl\ns.jsonl:3: torn-last-line: Line 3 (last, no newline) is incomplete JSON",
    );
    expect(await counts()).toEqual(before);
  });
});

describe("uploads in parts", () => {
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
    return (
      (await res.json()) as { upload: { id: string; partBytes: number; maxBytes: number; maxParts: number } }
    ).upload;
  };
  const put = (uploadId: string, part: string, body: BodyInit, type = "application/octet-stream") =>
    putPart(
      asUser(signedIn.user, "http://strata.test/", {
        method: "PUT",
        headers: { "content-type": type },
        body,
      }),
      params({ id: projectId, uploadId, part }),
    );
  const commit = (uploadId: string, body: unknown) =>
    commitUpload(
      asUser(signedIn.user, "http://strata.test/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      params({ id: projectId, uploadId }),
    );

  it("names its limits; refuses a part over 4 MiB (413), a wrong type (415) and a missing part at commit (400)", async () => {
    const before = await counts();
    const upload = await create();
    expect(upload).toMatchObject({ partBytes: 4 * MiB, maxBytes: 64 * MiB, maxParts: 16 });
    const big = await put(upload.id, "0", new Uint8Array(4 * MiB + 1));
    expect(big.status).toBe(413);
    expect((await big.json()).error.message).toBe(
      "The request body is larger than the limit; this endpoint accepts at most 4194304 bytes (4 MiB). Split the file into parts of at most 4 MiB.",
    );
    const plain = await put(upload.id, "0", "x", "text/plain");
    expect(plain.status).toBe(415);
    const text = sessionFile({ type: "session_info", id: "a", parentId: null, timestamp: "t", name: "x" });
    const bytes = new TextEncoder().encode(text);
    expect((await put(upload.id, "1", bytes.slice(10))).status).toBe(200);
    const missing = await commit(upload.id, { parts: 2, bytes: bytes.length });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: {
        code: "incomplete_upload",
        message: `The upload does not match the file: part(s) 0 missing; ${bytes.length - 10} bytes staged, ${bytes.length} expected. Nothing was imported; send the missing parts and commit again.`,
      },
    });
    expect((await counts()).sessions).toBe(before.sessions);
    // Sending the missing part and committing again imports it; the upload is gone afterwards.
    expect((await put(upload.id, "0", bytes.slice(0, 10))).status).toBe(200);
    const done = await commit(upload.id, { parts: 2, bytes: bytes.length });
    expect(done.status).toBe(201);
    expect(await counts()).toMatchObject({ sessions: before.sessions + 1, uploads: 0 });
    const gone = await commit(upload.id, { parts: 2, bytes: bytes.length });
    expect(gone.status).toBe(404);
    expect((await gone.json()).error.code).toBe("not_found");
    await scope.query("DELETE FROM sessions WHERE id = $1", [
      ((await done.json()) as { session: { id: string } }).session.id,
    ]);
  });

  it("a torn upload is refused at commit and deleted; at most 4 uploads at once (429); DELETE cancels", async () => {
    const before = await counts();
    const torn = await create("torn.jsonl");
    const text = `${SESSION_HEADER}\n{"type":"mess`;
    expect((await put(torn.id, "0", text)).status).toBe(200);
    const res = await commit(torn.id, { parts: 1, bytes: text.length });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe(
      "Session file ends in an incomplete line (it was cut); nothing was imported: torn.jsonl\ntorn.jsonl:2: torn-last-line: Line 2 (last, no newline) is incomplete JSON",
    );
    expect(await counts()).toEqual(before);
    const open = [await create(), await create(), await create(), await create()];
    const fifth = await createUpload(
      asUser(signedIn.user, "http://strata.test/", {
        method: "POST",
        headers: { "content-type": "application/json" },
      }),
      params({ id: projectId }),
    );
    expect(fifth.status).toBe(429);
    expect(await fifth.json()).toEqual({
      error: {
        code: "too_many_uploads",
        message:
          "This project already has 4 session imports in progress (the limit is 4); finish or cancel one, or wait an hour until they expire.",
      },
    });
    for (const u of open)
      expect(
        (
          await deleteUpload(
            asUser(signedIn.user, "http://strata.test/", { method: "DELETE" }),
            params({ id: projectId, uploadId: u.id }),
          )
        ).status,
      ).toBe(200);
    expect((await counts()).uploads).toBe(0);
  });
});

describe("poisoned entries", () => {
  const entry = (fields: Record<string, unknown>) => ({
    type: "message",
    id: "p1",
    parentId: null,
    timestamp: "2026-01-01T09:00:01.000Z",
    message: { role: "user", content: "hi", timestamp: 1 },
    ...fields,
  });
  const without = (key: string) => {
    const e: Record<string, unknown> = entry({});
    delete e[key];
    return e;
  };
  const ok = { type: "session_info", id: "s0", parentId: null, timestamp: "t", name: "n" };
  const refused: [string, unknown, string][] = [
    [
      "an entry without id",
      without("id"),
      '"id" must be a non-empty string (got nothing); every entry needs a unique id',
    ],
    [
      "an entry with id: null",
      entry({ id: null }),
      '"id" must be a non-empty string (got null); every entry needs a unique id',
    ],
    [
      "an entry with a numeric id",
      entry({ id: 7 }),
      '"id" must be a non-empty string (got a number); every entry needs a unique id',
    ],
    ["an entry without parentId", without("parentId"), '"parentId" must be a string or null (got nothing)'],
    [
      "an entry with message: null",
      entry({ message: null }),
      'a message entry needs a message: "message" must be an object (got null)',
    ],
    [
      "an entry without message",
      without("message"),
      'a message entry needs a message: "message" must be an object (got nothing)',
    ],
    [
      "a message without role",
      entry({ message: { content: "hi", timestamp: 1 } }),
      'a message entry needs a message: "message.role" must be a string (got nothing)',
    ],
  ];
  for (const [name, poisoned, problem] of refused)
    it(`${name}: 400 invalid_session_file naming line 3, nothing stored`, async () => {
      const before = await counts();
      const res = await raw(sessionFile(ok, poisoned));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: {
          code: "invalid_session_file",
          message: `Session file has entries that cannot be imported: s.jsonl\ns.jsonl:3: invalid-entry: Line 3: ${problem}`,
        },
      });
      expect(await counts()).toEqual(before);
      await stillServing();
    });

  it("broken content parts are repaired with line-numbered diagnostics; the session opens", async () => {
    const assistant = {
      role: "assistant",
      content: [
        null,
        { type: "text", text: 5 },
        { type: "text", text: "kept" },
        { type: "toolCall", id: "c1", name: "read", arguments: null },
      ],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      stopReason: "stop",
      timestamp: 2,
    };
    const res = await raw(
      sessionFile(
        entry({
          message: { role: "user", content: [null, { type: "text", text: "hello" }, 3], timestamp: 1 },
        }),
        entry({ id: "p2", parentId: "p1", message: assistant }),
      ),
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as {
      session: { id: string };
      diagnostics: { line: number; kind: string; message: string }[];
    };
    expect(body.diagnostics).toEqual([
      { line: 2, kind: "repaired", message: "Line 2: message.content[0] is null; dropped" },
      { line: 2, kind: "repaired", message: "Line 2: message.content[2] is a number; dropped" },
      { line: 3, kind: "repaired", message: "Line 3: message.content[0] is null; dropped" },
      {
        line: 3,
        kind: "repaired",
        message: 'Line 3: message.content[1] (text) has a number as "text"; dropped',
      },
      {
        line: 3,
        kind: "repaired",
        message: 'Line 3: message.content[3] (toolCall) has null as "arguments"; replaced with {}',
      },
      // A missing usage is pi's (kept as stored, zero when read): a schema note, not a repair.
      {
        line: 3,
        kind: "schema",
        message: "Line 3: ✖ Invalid input: expected object, received undefined;   → at message.usage",
      },
    ]);
    const view = await getSessionRoute(
      asUser(signedIn.user, "http://strata.test/"),
      params({ id: body.session.id }),
    );
    expect(view.status).toBe(200);
    const { messages } = (await view.json()) as { messages: { role: string; content: unknown }[] };
    expect(messages.map((m) => m.content)).toEqual([
      [{ type: "text", text: "hello" }],
      [
        { type: "text", text: "kept" },
        { type: "toolCall", id: "c1", name: "read", arguments: {} },
      ],
    ]);
    await scope.query("DELETE FROM sessions WHERE id = $1", [body.session.id]);
  });
});
