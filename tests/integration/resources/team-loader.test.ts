/**
 * `loadResources` with a team rules root (Strata's `teamFs` + `teamRulesDir`): where each of its resources ranks
 * against pi's project and agent-dir locations, the trust gate on its SYSTEM.md / APPEND_SYSTEM.md, provenance
 * scopes, and a rules root on the project's own filesystem.
 */
import { describe, expect, it } from "vitest";
import { MemoryTrustStore } from "@/lib/resources/project-trust";
import { loadResources } from "@/lib/resources/resource-loader";
import { MemoryVfsStore } from "@/lib/vfs/memory-store";
import { Vfs } from "@/lib/vfs/vfs";

const fsOf = (files: Record<string, string>) =>
  new Vfs(new MemoryVfsStore(Object.entries(files).map(([path, data]) => ({ path, data }))));
const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nBody\n`;
const AGENT = "/.pi/agent";

const agentFs = () =>
  fsOf({
    [`${AGENT}/AGENTS.md`]: "personal",
    [`${AGENT}/SYSTEM.md`]: "personal system",
    [`${AGENT}/skills/review/SKILL.md`]: skill("review", "Personal review."),
    [`${AGENT}/prompts/fix.md`]: "personal fix",
  });
const teamFs = () =>
  fsOf({
    "/.team/AGENTS.md": "team",
    "/.team/SYSTEM.md": "team system",
    "/.team/APPEND_SYSTEM.md": "team append",
    "/.team/skills/review/SKILL.md": skill("review", "Team review."),
    "/.team/skills/deploy.md": skill("deploy", "Team deploy."),
    "/.team/prompts/fix.md": "team fix",
    "/.team/.git/HEAD": "ref: refs/heads/main\n",
  });

describe("loadResources with a team rules root", () => {
  it("untrusted: context files personal → team → project; team skills and prompts over personal; no team SYSTEM.md", async () => {
    const fs = fsOf({ "/acme/AGENTS.md": "project", "/acme/README.md": "x" });
    const team = teamFs();
    const r = await loadResources({
      fs,
      cwd: "/acme",
      agentFs: agentFs(),
      agentDir: AGENT,
      teamFs: team,
      teamRulesDir: "/.team",
      trust: { trustStore: new MemoryTrustStore() },
    });
    // The team's SYSTEM.md / APPEND_SYSTEM.md need trust, so a project with no .pi is no longer trusted by default.
    expect(r.projectTrusted).toBe(false);
    expect(r.agentsFiles).toEqual([
      { path: `${AGENT}/AGENTS.md`, content: "personal" },
      { path: "/.team/AGENTS.md", content: "team" },
      { path: "/acme/AGENTS.md", content: "project" },
    ]);
    expect(r.systemPrompt).toBe("personal system");
    expect(r.appendSystemPrompt).toEqual([]);
    expect(r.skills.map((s) => [s.name, s.source, s.filePath])).toEqual([
      ["deploy", "team", "/.team/skills/deploy.md"],
      ["review", "team", "/.team/skills/review/SKILL.md"],
    ]);
    expect(r.promptTemplates.map((t) => [t.name, t.source, t.content])).toEqual([
      ["fix", "team", "team fix"],
    ]);
    expect(r.diagnostics.filter((d) => d.type === "collision").map((d) => d.message)).toEqual([
      'name "review" collision',
      'name "/fix" collision',
    ]);
    expect(r.provenance.map((p) => [p.kind, p.path, p.filesystem, p.scope, p.trustGated])).toEqual([
      ["context", `${AGENT}/AGENTS.md`, "agent", "personal", false],
      ["context", "/.team/AGENTS.md", "team", "team", false],
      ["context", "/acme/AGENTS.md", "project", "project", false],
      ["system", `${AGENT}/SYSTEM.md`, "agent", "personal", false],
      ["skill", "/.team/skills/deploy.md", "team", "team", false],
      ["skill", "/.team/skills/review/SKILL.md", "team", "team", false],
      ["template", "/.team/prompts/fix.md", "team", "team", false],
    ]);
  });

  it("trusted: the team's SYSTEM.md and APPEND_SYSTEM.md apply; the project's own .pi wins over them", async () => {
    const fs = fsOf({ "/acme/README.md": "x" });
    const base = {
      cwd: "/acme",
      agentFs: agentFs(),
      agentDir: AGENT,
      teamRulesDir: "/.team",
      projectTrusted: true,
    };
    const r = await loadResources({ ...base, fs, teamFs: teamFs() });
    expect(r.systemPrompt).toBe("team system");
    expect(r.appendSystemPrompt).toEqual(["team append"]);
    expect(r.provenance.filter((p) => p.kind === "system" || p.kind === "append")).toEqual([
      { kind: "system", path: "/.team/SYSTEM.md", filesystem: "team", scope: "team", trustGated: true },
      {
        kind: "append",
        path: "/.team/APPEND_SYSTEM.md",
        filesystem: "team",
        scope: "team",
        trustGated: true,
      },
    ]);

    const own = fsOf({
      "/acme/.pi/SYSTEM.md": "project system",
      "/acme/.pi/skills/review/SKILL.md": skill("review", "Project review."),
      "/acme/.pi/prompts/fix.md": "project fix",
    });
    const p = await loadResources({ ...base, fs: own, teamFs: teamFs() });
    expect(p.systemPrompt).toBe("project system");
    expect(p.appendSystemPrompt).toEqual(["team append"]);
    expect(p.skills.map((s) => [s.name, s.source])).toEqual([
      ["review", "project"],
      ["deploy", "team"],
    ]);
    expect(p.promptTemplates.map((t) => [t.name, t.content])).toEqual([["fix", "project fix"]]);
  });

  it("a rules root on the project's own filesystem (the team workspace VFS) loads once and skips .git", async () => {
    const fs = fsOf({ "/.team/AGENTS.md": "team", "/.team/.git/HEAD": "x", "/acme/AGENTS.md": "project" });
    const r = await loadResources({
      fs,
      cwd: "/acme",
      teamFs: fs,
      teamRulesDir: "/.team",
      projectTrusted: false,
    });
    expect(r.agentsFiles).toEqual([
      { path: "/.team/AGENTS.md", content: "team" },
      { path: "/acme/AGENTS.md", content: "project" },
    ]);
    // A cwd inside the rules root: its AGENTS.md is the team's and is not loaded a second time as an ancestor.
    const inside = await loadResources({
      fs,
      cwd: "/.team",
      teamFs: fs,
      teamRulesDir: "/.team",
      projectTrusted: true,
    });
    expect(inside.agentsFiles).toEqual([{ path: "/.team/AGENTS.md", content: "team" }]);
    expect(inside.provenance.map((p) => p.scope)).toEqual(["team"]);
  });

  it("without a team rules root nothing changes (pi's loader)", async () => {
    const fs = fsOf({ "/acme/AGENTS.md": "project" });
    const r = await loadResources({ fs, cwd: "/acme", agentFs: agentFs(), agentDir: AGENT });
    expect(r.projectTrusted).toBe(true);
    expect(r.agentsFiles.map((f) => f.path)).toEqual([`${AGENT}/AGENTS.md`, "/acme/AGENTS.md"]);
    expect(r.skills.map((s) => s.source)).toEqual(["user"]);
    expect(r.systemPrompt).toBe("personal system");
  });
});
