/**
 * One user cannot stall everyone's commands (issue 26, item 4), against the real execution service of
 * tests/global-setup.ts (2 workers; sharing defaults: 1 running command per workspace and per user before others go
 * first, at most 4 worker processes). Three test users, each with a project in their personal workspace and a
 * session of their own, run the `bash` tool of their session's runtime (the app's path: the request carries the
 * session's user) and a `!command`.
 *
 * The long commands are `sleep 100`, released by aborting them: the simulated shell cannot wait on a condition
 * set from outside (a command's VFS remembers a missing path; it has no network), and a fixed short sleep would
 * race the short command. Every claim is an order of completion events, never a duration.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { runUserBash } from "@/lib/agent-session/session-bash";
import type { RunEvent } from "@/lib/agent-session/session-run";
import { openSessionRuntime } from "@/lib/agent-session/session-runtime";
import { DbScope } from "@/lib/db/client";
import { createExecutor, type ExecClient } from "@/lib/exec/client";
import type { ShellExecRequest } from "@/lib/exec/types";
import { createBashTool } from "@/lib/tools/bash";
import type { AgentToolResult } from "@/lib/tools/types";
import { createTestUser } from "../../helpers/auth";
import { projectWithFiles } from "./fixture";

let scope: DbScope;
let exec: ExecClient;
let people: { name: string; userId: string; sessionId: string }[];

beforeAll(async () => {
  scope = new DbScope();
  exec = createExecutor(process.env)!;
  people = [];
  for (const name of ["A", "B", "C"]) {
    const user = await createTestUser(name);
    const { session } = await projectWithFiles(scope, {}, user);
    people.push({ name, userId: user.id, sessionId: session.id });
  }
});
afterAll(() => scope.release());

/** The long commands' stops: a test that fails midway still ends them, so the next file finds the workers free. */
const stops: AbortController[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop.abort();
});
const stopper = () => {
  const stop = new AbortController();
  stops.push(stop);
  return stop;
};

/** How long to wait for a condition (a hang detector, far above what it takes; not a timing claim). */
const WAIT = { timeout: 30_000, interval: 50 };

/** Wait until the service's health shows `load`. */
const untilHealth = (load: { busy: number; queued: number; processes?: number }) =>
  vi.waitFor(async () => expect(await exec.health()).toMatchObject(load), WAIT);

/** The `bash` tool of `person`'s session runtime, and the shell requests it sent. */
async function bashOf(person: (typeof people)[number]) {
  const runtime = await openSessionRuntime(scope, person.sessionId);
  const toolExec = runtime.toolContext.exec!;
  const requests: ShellExecRequest[] = [];
  const real = toolExec.executor;
  toolExec.executor = {
    ...real,
    shell: (request, signal, onWait) => {
      requests.push(request);
      return real.shell(request, signal, onWait);
    },
  };
  return { tool: createBashTool(runtime.toolContext), requests };
}

type Update = AgentToolResult<unknown>;

