/**
 * The CLI on pi session files (issue 10): `strata preview` and `strata session import`, run in process
 * (tests/helpers/cli.ts `runStrata`), print the same diagnostic lines for the same file (one reading,
 * lib/session/session-file.ts); a file pi accepts previews, imports and exports byte for byte; a malformed file is
 * one `strata: <message>` line (or the refusal and its problem lines), exit 1, never a stack trace.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbScope } from "@/lib/db/client";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { type CliRun, envWithout, root, runStrata } from "../../helpers/cli";

const OPTIONAL_PATH = path.join(root, "tests/fixtures/sessions/pi-optional-fields.jsonl");
const NO_TIMESTAMP_PATH = path.join(root, "tests/fixtures/sessions/pi-no-header-timestamp.jsonl");

let scope: DbScope;
let projectId: string;
let dir: string;
let workspace: string;

/** `strata …` in process; `db` keeps DATABASE_URL (session commands), else no key and no database. */
function strata(args: string[], db = false): Promise<CliRun> {
  const env = db
    ? process.env
    : envWithout(/_API_KEY$|^DATABASE_URL$|^STRATA_|^OPENAI_COMPATIBLE_|_BASE_URL$/);
  return runStrata(args, { env });
}

const previewOf = (file: string) => strata(["preview", "--dir", workspace, "--session", file, "--text", "x"]);

beforeAll(async () => {
  scope = new DbScope();
  const actor = await getLocalActor(scope);
  projectId = (
    await insertProject(scope, { workspaceId: actor.workspaceId, name: "cli-files", source: null })
  ).id;
  dir = mkdtempSync(path.join(tmpdir(), "strata-session-files-"));
  workspace = path.join(dir, "ws");
  mkdirSync(workspace);
  writeFileSync(path.join(workspace, "README.md"), "# ws\n");
});
afterAll(async () => {
  await scope.release();
  rmSync(dir, { recursive: true, force: true });
});

