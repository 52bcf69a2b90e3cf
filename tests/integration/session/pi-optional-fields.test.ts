/**
 * pi session files that pi reads but that miss what pi writes (issue 10, "Session files that pi accepts"), through
 * the routes a user meets — IDE import, prompt (mock provider), download — and then `strata preview`'s reading of
 * the download: `pi-optional-fields.jsonl` (no timestamps at all, assistant messages without usage, api,
 * stopReason or provider/model, a partial usage, a tool result without isError, null user content, a branch
 * summary and a compaction without details or usage) and `pi-no-header-timestamp.jsonl` (a header without
 * timestamp, which exported with a 500); and a branch summary over the former's entries.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as postImport } from "@/app/api/projects/[id]/sessions/import/route";
import { POST as postBranch } from "@/app/api/sessions/[id]/branch/route";
import { GET as getExport } from "@/app/api/sessions/[id]/export/route";
import { GET as getSessionRoute } from "@/app/api/sessions/[id]/route";
import { runPreview } from "@/lib/cli/preview";
import { emptyUsage } from "@/lib/llm/types";
import { insertProject } from "@/lib/projects/projects";
import { parseSessionJsonl } from "@/lib/session/jsonl";
import { asUser, signedInUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";
import { promptEvents } from "../../helpers/prompt-stream";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/sessions/${name}`, import.meta.url), "utf8");
const OPTIONAL = fixture("pi-optional-fields.jsonl");
const NO_HEADER_TIMESTAMP = fixture("pi-no-header-timestamp.jsonl");

const stack = withMockStack({ processEnv: true });
let projectId: string;
let projectRoot: string;

beforeAll(async () => {
  const actor = await signedIn.actor();
  const project = await insertProject(stack.scope, {
    workspaceId: actor.workspaceId,
    name: "pi-files",
    source: null,
  });
  projectId = project.id;
  projectRoot = project.rootPath;
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });

interface Diagnostic {
  line: number;
  kind: string;
  message: string;
}

/** POST the file to the IDE's import route; 201 expected. */
async function importFile(text: string, name: string) {
  const res = await postImport(
    asUser(signedIn.user, `http://strata.test/?name=${name}`, {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: text,
    }),
    params(projectId),
  );
  expect(res.status).toBe(201);
  return (await res.json()) as {
    session: { id: string; title: string | null; model: string | null };
    diagnostics: Diagnostic[];
  };
}

async function getSession(id: string) {
  const res = await getSessionRoute(asUser(signedIn.user, "http://strata.test/"), params(id));
  expect(res.status).toBe(200);
  return (await res.json()) as { messages: Record<string, unknown>[]; repairs: unknown[] };
}

async function download(id: string) {
  const res = await getExport(asUser(signedIn.user, "http://strata.test/"), params(id));
  expect(res.status).toBe(200);
  return { disposition: res.headers.get("content-disposition"), text: await res.text() };
}

/** `strata preview`'s reading of a file (the same function the CLI runs), for one more prompt. */
const preview = (text: string) =>
  runPreview({ workspace: [], session: { text, path: "export.jsonl" }, text: "And now?", env: {}, now: 1 });

const textOf = (m: unknown) => {
  const content = (m as { content?: unknown }).content;
  return typeof content === "string"
    ? content
    : ((content ?? []) as { type: string; text?: string }[])
        .map((p) => (p.type === "text" ? p.text : `[${p.type}]`))
        .join("|");
};

/** The missing-field notes of the optional-fields fixture (the schema describes what pi writes). */
const MISSING_TIMESTAMP = "✖ Invalid input: expected string, received undefined;   → at timestamp";
const MISSING_MESSAGE_TIMESTAMP =
  "✖ Invalid input: expected number, received undefined;   → at message.timestamp";
const OPTIONAL_DIAGNOSTICS: Diagnostic[] = [
  [2, MISSING_TIMESTAMP],
  [3, MISSING_TIMESTAMP],
  [4, `${MISSING_TIMESTAMP}; ${MISSING_MESSAGE_TIMESTAMP}`],
  [
    5,
    `${MISSING_TIMESTAMP}; ✖ Invalid input: expected string, received undefined;   → at message.api; ✖ Invalid input: expected string, received undefined;   → at message.provider; ✖ Invalid input: expected string, received undefined;   → at message.model; ✖ Invalid option: expected one of "stop"|"length"|"toolUse"|"error"|"aborted";   → at message.stopReason; ${MISSING_MESSAGE_TIMESTAMP}; ✖ Invalid input: expected number, received undefined;   → at message.usage.cacheRead; ✖ Invalid input: expected number, received undefined;   → at message.usage.cacheWrite; ✖ Invalid input: expected number, received undefined;   → at message.usage.totalTokens; ✖ Invalid input: expected object, received undefined;   → at message.usage.cost`,
  ],
  [
    6,
    `${MISSING_TIMESTAMP}; ✖ Invalid input: expected boolean, received undefined;   → at message.isError; ${MISSING_MESSAGE_TIMESTAMP}`,
  ],
  [
    7,
    `${MISSING_TIMESTAMP}; ✖ Invalid input: expected string, received undefined;   → at message.api; ✖ Invalid input: expected object, received undefined;   → at message.usage; ✖ Invalid option: expected one of "stop"|"length"|"toolUse"|"error"|"aborted";   → at message.stopReason; ${MISSING_MESSAGE_TIMESTAMP}`,
  ],
  [8, `${MISSING_TIMESTAMP}; ${MISSING_MESSAGE_TIMESTAMP}`],
  [9, MISSING_TIMESTAMP],
  [10, MISSING_TIMESTAMP],
  [11, `${MISSING_TIMESTAMP}; ${MISSING_MESSAGE_TIMESTAMP}`],
  [12, MISSING_TIMESTAMP],
  [13, MISSING_TIMESTAMP],
  [14, MISSING_TIMESTAMP],
].map(([line, text]) => ({ line: line as number, kind: "schema", message: `Line ${line}: ${text}` }));

