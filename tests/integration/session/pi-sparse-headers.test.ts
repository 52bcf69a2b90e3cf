/**
 * pi session files with the sparest header pi reads — only `type` and a string `id` (no `version`: a v1 file,
 * migrated; no `timestamp`, no `cwd`) or `version` 3 without `timestamp` and `cwd` (`schema` warnings, as for
 * entries) — and entries that miss or mistype what pi writes (entry and message timestamps, usage, stopReason,
 * isError): imported through the IDE's
 * route, continued with one prompt through the session runtime (mock provider), exported, and the export read by
 * `strata preview` with the same warnings as the import.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { POST as postImport } from "@/app/api/projects/[id]/sessions/import/route";
import { GET as getExport } from "@/app/api/sessions/[id]/export/route";
import { runPreview } from "@/lib/cli/preview";
import { insertProject } from "@/lib/projects/projects";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";
import { promptEvents } from "../../helpers/prompt-stream";

let user: TestUser;
const stack = withMockStack({ processEnv: true });
let projectId: string;
let projectRoot: string;

beforeAll(async () => {
  user = await createTestUser();
  const project = await insertProject(stack.scope, {
    workspaceId: user.workspaceId,
    name: "sparse",
    source: null,
  });
  projectId = project.id;
  projectRoot = project.rootPath;
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const line = (value: object) => JSON.stringify(value);
const lines = (...values: object[]) => `${values.map(line).join("\n")}\n`;

interface Diagnostic {
  line: number;
  kind: string;
  message: string;
}

async function importFile(text: string) {
  const res = await postImport(
    asUser(user, "http://strata.test/?name=sparse.jsonl", {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: text,
    }),
    params(projectId),
  );
  expect(res.status).toBe(201);
  return (await res.json()) as { session: { id: string; model: string | null }; diagnostics: Diagnostic[] };
}

async function download(id: string) {
  const res = await getExport(asUser(user, "http://strata.test/"), params(id));
  expect(res.status).toBe(200);
  return { disposition: res.headers.get("content-disposition") ?? "", text: await res.text() };
}

/** The Anthropic request the mock received, as `[role, texts]` (tool blocks by their type). */
function sentMessages(index = 0) {
  const body = stack.mock.requests[index].body as {
    messages: { role: string; content: { type: string; text?: string; content?: unknown }[] }[];
  };
  return body.messages.map((m) => [m.role, m.content.map((p) => p.text ?? `[${p.type}]`)]);
}

const schema = (n: number, ...parts: string[]): Diagnostic => ({
  line: n,
  kind: "schema",
  message: `Line ${n}: ${parts.map((p) => `✖ ${p}`).join("; ")}`,
});
const MISSING_TS = "Invalid input: expected string, received undefined;   → at timestamp";
const MISSING_CWD = "Invalid input: expected string, received undefined;   → at cwd";
const MISSING_MESSAGE_TS = "Invalid input: expected number, received undefined;   → at message.timestamp";

