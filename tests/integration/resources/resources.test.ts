/**
 * Resources → system prompt over real Postgres-backed VFSs (a team workspace and a user's agent
 * workspace), with project trust persisted in `project_trust`.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildSystemPrompt, buildSystemPromptSections } from "@/lib/prompt/sections";
import { loadResources } from "@/lib/resources/resource-loader";
import { PgTrustStore } from "@/lib/resources/trust-store";
import { createTestVfs } from "../../helpers/vfs";

type T = Awaited<ReturnType<typeof createTestVfs>>;
let team: T;
let user: T;
let userId: string;
beforeEach(async () => {
  team = await createTestVfs();
  user = await createTestVfs();
  [{ id: userId }] = await team.scope.query<{ id: string }>(
    "INSERT INTO users (name, email) VALUES ('u', 'u-' || gen_random_uuid() || '@strata.test') RETURNING id",
  );
});
afterEach(async () => {
  await team.scope.query("DELETE FROM users WHERE id = $1", [userId]);
  await team.cleanup();
  await user.cleanup();
});

const AGENT_DIR = "/home/u/.pi/agent";
const CWD = "/acme/packages/web";

async function fixtures(): Promise<void> {
  await team.fs.writeFile("/AGENTS.md", "Team rules.");
  await team.fs.writeFile("/acme/AGENTS.md", "Project rules.");
  await team.fs.writeFile("/acme/.git/HEAD", "ref: refs/heads/main\n");
  await team.fs.writeFile(`${CWD}/AGENTS.md`, "Package rules.");
  await team.fs.writeFile(`${CWD}/.pi/SYSTEM.md`, "Project system prompt.");
  await team.fs.flush();
  await user.fs.writeFile(`${AGENT_DIR}/AGENTS.md`, "My rules.");
  await user.fs.writeFile(`${AGENT_DIR}/SYSTEM.md`, "My system prompt.");
  await user.fs.flush();
}

describe("PgTrustStore", () => {
  it("stores decisions per user and workspace, nearest ancestor wins, null deletes", async () => {
    const store = new PgTrustStore(team.scope, userId, team.workspaceId);
    expect(await store.get("/acme/packages/web")).toBeNull();
    await store.set("/acme", true);
    expect(await store.get("/acme/packages/web")).toBe(true);
    await store.setMany([
      { path: "/acme/packages", decision: false },
      { path: "/acme", decision: null },
    ]);
    expect(await store.get("/acme/packages/web")).toBe(false);
    expect(await store.get("/acme")).toBeNull();
    const other = new PgTrustStore(team.scope, userId, user.workspaceId);
    expect(await other.get("/acme/packages/web")).toBeNull();
  });
});

describe("loadResources → system prompt", () => {
  it("untrusted: agent SYSTEM.md; trusted through the Postgres store: project SYSTEM.md", async () => {
    await fixtures();
    const store = new PgTrustStore(team.scope, userId, team.workspaceId);
    const load = () =>
      loadResources({
        fs: team.reopen(),
        cwd: CWD,
        agentFs: user.reopen(),
        agentDir: AGENT_DIR,
        trust: { trustStore: store },
      });
    const projectContext =
      '<project_context>\nProject-specific instructions and guidelines:\n\n<project_instructions path="/home/u/.pi/agent/AGENTS.md">\nMy rules.\n</project_instructions>\n\n<project_instructions path="/AGENTS.md">\nTeam rules.\n</project_instructions>\n\n<project_instructions path="/acme/AGENTS.md">\nProject rules.\n</project_instructions>\n\n<project_instructions path="/acme/packages/web/AGENTS.md">\nPackage rules.\n</project_instructions>\n</project_context>';
    const cwdSection = "<cwd>\n/acme/packages/web\n</cwd>";

    const untrusted = await load();
    expect(untrusted.projectTrusted).toBe(false);
    const options = (r: typeof untrusted) => ({
      cwd: CWD,
      customPrompt: r.systemPrompt,
      appendSystemPrompt: r.appendSystemPrompt.join("\n\n"),
      contextFiles: r.agentsFiles,
      skills: r.skills,
    });
    const s1 = buildSystemPromptSections(options(untrusted));
    expect(Object.entries(s1)).toEqual([
      ["preamble", "My system prompt."],
      ["project_context", projectContext],
      ["cwd", cwdSection],
    ]);
    expect(buildSystemPrompt(options(untrusted))).toBe(
      `My system prompt.\n\n${projectContext}\n\n${cwdSection}`,
    );
    expect(untrusted.provenance).toEqual([
      {
        kind: "context",
        path: "/home/u/.pi/agent/AGENTS.md",
        filesystem: "agent",
        scope: "personal",
        trustGated: false,
      },
      { kind: "context", path: "/AGENTS.md", filesystem: "project", scope: "project", trustGated: false },
      {
        kind: "context",
        path: "/acme/AGENTS.md",
        filesystem: "project",
        scope: "project",
        trustGated: false,
      },
      {
        kind: "context",
        path: "/acme/packages/web/AGENTS.md",
        filesystem: "project",
        scope: "project",
        trustGated: false,
      },
      {
        kind: "system",
        path: "/home/u/.pi/agent/SYSTEM.md",
        filesystem: "agent",
        scope: "personal",
        trustGated: false,
      },
    ]);

    // "Trust parent folder" style decision on the project root: the package inherits it.
    await store.set("/acme", true);
    const trusted = await load();
    expect(trusted.projectTrusted).toBe(true);
    const s2 = buildSystemPromptSections(options(trusted));
    expect(Object.entries(s2)).toEqual([
      ["preamble", "Project system prompt."],
      ["project_context", projectContext],
      ["cwd", cwdSection],
    ]);
    expect(trusted.provenance.filter((p) => p.kind === "system")).toEqual([
      {
        kind: "system",
        path: "/acme/packages/web/.pi/SYSTEM.md",
        filesystem: "project",
        scope: "project",
        trustGated: true,
      },
    ]);
  });
});
