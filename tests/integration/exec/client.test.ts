/** The execution service's client when something is wrong: nothing listening, a wrong token, a bad request. */
import net from "node:net";
import { describe, expect, it } from "vitest";
import { createExecutor, ExecRequestError } from "@/lib/exec/client";
import { ExecUnavailableError } from "@/lib/exec/types";

const request = { workspaceId: "w", projectRoot: "/p", cwd: "/p", script: "echo hi" };

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the execution service's client", () => {
  it("is undefined without STRATA_EXEC_URL (shell commands then run in process)", () => {
    expect(createExecutor({})).toBeUndefined();
    expect(createExecutor({ STRATA_EXEC_URL: " " })).toBeUndefined();
  });

  it("nothing listening: ExecUnavailableError saying what to do", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const exec = createExecutor({ STRATA_EXEC_URL: url, STRATA_EXEC_TOKEN: "t" })!;
    const error = await exec.shell(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExecUnavailableError);
    expect((error as Error).message).toBe(
      `The execution service at ${url} is not reachable: connect ECONNREFUSED 127.0.0.1:${new URL(url).port}. Start Strata with \`npm start\` (it starts the service and sets STRATA_EXEC_URL and STRATA_EXEC_TOKEN), or start it yourself with \`node --import tsx lib/exec/service/main.ts\` and point STRATA_EXEC_URL at it; unset STRATA_EXEC_URL to run shell commands in process.`,
    );
  });

  it("a wrong token: 401 with the reason; a bad request: 400 naming the field; too big: 413; an unknown kind: 404", async () => {
    const wrong = createExecutor({
      STRATA_EXEC_URL: process.env.STRATA_EXEC_URL,
      STRATA_EXEC_TOKEN: "nope",
    })!;
    await expect(wrong.shell(request)).rejects.toEqual(
      new ExecRequestError(
        "The execution service needs the token it was started with (STRATA_EXEC_TOKEN).",
        401,
      ),
    );
    const exec = createExecutor(process.env)!;
    const bad = (await exec
      .shell({ ...request, cwd: "relative" })
      .catch((e: unknown) => e)) as ExecRequestError;
    expect([bad.status, bad.message]).toEqual([400, "POST /v1/shell: cwd must be an absolute VFS path"]);
    const huge = await exec
      .shell({ ...request, script: "x".repeat(17 * 1024 * 1024) })
      .catch((e: unknown) => e);
    expect(huge).toEqual(new ExecRequestError("The request body is over 16777216 bytes.", 413));
    expect((huge as ExecRequestError).status).toBe(413);
    const response = await fetch(`${process.env.STRATA_EXEC_URL}/v1/nothing`, {
      method: "POST",
      headers: { authorization: `Bearer ${process.env.STRATA_EXEC_TOKEN}` },
    });
    expect([response.status, await response.json()]).toEqual([
      404,
      { error: "No such execution endpoint: POST /v1/nothing" },
    ]);
  });
});
