/**
 * `strata session import|export` against the test database, in process (bin/lib/main.mjs `runCli`, through
 * tests/helpers/cli.ts): a pi file round-trips byte for byte, diagnostics go to stderr, errors exit non-zero with
 * pi's texts, and a plain Postgres URL without STRATA_DB_PROXY works through the proxy the CLI starts itself.
 * One case spawns the real binary (`bin/strata.mjs`): its exit status is 0, 1 or 2 with the same output.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbScope } from "@/lib/db/client";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { getSession } from "@/lib/session/store";
import { root, spawnStrata, runStrata as strata } from "../../helpers/cli";

const fixturePath = path.join(root, "tests/fixtures/sessions/pi-tour.jsonl");
const fixture = readFileSync(fixturePath);

let scope: DbScope;
let projectId: string;
let dir: string;

beforeAll(async () => {
  scope = new DbScope();
  const actor = await getLocalActor(scope);
  projectId = (await insertProject(scope, { workspaceId: actor.workspaceId, name: "cli", source: null })).id;
  dir = mkdtempSync(path.join(tmpdir(), "strata-cli-"));
});
afterAll(async () => {
  await scope.release();
  rmSync(dir, { recursive: true, force: true });
});

describe("strata session", () => {
  it("imports pi-tour.jsonl and exports it byte-identically (to a file, a directory and stdout)", async () => {
    const imported = await strata(["session", "import", fixturePath, "--project", projectId]);
    expect(imported.stderr).toContain("Imported");
    expect(imported.code).toBe(0);
    const sessionId = imported.stdout.trim();
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await getSession(scope, sessionId)).toMatchObject({
      projectId,
      title: "README tour",
      leafId: "a0000016",
    });

    const out = path.join(dir, "out.jsonl");
    const exported = await strata(["session", "export", sessionId, "-o", out]);
    expect(exported.code).toBe(0);
    expect(readFileSync(out).equals(fixture)).toBe(true);

    const intoDir = await strata(["session", "export", sessionId, "-o", `${dir}/`]);
    expect(intoDir.code).toBe(0);
    const named = path.join(dir, "2026-01-01T09-00-00-000Z_0198a6f0-0000-7000-8000-000000000001.jsonl");
    expect(readFileSync(named).equals(fixture)).toBe(true);

    const toStdout = await strata(["session", "export", sessionId]);
    expect(toStdout.code).toBe(0);
    expect(toStdout.stdout).toBe(fixture.toString("utf8"));
  });

  it("starts its own database proxy for a plain Postgres URL without STRATA_DB_PROXY", async () => {
    const env = { ...process.env };
    delete env.STRATA_DB_PROXY;
    const imported = await strata(["session", "import", fixturePath, "--project", projectId, "--json"], {
      env,
    });
    expect(imported.code).toBe(0);
    const { session, diagnostics } = JSON.parse(imported.stdout) as {
      session: { id: string };
      diagnostics: unknown[];
    };
    expect(diagnostics).toEqual([]);
    const exported = await strata(["session", "export", session.id], { env });
    expect(exported.stdout).toBe(fixture.toString("utf8"));
  });

  it("prints line-numbered diagnostics to stderr and still imports", async () => {
    const lines = fixture.toString("utf8").split("\n");
    const file = path.join(dir, "torn.jsonl");
    writeFileSync(file, `${lines[0]}\n${lines[1]}\nnot json\n${lines[2]}\n{"type":"mess`);
    const run = await strata(["session", "import", file, "--project", projectId]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`${file}:3: invalid-json: Line 3 is not valid JSON`);
    expect(run.stderr).toContain(
      `${file}:5: torn-last-line: Line 5 (last, no newline) is incomplete JSON; dropped`,
    );
    expect(run.stderr).toContain("with 2 diagnostics");
    expect((await getSession(scope, run.stdout.trim()))!.leafId).toBe("a0000002");
  });

  it("fails with pi's text for a bad header, and on unknown ids or bad usage", async () => {
    const file = path.join(dir, "bad.jsonl");
    writeFileSync(file, '{"type":"message"}\n');
    const bad = await strata(["session", "import", file, "--project", projectId]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(`strata: Session file is not a valid pi session: ${file}\n`);
    expect(bad.stdout).toBe("");

    // Entries that are not a tree are refused before anything is stored, with their lines.
    const dup = path.join(dir, "dup.jsonl");
    const e = (id: string, parentId: string | null) =>
      JSON.stringify({ type: "thinking_level_change", id, parentId, timestamp: "t", thinkingLevel: "low" });
    writeFileSync(
      dup,
      `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}\n${e("a", null)}\n${e("a", "a")}\n`,
    );
    const tree = await strata(["session", "import", dup, "--project", projectId]);
    expect(tree).toEqual({
      code: 1,
      stdout: "",
      stderr: `strata: Session file entries do not form a tree: ${dup}\n${dup}:3: duplicate-id: Line 3: entry id "a" is already used on line 2\n`,
    });

    const project = await strata(["session", "import", fixturePath, "--project", "nope"]);
    expect(project).toMatchObject({ code: 1, stderr: "strata: Project nope not found\n" });
    const missing = "00000000-0000-4000-8000-000000000000";
    const session = await strata(["session", "export", missing]);
    expect(session).toMatchObject({ code: 1, stderr: `strata: Session ${missing} not found\n` });
    expect((await strata(["session", "import", fixturePath])).code).toBe(2);
    expect((await strata(["bogus"])).code).toBe(2);
  });

  it("the real binary exits 0, 1 or 2 with the command's output (spawned: the process's exit status)", async () => {
    const imported = await strata(["session", "import", fixturePath, "--project", projectId]);
    expect(imported.code).toBe(0);
    const missing = "00000000-0000-4000-8000-000000000000";
    const [exported, unknown, bogus] = await Promise.all([
      spawnStrata(["session", "export", imported.stdout.trim()]),
      spawnStrata(["session", "export", missing]),
      spawnStrata(["bogus"]),
    ]);
    expect(exported).toEqual({ code: 0, stdout: fixture.toString("utf8"), stderr: "" });
    expect(unknown).toEqual({ code: 1, stdout: "", stderr: `strata: Session ${missing} not found\n` });
    expect(bogus.code).toBe(2);
    expect(bogus.stdout).toBe("");
    expect(bogus.stderr.split("\n")[0]).toBe("strata: Unknown command: bogus");
  }, 60_000);
});
