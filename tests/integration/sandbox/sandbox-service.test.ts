/**
 * `POST /v1/sandbox` through the real execution service (tests/global-setup.ts starts it): a command stopped at
 * the wall-clock limit is reported with the request's limit, what a stopped command wrote before is still written
 * back; an
 * aborted request stops the command; a bad request is refused with what is wrong.
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DbScope } from "@/lib/db/client";
import { createExecutor, ExecRequestError } from "@/lib/exec/client";
import { createBashTool } from "@/lib/tools/bash";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { createTestVfs } from "../../helpers/vfs";

const ROOT = "/svc";
let ws: Awaited<ReturnType<typeof createTestVfs>>;
const executor = () => {
  const client = createExecutor(process.env);
  if (!client) throw new Error("STRATA_EXEC_URL is not set (tests/global-setup.ts starts the service)");
  return client;
};

beforeAll(async () => {
  ws = await createTestVfs();
  await ws.fs.writeFile(`${ROOT}/a.txt`, "a\n");
  await ws.fs.flush();
});
afterAll(async () => ws.cleanup());

/** How long to wait for a condition (a hang detector, far above what it takes; not a timing claim). */
const WAIT = { timeout: 20_000, interval: 50 };

/** The command lines of this machine's processes that contain `text` (from /proc). */
function processesNaming(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      if (args.includes(text)) found.push(args);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe("POST /v1/sandbox", () => {
  // The wall-clock limit counts from the request (loading and materialising the tree included), so what a command
  // gets done before it is not fixed on a loaded machine: `sleep` only, here; what a stopped command wrote is
  // checked with a limit its own progress reaches (the output cap), after the write.
  it("stops at the wall-clock limit with the request's limit in the message", async () => {
    // Only the 2 s limit ends it (the sleep outlasts the test's own timeout).
    const result = await executor().sandbox({
      workspaceId: ws.workspaceId,
      projectRoot: ROOT,
      cwd: ROOT,
      command: "sleep 60",
      limits: { wallMs: 2000 },
    });
    expect(result.killed).toEqual({
      reason: "wall",
      message: "Command stopped: it ran for more than 2 s (wall-clock limit 2 s).",
    });
    expect([result.output, result.changedPaths]).toEqual(["", []]);
  });

  it("keeps what a command wrote before a limit stopped it", async () => {
    const result = await executor().sandbox({
      workspaceId: ws.workspaceId,
      projectRoot: ROOT,
      cwd: ROOT,
      command: "echo partial > partial.txt; echo before; yes",
      limits: { outputBytes: 4096 },
    });
    expect(result.killed).toEqual({
      reason: "output",
      message: "Command stopped: it printed more than 4 KiB of output (limit 4 KiB).",
    });
    // The output kept is its last 4 KiB: `yes` writes whole lines, so the tail is exactly 2,048 of them.
    expect(result.output).toBe("y\n".repeat(2048));
    expect(result.changedPaths).toEqual(["/svc/partial.txt"]);
    const scope = new DbScope();
    try {
      expect(await openWorkspaceVfs(ws.workspaceId, scope).vfs.readText("/svc/partial.txt")).toBe(
        "partial\n",
      );
    } finally {
      await scope.release();
    }
  });

  it("the bash tool reports a command stopped at a limit with the Command stopped line (output cap, default limits)", async () => {
    const bash = createBashTool({
      fs: ws.fs,
      cwd: ROOT,
      projectRoot: ROOT,
      exec: {
        executor: executor(),
        workspaceId: ws.workspaceId,
        sandbox: true,
        sync: async () => {},
        absorb: async () => {},
      },
    });
    const error = await bash.execute("t", { command: "sandbox yes 0123456789abcdef" }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const text = (error as Error).message;
    expect(text.endsWith("\n\nCommand stopped: it printed more than 16 MiB of output (limit 16 MiB).")).toBe(
      true,
    );
    expect(text.startsWith("0123456789abcdef\n")).toBe(true);
    await expect(bash.execute("t", { command: "sandbox  " })).rejects.toThrow(
      new Error(
        "sandbox: usage: sandbox <command> (runs it in the isolated Linux sandbox)\n\n\nCommand exited with code 2",
      ),
    );
  });

  it("an aborted request stops the command", async () => {
    const client = executor();
    expect(await client.health()).toMatchObject({ busy: 0, queued: 0 });
    // Nothing but the abort ends this command before the test's timeout; the marker names its processes.
    const marker = `abort-${Math.random().toString(36).slice(2, 10)}`;
    const abort = new AbortController();
    const answer = client
      .sandbox(
        { workspaceId: ws.workspaceId, projectRoot: ROOT, cwd: ROOT, command: `sleep 600; echo ${marker}` },
        abort.signal,
      )
      .catch((error: unknown) => error);
    // Abort once it runs: its processes exist and a worker is busy with it.
    await vi.waitFor(() => expect(processesNaming(marker)).not.toEqual([]), WAIT);
    expect((await client.health()).busy).toBe(1);
    abort.abort();
    expect(await answer).toMatchObject({ name: "AbortError" });
    // The service stops it: its worker is free again and none of its processes is left.
    await vi.waitFor(async () => expect(await client.health()).toMatchObject({ busy: 0, queued: 0 }), WAIT);
    await vi.waitFor(() => expect(processesNaming(marker)).toEqual([]), WAIT);
  });

  it("refuses a request without a command, and a cwd outside the project", async () => {
    const base = { workspaceId: ws.workspaceId, projectRoot: ROOT, cwd: ROOT };
    await expect(executor().sandbox({ ...base, command: " " })).rejects.toThrow(
      new ExecRequestError("POST /v1/sandbox: command must be a non-empty string", 400),
    );
    await expect(executor().sandbox({ ...base, cwd: "/elsewhere", command: "ls" })).rejects.toThrow(
      "The working directory /elsewhere is not inside the project /svc",
    );
  });
});
