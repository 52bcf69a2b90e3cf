/**
 * A file name git cannot hold never stops a run (issue 26 item 6). The agent's bash tool and the user's `!command`
 * (both in the execution service) are refused where they write such a name, with the rule's words on stderr; a
 * project that already holds one (old data, stored below the rule) still runs text-only and file-writing prompts,
 * whose checkpoints record the other files; a checkpoint an older Strata wrote with such a name in its tree is read
 * without it and rewritten; `commitAll` and `checkpoint` leave such a path out with the reason in the commit message.
 */
import * as git from "isomorphic-git";
import { describe, expect, it } from "vitest";
import { runUserBash } from "@/lib/agent-session/session-bash";
import { type RunEvent, runPrompt } from "@/lib/agent-session/session-run";
import { checkpoint, commitAll, log, readTextAt, resolveRef, writeLooseObject } from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import { NAME_ERRORS } from "@/lib/vfs/names";
import { withMockStack } from "../../helpers/mock-stack";
import {
  ADA,
  projectWithSession,
  promptWriting,
  readProjectFile,
  type SessionFixture,
} from "../../helpers/session-fixture";
import { storeBelowNameRule } from "../../helpers/vfs";

const stack = withMockStack();

const REFUSED = `Invalid name "x\\y.txt": ${NAME_ERRORS.backslash}`;
const sessionRef = (f: SessionFixture) => `refs/heads/strata/session-${f.session.id}`;

/** A text-only prompt answered `Hello.`; @returns its events, having checked there is no `error` among them. */
async function promptText(f: SessionFixture): Promise<RunEvent[]> {
  stack.mock.enqueue({ text: "Hello." });
  const events: RunEvent[] = [];
  await runPrompt({
    sessionId: f.session.id,
    text: "hi",
    env: stack.env,
    author: ADA,
    emit: async (e) => void events.push(e),
  });
  expect(events.filter((e) => e.type === "error")).toEqual([]);
  return events;
}

const assistantTexts = (events: RunEvent[]) =>
  events.flatMap((e) =>
    e.type === "message_end" && e.message.role === "assistant"
      ? e.message.content.flatMap((c) => (c.type === "text" ? [c.text] : []))
      : [],
  );

/** The paths of commit `oid`'s tree, read by isomorphic-git itself (which refuses a tree holding an unsafe name). */
async function committedPaths(f: SessionFixture, oid: string): Promise<string[]> {
  const { vfs, scope: s } = f.openVfs();
  try {
    const out: string[] = [];
    await git.walk({
      fs: createGitFs(vfs),
      gitdir: `${f.project.rootPath}/.git`,
      trees: [git.TREE({ ref: oid })],
      map: async (path, [e]) => {
        if (path !== "." && (await e?.type()) === "blob") out.push(path);
        return true;
      },
    });
    return out;
  } finally {
    await s.release();
  }
}

describe("writing a name git cannot hold is refused where it is written", () => {
  it("the agent's bash and write tools: a tool error with the rule's words; nothing written, the run goes on", async () => {
    const f = await projectWithSession(stack.scope, { "a.txt": "a\n" });
    stack.mock.enqueue(
      {
        toolCalls: [
          { id: "b1", name: "bash", input: { command: "printf q > 'x\\y.txt'" } },
          { id: "w1", name: "write", input: { path: "x\\y.txt", content: "q" } },
        ],
      },
      { text: "Done." },
    );
    const events: RunEvent[] = [];
    await runPrompt({
      sessionId: f.session.id,
      text: "go",
      env: stack.env,
      emit: async (e) => void events.push(e),
    });
    const results = events.flatMap((e) =>
      e.type === "message_end" && e.message.role === "toolResult" ? [e.message] : [],
    );
    expect(results.map((r) => ({ isError: r.isError, content: r.content }))).toEqual([
      {
        isError: true,
        content: [{ type: "text", text: `bash: ${REFUSED}\n\n\nCommand exited with code 1` }],
      },
      { isError: true, content: [{ type: "text", text: REFUSED }] },
    ]);
    expect(assistantTexts(events)).toEqual(["Done."]);
    expect(events.filter((e) => e.type === "error" || e.type === "files_changed")).toEqual([]);
    expect(await readProjectFile(f, "x\\y.txt")).toBe(null);
  });

  it("the user's !command: its output ends with the refusal, exit code 1", async () => {
    const f = await projectWithSession(stack.scope, { "a.txt": "a\n" });
    const events: RunEvent[] = [];
    await runUserBash({
      sessionId: f.session.id,
      command: { command: "printf q > 'x\\y.txt'", excludeFromContext: false },
      emit: async (e) => void events.push(e),
    });
    expect(events.find((e) => e.type === "message_end")).toMatchObject({
      message: { role: "bashExecution", output: `bash: ${REFUSED}\n`, exitCode: 1 },
    });
    expect(events.filter((e) => e.type === "files_changed")).toEqual([]);
    expect(await readProjectFile(f, "x\\y.txt")).toBe(null);
  });
});

