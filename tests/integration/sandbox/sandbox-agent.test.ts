/**
 * Issue 12, must-show 4: with the sandbox on, the scripted model runs `npm test` on a small project whose test
 * fails, reads the failure, edits the file, runs it again and it passes; the edit and the file the test wrote in
 * the sandbox end up in the VFS and in the session's checkpoint. With the sandbox off, `npm test` is not routed
 * (the simulated shell's "command not found"). Through the real execution service (tests/global-setup.ts) and
 * the real bubblewrap sandbox; the only fake is the mock provider.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunEvent, runPrompt } from "@/lib/agent-session/session-run";
import { DbScope } from "@/lib/db/client";
import { setSandboxEnabled } from "@/lib/exec/sandbox-setting";
import { commandNotFoundNote, SERVICE_CAPABILITIES, shellCommandNames } from "@/lib/exec/shell/commands";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { loadBranch } from "@/lib/session/context-load";
import { createSession, getSession } from "@/lib/session/store";
import { SANDBOX_DESCRIPTION_NOTE } from "@/lib/tools/bash-sandbox";
import { commitAll, initRepository, readTextAt, resolveRef } from "@/lib/vfs/git";
import { openSessionVfs, openWorkspaceVfs } from "@/lib/vfs/workspace";
import { withMockStack } from "../../helpers/mock-stack";

const stack = withMockStack();
let workspaceId: string;
let userId: string;

const FILES = {
  "package.json": '{\n  "name": "calc",\n  "version": "1.0.0",\n  "scripts": { "test": "node test.js" }\n}\n',
  "sum.js": "module.exports = (a, b) => a - b;\n",
  "test.js": [
    'const sum = require("./sum");',
    'const fs = require("node:fs");',
    "const got = sum(2, 3);",
    'fs.writeFileSync("test-report.txt", `sum(2, 3) = ${got}\\n`);',
    "if (got !== 5) { console.error(`FAIL sum(2, 3): expected 5, got ${got}`); process.exit(1); }",
    'console.log("PASS sum(2, 3) = 5");',
    "",
  ].join("\n"),
};

beforeAll(async () => {
  // A workspace of its own: the switch is per workspace and other test files share the local actor's.
  const [row] = await stack.scope.query<{ id: string }>(
    "INSERT INTO workspaces (name, kind, slug) VALUES ('sandbox test', 'team', 'sandbox-' || gen_random_uuid()) RETURNING id",
  );
  workspaceId = row.id;
  userId = (await getLocalActor(stack.scope)).userId;
});
afterAll(async () => {
  await stack.scope.query("DELETE FROM workspaces WHERE id = $1", [workspaceId]);
});

async function calcProject() {
  const project = await insertProject(stack.scope, { workspaceId, name: `calc-${Date.now()}`, source: null });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(workspaceId, s);
  await initRepository(vfs, project.rootPath);
  for (const [p, c] of Object.entries(FILES)) await vfs.writeFile(`${project.rootPath}/${p}`, c);
  await commitAll(vfs, project.rootPath, { message: "init", author: { name: "t", email: "t@x" } });
  await vfs.flush();
  await s.release();
  const session = await createSession(stack.scope, { projectId: project.id, cwd: project.rootPath });
  return { project, session };
}

/** The tool results of the session's branch (the stored messages). */
async function toolResultMessages(sessionId: string) {
  const stored = await getSession(stack.scope, sessionId);
  const branch = await loadBranch(stack.scope, sessionId, stored!.leafId);
  return branch
    .filter((e) => e.type === "message")
    .map(
      (e) =>
        (
          e as unknown as {
            message: { role: string; isError?: boolean; content: { text: string }[]; details?: unknown };
          }
        ).message,
    )
    .filter((m) => m.role === "toolResult");
}

/** The tool results of the session's branch, as `[isError, text]`. */
async function toolResults(sessionId: string): Promise<[boolean, string][]> {
  return (await toolResultMessages(sessionId)).map((m) => [
    m.isError ?? false,
    m.content.map((c) => c.text).join(""),
  ]);
}

