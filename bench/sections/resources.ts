/**
 * Resources → system prompt on Postgres: a project 12 directories deep (context files at several levels,
 * a git root), 50 skills and 30 prompt templates across the project's `.pi/` and the user's agent VFS.
 * Each run opens cold VFSs (empty caches), runs `loadResources` and `buildSystemPrompt`. Reported twice:
 * with the connection of each fresh `DbScope` already open (the resources work itself, target ≤ 20 ms),
 * and including the two connection set-ups that `reopen()` implies.
 */
import type { DbScope } from "@/lib/db/client";
import { BUILTIN_TOOL_GUIDELINES, BUILTIN_TOOL_SNIPPETS, buildSystemPrompt } from "@/lib/prompt/sections";
import { loadResources } from "@/lib/resources/resource-loader";
import type { Vfs } from "@/lib/vfs/vfs";
import type { BenchSection } from "../context";

const RUNS = 20;
const AGENT_DIR = "/home/u/.pi/agent";
const ROOT = "/team/acme";
const CWD = `${ROOT}/${Array.from({ length: 10 }, (_, i) => `d${i + 1}`).join("/")}`; // 12 levels below /

const skill = (name: string) =>
  `---\nname: ${name}\ndescription: Skill ${name} for benchmarking.\n---\n\n# ${name}\n\nSteps.\n`;

/** Count store round trips of a VFS (getMeta / listChildren / loadData / loadTree). */
function countQueries(vfs: Vfs, counter: { n: number }): void {
  const store = vfs.store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  for (const m of ["getMeta", "listChildren", "loadData", "loadTree"]) {
    const orig = store[m].bind(store);
    store[m] = (...a: unknown[]) => {
      counter.n++;
      return orig(...a);
    };
  }
}

/** Open the connection of a fresh VFS's scope (bench only: reaches into the store). */
async function connect(vfs: Vfs): Promise<void> {
  await (vfs.store as unknown as { scope: DbScope }).scope.query("SELECT 1");
}

export const resourcesSection: BenchSection = {
  name: "resources",
  async run(ctx) {
    const team = await ctx.createVfs();
    const user = await ctx.createVfs();
    try {
      await team.fs.writeFile("/team/AGENTS.md", "Team rules.\n");
      await team.fs.writeFile(`${ROOT}/AGENTS.md`, "Project rules.\n");
      await team.fs.writeFile(`${ROOT}/.git/HEAD`, "ref: refs/heads/main\n");
      await team.fs.writeFile(`${ROOT}/d1/d2/d3/d4/d5/AGENTS.md`, "Mid rules.\n");
      await team.fs.writeFile(`${CWD}/CLAUDE.md`, "Leaf rules.\n");
      await team.fs.writeFile(`${CWD}/.pi/APPEND_SYSTEM.md`, "Appended.\n");
      for (let i = 0; i < 30; i++)
        await team.fs.writeFile(`${CWD}/.pi/skills/p${i}/SKILL.md`, skill(`p${i}`));
      for (let i = 0; i < 20; i++)
        await team.fs.writeFile(`${CWD}/.pi/prompts/t${i}.md`, `---\ndescription: T${i}\n---\nDo $1.\n`);
      await team.fs.flush();
      await user.fs.writeFile(`${AGENT_DIR}/AGENTS.md`, "My rules.\n");
      await user.fs.writeFile(`${AGENT_DIR}/SYSTEM.md`, "My system prompt.\n");
      for (let i = 0; i < 20; i++)
        await user.fs.writeFile(`${AGENT_DIR}/skills/u${i}/SKILL.md`, skill(`u${i}`));
      for (let i = 0; i < 10; i++)
        await user.fs.writeFile(`${AGENT_DIR}/prompts/u${i}.md`, `User template ${i}: $@\n`);
      await user.fs.flush();

      const warmConn: number[] = [];
      const withConnect: number[] = [];
      let chars = 0;
      const counter = { n: 0 };
      const once = async (preconnect: boolean): Promise<number> => {
        const fs = team.reopen();
        const agentFs = user.reopen();
        if (preconnect) {
          await connect(fs);
          await connect(agentFs);
        }
        counter.n = 0;
        countQueries(fs, counter);
        countQueries(agentFs, counter);
        return ctx.time(async () => {
          const r = await loadResources({ fs, cwd: CWD, agentFs, agentDir: AGENT_DIR, projectTrusted: true });
          if (r.skills.length !== 50 || r.promptTemplates.length !== 30)
            throw new Error("bench fixture mismatch");
          chars = buildSystemPrompt({
            cwd: CWD,
            customPrompt: r.systemPrompt,
            appendSystemPrompt: r.appendSystemPrompt.join("\n\n"),
            contextFiles: r.agentsFiles,
            skills: r.skills,
            toolSnippets: BUILTIN_TOOL_SNIPPETS,
            toolGuidelines: BUILTIN_TOOL_GUIDELINES,
          }).length;
        });
      };
      for (let i = 0; i < 2; i++) await once(true); // warm-up (JIT)
      for (let i = 0; i < RUNS; i++) warmConn.push(await once(true));
      const queries = counter.n;
      for (let i = 0; i < RUNS; i++) withConnect.push(await once(false));
      ctx.report(
        `load resources + build system prompt (12 dirs deep, 50 skills, 30 templates; cold VFS, ${queries} round trips, ${chars} chars)`,
        warmConn,
        20,
      );
      ctx.report("  same, including opening the two fresh DB connections", withConnect);
    } finally {
      await team.cleanup();
      await user.cleanup();
    }
  },
};
