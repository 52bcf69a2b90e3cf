/**
 * Resources in every run, over real Postgres-backed VFSs and the mock provider: the system prompt the
 * provider received for a project in a team workspace (session cwd in a nested package) with a user agent
 * dir, before and after trusting the project through `applyProjectTrustChoice` (the lib function of
 * `POST /api/projects/:id/trust`); session-only choices; `/skill:` and template expansion in pi's order.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runPrompt } from "@/lib/agent-session/session-run";
import { DbScope } from "@/lib/db/client";
import { AGENT_DIR, openAgentVfs } from "@/lib/projects/agent-dir";
import { insertProject } from "@/lib/projects/projects";
import {
  applyProjectTrustChoice,
  getSessionTrustOverride,
  loadSessionResources,
  TrustChoiceError,
} from "@/lib/projects/session-resources";
import { PgTrustStore } from "@/lib/resources/trust-store";
import { loadBranch } from "@/lib/session/context-load";
import { createSession, getSession } from "@/lib/session/store";
import { commitAll, initRepository } from "@/lib/vfs/git";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { withMockStack } from "../../helpers/mock-stack";

const stack = withMockStack();
let userId: string;
let teamId: string;

beforeEach(async () => {
  // A user of its own (its agent workspace is not the local user's, which other test files use).
  [{ id: userId }] = await stack.scope.query<{ id: string }>(
    "INSERT INTO users (name, email) VALUES ('dev', 'dev-' || gen_random_uuid() || '@strata.test') RETURNING id",
  );
  [{ id: teamId }] = await stack.scope.query<{ id: string }>(
    "INSERT INTO workspaces (name, kind, slug) VALUES ('Acme team', 'team', 'acme-' || gen_random_uuid()) RETURNING id",
  );
});
afterEach(async () => {
  await stack.scope.query("DELETE FROM workspaces WHERE id = $1 OR owner_user_id = $2", [teamId, userId]);
  await stack.scope.query("DELETE FROM users WHERE id = $1", [userId]);
});

const CWD = "/acme/packages/web";

/** Team workspace with a root AGENTS.md, project /acme (git) with a nested package, a user agent dir. */
async function fixtures(agentFiles: Record<string, string>, projectFiles: Record<string, string> = {}) {
  const project = await insertProject(stack.scope, { workspaceId: teamId, name: "acme", source: null });
  expect(project.rootPath).toBe("/acme");
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(teamId, s);
  await vfs.writeFile("/AGENTS.md", "Team rules.\n");
  await initRepository(vfs, "/acme");
  await vfs.writeFile("/acme/AGENTS.md", "Project rules.\n");
  await vfs.writeFile(`${CWD}/AGENTS.md`, "Package rules.\n");
  for (const [p, c] of Object.entries(projectFiles)) await vfs.writeFile(p, c);
  await commitAll(vfs, "/acme", { message: "init", author: { name: "t", email: "t@x" } });
  await vfs.flush();
  const { vfs: agent } = await openAgentVfs(s, userId);
  for (const [p, c] of Object.entries(agentFiles)) await agent.writeFile(`${AGENT_DIR}/${p}`, c);
  await agent.flush();
  await s.release();
  const session = await createSession(stack.scope, { projectId: project.id, userId, cwd: CWD });
  return { project, session };
}

const systemText = (i: number) => {
  const requests = stack.mock.requests.filter((r) => r.path === "/v1/messages");
  return (requests[i].body as { system: { text: string }[] }).system.map((b) => b.text).join("");
};

const projectContext = [
  "<project_context>",
  "Project-specific instructions and guidelines:",
  "",
  '<project_instructions path="/.pi/agent/AGENTS.md">',
  "My rules.",
  "",
  "</project_instructions>",
  "",
  '<project_instructions path="/AGENTS.md">',
  "Team rules.",
  "",
  "</project_instructions>",
  "",
  '<project_instructions path="/acme/AGENTS.md">',
  "Project rules.",
  "",
  "</project_instructions>",
  "",
  '<project_instructions path="/acme/packages/web/AGENTS.md">',
  "Package rules.",
  "",
  "</project_instructions>",
  "</project_context>",
].join("\n");
const cwdSection = "<cwd>\n/acme/packages/web\n</cwd>";

