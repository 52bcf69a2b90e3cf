import { describe, expect, it } from "vitest";
import { runShell } from "@/lib/tools/bash";
import { ProjectBashFs } from "@/lib/vfs/bash-fs";
import { MemoryVfsStore } from "@/lib/vfs/memory-store";
import { Vfs } from "@/lib/vfs/vfs";

const ctx = () => ({
  fs: new Vfs(new MemoryVfsStore([{ path: "/p", kind: "dir" }])),
  cwd: "/p",
  projectRoot: "/p",
});

describe("the shell shares the event loop", () => {
  it("lets a timer set before a long write loop fire while the loop runs, and finishes the loop", async () => {
    const c = ctx();
    const events: string[] = [];
    const shell = runShell(c, "for i in $(seq 1 3000); do echo $i > f_x; done; echo done").then((run) => {
      events.push("shell");
      return run;
    });
    setTimeout(() => events.push("timer"), 0);
    expect(await shell).toEqual({ output: "done\n", exitCode: 0, timedOut: false, aborted: false });
    expect(events).toEqual(["timer", "shell"]);
    expect(await c.fs.readText("/p/f_x")).toBe("3000\n");
  });

  it("lets a timer fire during a pipeline of external commands", async () => {
    const events: string[] = [];
    const shell = runShell(ctx(), "seq 1 3000 | while read i; do echo $i; done | tail -1").then((run) => {
      events.push("shell");
      return run;
    });
    setTimeout(() => events.push("timer"), 0);
    expect(await shell).toEqual({ output: "3000\n", exitCode: 0, timedOut: false, aborted: false });
    expect(events).toEqual(["timer", "shell"]);
  });

  it("answers `exists` outside the root with false (just-bash's PATH probes) and still refuses reads there", async () => {
    const fs = new ProjectBashFs(ctx().fs, "/p");
    expect(await fs.exists("/usr/bin/echo")).toBe(false);
    expect(await fs.exists("/p/../etc/passwd")).toBe(false);
    await expect(fs.readFile("/etc/passwd")).rejects.toMatchObject({ code: "EACCES" });
  });
});
