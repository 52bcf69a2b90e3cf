/**
 * A prompt run (the real route, mock provider, real Postgres behind a TCP relay) while the database goes
 * away during a tool call: a 3 s outage is waited out and the tool's result, its 50 files and the checkpoint
 * commit are each stored exactly once; an outage longer than the retry budget ends the run with a clear
 * error and nothing half-written, and the next prompt works once the database is back.
 *
 * The bash tool runs in the execution service, so an outage must hit the service as well as the app: this file
 * starts services of its own whose database is behind the same relay (the global one of tests/global-setup.ts
 * reaches Postgres directly and would write the files while the app's database is down), one with the app's
 * budget (8 s) for the 3 s case and one with 1 s for the others. Since the service gives up too, the bash tool's
 * result is now the service's answer, `unavailableMessage(1000, …)` — the same text as the run's error — instead
 * of shell output; and a database lost by the service in the middle of a command (back before the command ends)
 * stops it with that error and keeps none of its writes, where it used to be `cat: README.md: No such file or
 * directory`, exit 0, with the files before and after the outage stored.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DbScope } from "@/lib/db/client";
import { unavailableMessage } from "@/lib/db/errors";
import { DB_DEFAULTS } from "@/lib/db/settings";
import { insertProject } from "@/lib/projects/projects";
import { loadBranch } from "@/lib/session/context-load";
import { getLiveRun } from "@/lib/session/runs";
import { createSession, getSession } from "@/lib/session/store";
import { commitAll, initRepository, log, readTextAt, resolveRef } from "@/lib/vfs/git";
import { openSessionVfs, openWorkspaceVfs } from "@/lib/vfs/workspace";
import { type ExecServiceProcess, startExecService } from "../../../scripts/exec-service.mjs";
import { signedInUser } from "../../helpers/auth";
import { mockAnthropicEnv, setEnv } from "../../helpers/env";
import { promptEvents } from "../../helpers/prompt-stream";
import { type MockProvider, startMockProvider } from "../../mock-provider";
import { proxyThrough, startRelay, type TcpRelay } from "./trouble";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

let relay: TcpRelay;
let proxy: { proxy: string; close(): Promise<void> };
let mock: MockProvider;
let restoreEnv: () => void;
/** Execution services of this file whose database is behind the relay too, with the app's retry budget of each case. */
let waitingExec: ExecServiceProcess;
let briefExec: ExecServiceProcess;

/** An execution service reaching Postgres through the relay, retrying a lost database for `retryMs`. */
const execThroughRelay = (retryMs: number) =>
  startExecService({
    env: {
      ...process.env,
      STRATA_DB_PROXY: proxy.proxy,
      STRATA_DB_RETRY_MS: String(retryMs),
      STRATA_EXEC_PORT: "0",
      STRATA_EXEC_WORKERS: "2",
    },
  });

beforeAll(async () => {
  relay = await startRelay();
  proxy = await proxyThrough(relay);
  mock = await startMockProvider();
  [waitingExec, briefExec] = await Promise.all([
    execThroughRelay(DB_DEFAULTS.retryMs),
    execThroughRelay(1000),
  ]);
  restoreEnv = setEnv({ ...mockAnthropicEnv(mock.url), STRATA_DB_PROXY: proxy.proxy });
});
afterAll(async () => {
  restoreEnv();
  await Promise.all([waitingExec?.close(), briefExec?.close()]);
  await mock.close();
  await proxy.close();
  await relay.close();
});
beforeEach(() => {
  mock.reset();
  relay.restore();
});

/** Run `fn` with the app's shell commands going to `service` (STRATA_EXEC_URL/TOKEN), then put back the global one. */
async function usingExec<T>(service: ExecServiceProcess, fn: () => Promise<T>): Promise<T> {
  const restore = setEnv(service.env);
  try {
    return await fn();
  } finally {
    restore();
  }
}

async function withScope<T>(fn: (s: DbScope) => Promise<T>): Promise<T> {
  const s = new DbScope();
  try {
    return await fn(s);
  } finally {
    await s.release();
  }
}

async function newSession() {
  return withScope(async (scope) => {
    const actor = await signedIn.actor();
    const project = await insertProject(scope, {
      workspaceId: actor.workspaceId,
      name: "outage",
      source: null,
    });
    const { vfs } = openWorkspaceVfs(actor.workspaceId, scope);
    await initRepository(vfs, project.rootPath);
    await vfs.writeFile(`${project.rootPath}/README.md`, "hi\n");
    await commitAll(vfs, project.rootPath, { message: "init", author: { name: "t", email: "t@x" } });
    await vfs.flush();
    const session = await createSession(scope, { projectId: project.id, cwd: project.rootPath });
    return { session, project, workspaceId: actor.workspaceId };
  });
}

const prompt = (id: string, text: string, onEvent?: (type: string) => void) =>
  promptEvents(signedIn.user, id, text, onEvent);