describe("runPrompt with the session's resources", () => {
  it("sends the agent SYSTEM.md while the project is untrusted, the project's once trusted", async () => {
    const { project, session } = await fixtures(
      { "AGENTS.md": "My rules.\n", "SYSTEM.md": "My system prompt." },
      { [`${CWD}/.pi/SYSTEM.md`]: "Project system prompt." },
    );

    const before = await loadSessionResources(stack.scope, { session, project });
    expect(before.trust).toEqual({
      trusted: false,
      needsDecision: true,
      prompt:
        "Trust project folder?\n/acme/packages/web\n\nThis allows Strata to load .pi settings and resources, install missing project packages, and execute project extensions.",
      options: [
        { choice: "trust", label: "Trust" },
        { choice: "trust_parent", label: "Trust parent folder (/acme/packages)" },
        { choice: "session_only", label: "Trust (this session only)" },
        { choice: "do_not_trust", label: "Do not trust" },
        { choice: "do_not_trust_session", label: "Do not trust (this session only)" },
      ],
      cwd: CWD,
      sessionOverride: null,
      withheld: [`${CWD}/.pi/SYSTEM.md`],
    });
    expect(before.resources.provenance).toEqual([
      {
        kind: "context",
        path: "/.pi/agent/AGENTS.md",
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
        path: `${CWD}/AGENTS.md`,
        filesystem: "project",
        scope: "project",
        trustGated: false,
      },
      {
        kind: "system",
        path: "/.pi/agent/SYSTEM.md",
        filesystem: "agent",
        scope: "personal",
        trustGated: false,
      },
    ]);

    stack.mock.enqueue({ text: "one" }, { text: "two" });
    await runPrompt({ sessionId: session.id, text: "hello", env: stack.env, emit: async () => {} });
    expect(systemText(0)).toBe(`My system prompt.\n\n${projectContext}\n\n${cwdSection}`);

    const trusted = await applyProjectTrustChoice(stack.scope, {
      projectId: project.id,
      choice: "trust",
      sessionId: session.id,
    });
    expect(trusted).toEqual({ trusted: true, cwd: CWD, updates: [{ path: CWD, decision: true }] });
    expect(await new PgTrustStore(stack.scope, userId, teamId).get(CWD)).toBe(true);

    await runPrompt({ sessionId: session.id, text: "again", env: stack.env, emit: async () => {} });
    expect(systemText(1)).toBe(`Project system prompt.\n\n${projectContext}\n\n${cwdSection}`);

    // The branch holds the initial system message and a patch of the preamble only.
    const stored = await getSession(stack.scope, session.id);
    const systems = (await loadBranch(stack.scope, session.id, stored!.leafId))
      .filter((e) => e.type === "message")
      .map((e) => (e as unknown as { message: { role: string; sections?: Record<string, string> } }).message)
      .filter((m) => m.role === "system");
    expect(systems.map((m) => Object.keys(m.sections ?? {}))).toEqual([
      ["preamble", "project_context", "cwd"],
      ["preamble"],
    ]);
    expect(systems[1].sections).toEqual({ preamble: "Project system prompt." });

    const after = await loadSessionResources(stack.scope, { session, project });
    expect(after.trust).toMatchObject({ trusted: true, needsDecision: false, withheld: [] });
    expect(after.resources.provenance.filter((p) => p.kind === "system")).toEqual([
      {
        kind: "system",
        path: `${CWD}/.pi/SYSTEM.md`,
        filesystem: "project",
        scope: "project",
        trustGated: true,
      },
    ]);
  });

  it("session-only choices set the session's override; a stored choice clears it", async () => {
    const { project, session } = await fixtures({}, { [`${CWD}/.pi/APPEND_SYSTEM.md`]: "Extra." });
    const store = new PgTrustStore(stack.scope, userId, teamId);

    await applyProjectTrustChoice(stack.scope, {
      projectId: project.id,
      choice: "session_only",
      sessionId: session.id,
    });
    expect(await getSessionTrustOverride(stack.scope, session.id)).toBe(true);
    expect(await store.get(CWD)).toBeNull();
    let r = await loadSessionResources(stack.scope, { session, project });
    expect(r.trust).toMatchObject({ trusted: true, needsDecision: false, sessionOverride: true });
    expect(r.resources.appendSystemPrompt).toEqual(["Extra."]);

    // Another session of the same project still has to decide.
    const other = await createSession(stack.scope, { projectId: project.id, userId, cwd: CWD });
    expect((await loadSessionResources(stack.scope, { session: other, project })).trust.needsDecision).toBe(
      true,
    );

    await applyProjectTrustChoice(stack.scope, {
      projectId: project.id,
      choice: "do_not_trust_session",
      sessionId: session.id,
    });
    r = await loadSessionResources(stack.scope, { session, project });
    expect(r.trust).toMatchObject({ trusted: false, needsDecision: false, sessionOverride: false });
    expect(r.resources.appendSystemPrompt).toEqual([]);

    const parent = await applyProjectTrustChoice(stack.scope, {
      projectId: project.id,
      choice: "trust_parent",
      sessionId: session.id,
    });
    expect(parent.updates).toEqual([
      { path: "/acme/packages", decision: true },
      { path: CWD, decision: null },
    ]);
    expect(await getSessionTrustOverride(stack.scope, session.id)).toBeNull();
    expect((await loadSessionResources(stack.scope, { session: other, project })).trust).toMatchObject({
      trusted: true,
      needsDecision: false,
    });

    await applyProjectTrustChoice(stack.scope, {
      projectId: project.id,
      choice: "do_not_trust",
      sessionId: session.id,
    });
    expect(await store.get(CWD)).toBe(false);
    expect((await loadSessionResources(stack.scope, { session, project })).trust).toMatchObject({
      trusted: false,
      needsDecision: false,
    });

    await expect(
      applyProjectTrustChoice(stack.scope, { projectId: project.id, choice: "session_only" }),
    ).rejects.toBeInstanceOf(TrustChoiceError);
  });

  it("no trust-requiring resources: trusted, nothing to decide", async () => {
    const { project, session } = await fixtures({ "AGENTS.md": "My rules.\n" });
    const r = await loadSessionResources(stack.scope, { session, project });
    expect(r.trust).toMatchObject({ trusted: true, needsDecision: false, withheld: [] });
  });

  it("expands /skill:name args, then /template args, into the user message", async () => {
    const { project, session } = await fixtures(
      {
        "skills/lint/SKILL.md": "---\nname: lint\ndescription: Lint the code.\n---\n\nRun the linter.\n",
        "prompts/review.md": "---\ndescription: Review\n---\nReview $1 then $ARGUMENTS",
      },
      { [`${CWD}/.pi/skills/x/SKILL.md`]: "---\nname: x\ndescription: Project skill.\n---\nDo x.\n" },
    );
    await applyProjectTrustChoice(stack.scope, {
      projectId: project.id,
      choice: "trust",
      sessionId: session.id,
    });
    const r = await loadSessionResources(stack.scope, { session, project });
    expect(r.resources.provenance.filter((p) => p.kind !== "context")).toEqual([
      {
        kind: "skill",
        path: `${CWD}/.pi/skills/x/SKILL.md`,
        name: "x",
        filesystem: "project",
        scope: "project",
        trustGated: true,
      },
      {
        kind: "skill",
        path: "/.pi/agent/skills/lint/SKILL.md",
        name: "lint",
        filesystem: "agent",
        scope: "personal",
        trustGated: false,
      },
      {
        kind: "template",
        path: "/.pi/agent/prompts/review.md",
        name: "review",
        filesystem: "agent",
        scope: "personal",
        trustGated: false,
      },
    ]);

    stack.mock.enqueue({ text: "a" }, { text: "b" }, { text: "c" });
    await runPrompt({ sessionId: session.id, text: "/skill:x do it", env: stack.env, emit: async () => {} });
    await runPrompt({ sessionId: session.id, text: "/skill:lint", env: stack.env, emit: async () => {} });
    await runPrompt({
      sessionId: session.id,
      text: '/review a.ts "b c"',
      env: stack.env,
      emit: async () => {},
    });
    const userTexts = stack.mock.requests
      .filter((q) => q.path === "/v1/messages")
      .map((q) => {
        const messages = (q.body as { messages: { role: string; content: { text?: string }[] | string }[] })
          .messages;
        const last = messages.filter((m) => m.role === "user").at(-1)!;
        return typeof last.content === "string" ? last.content : last.content.map((c) => c.text).join("");
      });
    expect(userTexts).toEqual([
      `<skill name="x" location="${CWD}/.pi/skills/x/SKILL.md">\nReferences are relative to ${CWD}/.pi/skills/x.\n\nDo x.\n</skill>\n\ndo it`,
      '<skill name="lint" location="/.pi/agent/skills/lint/SKILL.md">\nReferences are relative to /.pi/agent/skills/lint.\n\nRun the linter.\n</skill>',
      "Review a.ts then a.ts b c",
    ]);
    expect(systemText(0)).toContain(
      `<available_skills>\n  <skill>\n    <name>x</name>\n    <description>Project skill.</description>\n    <location>${CWD}/.pi/skills/x/SKILL.md</location>\n  </skill>\n  <skill>\n    <name>lint</name>`,
    );
  });
});
