/**
 * `strata session import` (importSessionJsonl of a local file, against Postgres) and `strata preview` (runPreview)
 * read a session file through one reading (lib/session/session-file.ts): for each file of the table both accept it
 * with exactly the same diagnostics, or both refuse it with exactly the same message.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPreview } from "@/lib/cli/preview";
import { DbScope } from "@/lib/db/client";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { importSessionJsonl } from "@/lib/session/import-export";

let scope: DbScope;
let projectId: string;

beforeAll(async () => {
  scope = new DbScope();
  const actor = await getLocalActor(scope);
  const project = await insertProject(scope, { workspaceId: actor.workspaceId, name: "agree", source: null });
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

const TABLE: [string, string, Expected][] = [
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
  ["no header", file(user("a", null)), { error: "Session file is not a valid pi session: f.jsonl" }],
  ["an empty file", "", { error: "Session file is not a valid pi session: f.jsonl" }],
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

describe("preview and import agree on every file", () => {
  it.each(TABLE)("%s", async (_name, text, expected) => {
    expect(await viaImport(text)).toEqual(expected);
    expect(await viaPreview(text)).toEqual(expected);
  });
});
