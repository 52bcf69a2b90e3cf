/**
 * `POST /v1/sandbox` through the real execution service (tests/global-setup.ts starts it): a command stopped at
 * the wall-clock limit is reported with the request's limit and what it wrote before is still written back; an
 * aborted request stops the command; a bad request is refused with what is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

describe("POST /v1/sandbox", () => {
  it("stops at the wall-clock limit with the request's limit in the message, and keeps what was written", async () => {
    const started = performance.now();
    const result = await executor().sandbox({
      workspaceId: ws.workspaceId,
      projectRoot: ROOT,
      cwd: ROOT,
      command: "echo partial > partial.txt; echo before; sleep 60",
      limits: { wallMs: 2000 },
    });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(result.killed).toEqual({
      reason: "wall",
      message: "Command stopped: it ran for more than 2 s (wall-clock limit 2 s).",
    });
    expect(result.output).toBe("before\n");
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
    const abort = new AbortController();
    const started = performance.now();
    setTimeout(() => abort.abort(), 500);
    await expect(
      executor().sandbox(
        { workspaceId: ws.workspaceId, projectRoot: ROOT, cwd: ROOT, command: "sleep 30" },
        abort.signal,
      ),
    ).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(3000);
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