describe("sharing the execution service's workers", () => {
  it("while two users hold long commands, a third user's short command ends before either long one", async () => {
    await untilHealth({ busy: 0, queued: 0, processes: 2 });
    const [a, b, c] = await Promise.all(people.map(bashOf));
    const ended: string[] = [];
    const call = (
      name: string,
      tool: typeof a.tool,
      command: string,
      signal?: AbortSignal,
      updates?: Update[],
    ) =>
      tool
        .execute(`call-${name}`, { command }, signal, (u) => updates?.push(u))
        .then(
          (result) => {
            ended.push(name);
            return result;
          },
          (error: Error) => {
            ended.push(name);
            return error;
          },
        );
    const stopA = stopper();
    const stopB = stopper();
    const longA = call("A", a.tool, "sleep 100", stopA.signal);
    const longB = call("B", b.tool, "sleep 100", stopB.signal);
    await untilHealth({ busy: 2, queued: 0 });
    const updates: Update[] = [];
    const short = await call("C", c.tool, "echo short", undefined, updates);
    // C ended while A and B still hold both pooled workers: it ran on a worker of its own, at once (no notice).
    expect(ended).toEqual(["C"]);
    expect(short).toEqual({ content: [{ type: "text", text: "short\n" }], details: undefined });
    expect(updates).toEqual([{ content: [], details: undefined }, short]);
    expect(await exec.health()).toMatchObject({ busy: 2, queued: 0 });
    stopA.abort();
    expect(await longA).toEqual(new Error("Command aborted"));
    stopB.abort();
    expect(await longB).toEqual(new Error("Command aborted"));
    expect(ended).toEqual(["C", "A", "B"]);
    // Each request named its session's user and workspace.
    expect([a, b, c].map((p) => p.requests.map((r) => r.userId))).toEqual(people.map((p) => [p.userId]));
    // The extra worker ended after its command; the aborted ones were replaced.
    await untilHealth({ busy: 0, queued: 0, processes: 2 });
  });

  it("a user's commands queued behind the running ones are told so: the bash tool's partial result, the !command's opening message", async () => {
    await untilHealth({ busy: 0, queued: 0, processes: 2 });
    const [a, b] = await Promise.all(people.slice(0, 2).map(bashOf));
    const ended: string[] = [];
    const settle = <T>(name: string, promise: Promise<T>) =>
      promise.then(
        (value) => {
          ended.push(name);
          return value;
        },
        (error: Error) => {
          ended.push(name);
          return error;
        },
      );
    const stopA = stopper();
    const stopB = stopper();
    const longA = settle("A sleep", a.tool.execute("a1", { command: "sleep 100" }, stopA.signal));
    const longB = settle("B sleep", b.tool.execute("b1", { command: "sleep 100" }, stopB.signal));
    await untilHealth({ busy: 2, queued: 0 });
    // A already runs a command: their next ones wait their turn (no worker of their own).
    const updates: Update[] = [];
    const second = settle(
      "A echo",
      a.tool.execute("a2", { command: "echo later" }, undefined, (u) => updates.push(u)),
    );
    const events: RunEvent[] = [];
    const bang = settle(
      "A !echo",
      runUserBash({
        sessionId: people[0].sessionId,
        userId: people[0].userId,
        command: { command: "echo bang", excludeFromContext: false },
        emit: async (e) => void events.push(e),
      }),
    );
    const notice =
      "Waiting for a free execution worker: 1 command of other users and 1 of yours are running. This command starts when one of them ends.";
    await vi.waitFor(() => expect(updates).toHaveLength(2), WAIT);
    expect(updates[1]).toEqual({ content: [{ type: "text", text: notice }], details: undefined });
    await vi.waitFor(() => expect(events.map((e) => e.type)).toEqual(["message_start"]), WAIT);
    expect(events[0]).toMatchObject({
      type: "message_start",
      message: { role: "bashExecution", command: "echo bang", output: notice, cancelled: false },
    });
    expect(await exec.health()).toMatchObject({ busy: 2, queued: 2 });
    // B's worker freed: A's queued commands run in their order, while A's sleep goes on.
    stopB.abort();
    expect(await second).toEqual({ content: [{ type: "text", text: "later\n" }], details: undefined });
    await bang;
    expect(ended).toEqual(["B sleep", "A echo", "A !echo"]);
    expect(events.filter((e) => e.type.startsWith("message_"))).toEqual([
      events[0],
      {
        type: "message_end",
        message: expect.objectContaining({ role: "bashExecution", output: "bang\n", exitCode: 0 }),
      },
    ]);
    stopA.abort();
    expect(await longA).toEqual(new Error("Command aborted"));
    expect(await longB).toEqual(new Error("Command aborted"));
    await untilHealth({ busy: 0, queued: 0, processes: 2 });
  });
});
