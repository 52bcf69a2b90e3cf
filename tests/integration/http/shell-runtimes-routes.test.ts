/**
 * The user's `!node`, `!python3` and `!sqlite3` through the routes the IDE calls (real Postgres, the execution service
 * tests/global-setup.ts started): `POST /api/sessions/:id/prompt` runs each on the project's files — the stored
 * bashExecution's exact output and exit code, and the files a command wrote announced as `files_changed` — then
 * `GET /api/projects/:id/tree` lists exactly the project's files and `GET /api/projects/:id/file` reads the one
 * python3 wrote. (The runtimes themselves: tests/integration/exec/shell-runtimes.test.ts. In the browser: a
 * `!command`'s new file shows in the tree at once, tests/e2e/shell-and-tree.spec.ts; a file clicked in the tree opens
 * in the editor, tests/e2e/branch-files.spec.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getFile } from "@/app/api/projects/[id]/file/route";
import { GET as getTree } from "@/app/api/projects/[id]/tree/route";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { createSession } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";
import { promptEvents } from "../../helpers/prompt-stream";

/** Sums the lines of nums.txt. */
const SUM_JS =
  'const fs = require("fs");\nconsole.log(fs.readFileSync("nums.txt", "utf8").trim().split("\\n").map(Number).reduce((a, b) => a + b));\n';
const FILES: Record<string, string> = { "README.md": "# Demo\n", "nums.txt": "1\n2\n3\n", "sum.js": SUM_JS };

let scope: DbScope;
let user: TestUser;
let projectId: string;
let sessionId: string;

beforeAll(async () => {
  scope = new DbScope();
  user = await createTestUser();
  const project = await insertProject(scope, {
    workspaceId: user.workspaceId,
    name: "runtimes",
    source: null,
  });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(user.workspaceId, s);
  for (const [path, text] of Object.entries(FILES)) await vfs.writeFile(`${project.rootPath}/${path}`, text);
  await vfs.flush();
  await s.release();
  projectId = project.id;
  sessionId = (await createSession(scope, { projectId, cwd: project.rootPath, userId: user.id })).id;
});
afterAll(async () => {
  await scope.release();
});

/**
 * `!command` sent as the composer sends it. @returns the event types of its stream and the bashExecution its
 * `message_end` carries (the message the chat shows and the session stores).
 */
async function shell(command: string) {
  const events = await promptEvents(user, sessionId, `!${command}`);
  const end = events.find((e) => e.type === "message_end");
  return { events, types: events.map((e) => e.type), message: end?.data.message };
}

const bash = (command: string, output: string) => ({
  role: "bashExecution",
  command,
  output,
  exitCode: 0,
  cancelled: false,
  truncated: false,
  timestamp: expect.any(Number),
});

async function tree(): Promise<unknown> {
  const res = await getTree(
    asUser(user, `http://127.0.0.1/api/projects/${projectId}/tree?session=${sessionId}`),
    {
      params: Promise.resolve({ id: projectId }),
    },
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { entries: unknown }).entries;
}

async function file(path: string): Promise<unknown> {
  const url = `http://127.0.0.1/api/projects/${projectId}/file?path=${encodeURIComponent(path)}&session=${sessionId}`;
  const res = await getFile(asUser(user, url), { params: Promise.resolve({ id: projectId }) });
  expect(res.status).toBe(200);
  return res.json();
}

const entry = (path: string, size: number) => ({ path, kind: "file", size });
const COMMIT = expect.stringMatching(/^[0-9a-f]{40}$/);

describe("!node, !python3 and !sqlite3 through the prompt route, then the tree and the file", () => {
  it("!node sum.js reads nums.txt: 6, exit 0, no file changed", async () => {
    const node = await shell("node sum.js");
    expect(node.types).toEqual(["run_start", "message_start", "message_end", "run_end"]);
    expect(node.message).toEqual(bash("node sum.js", "6\n"));
    expect(node.events.at(-1)?.data).toEqual({ type: "run_end", outcome: "done" });
  });

  it("!python3 writes squares.txt: its text, exit 0, files_changed; the tree has it", async () => {
    const command = `python3 -c 'open("squares.txt", "w").write(" ".join(str(i*i) for i in range(5)) + "\\n")' && cat squares.txt`;
    const py = await shell(command);
    expect(py.types).toEqual(["run_start", "files_changed", "message_start", "message_end", "run_end"]);
    expect(py.events[1].data).toEqual({ type: "files_changed", paths: ["squares.txt"], commit: COMMIT });
    expect(py.message).toEqual(bash(command, "0 1 4 9 16\n"));
    expect(await tree()).toEqual([
      entry("README.md", 7),
      entry("nums.txt", 6),
      entry("squares.txt", 11),
      entry("sum.js", SUM_JS.length),
    ]);
  });

  it("!sqlite3 makes notes.db: hello world, exit 0; the tree lists exactly the five files; squares.txt reads back", async () => {
    const command = `sqlite3 notes.db "create table n(t text); insert into n values ('hello'), ('world'); select group_concat(t, ' ') from n;"`;
    const sql = await shell(command);
    expect(sql.types).toEqual(["run_start", "files_changed", "message_start", "message_end", "run_end"]);
    expect(sql.events[1].data).toEqual({ type: "files_changed", paths: ["notes.db"], commit: COMMIT });
    expect(sql.message).toEqual(bash(command, "hello world\n"));
    // A database of one table: SQLite's two 4096-byte pages.
    expect(await tree()).toEqual([
      entry("README.md", 7),
      entry("notes.db", 8192),
      entry("nums.txt", 6),
      entry("squares.txt", 11),
      entry("sum.js", SUM_JS.length),
    ]);
    // What the editor opens for squares.txt.
    expect(await file("squares.txt")).toEqual({
      path: "squares.txt",
      content: "0 1 4 9 16\n",
      binary: false,
      size: 11,
      tooLarge: false,
    });
  });
});
