import { describe, expect, it } from "vitest";
import { runShell } from "@/lib/tools/bash";
import { MemoryVfsStore } from "@/lib/vfs/memory-store";
import { Vfs } from "@/lib/vfs/vfs";

const ctx = () => ({
  fs: new Vfs(new MemoryVfsStore([{ path: "/p", kind: "dir" }])),
  cwd: "/p",
  projectRoot: "/p",
});

describe("shell limits (the interpreter shares the server's event loop)", () => {
  it("stops runaway loops and doubling strings with just-bash's messages and exit 126", async () => {
    expect(await runShell(ctx(), "for i in $(seq 1 20000); do echo line$i; done | tail -1")).toEqual({
      output: "bash: seq: iteration limit exceeded (10000)\n",
      exitCode: 126,
      timedOut: false,
      aborted: false,
    });
    expect((await runShell(ctx(), "x=ab; for i in $(seq 1 30); do x=$x$x; done; echo ${#x}")).output).toBe(
      "bash: word expansion: string length limit exceeded (67108864 bytes)\n",
    );
  });

  it("lets ordinary scripts through", async () => {
    expect(await runShell(ctx(), "for i in 1 2 3; do echo $i; done | tail -1")).toEqual({
      output: "3\n",
      exitCode: 0,
      timedOut: false,
      aborted: false,
    });
  });
});
