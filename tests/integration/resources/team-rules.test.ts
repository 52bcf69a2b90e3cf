/**
 * Team rules in a team project's session (issue 11, "Team-shared rules" / "Visible provenance"): the rules root's
 * AGENTS.md reaches the prompt between the member's agent dir and the project's own files, and a change to it shows
 * in the next request as pi's system prompt patch (a system message with the changed `project_context` section),
 * exactly as the mock provider receives it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { runPrompt } from "@/lib/agent-session/session-run";
import { DbScope } from "@/lib/db/client";
import type { SystemMessage } from "@/lib/llm/types";
import { AGENT_DIR, openAgentVfs } from "@/lib/projects/agent-dir";
import { insertProject } from "@/lib/projects/projects";
import { renderSystemMessageUpdate } from "@/lib/prompt/system-message";
import { writeRulesFiles } from "@/lib/rules";
import { loadBranch } from "@/lib/session/context-load";
import { createSession, getSession } from "@/lib/session/store";
import { commitAll, initRepository } from "@/lib/vfs/git";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { authJson, createTestUser, type TestUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";

const stack = withMockStack();
let ada: TestUser;
let teamId: string;

const ADA = { name: "Ada Lovelace", email: "ada@strata.test" };

beforeAll(async () => {
  ada = await createTestUser("Ada Lovelace");
  const team = await authJson<{ id: string }>(
    "/organization/create",
    { name: "Analytical Engines", slug: `engines-${ada.id}` },
    ada,
  );
  teamId = team.id;
});

/** A team project (git, with its own AGENTS.md), a session of Ada's in it, and Ada's agent dir AGENTS.md. */
async function teamSession(name: string) {
  const project = await insertProject(stack.scope, { workspaceId: teamId, name, source: null });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(teamId, s);
  await initRepository(vfs, project.rootPath);
  await vfs.writeFile(`${project.rootPath}/AGENTS.md`, "Project rules.\n");
  await commitAll(vfs, project.rootPath, { message: "init", author: { name: "t", email: "t@x" } });
  await vfs.flush();
  const { vfs: agent } = await openAgentVfs(s, ada.id);
  await agent.writeFile(`${AGENT_DIR}/AGENTS.md`, "Personal rules.\n");
  await agent.flush();
  await s.release();
  const session = await createSession(stack.scope, {
    projectId: project.id,
    userId: ada.id,
    cwd: project.rootPath,
  });
  return { project, session };
}

const requests = () => stack.mock.requests.filter((r) => r.path === "/v1/messages");

interface AnthropicBody {
  system: { text: string }[];
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
}

const systemText = (body: AnthropicBody) => body.system.map((b) => b.text).join("");

describe("team rules in the resource chain", () => {
  it("orders personal, team, project; a rules change reaches the next request as a project_context patch", async () => {
    await writeRulesFiles(
      stack.scope,
      teamId,
      ADA,
      [{ path: "AGENTS.md", content: "Team rule one.\n" }],
      "Team rules",
    );
    const { project, session } = await teamSession("engine");
    stack.mock.enqueue({ text: "one" }, { text: "two" });

    await runPrompt({ sessionId: session.id, text: "first", env: stack.env, emit: async () => {} });
    const context = (team: string) =>
      [
        "<project_context>",
        "Project-specific instructions and guidelines:",
        "",
        `<project_instructions path="${AGENT_DIR}/AGENTS.md">\nPersonal rules.\n\n</project_instructions>`,
        "",
        `<project_instructions path="/.team/AGENTS.md">\n${team}\n</project_instructions>`,
        "",
        `<project_instructions path="${project.rootPath}/AGENTS.md">\nProject rules.\n\n</project_instructions>`,
        "</project_context>",
      ].join("\n");
    const first = requests()[0].body as AnthropicBody;
    expect(systemText(first)).toContain(`\n\n${context("Team rule one.\n")}\n\n`);

    await writeRulesFiles(
      stack.scope,
      teamId,
      ADA,
      [{ path: "AGENTS.md", content: "Team rule two.\n" }],
      "Tighten",
    );
    await runPrompt({ sessionId: session.id, text: "second", env: stack.env, emit: async () => {} });

    // The transcript: one system message carrying only the changed section (pi 3.28), before the user message.
    const stored = await getSession(stack.scope, session.id);
    const branch = await loadBranch(stack.scope, session.id, stored!.leafId);
    const messages = branch
      .filter((e) => e.type === "message")
      .map((e) => (e as unknown as { message: { role: string; sections?: unknown } }).message);
    expect(messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "system",
      "user",
      "assistant",
    ]);
    expect(messages[3].sections).toEqual({ project_context: context("Team rule two.\n") });

    // What the patch says when sent in place (pi 3.24): it names the team file.
    expect(renderSystemMessageUpdate(messages[3] as SystemMessage)).toBe(
      `Updated system prompt section "project_context":\n\n${context("Team rule two.\n")}`,
    );

    // The provider (Anthropic Messages, no mid-conversation system messages: pi 3.25 collapses the transcript's
    // system messages into one replayed head) receives exactly the first prompt with that one section patched.
    const second = requests()[1].body as AnthropicBody;
    expect(systemText(second)).toBe(
      systemText(first).replace(context("Team rule one.\n"), context("Team rule two.\n")),
    );
    expect(systemText(second)).not.toBe(systemText(first));
    expect(second.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });
});