const bashDescription = () => {
  const body = stack.mock.requests.find((r) => r.path === "/v1/messages")?.body as {
    tools: { name: string; description: string }[];
  };
  return body.tools.find((t) => t.name === "bash")?.description ?? "";
};

describe("the agent with the sandbox on", () => {
  it("runs npm test, sees the failure, fixes the file, runs it again: it passes; all of it is checkpointed", async () => {
    await setSandboxEnabled(stack.scope, workspaceId, true);
    const { project, session } = await calcProject();
    stack.mock.enqueue(
      { toolCalls: [{ id: "toolu_1", name: "bash", input: { command: "npm test" } }] },
      {
        toolCalls: [
          {
            id: "toolu_2",
            name: "edit",
            input: { path: "sum.js", edits: [{ oldText: "a - b", newText: "a + b" }] },
          },
        ],
      },
      { toolCalls: [{ id: "toolu_3", name: "bash", input: { command: "npm test" } }] },
      { text: "Fixed: sum adds now, and the test passes." },
    );
    const events: RunEvent[] = [];
    await runPrompt({
      sessionId: session.id,
      text: "run the tests and fix them",
      userId,
      env: stack.env,
      emit: async (e) => void events.push(e),
    });

    const npmBanner = "\n> calc@1.0.0 test\n> node test.js\n\n";
    expect(await toolResults(session.id)).toEqual([
      [true, `${npmBanner}FAIL sum(2, 3): expected 5, got -1\n\n\nCommand exited with code 1`],
      [false, "Successfully replaced 1 block(s) in sum.js."],
      [false, `${npmBanner}PASS sum(2, 3) = 5\n`],
    ]);
    // The model was told the sandbox exists (only when it is on).
    expect(bashDescription()).toContain(SANDBOX_DESCRIPTION_NOTE);
    // Each bash result says it ran in the sandbox, the failed one too (the chat marks them); the edit's does not.
    expect((await toolResultMessages(session.id)).map((m) => m.details)).toEqual([
      { sandbox: true },
      expect.not.objectContaining({ sandbox: true }),
      { sandbox: true },
    ]);

    // The file the test wrote inside the sandbox and the model's edit are in the VFS and in the checkpoints.
    const changed = events
      .filter((e) => e.type === "files_changed")
      .map((e) => (e as { paths: string[] }).paths);
    expect(changed).toEqual([["test-report.txt"], ["sum.js"], ["test-report.txt"]]);
    const s = new DbScope();
    try {
      const { vfs } = openSessionVfs(project, session.id, s);
      expect(await vfs.readText(`${project.rootPath}/sum.js`)).toBe("module.exports = (a, b) => a + b;\n");
      expect(await vfs.readText(`${project.rootPath}/test-report.txt`)).toBe("sum(2, 3) = 5\n");
      const tip = await resolveRef(vfs, project.rootPath, `refs/heads/strata/session-${session.id}`);
      expect(await readTextAt(vfs, project.rootPath, tip!, "sum.js")).toBe(
        "module.exports = (a, b) => a + b;\n",
      );
      expect(await readTextAt(vfs, project.rootPath, tip!, "test-report.txt")).toBe("sum(2, 3) = 5\n");
    } finally {
      await s.release();
    }
  });

  it("with the sandbox off, npm is not routed: the simulated shell has no npm, and the description says nothing", async () => {
    await setSandboxEnabled(stack.scope, workspaceId, false);
    const { session } = await calcProject();
    stack.mock.enqueue(
      { toolCalls: [{ id: "toolu_1", name: "bash", input: { command: "npm test" } }] },
      { text: "ok" },
    );
    await runPrompt({
      sessionId: session.id,
      text: "run the tests",
      userId,
      env: stack.env,
      emit: async () => {},
    });
    expect(await toolResults(session.id)).toEqual([
      [
        true,
        `bash: npm: command not found\n${commandNotFoundNote(shellCommandNames(SERVICE_CAPABILITIES))}\n\n\nCommand exited with code 127`,
      ],
    ]);
    expect(bashDescription()).not.toContain("sandbox");
  });
});