describe("a project that already holds such a name (old data)", () => {
  it("runs a text-only prompt, then a file-writing one whose checkpoint records the other files", async () => {
    const f = await projectWithSession(stack.scope, { "a.txt": "a\n" });
    await storeBelowNameRule(f.actor.workspaceId, `${f.project.rootPath}/a\\b.txt`, "old");
    expect(assistantTexts(await promptText(f))).toEqual(["Hello."]);
    const events = await promptWriting(stack.mock, stack.env, f, "write", { "ok.txt": "ok\n" });
    const changed = events.find((e) => e.type === "files_changed");
    expect(changed).toEqual({ type: "files_changed", paths: ["ok.txt"], commit: expect.any(String) });
    const commit = (changed as { commit: string }).commit;
    expect(await committedPaths(f, commit)).toEqual(["a.txt", "ok.txt"]);
    expect(await readProjectFile(f, "a\\b.txt")).toBe("old");
    expect(assistantTexts(await promptText(f))).toEqual(["Hello."]);
  });

  it("a checkpoint an older Strata wrote with the name in its tree: prompts run, the next checkpoint drops it", async () => {
    const f = await projectWithSession(stack.scope, { "a.txt": "a\n" });
    const { vfs, scope: s } = f.openVfs();
    const root = f.project.rootPath;
    const gitdir = `${root}/.git`;
    // The tree an older checkpoint wrote by hand (isomorphic-git's own writer refuses it), on the session's ref.
    const blob = await writeLooseObject(vfs, gitdir, "blob", new TextEncoder().encode("old"));
    const a = await resolveBlob(vfs, root, f.initCommit, "a.txt");
    const tree = await writeLooseObject(
      vfs,
      gitdir,
      "tree",
      treeBytes([
        ["a.txt", a],
        ["a\\b.txt", blob],
      ]),
    );
    const broken = await git.writeCommit({
      fs: createGitFs(vfs),
      gitdir,
      commit: { message: "old\n", tree, parent: [f.initCommit], author: sig, committer: sig },
    });
    await git.writeRef({ fs: createGitFs(vfs), gitdir, ref: sessionRef(f), value: broken, force: true });
    await vfs.flush();
    await s.release();
    await storeBelowNameRule(f.actor.workspaceId, `${root}/a\\b.txt`, "old");

    expect(assistantTexts(await promptText(f))).toEqual(["Hello."]);
    const events = await promptWriting(stack.mock, stack.env, f, "write", { "ok.txt": "ok\n" });
    const commit = (events.find((e) => e.type === "files_changed") as { commit: string }).commit;
    expect(await committedPaths(f, commit)).toEqual(["a.txt", "ok.txt"]);
    const check = f.openVfs();
    expect((await log(check.vfs, root, commit, 2)).map((c) => c.parents)).toEqual([[broken], [f.initCommit]]);
    await check.scope.release();
  });
});

describe("commits leave such a path out, with the reason in the message", () => {
  it("commitAll and checkpoint record the other files", async () => {
    const f = await projectWithSession(stack.scope, { "a.txt": "a\n" });
    const root = f.project.rootPath;
    await storeBelowNameRule(f.actor.workspaceId, `${root}/a\\b.txt`, "old");
    const { vfs, scope: s } = f.openVfs();
    await vfs.writeFile(`${root}/b.txt`, "b\n");
    const all = await commitAll(vfs, root, { message: "all", author: sig });
    await vfs.writeFile(`${root}/c.txt`, "c\n");
    const cp = await checkpoint(vfs, root, {
      changedPaths: [`${root}/a\\b.txt`, `${root}/c.txt`, `${root}/sub/.git/HEAD`],
      ref: sessionRef(f),
      message: "cp",
      author: sig,
    });
    await vfs.flush();
    const note = `Not recorded (git cannot hold these names):\n- "a\\b.txt": ${NAME_ERRORS.backslash}\n`;
    expect(cp?.skipped).toEqual([{ path: "a\\b.txt", reason: NAME_ERRORS.backslash }]);
    expect((await log(vfs, root, all, 1))[0].message).toBe(`all\n\n${note}`);
    expect((await log(vfs, root, cp!.oid, 1))[0].message).toBe(`cp\n\n${note}`);
    expect(await readTextAt(vfs, root, all, "b.txt")).toBe("b\n");
    expect(await resolveRef(vfs, root, sessionRef(f))).toBe(cp!.oid);
    await s.release();
    expect(await committedPaths(f, all)).toEqual(["a.txt", "b.txt"]);
    expect(await committedPaths(f, cp!.oid)).toEqual(["a.txt", "b.txt", "c.txt"]);
  });
});

const sig = { name: "t", email: "t@x", timestamp: 1_700_000_000, timezoneOffset: 0 };

/** The blob id of `path` in commit `oid`. */
async function resolveBlob(vfs: Parameters<typeof createGitFs>[0], root: string, oid: string, path: string) {
  const { oid: blob } = await git.readBlob({
    fs: createGitFs(vfs),
    gitdir: `${root}/.git`,
    oid,
    filepath: path,
  });
  return blob;
}

/** A tree object's bytes for blob entries (name, oid), in the order given (git's order: the caller sorts). */
function treeBytes(entries: [string, string][]): Uint8Array {
  const parts: number[] = [];
  for (const [name, oid] of entries) {
    parts.push(...new TextEncoder().encode(`100644 ${name}\0`));
    for (let i = 0; i < 40; i += 2) parts.push(Number.parseInt(oid.slice(i, i + 2), 16));
  }
  return Uint8Array.from(parts);
}
