import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseFrontmatter } from "@/lib/resources/frontmatter";
import { loadResources } from "@/lib/resources/resource-loader";
import {
  expandSkillCommand,
  formatSkillsForPrompt,
  loadSkills,
  loadSkillsFromDir,
  parseSkillBlock,
  type Skill,
} from "@/lib/resources/skills";
import { build, createTestVfs, type TestVfs } from "./fixtures";

const sk = (over: Partial<Skill> = {}): Skill => ({
  name: "pdf",
  description: "Extract text from PDFs",
  filePath: "/skills/pdf/SKILL.md",
  baseDir: "/skills/pdf",
  source: "user",
  disableModelInvocation: false,
  ...over,
});
const INTRO =
  "\n\nThe following skills provide specialized instructions for specific tasks.\nUse the read tool to load a skill's file when the task matches its description.\nWhen a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.\n\n<available_skills>\n";
const SKILL_MD = (name: string, description = `${name} skill`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;

describe("skills: formatting and blocks (pi 4.1–4.6, 4.16–4.18)", () => {
  it("4.1 formatSkillsForPrompt with read, exact", () => {
    expect(formatSkillsForPrompt([sk()], "read")).toBe(
      `${INTRO}  <skill>\n    <name>pdf</name>\n    <description>Extract text from PDFs</description>\n    <location>/skills/pdf/SKILL.md</location>\n  </skill>\n</available_skills>`,
    );
  });
  it("4.2 with bash the second line changes", () => {
    expect(formatSkillsForPrompt([sk()], "bash").split("\n")[3]).toBe(
      "Use bash to load a skill's file when the task matches its description.",
    );
  });
  it("4.3 name, description and location are XML-escaped", () => {
    expect(formatSkillsForPrompt([sk({ description: "Work with <PDF> & 'docs'" })])).toContain(
      "<description>Work with &lt;PDF&gt; &amp; &apos;docs&apos;</description>",
    );
    expect(formatSkillsForPrompt([sk({ name: 'a"b' })])).toContain("<name>a&quot;b</name>");
  });
  it("4.4 disableModelInvocation skills are left out; none left → empty", () => {
    expect(formatSkillsForPrompt([sk(), sk({ name: "hidden", disableModelInvocation: true })])).not.toContain(
      "hidden",
    );
    expect(formatSkillsForPrompt([sk({ disableModelInvocation: true })])).toBe("");
  });
  it("4.5 no skills → empty string", () => {
    expect(formatSkillsForPrompt([])).toBe("");
  });
  it("4.6 frontmatter: BOM and CRLF normalised, body trimmed; unterminated → whole text; folded >-", () => {
    expect(parseFrontmatter("\uFEFF---\r\nname: x\r\ndescription: y\r\n---\r\n\r\nBody\r\n")).toEqual({
      frontmatter: { name: "x", description: "y" },
      body: "Body",
    });
    expect(parseFrontmatter("---\nname: x\nno end\n")).toEqual({
      frontmatter: {},
      body: "---\nname: x\nno end\n",
    });
    expect(parseFrontmatter("plain\n")).toEqual({ frontmatter: {}, body: "plain\n" });
    expect(parseFrontmatter("---\ndescription: >-\n  one\n  two\n---\nB").frontmatter).toEqual({
      description: "one two",
    });
  });
  it("4.18 parseSkillBlock", () => {
    const block =
      '<skill name="demo" location="/p/SKILL.md">\nReferences are relative to /p.\n\nDo it.\n</skill>';
    expect(parseSkillBlock(`${block}\n\n  please run  `)).toEqual({
      name: "demo",
      location: "/p/SKILL.md",
      content: "References are relative to /p.\n\nDo it.",
      userMessage: "please run",
    });
    expect(parseSkillBlock(block)?.userMessage).toBeUndefined();
    expect(parseSkillBlock("hello")).toBeNull();
  });
});

describe("skills on the VFS (pi 4.7–4.20, 2.14–2.16)", () => {
  let t: TestVfs;
  let agent: TestVfs;
  beforeEach(async () => {
    t = await createTestVfs();
    agent = await createTestVfs();
  });
  afterEach(async () => {
    await t.cleanup();
    await agent.cleanup();
  });

  it("4.7 name from frontmatter or the parent dir; baseDir, filePath, disableModelInvocation", async () => {
    const fs = await build(t, {
      "/s/pdf/SKILL.md": "---\nname: pdf-tools\ndescription: PDFs\ndisable-model-invocation: true\n---\nbody",
      "/s/noname/SKILL.md": "---\ndescription: unnamed\n---\nbody",
    });
    const r = await loadSkillsFromDir(fs, { dir: "/s", source: "user" });
    expect(r.skills).toEqual([
      {
        name: "noname",
        description: "unnamed",
        filePath: "/s/noname/SKILL.md",
        baseDir: "/s/noname",
        source: "user",
        disableModelInvocation: false,
      },
      {
        name: "pdf-tools",
        description: "PDFs",
        filePath: "/s/pdf/SKILL.md",
        baseDir: "/s/pdf",
        source: "user",
        disableModelInvocation: true,
      },
    ]);
    expect(r.diagnostics).toEqual([]);
  });

  it("4.8 SKILL.md without description is skipped with a warning; other .md silently", async () => {
    const fs = await build(t, { "/s/a/SKILL.md": "---\nname: a\n---\nbody", "/s/note.md": "# just notes" });
    const r = await loadSkillsFromDir(fs, { dir: "/s", source: "user" });
    expect(r.skills).toEqual([]);
    expect(r.diagnostics).toEqual([
      { type: "warning", message: "description is required", path: "/s/a/SKILL.md" },
    ]);
  });

  it("4.9 name problems only warn; long descriptions warn", async () => {
    const long = "d".repeat(1025);
    const fs = await build(t, {
      "/s/Bad_Name/SKILL.md": "---\ndescription: bad\n---\n",
      "/s/x/SKILL.md": `---\nname: -a--b-\ndescription: ${long}\n---\n`,
      "/s/y/SKILL.md": `---\nname: ${"a".repeat(65)}\ndescription: y\n---\n`,
    });
    const r = await loadSkillsFromDir(fs, { dir: "/s", source: "user" });
    expect(r.skills.map((s) => s.name)).toEqual(["Bad_Name", "-a--b-", "a".repeat(65)]);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      "name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)",
      "description exceeds 1024 characters (1025)",
      "name must not start or end with a hyphen",
      "name must not contain consecutive hyphens",
      "name exceeds 64 characters (65)",
    ]);
  });

  it("4.10 invalid YAML in SKILL.md is skipped with the parser's message", async () => {
    const fs = await build(t, { "/s/a/SKILL.md": "---\nname: [unclosed\ndescription: x\n---\n" });
    const r = await loadSkillsFromDir(fs, { dir: "/s", source: "user" });
    expect(r.skills).toEqual([]);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0].path).toBe("/s/a/SKILL.md");
    expect(r.diagnostics[0].message.length).toBeGreaterThan(0);
  });

  it("4.11 a directory with SKILL.md is a root: nothing below is scanned", async () => {
    const fs = await build(t, {
      "/s/root/SKILL.md": SKILL_MD("root"),
      "/s/root/other.md": SKILL_MD("other"),
      "/s/root/nested/SKILL.md": SKILL_MD("nested"),
    });
    expect((await loadSkillsFromDir(fs, { dir: "/s", source: "user" })).skills.map((s) => s.name)).toEqual([
      "root",
    ]);
  });

  it("4.12 recursion skips dot entries and node_modules and honours ignore files", async () => {
    const fs = await build(t, {
      "/s/a/b/SKILL.md": SKILL_MD("deep"),
      "/s/.hidden/SKILL.md": SKILL_MD("hidden"),
      "/s/node_modules/x/SKILL.md": SKILL_MD("dep"),
      "/s/.gitignore": "ignored/\n",
      "/s/ignored/SKILL.md": SKILL_MD("ignored"),
      "/s/c/.ignore": "skip/\n",
      "/s/c/skip/SKILL.md": SKILL_MD("skip"),
      "/s/c/keep/SKILL.md": SKILL_MD("keep"),
    });
    expect((await loadSkillsFromDir(fs, { dir: "/s", source: "user" })).skills.map((s) => s.name)).toEqual([
      "deep",
      "keep",
    ]);
  });

  it("4.13 root-level .md with a description is a skill named after the root dir", async () => {
    const fs = await build(t, { "/p/skills/root-note.md": "---\ndescription: note\n---\nx" });
    const r = await loadSkillsFromDir(fs, { dir: "/p/skills", source: "user" });
    expect(r.skills.map((s) => [s.name, s.filePath])).toEqual([["skills", "/p/skills/root-note.md"]]);
  });

  it("4.14 first name wins with a collision diagnostic; the same file via symlink is skipped silently", async () => {
    const fs = await build(t, {
      "/a/x/SKILL.md": SKILL_MD("dup"),
      "/b/y/SKILL.md": SKILL_MD("dup"),
      "/c/z": { link: "/a/x" },
    });
    const r = await loadSkills([
      { fs, path: "/a", source: "project" },
      { fs, path: "/c", source: "path" },
      { fs, path: "/b", source: "user" },
    ]);
    expect(r.skills.map((s) => s.filePath)).toEqual(["/a/x/SKILL.md"]);
    expect(r.diagnostics).toEqual([
      {
        type: "collision",
        message: 'name "dup" collision',
        path: "/b/y/SKILL.md",
        collision: {
          resourceType: "skill",
          name: "dup",
          winnerPath: "/a/x/SKILL.md",
          loserPath: "/b/y/SKILL.md",
        },
      },
    ]);
  });

  it("4.15 explicit paths: missing and non-markdown warn", async () => {
    const fs = await build(t, { "/p/skill.txt": "x" });
    const r = await loadSkills([
      { fs, path: "/p/missing", source: "path", explicit: true },
      { fs, path: "/p/skill.txt", source: "path", explicit: true },
    ]);
    expect(r.diagnostics).toEqual([
      { type: "warning", message: "skill path does not exist", path: "/p/missing" },
      { type: "warning", message: "skill path is not a markdown file", path: "/p/skill.txt" },
    ]);
  });

  it("4.16 /skill:name args expands to the skill block", async () => {
    const fs = await build(t, {
      "/p/.pi/skills/demo/SKILL.md": "---\nname: demo\ndescription: Demo\n---\n\nDo the demo.\n",
    });
    const r = await loadResources({ fs, cwd: "/p", projectTrusted: true });
    expect((await expandSkillCommand("/skill:demo please run", r.skills, fs)).text).toBe(
      '<skill name="demo" location="/p/.pi/skills/demo/SKILL.md">\nReferences are relative to /p/.pi/skills/demo.\n\nDo the demo.\n</skill>\n\nplease run',
    );
    expect((await expandSkillCommand("/skill:demo", r.skills, fs)).text).toBe(
      '<skill name="demo" location="/p/.pi/skills/demo/SKILL.md">\nReferences are relative to /p/.pi/skills/demo.\n\nDo the demo.\n</skill>',
    );
  });

  it("4.17 the name ends at the first space only; unknown unchanged; read failure reported", async () => {
    const s = sk({ name: "demo", filePath: "/gone/SKILL.md", baseDir: "/gone" });
    const fs = await build(t, {});
    expect((await expandSkillCommand("/skill:demo\nx", [s], fs)).text).toBe("/skill:demo\nx");
    expect((await expandSkillCommand("/skill:nope x", [s], fs)).text).toBe("/skill:nope x");
    const failed = await expandSkillCommand("/skill:demo x", [s], fs);
    expect(failed.text).toBe("/skill:demo x");
    expect(failed.error).toMatchObject({ extensionPath: "/gone/SKILL.md", event: "skill_expansion" });
  });

  it("4.19 disableModelInvocation skills stay invocable by /skill:name", async () => {
    const fs = await build(t, {
      "/s/h/SKILL.md": "---\nname: h\ndescription: H\ndisable-model-invocation: true\n---\nHidden body",
    });
    const { skills } = await loadSkillsFromDir(fs, { dir: "/s", source: "user" });
    expect(formatSkillsForPrompt(skills)).toBe("");
    expect((await expandSkillCommand("/skill:h", skills, fs)).text).toContain("Hidden body");
  });

  it("4.20 noSkills skips discovery but keeps explicit skillPaths", async () => {
    const fs = await build(t, {
      "/p/.pi/skills/a/SKILL.md": SKILL_MD("a"),
      "/extra/b/SKILL.md": SKILL_MD("b"),
    });
    const r = await loadResources({
      fs,
      cwd: "/p",
      projectTrusted: true,
      noSkills: true,
      skillPaths: ["/extra"],
    });
    expect(r.skills.map((s) => s.name)).toEqual(["b"]);
  });

  it("2.14 discovery order: .pi/skills → .agents/skills up to the git root → agent dir → ~/.agents/skills", async () => {
    const agentFs = await build(agent, {
      "/home/u/.pi/agent/skills/s/SKILL.md": SKILL_MD("s", "agent dir"),
      "/home/u/.pi/agent/skills/user-only/SKILL.md": SKILL_MD("user-only"),
      "/home/u/.agents/skills/home/SKILL.md": SKILL_MD("home"),
    });
    const fs = await build(t, {
      "/above/.agents/skills/outside/SKILL.md": SKILL_MD("outside"),
      "/above/repo/.git/HEAD": "ref: refs/heads/main\n",
      "/above/repo/.agents/skills/s/SKILL.md": SKILL_MD("s", "repo agents"),
      "/above/repo/pkg/.agents/skills/near/SKILL.md": SKILL_MD("near"),
      "/above/repo/pkg/.pi/skills/s/SKILL.md": SKILL_MD("s", "project pi"),
    });
    const r = await loadResources({
      fs,
      cwd: "/above/repo/pkg",
      agentFs,
      agentDir: "/home/u/.pi/agent",
      projectTrusted: true,
    });
    expect(r.skills.map((s) => `${s.name}:${s.description}`)).toEqual([
      "s:project pi",
      "near:near skill",
      "user-only:user-only skill",
      "home:home skill",
    ]);
    expect(r.diagnostics.filter((d) => d.type === "collision").map((d) => d.path)).toEqual([
      "/above/repo/.agents/skills/s/SKILL.md",
      "/home/u/.pi/agent/skills/s/SKILL.md",
    ]);
    expect(
      r.provenance.filter((p) => p.kind === "skill").map((p) => [p.name, p.filesystem, p.trustGated]),
    ).toEqual([
      ["s", "project", true],
      ["near", "project", true],
      ["user-only", "agent", false],
      ["home", "agent", false],
    ]);
  });

  it("2.15 project resources win over user ones on name collisions; untrusted projects load none", async () => {
    const agentFs = await build(agent, { "/u/.pi/agent/skills/x/SKILL.md": SKILL_MD("x", "user") });
    const fs = await build(t, { "/p/.pi/skills/x/SKILL.md": SKILL_MD("x", "project") });
    const trusted = await loadResources({
      fs,
      cwd: "/p",
      agentFs,
      agentDir: "/u/.pi/agent",
      projectTrusted: true,
    });
    expect(trusted.skills.map((s) => s.description)).toEqual(["project"]);
    const untrusted = await loadResources({
      fs: t.reopen(),
      cwd: "/p",
      agentFs: agent.reopen(),
      agentDir: "/u/.pi/agent",
      projectTrusted: false,
    });
    expect(untrusted.skills.map((s) => s.description)).toEqual(["user"]);
  });

  it("2.16 pi mode takes root *.md; agents mode takes *.md below the root only", async () => {
    const fs = await build(t, {
      "/pi/root.md": "---\nname: pi-root\ndescription: r\n---\n",
      "/pi/sub/inner.md": "---\nname: pi-inner\ndescription: i\n---\n",
      "/ag/root.md": "---\nname: ag-root\ndescription: r\n---\n",
      "/ag/sub/inner.md": "---\nname: ag-inner\ndescription: i\n---\n",
      "/ag/dir/SKILL.md": SKILL_MD("ag-skill"),
    });
    expect(
      (await loadSkillsFromDir(fs, { dir: "/pi", source: "user", mode: "pi" })).skills.map((s) => s.name),
    ).toEqual(["pi-root"]);
    expect(
      (await loadSkillsFromDir(fs, { dir: "/ag", source: "user", mode: "agents" })).skills.map((s) => s.name),
    ).toEqual(["ag-skill", "ag-inner"]);
  });
});
