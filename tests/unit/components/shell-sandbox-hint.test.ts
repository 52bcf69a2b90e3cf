import { describe, expect, it } from "vitest";
import { SANDBOX_HINT, sandboxHint } from "@/components/chat/shell-block";
import type { BashExecutionMessage } from "@/lib/agent/messages";

const message = (output: string, exitCode: number | undefined): BashExecutionMessage => ({
  role: "bashExecution",
  command: "npm test",
  output,
  exitCode,
  cancelled: false,
  truncated: false,
  timestamp: 0,
});

describe("the sandbox hint under a !command", () => {
  const note =
    "bash: npm: command not found\nStrata's shell is simulated: no npm, npx, pip, network or host programs. Available: ls and 70 more.\n";
  it("shows for a command the simulated shell lacks (exit 127 with Strata's note)", () => {
    expect(sandboxHint(message(note, 127))).toBe(true);
  });
  it("does not show for other failures or a program printing the note with another exit code", () => {
    expect(sandboxHint(message("bash: foo: No such file\n", 127))).toBe(false);
    expect(sandboxHint(message(note, 1))).toBe(false);
    expect(sandboxHint(message(note, undefined))).toBe(false);
  });
  it("says where to turn the sandbox on", () => {
    expect(SANDBOX_HINT).toBe(
      "npm, npx, pytest and other programs run in the workspace's sandbox once a workspace owner turns it on: Workspace settings → Run the project's code. Then run the command again (or prefix it with sandbox).",
    );
  });
});
