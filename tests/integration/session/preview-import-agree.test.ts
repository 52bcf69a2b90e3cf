/**
 * Every reader of a session file goes through one reading (`readSessionFile`, lib/session/session-file.ts):
 * `strata session import` (importSessionJsonl of a local file, against Postgres), `strata preview` (runPreview), the
 * IDE/HTTP import in one request and the staged upload's commit (the route handlers). For each file of the table
 * all four accept it with exactly the same diagnostics, or refuse it with exactly the same message — except that an
 * upload refuses a torn last line (it cannot tell it from a cut transfer) that a local file drops as pi does.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postImport } from "@/app/api/projects/[id]/sessions/import/route";
import { PUT as putPart } from "@/app/api/projects/[id]/sessions/import/uploads/[uploadId]/parts/[part]/route";
import { POST as commitUpload } from "@/app/api/projects/[id]/sessions/import/uploads/[uploadId]/route";
import { POST as createUpload } from "@/app/api/projects/[id]/sessions/import/uploads/route";
import { runPreview } from "@/lib/cli/preview";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { importSessionJsonl } from "@/lib/session/import-export";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";

let scope: DbScope;
let projectId: string;
let member: TestUser;

beforeAll(async () => {
  scope = new DbScope();
  member = await createTestUser();
  const project = await insertProject(scope, {
    workspaceId: member.workspaceId,
    name: "agree",
    source: null,
  });
  projectId = project.id;
});
afterAll(async () => {
  await scope.release();
});

const line = (value: object) => JSON.stringify(value);
const H = line({ type: "session", version: 3, id: "t1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/srv" });
const T = "2026-01-01T00:00:01.000Z";
const user = (id: string, parentId: string | null, content: unknown = "hi") =>
  line({ type: "message", id, parentId, timestamp: T, message: { role: "user", content, timestamp: 1 } });
const assistant = (id: string, parentId: string | null, usage: unknown) =>
  line({
    type: "message",
    id,
    parentId,
    timestamp: T,
    message: {
      role: "assistant",
      content: [{ type: "text", text: "yes" }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage,
      stopReason: "stop",
      timestamp: 2,
    },
  });
const file = (...lines: string[]) => `${lines.join("\n")}\n`;

type Expected = { diagnostics: [number, string, string][] } | { error: string };

const ENTRIES_REFUSED = "Session file has entries that cannot be imported: f.jsonl";
const NOT_A_SESSION = { error: "Session file is not a valid pi session: f.jsonl" };
const refused = (...lines: [number, string][]) => ({
  error: [ENTRIES_REFUSED, ...lines.map(([n, m]) => `f.jsonl:${n}: invalid-entry: Line ${n}: ${m}`)].join(
    "\n",
  ),
});
const schema = (n: number, ...paths: [string, string][]): [number, string, string] => [
  n,
  "schema",
  `Line ${n}: ${paths.map(([what, at]) => `✖ Invalid input: ${what};   → at ${at}`).join("; ")}`,
];

/** Row: name, file, what every reader reports, and (when it differs) what the HTTP import and upload report. */
const TABLE: [string, string, Expected, Expected?][] = [
  [
    "pi's tour fixture",
    readFileSync(new URL("../../fixtures/sessions/pi-tour.jsonl", import.meta.url), "utf8"),
    { diagnostics: [] },
  ],
  [
    "skipped lines and no final newline",
    `${H}\n\n{bad\n${user("a", null)}\n${user("b", "a")}`,
    {
      diagnostics: [
        [2, "blank", "Line 2 is blank; skipped"],
        [
          3,
          "invalid-json",
          "Line 3 is not valid JSON (Expected property name or '}' in JSON at position 1); skipped",
        ],
        [5, "missing-final-newline", "Line 5 has no final newline"],
      ],
    },
  ],
  [
    "a torn last line (a local file: dropped as pi drops it)",
    `${H}\n${user("a", null)}\n{"type":"mess`,
    { diagnostics: [[3, "torn-last-line", "Line 3 (last, no newline) is incomplete JSON; dropped"]] },
    {
      error:
        "Session file ends in an incomplete line (it was cut); nothing was imported: f.jsonl\nf.jsonl:3: torn-last-line: Line 3 (last, no newline) is incomplete JSON",
    },
  ],
  [
    "a second header",
    file(H, user("a", null), H),
    { diagnostics: [[3, "extra-header", "Line 3 is a second session header; skipped"]] },
  ],
  [
    "a null content part",
    file(H, user("a", null, [null, { type: "text", text: "hi" }])),
    { diagnostics: [[2, "repaired", "Line 2: message.content[0] is null; dropped"]] },
  ],
  [
    "a usage that is not an object",
    file(H, user("a", null), assistant("b", "a", "lots")),
    {
      diagnostics: [
        [3, "repaired", "Line 3: message.usage is not pi's usage object; replaced with zero usage"],
      ],
    },
  ],
  [
    "an assistant without usage (pi's: kept)",
    file(H, user("a", null), assistant("b", "a", undefined)),
    {
      diagnostics: [
        [3, "schema", "Line 3: ✖ Invalid input: expected object, received undefined;   → at message.usage"],
      ],
    },
  ],
  [
    "entries without timestamps",
    file(H, line({ type: "session_info", id: "a", parentId: null, name: "n" })),
    {
      diagnostics: [
        [2, "schema", "Line 2: ✖ Invalid input: expected string, received undefined;   → at timestamp"],
      ],
    },
  ],
  [
    "a v1 file (no version, no ids): migrated",
    file(
      line({ type: "session", id: "old", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/srv" }),
      line({ type: "message", timestamp: T, message: { role: "user", content: "hi", timestamp: 1 } }),
    ),
    { diagnostics: [] },
  ],
  [
    "bad JSON lines of every kind: skipped, with their line",
    file(H, "{bad", "[1,2]", '"text"', "null", user("a", null), '{"type":"message",}'),
    {
      diagnostics: [
        [
          2,
          "invalid-json",
          "Line 2 is not valid JSON (Expected property name or '}' in JSON at position 1); skipped",
        ],
        [3, "invalid-json", "Line 3 is not a JSON object; skipped"],
        [4, "invalid-json", "Line 4 is not a JSON object; skipped"],
        [5, "invalid-json", "Line 5 is not a JSON object; skipped"],
        [
          7,
          "invalid-json",
          "Line 7 is not valid JSON (Expected double-quoted property name in JSON at position 18); skipped",
        ],
      ],
    },
  ],
  [
    "an unknown parent (pi's: kept; the entry starts a tree of its own)",
    file(H, user("a", null), user("b", "gone"), user("c", "b")),
    {
      diagnostics: [
        [
          3,
          "unknown-parent",
          'Line 3: parent "gone" is not an entry of this file; the entry starts a tree of its own (nothing before it is in its context)',
        ],
      ],
    },
  ],
  [
    "header fields of the wrong type (kept; warned)",
    file(line({ type: "session", version: "3", id: "t1", timestamp: 5, cwd: ["/srv"] }), user("a", null)),
    {
      diagnostics: [
        schema(
          1,
          ["expected number, received string", "version"],
          ["expected string, received number", "timestamp"],
          ["expected string, received array", "cwd"],
        ),
      ],
    },
  ],
  [
    "entry fields of the wrong type that pi reads (kept; warned)",
    file(
      H,
      line({
        type: "message",
        id: "a",
        parentId: null,
        timestamp: 7,
        message: { role: "user", content: "hi", timestamp: "1" },
      }),
      line({ type: "thinking_level_change", id: "b", parentId: "a", timestamp: T, thinkingLevel: 3 }),
    ),
    {
      diagnostics: [
        schema(
          2,
          ["expected string, received number", "timestamp"],
          ["expected number, received string", "message.timestamp"],
        ),
        [3, "schema", "Line 3: ✖ Invalid input: expected string, received number;   → at thinkingLevel"],
      ],
    },
  ],
  ["no header", file(user("a", null)), NOT_A_SESSION],
  ["an empty file", "", NOT_A_SESSION],
  ["only blank and bad lines", "\n{bad\n\n", NOT_A_SESSION],
  ["the header after an entry", file(user("a", null), H), NOT_A_SESSION],
  [
    "a header whose id is a number",
    file(line({ type: "session", version: 3, id: 1, cwd: "/srv" }), user("a", null)),
    NOT_A_SESSION,
  ],
  [
    "a header whose type is not session",
    file(line({ type: "Session", id: "t1" }), user("a", null)),
    NOT_A_SESSION,
  ],
  [
    "ids, parents, types and messages of the wrong type: refused, every line named",
    file(
      H,
      line({ type: "message", id: 7, parentId: null, timestamp: T, message: { role: "user", content: "x" } }),
      line({ type: "label", id: "", parentId: null, timestamp: T, targetId: "x" }),
      line({ type: "label", id: "l", parentId: 3, timestamp: T, targetId: "x" }),
      line({ type: 4, id: "m", parentId: null, timestamp: T }),
      line({ type: "message", id: "n", parentId: null, timestamp: T, message: "hi" }),
      line({ type: "message", id: "o", parentId: null, timestamp: T, message: { role: 1, content: "x" } }),
    ),
    refused(
      [2, '"id" must be a non-empty string (got a number); every entry needs a unique id'],
      [3, '"id" must be a non-empty string (got an empty string); every entry needs a unique id'],
      [4, '"parentId" must be a string or null (got a number)'],
      [5, '"type" must be a string (got a number)'],
      [6, 'a message entry needs a message: "message" must be an object (got a string)'],
      [7, 'a message entry needs a message: "message.role" must be a string (got a number)'],
    ),
  ],
  [
    "a parent cycle",
    file(H, user("a", "b"), user("b", "a")),
    {
      error:
        'Session file entries do not form a tree: f.jsonl\nf.jsonl:2: parent-cycle: Line 2: entries "a" → "b" → "a" (lines 2, 3) form a parent cycle',
    },
  ],
  [
    "a duplicate id",
    file(H, user("a", null), user("a", null)),
    {
      error:
        'Session file entries do not form a tree: f.jsonl\nf.jsonl:3: duplicate-id: Line 3: entry id "a" is already used on line 2',
    },
  ],
  [
    "an entry without id",
    file(H, line({ type: "label", parentId: null, timestamp: T, targetId: "x" })),
    {
      error:
        'Session file has entries that cannot be imported: f.jsonl\nf.jsonl:2: invalid-entry: Line 2: "id" must be a non-empty string (got nothing); every entry needs a unique id',
    },
  ],
];

/** What `strata session import` reports: the diagnostics, or the refusal's message. */
async function viaImport(text: string): Promise<Expected> {
  try {
    const { diagnostics } = await importSessionJsonl(scope, projectId, text, { path: "f.jsonl" });
    return { diagnostics: diagnostics.map((d) => [d.line, d.kind, d.message]) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** What `strata preview` reports for the same file. */
async function viaPreview(text: string): Promise<Expected> {
  try {
    const { warnings } = await runPreview({
      workspace: [],
      session: { text, path: "f.jsonl" },
      text: "x",
      env: {},
      now: 1,
    });
    return { diagnostics: warnings.map((d) => [d.line, d.kind, d.message]) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });

/** A route's answer as the table states it: 201 with diagnostics, or 400 `invalid_session_file` with the message. */
async function answer(res: Response): Promise<Expected> {
  const body = (await res.json()) as {
    diagnostics?: { line: number; kind: string; message: string }[];
    error?: { code: string; message: string };
  };
  if (res.status === 201)
    return { diagnostics: (body.diagnostics ?? []).map((d) => [d.line, d.kind, d.message]) };
  expect([res.status, body.error?.code]).toEqual([400, "invalid_session_file"]);
  return { error: body.error?.message ?? "" };
}

/** What the IDE's import reports for a file sent in one request. */
async function viaHttp(text: string): Promise<Expected> {
  return answer(
    await postImport(
      asUser(member, "http://strata.test/?name=f.jsonl", {
        method: "POST",
        headers: { "content-type": "application/x-ndjson" },
        body: text,
      }),
      params({ id: projectId }),
    ),
  );
}

/** What the IDE's import reports for the file staged in three parts (cut anywhere, lines across parts) and committed. */
async function viaUpload(text: string): Promise<Expected> {
  const created = await createUpload(
    asUser(member, "http://strata.test/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "f.jsonl" }),
    }),
    params({ id: projectId }),
  );
  const uploadId = ((await created.json()) as { upload: { id: string } }).upload.id;
  const bytes = new TextEncoder().encode(text);
  const size = Math.max(1, Math.ceil(bytes.length / 3));
  let parts = 0;
  for (let offset = 0; offset < bytes.length; offset += size, parts++) {
    const res = await putPart(
      asUser(member, "http://strata.test/", {
        method: "PUT",
        headers: { "content-type": "application/octet-stream" },
        body: bytes.slice(offset, offset + size),
      }),
      params({ id: projectId, uploadId, part: String(parts) }),
    );
    expect(res.status).toBe(200);
  }
  return answer(
    await commitUpload(
      asUser(member, "http://strata.test/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ parts, bytes: bytes.length }),
      }),
      params({ id: projectId, uploadId }),
    ),
  );
}

describe("preview and every import agree on every file", () => {
  it.each(TABLE)("%s", async (_name, text, expected, overHttp = expected) => {
    expect(await viaImport(text)).toEqual(expected);
    expect(await viaPreview(text)).toEqual(expected);
    expect(await viaHttp(text)).toEqual(overHttp);
    // An empty file has no part to stage (see below); the IDE sends it in one request.
    if (text !== "") expect(await viaUpload(text)).toEqual(overHttp);
  });

  it("an empty file cannot be staged: a commit of no parts is refused before any reading", async () => {
    const created = await createUpload(
      asUser(member, "http://strata.test/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "f.jsonl" }),
      }),
      params({ id: projectId }),
    );
    const uploadId = ((await created.json()) as { upload: { id: string } }).upload.id;
    const res = await commitUpload(
      asUser(member, "http://strata.test/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ parts: 0, bytes: 0 }),
      }),
      params({ id: projectId, uploadId }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "bad_request",
        message: "parts: Too small: expected number to be >=1; bytes: Too small: expected number to be >=1",
      },
    });
  });
});