async function branchSummary(sessionId: string): Promise<string[]> {
  return withScope(async (s) => {
    const session = await getSession(s, sessionId);
    const branch = await loadBranch(s, sessionId, session?.leafId ?? null);
    return branch.flatMap((e) => {
      if (e.type !== "message") return [];
      const m = e.message as unknown as { role: string; content: unknown; toolCallId?: string };
      if (m.role === "system") return [];
      if (m.role === "toolResult") return [`toolResult:${m.toolCallId}`];
      const content = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
      const parts = (content as { type: string; text?: string; name?: string }[]).map((c) =>
        c.type === "text" ? c.text : c.type === "toolCall" ? `call ${c.name}` : c.type,
      );
      return [`${m.role}:${parts.join("|")}`];
    });
  });
}

const countRows = (sql: string, params: unknown[]) =>
  withScope(async (s) => (await s.query<{ n: number }>(sql, params))[0].n);

const FIFTY_FILES = "mkdir -p out; sleep 1; for i in $(seq 1 50); do echo line $i > out/f$i.txt; done";

describe("the database goes away during a tool call", () => {
  it("3 s: the run waits it out; the tool result, 50 files and the checkpoint are stored exactly once", () =>
    usingExec(waitingExec, async () => {
      const { session, project } = await newSession();
      mock.enqueue(
        { toolCalls: [{ id: "toolu_outage", name: "bash", input: { command: FIFTY_FILES } }] },
        { text: "Wrote 50 files." },
      );
      const events = await prompt(session.id, "write 50 files", (type) => {
        if (type === "tool_execution_start") {
          relay.cut();
          setTimeout(() => relay.restore(), 3000);
        }
      });
      expect(relay.refused).toBeGreaterThan(0);
      expect(events.filter((e) => e.type === "error")).toEqual([]);
      // The 50 files and their new directory.
      expect(events.find((e) => e.type === "files_changed")?.data.paths).toHaveLength(51);

      expect(await branchSummary(session.id)).toEqual([
        "user:write 50 files",
        "assistant:call bash",
        "toolResult:toolu_outage",
        "assistant:Wrote 50 files.",
      ]);
      // Exactly once among all entries of the session, not only on the branch.
      expect(
        await countRows(
          `SELECT count(*)::int AS n FROM session_entries WHERE session_id = $1
         AND (entry::jsonb)->'message'->>'toolCallId' = 'toolu_outage'`,
          [session.id],
        ),
      ).toBe(1);
      expect(
        await countRows(
          `SELECT count(*)::int AS n FROM session_entries WHERE session_id = $1
         AND (entry::jsonb)->'message'->>'role' = 'assistant'`,
          [session.id],
        ),
      ).toBe(2);
      await withScope(async (s) => {
        const { vfs } = openSessionVfs(project, session.id, s);
        for (let i = 1; i <= 50; i++)
          expect(await vfs.readText(`${project.rootPath}/out/f${i}.txt`)).toBe(`line ${i}\n`);
        const ref = `refs/heads/strata/session-${session.id}`;
        const history = await log(vfs, project.rootPath, ref);
        expect(history.map((c) => c.message.trim())).toEqual(["Strata checkpoint: 51 files changed", "init"]);
        const tip = (await resolveRef(vfs, project.rootPath, ref)) as string;
        expect(await readTextAt(vfs, project.rootPath, tip, "out/f50.txt")).toBe("line 50\n");
      });
      expect(
        await countRows("SELECT count(*)::int AS n FROM session_pending_paths WHERE session_id = $1", [
          session.id,
        ]),
      ).toBe(0);
      expect(await withScope((s) => getLiveRun(s, session.id))).toBeNull();

      // The server is still fine: the next prompt runs.
      mock.enqueue({ text: "Still here." });
      const next = await prompt(session.id, "are you there?");
      expect(next.filter((e) => e.type === "error")).toEqual([]);
      expect((await branchSummary(session.id)).slice(-1)).toEqual(["assistant:Still here."]);
    }));

  it("longer than the retry budget: the run ends with a clear error, nothing half-written; the next prompt works", () =>
    usingExec(briefExec, async () => {
      const restoreRetry = setEnv({ STRATA_DB_RETRY_MS: "1000" });
      const { session, project, workspaceId } = await newSession();
      mock.enqueue(
        { toolCalls: [{ id: "toolu_long", name: "bash", input: { command: FIFTY_FILES } }] },
        { text: "never reached" },
      );
      let events: { type: string; data: Record<string, unknown> }[];
      try {
        events = await prompt(session.id, "write 50 files", (type) => {
          if (type === "tool_execution_start") relay.cut();
        });
      } finally {
        restoreRetry();
      }
      const errors = events.filter((e) => e.type === "error").map((e) => e.data.message);
      expect(errors.length).toBeGreaterThan(0);
      expect(new Set(errors)).toEqual(
        new Set([unavailableMessage(1000, "Connection terminated unexpectedly")]),
      );
      expect(unavailableMessage(1000, "Connection terminated unexpectedly")).toBe(
        "The database could not be reached for 1 s (Connection terminated unexpectedly). The step that needed it wrote nothing; retry when the database is back.",
      );
      // The execution service lost the database too: it stopped the command and answered the same text, which is
      // the bash tool's result (not a command that exited with code 1 after writing some of its files).
      const ends = events
        .filter((e) => e.type === "tool_execution_end")
        .map((e) => ({ isError: e.data.isError, content: (e.data.result as { content: unknown }).content }));
      expect(ends).toEqual([
        {
          isError: true,
          content: [{ type: "text", text: unavailableMessage(1000, "Connection terminated unexpectedly") }],
        },
      ]);
      expect(mock.requests.filter((r) => r.path === "/v1/messages")).toHaveLength(1);

      relay.restore();
      // The run's lock is released by the run itself once the database is back: its row is finished (waited for;
      // the wait is only a hang detector), not merely left to go stale (after 15 s without a heartbeat).
      await vi.waitFor(
        async () =>
          expect(
            await countRows(
              "SELECT count(*)::int AS n FROM session_runs WHERE session_id = $1 AND finished_at IS NULL",
              [session.id],
            ),
          ).toBe(0),
        { timeout: 20_000, interval: 100 },
      );
      expect(await withScope((s) => getLiveRun(s, session.id))).toBeNull();

      // Nothing half-written: the tool call is stored, but no result, no file, no checkpoint, nothing pending.
      expect(await branchSummary(session.id)).toEqual(["user:write 50 files", "assistant:call bash"]);
      await withScope(async (s) => {
        const { vfs } = openWorkspaceVfs(workspaceId, s);
        expect(await vfs.exists(`${project.rootPath}/out`)).toBe(false);
        expect(await resolveRef(vfs, project.rootPath, `refs/heads/strata/session-${session.id}`)).toBeNull();
      });
      expect(
        await countRows("SELECT count(*)::int AS n FROM session_pending_paths WHERE session_id = $1", [
          session.id,
        ]),
      ).toBe(0);

      mock.reset();
      mock.enqueue({ text: "Back." });
      const next = await prompt(session.id, "try again");
      expect(next.filter((e) => e.type === "error")).toEqual([]);
      expect(await branchSummary(session.id)).toEqual([
        "user:write 50 files",
        "assistant:call bash",
        "user:try again",
        "assistant:Back.",
      ]);
    }));

  it("lost by the service in the middle of a command: none of its writes are kept, though the database is back before it ends", () =>
    usingExec(briefExec, async () => {
      const { session, project, workspaceId } = await newSession();
      // a.txt is written (to the worker's cache) before the outage, cat needs the database during it, b.txt and
      // the end come after it: without the service stopping the command, a.txt and b.txt would be flushed (exit 0).
      // The outage is from 1 s to 6 s after the tool call starts: it covers the cat (2 s into the command) and the
      // service's 1 s of retrying it, and ends well before the command would (12 s in), with seconds of margin
      // for a command that starts late on a loaded machine.
      const command =
        "mkdir -p out; echo one > out/a.txt; sleep 2; cat README.md; echo two > out/b.txt; sleep 10";
      mock.enqueue(
        { toolCalls: [{ id: "toolu_mid", name: "bash", input: { command } }] },
        { text: "The database was lost." },
      );
      const events = await prompt(session.id, "write two files", (type) => {
        if (type !== "tool_execution_start") return;
        setTimeout(() => relay.cut(), 1000);
        setTimeout(() => relay.restore(), 6000);
      });
      expect(relay.refused).toBeGreaterThan(0);
      // The app waited the outage out (its budget is 8 s); the service (1 s) stopped the command.
      expect(events.filter((e) => e.type === "error")).toEqual([]);
      const ends = events
        .filter((e) => e.type === "tool_execution_end")
        .map((e) => ({ isError: e.data.isError, content: (e.data.result as { content: unknown }).content }));
      expect(ends).toEqual([
        {
          isError: true,
          content: [{ type: "text", text: unavailableMessage(1000, "Connection terminated unexpectedly") }],
        },
      ]);
      expect(events.filter((e) => e.type === "files_changed")).toEqual([]);
      expect(await branchSummary(session.id)).toEqual([
        "user:write two files",
        "assistant:call bash",
        "toolResult:toolu_mid",
        "assistant:The database was lost.",
      ]);
      await withScope(async (s) => {
        const { vfs } = openWorkspaceVfs(workspaceId, s);
        expect(await vfs.exists(`${project.rootPath}/out`)).toBe(false);
        expect(await resolveRef(vfs, project.rootPath, `refs/heads/strata/session-${session.id}`)).toBeNull();
      });
      expect(
        await countRows("SELECT count(*)::int AS n FROM session_pending_paths WHERE session_id = $1", [
          session.id,
        ]),
      ).toBe(0);
      expect(await withScope((s) => getLiveRun(s, session.id))).toBeNull();
    }));
});