describe("strata preview and strata session import on the same files", () => {
  it("a file pi accepts: the same warning lines from both; the import exports byte for byte", async () => {
    const [preview, imported] = await Promise.all([
      previewOf(OPTIONAL_PATH),
      strata(["session", "import", OPTIONAL_PATH, "--project", projectId], true),
    ]);
    expect(preview.code).toBe(0);
    expect(imported.code).toBe(0);
    const warnings = preview.stderr.trimEnd().split("\n");
    expect(warnings.map((l) => l.slice(0, l.indexOf(": Line")))).toEqual(
      [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map((n) => `${OPTIONAL_PATH}:${n}: schema`),
    );
    expect(warnings[1]).toBe(
      `${OPTIONAL_PATH}:3: schema: Line 3: ✖ Invalid input: expected string, received undefined;   → at timestamp`,
    );
    const importLines = imported.stderr.trimEnd().split("\n");
    expect(importLines.slice(0, -1)).toEqual(warnings);
    const sessionId = imported.stdout.trim();
    expect(importLines.at(-1)).toContain(`Imported ${OPTIONAL_PATH} as session ${sessionId}`);
    const out = JSON.parse(preview.stdout) as { agentMessages: { role: string }[]; model: { ref: string } };
    expect(out.model.ref).toBe("anthropic/claude-sonnet-4-5");
    expect(out.agentMessages.map((m) => m.role)).toEqual([
      "compactionSummary",
      "assistant",
      "branchSummary",
      "custom",
      "user",
      "system",
      "user",
    ]);
    const exported = await strata(["session", "export", sessionId], true);
    expect(exported).toMatchObject({ code: 0, stderr: "" });
    expect(exported.stdout).toBe(readFileSync(OPTIONAL_PATH, "utf8"));
  }, 60_000);

  it("a header without timestamp: exported as it is, into a directory under the first entry's time", async () => {
    const imported = await strata(["session", "import", NO_TIMESTAMP_PATH, "--project", projectId], true);
    expect(imported.code).toBe(0);
    // A directory named with a trailing "/" that does not exist yet is created (docs/cli.md).
    const out = path.join(dir, "out/nested/");
    const exported = await strata(["session", "export", imported.stdout.trim(), "-o", out], true);
    const written = path.join(out, "2026-02-02T08-30-00-000Z_0198a6f0-0000-7000-8000-0000000000f2.jsonl");
    expect(exported).toEqual({ code: 0, stdout: "", stderr: `Wrote ${written}\n` });
    expect(readFileSync(written, "utf8")).toBe(readFileSync(NO_TIMESTAMP_PATH, "utf8"));
  }, 60_000);

  it("a malformed file: `strata: <message>`, exit 1, nothing on stdout, no stack trace", async () => {
    const noHeader = path.join(dir, "no-header.jsonl");
    writeFileSync(noHeader, '{"type":"message","id":"a","parentId":null}\n');
    const noId = path.join(dir, "no-id.jsonl");
    writeFileSync(
      noId,
      '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}\n{"type":"label","parentId":null,"targetId":"x"}\n',
    );
    const [header, entry, headerImport] = await Promise.all([
      previewOf(noHeader),
      previewOf(noId),
      strata(["session", "import", noHeader, "--project", projectId], true),
    ]);
    expect(header).toEqual({
      code: 1,
      stdout: "",
      stderr: `strata: Session file is not a valid pi session: ${noHeader}\n`,
    });
    expect(headerImport).toEqual(header);
    expect(entry).toEqual({
      code: 1,
      stdout: "",
      stderr: `strata: Session file has entries that cannot be imported: ${noId}\n${noId}:2: invalid-entry: Line 2: "id" must be a non-empty string (got nothing); every entry needs a unique id\n`,
    });
  }, 60_000);

  it("malformed lines: preview and import print the same lines (bad JSON, unknown parent, mistyped header; wrong-typed ids refused)", async () => {
    const warned = path.join(dir, "warned.jsonl");
    writeFileSync(
      warned,
      [
        '{"type":"session","version":3,"id":"w","timestamp":5,"cwd":"/w"}',
        "{bad",
        '{"type":"session_info","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","name":"n"}',
        '{"type":"session_info","id":"b","parentId":"gone","timestamp":"2026-01-01T00:00:00.000Z","name":"m"}',
        "",
      ].join("\n"),
    );
    const refused = path.join(dir, "refused.jsonl");
    writeFileSync(
      refused,
      '{"type":"session","version":3,"id":"r","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}\n{"type":"label","id":7,"parentId":null,"targetId":"x"}\n{"type":"label","id":"l","parentId":3,"targetId":"x"}\n',
    );
    const [preview, imported, refusedPreview, refusedImport] = await Promise.all([
      previewOf(warned),
      strata(["session", "import", warned, "--project", projectId], true),
      previewOf(refused),
      strata(["session", "import", refused, "--project", projectId], true),
    ]);
    const expected = [
      `${warned}:1: schema: Line 1: ✖ Invalid input: expected string, received number;   → at timestamp`,
      `${warned}:2: invalid-json: Line 2 is not valid JSON (Expected property name or '}' in JSON at position 1); skipped`,
      `${warned}:4: unknown-parent: Line 4: parent "gone" is not an entry of this file; the entry starts a tree of its own (nothing before it is in its context)`,
    ];
    expect(preview.code).toBe(0);
    expect(preview.stderr.trimEnd().split("\n")).toEqual(expected);
    expect(imported.code).toBe(0);
    expect(imported.stderr.trimEnd().split("\n").slice(0, -1)).toEqual(expected);
    const refusal = `strata: Session file has entries that cannot be imported: ${refused}\n${refused}:2: invalid-entry: Line 2: "id" must be a non-empty string (got a number); every entry needs a unique id\n${refused}:3: invalid-entry: Line 3: "parentId" must be a string or null (got a number)\n`;
    expect(refusedPreview).toEqual({ code: 1, stdout: "", stderr: refusal });
    expect(refusedImport).toEqual(refusedPreview);
  }, 60_000);
});
