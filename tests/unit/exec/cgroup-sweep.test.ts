/**
 * The sweep at an execution service's start removes only the command groups of services that are gone: a running
 * service's group is empty between its creation and its command joining it, and a sweep that removed it then made
 * that command run without its limits ("cannot create …/cgroup.procs: Directory nonexistent" in the output).
 */
import { describe, expect, it } from "vitest";
import { staleCommandGroups } from "@/lib/exec/service/sandbox/cgroup";

describe("staleCommandGroups", () => {
  it("chooses the groups whose service's pid is gone, never a live service's nor a name of another shape", () => {
    const alive = new Set([100, process.pid]);
    const names = [
      "cmd-100-0a1b2c3d4e5f",
      `cmd-${process.pid}-abcdef012345`,
      "cmd-4242-0123456789ab",
      "cmd-77-ffffffffffff",
      "cmd-0a1b2c3d4e5f",
      "strata-other",
      "cmd-12-not-hex",
    ];
    expect(staleCommandGroups(names, (pid) => alive.has(pid))).toEqual([
      "cmd-4242-0123456789ab",
      "cmd-77-ffffffffffff",
    ]);
  });
});
