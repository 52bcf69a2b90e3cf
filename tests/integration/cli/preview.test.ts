/**
 * `strata preview` without API keys or a database, in process (tests/helpers/cli.ts `runStrata`): the fixture of
 * tests/fixtures/preview written to a host directory gives the same preview as `buildContextPreview` on the
 * fixture in memory; one JSON object on stdout; no key in the output; `.gitignore`, `.git` and `node_modules`
 * handling of the host walk; clear errors with exit codes. One case spawns the real binary: `--text -` reads the
 * process's stdin.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildContextPreview, type ContextPreview } from "@/lib/inspector/context-preview";
import { captureEnv } from "@/lib/llm/capture-payload";
import { resolveModel } from "@/lib/llm/models";
import { parseSessionJsonl } from "@/lib/session/jsonl";
import { MemoryVfsStore } from "@/lib/vfs/memory-store";
import { Vfs } from "@/lib/vfs/vfs";
import { AGENT_DIR_FILES, SESSION_JSONL, TARGET_ENV, WORKSPACE_FILES } from "../../fixtures/preview/fixture";
import { type CliRun, envWithout, root, runStrata, spawnStrata } from "../../helpers/cli";

const SECRET = "sk-ant-cli-secret-0123456789";

let dir: string;
let workspace: string;
let agentDir: string;
let sessionFile: string;

/** The process environment without any provider key or database, plus `extra`. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return envWithout(/_API_KEY$|^DATABASE_URL$|^STRATA_|^OPENAI_COMPATIBLE_/, extra);
}

function strata(args: string[], env = cleanEnv(TARGET_ENV), stdin?: string): Promise<CliRun> {
  return runStrata(args, { env, stdin });
}

function writeTree(base: string, files: Record<string, string>): void {
  for (const [p, data] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(base, p)), { recursive: true });
    writeFileSync(path.join(base, p), data);
  }
}

/** The same preview in process, on the fixture loaded into memory, at the CLI run's timestamp. */
async function inProcess(cliPreview: ContextPreview, text: string): Promise<ContextPreview> {
  const vfsOf = (mount: string, files: Record<string, string>) =>
    new Vfs(new MemoryVfsStore(Object.entries(files).map(([p, data]) => ({ path: `${mount}/${p}`, data }))));
  const model = resolveModel("openai-compatible/local-llm", captureEnv(TARGET_ENV));
  if (!model) throw new Error("fixture model missing");
  return buildContextPreview({
    fs: vfsOf("/workspace", WORKSPACE_FILES),
    agentFs: vfsOf("/.pi/agent", AGENT_DIR_FILES),
    cwd: "/workspace",
    projectRoot: "/workspace",
    entries: parseSessionJsonl(SESSION_JSONL).entries,
    model,
    trust: true,
    text,
    env: TARGET_ENV,
    now: cliPreview.agentMessages[cliPreview.agentMessages.length - 1].timestamp,
  });
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "strata-preview-"));
  workspace = path.join(dir, "ws");
  agentDir = path.join(dir, "agent");
  writeTree(workspace, WORKSPACE_FILES);
  writeTree(agentDir, AGENT_DIR_FILES);
  sessionFile = path.join(dir, "session.jsonl");
  writeFileSync(sessionFile, SESSION_JSONL);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("strata preview", () => {
  it("prints one JSON object equal to buildContextPreview on the same fixture, with no key anywhere", async () => {
    const text = "/skill:greet Ada";
    const env = cleanEnv({ ...TARGET_ENV, ANTHROPIC_API_KEY: SECRET });
    const args = [
      "preview",
      ...["--dir", workspace, "--agent-dir", agentDir, "--session", sessionFile],
      ...["--model", "openai-compatible/local-llm", "--trust", "--text", text],
    ];
    const run = await strata(args, env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.endsWith("}\n")).toBe(true);
    expect(run.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stdout).not.toContain(SECRET);
    const preview = JSON.parse(run.stdout) as ContextPreview;
    expect(preview).toEqual(JSON.parse(JSON.stringify(await inProcess(preview, text))));
    expect(preview.payload?.url).toBe("http://llm.invalid/v1/chat/completions");
    expect(preview.transformedMessages[0].content).toEqual([
      { type: "text", text: "What does this show?" },
      { type: "text", text: "(image omitted: model does not support images)" },
    ]);
  }, 60_000);

  it("reads --text - from stdin, pretty-prints, resolves a relative --cwd and defaults the model to the session's", async () => {
    const run = await strata(
      [
        "preview",
        "--dir",
        workspace,
        "--session",
        sessionFile,
        "--leaf",
        "e3",
        "--cwd",
        "src",
        "--tools",
        "read,grep",
        "--thinking",
        "off",
        "--text",
        "-",
        "--pretty",
      ],
      cleanEnv(),
      "hello from stdin\n",
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n").length).toBeGreaterThan(100);
    const preview = JSON.parse(run.stdout) as ContextPreview;
    expect(preview.model.ref).toBe("anthropic/claude-sonnet-4-5");
    expect(preview.cwd).toBe("/workspace/src");
    expect(preview.tools).toEqual(["read", "grep"]);
    expect(preview.thinkingLevel).toBe("off");
    // No --trust: the loader's default, trusted because nothing under /workspace/src needs trust.
    expect(preview.trusted).toBe(true);
    expect(preview.expandedText).toBe("hello from stdin");
    expect(preview.payload?.url).toBe("https://api.anthropic.com/v1/messages");
    expect(preview.payload?.body).not.toHaveProperty("thinking");
    expect(preview.agentMessages.map((m) => m.role)).toEqual(["user", "system", "user"]);
    expect(preview.sections.project_context).toBe(
      '<project_context>\nProject-specific instructions and guidelines:\n\n<project_instructions path="/workspace/AGENTS.md">\n# Rules\nUse tabs.\n\n</project_instructions>\n</project_context>',
    );
  }, 60_000);

  it("walks the host directory: .gitignore per directory (with !), pi's resources kept, .git and node_modules skipped", async () => {
    const host = path.join(dir, "walk");
    writeTree(host, {
      ".gitignore": ".pi/\ndist/\n*.log\n!keep.log\n",
      ".pi/skills/s/SKILL.md": "---\nname: s\ndescription: d\n---\nbody\n",
      "dist/a.js": "a",
      "a.log": "a",
      "keep.log": "k",
      "pkg/.gitignore": "gen/\n",
      "pkg/gen/x.ts": "x",
      "pkg/p.ts": "p",
      "pkg/AGENTS.md": "pkg rules",
      "node_modules/x/i.js": "i",
      ".git/HEAD": "ref: refs/heads/main\n",
    });
    symlinkSync("keep.log", path.join(host, "link"));
    const modulePath = pathToFileURL(path.join(root, "bin/commands/preview.mjs")).href;
    const { readHostTree } = await import(modulePath);
    const { isPiResourcePath } = await import("@/lib/cli/preview");
    const { files, skipped } = await readHostTree(host, { gitignore: true, keep: isPiResourcePath });
    expect(files.map((f: { path: string; kind: string }) => `${f.path} ${f.kind}`)).toEqual([
      ".gitignore file",
      ".pi/skills/s/SKILL.md file",
      "keep.log file",
      "link symlink",
      "pkg/.gitignore file",
      "pkg/AGENTS.md file",
      "pkg/p.ts file",
    ]);
    expect(skipped).toEqual([]);
  });

  it("fails with clear messages and exit codes", async () => {
    const bad = path.join(dir, "bad.jsonl");
    writeFileSync(
      bad,
      `${SESSION_JSONL.split("\n").slice(0, 3).join("\n")}\n{"type": broken\n${SESSION_JSONL.split("\n").slice(3).join("\n")}`,
    );
    const base = ["preview", "--dir", workspace];
    const [model, malformed, leaf, missing, usage, noText] = await Promise.all([
      strata([...base, "--model", "openai/gpt-9", "--text", "x"]),
      strata([...base, "--session", bad, "--text", "x"]),
      strata([...base, "--session", sessionFile, "--leaf", "zzz", "--text", "x"]),
      strata([...base, "--session", path.join(dir, "missing.jsonl"), "--text", "x"]),
      strata([...base, "--bogus", "--text", "x"]),
      strata(base),
    ]);
    expect(model.code).toBe(1);
    expect(model.stderr).toMatch(
      /^strata: Unknown model: openai\/gpt-9\. Available: anthropic\/claude-sonnet-4-5, /,
    );
    // A line that is not JSON is skipped, as pi and `strata session import` skip it: a warning, not a failure.
    expect(malformed.code).toBe(0);
    expect(malformed.stderr).toBe(
      `${bad}:4: invalid-json: Line 4 is not valid JSON (Unexpected token 'b', "{"type": broken" is not valid JSON); skipped\n`,
    );
    expect(leaf).toMatchObject({ code: 1, stderr: "strata: Unknown leaf entry id: zzz\n", stdout: "" });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`strata: Cannot read ${path.join(dir, "missing.jsonl")}: ENOENT`);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Unknown option '--bogus'");
    expect(noText.code).toBe(2);
    expect(noText.stderr).toContain("strata: preview needs --text (or --text - for stdin)");
  }, 60_000);

  it("the real binary reads --text - from its stdin, without the trailing line break (spawned)", async () => {
    const run = await spawnStrata(["preview", "--dir", workspace, "--text", "-"], {
      env: cleanEnv(),
      stdin: "hello from stdin\n",
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect((JSON.parse(run.stdout) as ContextPreview).expandedText).toBe("hello from stdin");
  }, 60_000);
});
