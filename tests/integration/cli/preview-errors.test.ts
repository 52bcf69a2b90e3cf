/**
 * `strata preview` against adversarial input, without keys or a database, in process (tests/helpers/cli.ts
 * `runStrata`): a `--cwd` outside `/workspace` (lexically or through a symlink) exits 1; every usage error (missing
 * value, unknown flag, repeated value flag, empty `--tools`) prints `strata: <message>`, the usage, exits 2 and
 * never a stack; a session file that is not a tree exits 1 with its lines; secrets of the environment never reach
 * stdout. (The binary's exit status and stdin: strata-cli.test.ts and preview.test.ts.)
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContextPreview } from "@/lib/inspector/context-preview";
import { type CliRun, envWithout, root, runStrata } from "../../helpers/cli";

let dir: string;
let workspace: string;
let usage: string;

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return envWithout(/_API_KEY$|^DATABASE_URL$|^STRATA_|^OPENAI_COMPATIBLE_|_BASE_URL$/, extra);
}

function strata(args: string[], env = cleanEnv()): Promise<CliRun> {
  return runStrata(["preview", ...args], { env });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "strata-preview-errors-"));
  workspace = path.join(dir, "ws");
  mkdirSync(path.join(workspace, "src"), { recursive: true });
  writeFileSync(path.join(workspace, "src/a.ts"), "export {};\n");
  symlinkSync("..", path.join(workspace, "up"));
  symlinkSync("/etc", path.join(workspace, "etc"));
  symlinkSync("src", path.join(workspace, "inside"));
  ({ usage } = await import(pathToFileURL(path.join(root, "bin/commands/preview.mjs")).href));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("strata preview: adversarial input", () => {
  it("refuses a --cwd that does not normalise to /workspace or below (exit 1), symlinks included", async () => {
    const cases: [string, string][] = [
      ["..", "/"],
      ["/", "/"],
      ["/workspace/..", "/"],
      ["/workspace/../etc", "/etc"],
      ["/etc", "/etc"],
      ["/workspacex", "/workspacex"],
      ["src/../../workspace2", "/workspace2"],
      ["up", "/workspace/up"],
      ["etc", "/workspace/etc"],
    ];
    const runs = await Promise.all(
      cases.map(([cwd]) => strata(["--dir", workspace, "--cwd", cwd, "--text", "x"])),
    );
    for (const [i, run] of runs.entries())
      expect({ cwd: cases[i][0], ...run }).toEqual({
        cwd: cases[i][0],
        code: 1,
        stdout: "",
        stderr: `strata: Working directory ${cases[i][1]} is not a directory of the workspace\n`,
      });
  }, 60_000);

  it("accepts a --cwd that normalises inside the workspace, through symlinks too (up -> .. then back in)", async () => {
    const runs = await Promise.all(
      ["src/..", "/workspace/src/../src", "./inside", "up/workspace/src"].map((cwd) =>
        strata(["--dir", workspace, "--cwd", cwd, "--text", "x"]),
      ),
    );
    expect(runs.map((r) => [r.code, r.stderr, (JSON.parse(r.stdout) as ContextPreview).cwd])).toEqual([
      [0, "", "/workspace"],
      [0, "", "/workspace/src"],
      [0, "", "/workspace/inside"],
      [0, "", "/workspace/up/workspace/src"],
    ]);
  }, 60_000);

  it("prints every usage error as `strata: <message>` and the usage, exit 2, never a stack", async () => {
    const base = ["--dir", workspace];
    const cases: [string[], string][] = [
      [[...base, "--text"], "Option '--text <value>' argument missing"],
      [
        [...base, "--text", "--pretty"],
        "Option '--text' argument is ambiguous.\nDid you forget to specify the option argument for '--text'?\nTo specify an option argument starting with a dash use '--text=-XYZ'.",
      ],
      [
        [...base, "--bogus", "--text", "x"],
        `Unknown option '--bogus'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "--bogus"`,
      ],
      [[...base, "--text", "a", "--text", "b"], "--text is given more than once"],
      [[...base, "--model=a/b", "--model", "a/b", "--text", "x"], "--model is given more than once"],
      [[...base, "--dir", workspace, "--text", "x"], "--dir is given more than once"],
      [
        [...base, "--tools", "", "--text", "x"],
        "--tools needs tool names (read,bash,edit,write,grep,find,ls, +name / -name against the defaults) or none; got ''",
      ],
      [
        [...base, "--tools", " , +", "--text", "x"],
        "--tools needs tool names (read,bash,edit,write,grep,find,ls, +name / -name against the defaults) or none; got ' , +'",
      ],
      [[...base, "--cwd", "", "--text", "x"], "--cwd needs a non-empty value"],
      [[...base, "--model", " ", "--text", "x"], "--model needs a non-empty value"],
      [[...base, "stray", "--text", "x"], "Unexpected argument: stray"],
      [[...base], "preview needs --text (or --text - for stdin)"],
      [["--leaf", "e1", "--text", "x"], "--leaf needs --session or --session-id"],
      [["--trust", "--no-trust", "--text", "x"], "--trust and --no-trust exclude each other"],
      [
        ["--session-id", "s1", "--text", "x"],
        "--session-id needs a server: --server <url> --token <token> (or STRATA_SERVER, STRATA_TOKEN)",
      ],
    ];
    const runs = await Promise.all(cases.map(([args]) => strata(args)));
    for (const [i, run] of runs.entries())
      expect({ args: cases[i][0], ...run }).toEqual({
        args: cases[i][0],
        code: 2,
        stdout: "",
        stderr: `strata: ${cases[i][1]}\n\n${usage}\n`,
      });
    for (const run of runs) expect(run.stderr).not.toMatch(/TypeError|\n\s+at /);
  }, 60_000);

  it("no tools is --tools none (or every default removed); an empty --text is a prompt", async () => {
    const runs = await Promise.all([
      strata(["--dir", workspace, "--tools", "none", "--text", "x"]),
      strata(["--dir", workspace, "--tools=-read,-bash,-edit,-write", "--text", ""]),
    ]);
    expect(runs.map((r) => [r.code, r.stderr])).toEqual([
      [0, ""],
      [0, ""],
    ]);
    const [none, removed] = runs.map((r) => JSON.parse(r.stdout) as ContextPreview);
    expect(none.tools).toEqual([]);
    expect(removed.tools).toEqual([]);
    expect(removed.expandedText).toBe("");
  }, 60_000);

  it("refuses a session file whose entries are not a tree, with its lines (exit 1)", async () => {
    const header =
      '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';
    const e = (id: string, parentId: string | null) =>
      JSON.stringify({ type: "thinking_level_change", id, parentId, timestamp: "t", thinkingLevel: "low" });
    const file = path.join(dir, "cycle.jsonl");
    writeFileSync(file, `${[header, e("a", null), e("b", "c"), e("c", "b"), e("a", "c")].join("\n")}\n`);
    const run = await strata(["--dir", workspace, "--session", file, "--text", "x"]);
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: [
        `strata: Session file entries do not form a tree: ${file}`,
        `${file}:3: parent-cycle: Line 3: entries "b" → "c" → "b" (lines 3, 4) form a parent cycle`,
        `${file}:5: duplicate-id: Line 5: entry id "a" is already used on line 2`,
        "",
      ].join("\n"),
    });
  }, 60_000);

  it("never prints a key, token, secret or base-URL query of the environment; payload.url has ?[redacted]", async () => {
    const env = cleanEnv({
      OPENAI_BASE_URL: "https://ada:pass-word@x.invalid/v1?key=SECRET&v=2",
      OPENAI_API_KEY: "sk-real-openai-key",
      GITHUB_TOKEN: "ghp_not-a-real-token",
      CLIENT_SECRET: "client-secret-value",
      ANY_KEY: "any-key-value",
    });
    const run = await strata(
      [
        "--dir",
        workspace,
        "--model",
        "openai/gpt-5",
        "--text",
        "SECRET pass-word sk-real-openai-key ghp_not-a-real-token client-secret-value any-key-value",
      ],
      env,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const preview = JSON.parse(run.stdout) as ContextPreview;
    expect(preview.payload?.url).toBe("https://x.invalid/v1?[redacted]");
    expect(preview.expandedText).toBe("[redacted] [redacted] [redacted] [redacted] [redacted] [redacted]");
    for (const secret of [
      "SECRET",
      "pass-word",
      "ada:",
      "sk-real-openai-key",
      "ghp_not-a-real-token",
      "client-secret-value",
      "any-key-value",
    ])
      expect(run.stdout).not.toContain(secret);
  }, 60_000);
});