describe("a pi file whose entries miss optional fields", () => {
  it("imports, takes one more prompt, exports the file byte for byte plus the new turn, and the export previews", async () => {
    const imported = await importFile(OPTIONAL, "optional.jsonl");
    // Warnings only (nothing repaired: pi writes these files): the file is stored as it is.
    expect(imported.diagnostics).toEqual(OPTIONAL_DIAGNOSTICS);
    expect(imported.session).toMatchObject({
      title: "Optional fields",
      model: "anthropic/claude-sonnet-4-5",
    });
    const id = imported.session.id;

    // The branch as the chat shows it: after the compaction, from its first kept entry; defaults where pi
    // tolerates a missing field (null content → [], the missing usage → zero usage); no repairs.
    const opened = await getSession(id);
    expect(opened.repairs).toEqual([]);
    expect(opened.messages.map((m) => [m.role, m.summary ?? textOf(m)])).toEqual([
      ["compactionSummary", "Listed the files with ls."],
      ["assistant", "There is one file: README.md."],
      ["branchSummary", "The user asked to try cat."],
      ["custom", "Remember the README."],
      ["user", ""],
    ]);
    expect(opened.messages[1]).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "There is one file: README.md." }],
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: emptyUsage(),
    });

    // One more prompt: the last assistant message has no usage (the run's compaction check reads it).
    stack.mock.enqueue({ text: "README.md is the only file." });
    const events = await promptEvents(signedIn.user, id, "What is in README.md?");
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    expect(stack.mock.requests).toHaveLength(1);
    const sent = stack.mock.requests[0].body as { messages: { role: string; content: { text: string }[] }[] };
    expect(sent.messages.map((m) => [m.role, m.content.map((p) => p.text)])).toEqual([
      [
        "user",
        [
          "The conversation history before this point was compacted into the following summary:\n\n<summary>\nListed the files with ls.\n</summary>",
        ],
      ],
      ["assistant", ["There is one file: README.md."]],
      [
        "user",
        [
          "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nThe user asked to try cat.</summary>",
          "Remember the README.",
          "What is in README.md?",
        ],
      ],
    ]);

    // The download: the imported lines exactly as they came, then the run's system message, prompt and answer.
    const { disposition, text } = await download(id);
    const name = "2026-02-01T10-00-00-000Z_0198a6f0-0000-7000-8000-0000000000f1.jsonl";
    expect(disposition).toBe(`attachment; filename="${name}"; filename*=UTF-8''${name}`);
    expect(text.startsWith(OPTIONAL)).toBe(true);
    const added = text
      .slice(OPTIONAL.length)
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; parentId: string; message: Record<string, unknown> });
    expect(
      added.map((e) => [e.type, e.message.role, e.message.role === "system" ? "" : textOf(e.message)]),
    ).toEqual([
      ["message", "system", ""],
      ["message", "user", "What is in README.md?"],
      ["message", "assistant", "README.md is the only file."],
    ]);
    expect(added[0].parentId).toBe("f000000d");

    // `strata preview` reads the download as import does: the same warnings, the branch, one more prompt.
    const header = parseSessionJsonl(text).header;
    expect(header).toEqual({
      type: "session",
      version: 3,
      id: "0198a6f0-0000-7000-8000-0000000000f1",
      timestamp: "2026-02-01T10:00:00.000Z",
      cwd: "/srv/project",
    });
    const { preview: p, warnings } = await preview(text);
    expect(warnings).toEqual(OPTIONAL_DIAGNOSTICS);
    expect(p.model.ref).toBe("anthropic/claude-sonnet-4-5");
    expect(p.thinkingLevel).toBe("low");
    expect(p.agentMessages.map((m) => m.role)).toEqual([
      "compactionSummary",
      "assistant",
      "branchSummary",
      "custom",
      "user",
      "system",
      "user",
      "assistant",
      "system",
      "user",
    ]);
    expect(p.llmMessages.filter((m) => m.role !== "system").map((m) => [m.role, textOf(m)])).toEqual([
      [
        "user",
        "The conversation history before this point was compacted into the following summary:\n\n<summary>\nListed the files with ls.\n</summary>",
      ],
      ["assistant", "There is one file: README.md."],
      [
        "user",
        "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nThe user asked to try cat.</summary>",
      ],
      ["user", "Remember the README."],
      ["user", ""],
      ["user", "What is in README.md?"],
      ["assistant", "README.md is the only file."],
      ["user", "And now?"],
    ]);
    // The run's system message was for the project's cwd; the preview's workspace differs only there.
    expect(Object.keys(p.systemPatch?.sections ?? {})).toEqual(["cwd"]);
    expect(projectRoot).not.toBe("/workspace");
  });
});