describe("a v1 file whose header is only type and id", () => {
  const V1 = lines(
    { type: "session", id: "bare-v1" },
    { type: "message", message: { role: "user", content: "List the files" } },
    { type: "message", message: { role: "assistant", content: [{ type: "text", text: "Only README.md." }] } },
  );

  it("is migrated (fresh ids in a chain), takes a prompt, and exports with version 3 and pi's key order", async () => {
    const imported = await importFile(V1);
    expect(imported.diagnostics).toEqual([
      schema(1, MISSING_TS, MISSING_CWD),
      schema(2, MISSING_TS, MISSING_MESSAGE_TS),
      schema(
        3,
        MISSING_TS,
        "Invalid input: expected string, received undefined;   → at message.api",
        "Invalid input: expected string, received undefined;   → at message.provider",
        "Invalid input: expected string, received undefined;   → at message.model",
        "Invalid input: expected object, received undefined;   → at message.usage",
        'Invalid option: expected one of "stop"|"length"|"toolUse"|"error"|"aborted";   → at message.stopReason',
        MISSING_MESSAGE_TS,
      ),
    ]);
    expect(imported.session.model).toBeNull();
    const id = imported.session.id;

    // Before any prompt: no timestamp anywhere, so the download is named by the header id alone.
    const before = await download(id);
    expect(before.disposition).toBe(`attachment; filename="bare-v1.jsonl"; filename*=UTF-8''bare-v1.jsonl`);
    const [header, first, second] = before.text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(before.text.split("\n")[0]).toBe('{"type":"session","id":"bare-v1","version":3}');
    expect(header).toEqual({ type: "session", id: "bare-v1", version: 3 });
    expect(Object.keys(first)).toEqual(["type", "message", "id", "parentId"]);
    expect(first.parentId).toBeNull();
    expect(second.parentId).toBe(first.id);
    expect(first.id).toMatch(/^[0-9a-f]{8}$/);

    stack.mock.enqueue({ text: "Still only README.md." });
    const events = await promptEvents(user, id, "And now?");
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    expect(sentMessages()).toEqual([
      ["user", ["List the files"]],
      ["assistant", ["Only README.md."]],
      ["user", ["And now?"]],
    ]);

    const after = await download(id);
    expect(after.text.startsWith(before.text)).toBe(true);
    // Named by the first entry with a timestamp: the run's system message.
    expect(after.disposition).toMatch(
      /^attachment; filename="\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_bare-v1\.jsonl"/,
    );
    const { warnings, preview } = await runPreview({
      workspace: [],
      session: { text: after.text, path: "export.jsonl" },
      text: "x",
      env: {},
      now: 1,
    });
    expect(warnings).toEqual(imported.diagnostics);
    expect(preview.agentMessages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "system",
      "user",
      "assistant",
      "system",
      "user",
    ]);
  });
});

describe("a v3 file without header timestamp and cwd, with mistyped optional fields", () => {
  const H = { type: "session", version: 3, id: "bare-v3" };
  const V3 = lines(
    H,
    { type: "model_change", id: "m1", parentId: null, provider: "anthropic", modelId: "claude-sonnet-4-5" },
    {
      type: "message",
      id: "u1",
      parentId: "m1",
      timestamp: 17,
      message: { role: "user", content: "Run ls" },
    },
    {
      type: "message",
      id: "a1",
      parentId: "u1",
      message: {
        role: "assistant",
        content: [{ type: "toolCall", id: "toolu_1", name: "ls", arguments: {} }],
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: { input: "12", output: 3 },
        stopReason: 1,
        timestamp: "soon",
      },
    },
    {
      type: "message",
      id: "r1",
      parentId: "a1",
      message: {
        role: "toolResult",
        toolCallId: "toolu_1",
        toolName: "ls",
        content: [{ type: "text", text: "a.txt" }],
      },
    },
    {
      type: "message",
      id: "a2",
      parentId: "r1",
      message: { role: "assistant", content: [{ type: "text", text: "One file: a.txt." }], usage: null },
    },
  );

  it("imports with schema warnings only, takes a prompt, downloads as it came plus the turn, and previews alike", async () => {
    const imported = await importFile(V3);
    const usageGaps = ["cacheRead", "cacheWrite", "totalTokens"].map(
      (k) => `Invalid input: expected number, received undefined;   → at message.usage.${k}`,
    );
    expect(imported.diagnostics).toEqual([
      schema(1, MISSING_TS, MISSING_CWD),
      schema(2, MISSING_TS),
      schema(3, "Invalid input: expected string, received number;   → at timestamp", MISSING_MESSAGE_TS),
      schema(
        4,
        MISSING_TS,
        "Invalid input: expected string, received undefined;   → at message.api",
        'Invalid option: expected one of "stop"|"length"|"toolUse"|"error"|"aborted";   → at message.stopReason',
        "Invalid input: expected number, received string;   → at message.timestamp",
        "Invalid input: expected number, received string;   → at message.usage.input",
        ...usageGaps,
        "Invalid input: expected object, received undefined;   → at message.usage.cost",
      ),
      schema(
        5,
        MISSING_TS,
        "Invalid input: expected boolean, received undefined;   → at message.isError",
        MISSING_MESSAGE_TS,
      ),
      schema(
        6,
        MISSING_TS,
        "Invalid input: expected string, received undefined;   → at message.api",
        "Invalid input: expected string, received undefined;   → at message.provider",
        "Invalid input: expected string, received undefined;   → at message.model",
        "Invalid input: expected object, received null;   → at message.usage",
        'Invalid option: expected one of "stop"|"length"|"toolUse"|"error"|"aborted";   → at message.stopReason',
        MISSING_MESSAGE_TS,
      ),
    ]);
    // The last assistant names no model: the branch has none (pi: undefined/undefined), the default is used.
    expect(imported.session.model).toBeNull();
    const id = imported.session.id;
    const [row] = await stack.scope.query<{ cwd: string }>("SELECT cwd FROM sessions WHERE id = $1", [id]);
    expect(row.cwd).toBe(projectRoot);

    stack.mock.enqueue({ text: "Still one file." });
    const events = await promptEvents(user, id, "Anything else?");
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    expect(sentMessages()).toEqual([
      ["user", ["Run ls"]],
      ["assistant", ["[tool_use]"]],
      ["user", ["[tool_result]"]],
      ["assistant", ["One file: a.txt."]],
      ["user", ["Anything else?"]],
    ]);

    const { text, disposition } = await download(id);
    expect(text.startsWith(V3)).toBe(true);
    expect(text.split("\n")[0]).toBe(line(H));
    expect(disposition).toMatch(
      /^attachment; filename="\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_bare-v3\.jsonl"/,
    );
    const added = text
      .slice(V3.length)
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; parentId: string; message?: { role: string } });
    // The run's model (the default) differs from the branch's (none): recorded as a model_change first.
    expect(added.map((e) => [e.type, e.message?.role ?? ""])).toEqual([
      ["model_change", ""],
      ["message", "system"],
      ["message", "user"],
      ["message", "assistant"],
    ]);
    expect(added[0].parentId).toBe("a2");

    const { warnings, preview } = await runPreview({
      workspace: [],
      session: { text, path: "export.jsonl" },
      text: "x",
      env: {},
      now: 1,
    });
    expect(warnings).toEqual(imported.diagnostics);
    // The branch now names the run's model (its model_change).
    expect(preview.model.ref).toBe("anthropic/claude-sonnet-4-5");
  });
});