describe("a pi file whose header has no timestamp", () => {
  it("imports, takes one more prompt, downloads (200, named by its first entry's time) and previews", async () => {
    const imported = await importFile(NO_HEADER_TIMESTAMP, "no-timestamp.jsonl");
    // pi writes a header timestamp: its absence is a warning, as an entry's is (the header is kept as it is).
    expect(imported.diagnostics).toEqual([
      { line: 1, kind: "schema", message: `Line 1: ${MISSING_TIMESTAMP}` },
    ]);
    const id = imported.session.id;

    stack.mock.enqueue({ text: "Hello again." });
    const events = await promptEvents(signedIn.user, id, "Once more");
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    expect(stack.mock.requests).toHaveLength(1);

    const { disposition, text } = await download(id);
    const name = "2026-02-02T08-30-00-000Z_0198a6f0-0000-7000-8000-0000000000f2.jsonl";
    expect(disposition).toBe(`attachment; filename="${name}"; filename*=UTF-8''${name}`);
    // The header is exported as it was imported: no timestamp added.
    expect(text.split("\n")[0]).toBe(
      '{"type":"session","version":3,"id":"0198a6f0-0000-7000-8000-0000000000f2","cwd":"/srv/project"}',
    );
    expect(text.startsWith(NO_HEADER_TIMESTAMP)).toBe(true);
    expect(text.trimEnd().split("\n")).toHaveLength(7);

    expect(parseSessionJsonl(text).header).toEqual({
      type: "session",
      version: 3,
      id: "0198a6f0-0000-7000-8000-0000000000f2",
      cwd: "/srv/project",
    });
    const { preview: p, warnings } = await preview(text);
    expect(warnings).toEqual(imported.diagnostics);
    expect(p.agentMessages.map((m) => [m.role, m.role === "system" ? "" : textOf(m)])).toEqual([
      ["user", "Say hello"],
      ["assistant", "Hello."],
      ["system", ""],
      ["user", "Once more"],
      ["assistant", "Hello again."],
      ["system", ""],
      ["user", "And now?"],
    ]);
  });
});

describe("navigating the tree of a pi file whose entries miss optional fields", () => {
  it("a branch summary of the abandoned branch (entries without timestamps, details or usage) is stored and previews", async () => {
    const imported = await importFile(OPTIONAL, "optional.jsonl");
    const id = imported.session.id;
    stack.mock.enqueue({ text: "Tried cat, then compacted." });
    const res = await postBranch(
      asUser(signedIn.user, "http://strata.test/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ entryId: "f0000006", summarize: true }),
      }),
      params(id),
    );
    expect(res.status).toBe(200);
    const { summaryEntry } = (await res.json()) as { summaryEntry: Record<string, unknown> };
    expect(summaryEntry).toMatchObject({
      type: "branch_summary",
      parentId: "f0000006",
      fromId: "f000000d",
      summary:
        "The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\nTried cat, then compacted.",
      details: { readFiles: [], modifiedFiles: [] },
    });
    // The summarizer saw the abandoned branch oldest first, as the projection reads it.
    const prompt = (stack.mock.requests[0].body as { messages: { content: { text: string }[] }[] })
      .messages[0].content[0].text;
    expect(prompt.slice(0, prompt.indexOf("</conversation>"))).toBe(
      "<conversation>\n[User]: The following is a summary of a branch that this conversation came back from:\n\n<summary>\nThe user asked to try cat.</summary>\n\n[User]: Remember the README.\n\n[User]: The conversation history before this point was compacted into the following summary:\n\n<summary>\nListed the files with ls.\n</summary>\n",
    );

    const { text } = await download(id);
    expect(text.startsWith(OPTIONAL)).toBe(true);
    const { preview: p, warnings } = await preview(text);
    expect(warnings).toEqual(OPTIONAL_DIAGNOSTICS);
    expect(p.agentMessages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
      "branchSummary",
      "system",
      "user",
    ]);
    expect(p.agentMessages.slice(0, 4).map(textOf)).toEqual([
      "List the files",
      "Running ls.|[toolCall]",
      "README.md",
      "There is one file: README.md.",
    ]);
  });
});