describe("a bash execution without output, a custom message without content, a compaction without summary", () => {
  const T = "2026-03-01T00:00:00.000Z";
  const FILE = lines(
    { type: "session", version: 3, id: "bare-bash", timestamp: T, cwd: "/srv" },
    {
      type: "message",
      id: "u1",
      parentId: null,
      timestamp: T,
      message: { role: "user", content: "Run ls", timestamp: 1 },
    },
    {
      type: "message",
      id: "b1",
      parentId: "u1",
      timestamp: T,
      message: { role: "bashExecution", command: "ls", timestamp: 2 },
    },
    {
      type: "message",
      id: "c1",
      parentId: "b1",
      timestamp: T,
      message: { role: "custom", customType: "n", display: true, content: null, timestamp: 3 },
    },
    { type: "compaction", id: "k1", parentId: "c1", timestamp: T, firstKeptEntryId: "u1", tokensBefore: 10 },
  );

  it('import (the summary repaired to ""), take a prompt (the bash text as pi writes it for no output) and export', async () => {
    const imported = await importFile(FILE);
    expect(imported.diagnostics.filter((d) => d.kind !== "schema")).toEqual([
      { line: 5, kind: "repaired", message: 'Line 5: "summary" is nothing; replaced with ""' },
    ]);
    const id = imported.session.id;
    stack.mock.enqueue({ text: "Listed." });
    const events = await promptEvents(user, id, "Again?");
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    expect(sentMessages()).toEqual([
      [
        "user",
        [
          "The conversation history before this point was compacted into the following summary:\n\n<summary>\n\n</summary>",
          "Run ls",
          "Ran `ls`\n(no output)",
          "Again?",
        ],
      ],
    ]);
    const { text } = await download(id);
    const lines5 = text.split("\n").slice(0, 5);
    // Stored as imported except the repaired compaction (a summary added at the end of its keys).
    expect(lines5.slice(0, 4).join("\n")).toBe(FILE.split("\n").slice(0, 4).join("\n"));
    expect(JSON.parse(lines5[4])).toEqual({
      type: "compaction",
      id: "k1",
      parentId: "c1",
      timestamp: T,
      firstKeptEntryId: "u1",
      tokensBefore: 10,
      summary: "",
    });
  });
});
