import { describe, expect, it } from "vitest";
import { executeUserBash } from "@/lib/agent-session/user-bash";
import { commandNotFoundNote } from "@/lib/exec/shell/commands";
import { createBashTool } from "@/lib/tools/bash";
import { project } from "../tools/fixture";

/** The in-process shell (no execution service in these contexts): no runtimes. */
const NOTE =
  "Strata's shell is simulated: no npm, npx, pip, network or host programs; node, python3 and sqlite3 need the execution service (npm start). Available: ls, cat, grep, rg, find, sed, awk, jq, diff, mkdir, cp, mv, rm, git and 66 more.";

describe("a command the simulated shell does not have", () => {
  it("the bash tool answers bash's not-found line, the note and pi's exit-code status", async () => {
    expect(commandNotFoundNote()).toBe(NOTE);
    const bash = createBashTool(await project());
    await expect(bash.execute("t", { command: "npm install" })).rejects.toThrow(
      new Error(`bash: npm: command not found\n${NOTE}\n\n\nCommand exited with code 127`),
    );
  });

  it("a later command still runs; the note comes once, after the first missing command", async () => {
    const bash = createBashTool(await project({ "a.txt": "hi\n" }));
    const out = await bash.execute("t", { command: "cargo build; node -v; cat a.txt" });
    // stdout first, then stderr (Strata's bash); the last command succeeded, so exit 0.
    expect(out.content).toEqual([
      { type: "text", text: `hi\nbash: cargo: command not found\n${NOTE}\nbash: node: command not found\n` },
    ]);
  });

  it("a redirected not-found stays silent (2>/dev/null), and python3 reads like bash's", async () => {
    const bash = createBashTool(await project());
    const out = await bash.execute("t", { command: "npm 2>/dev/null; echo $?" });
    expect(out.content).toEqual([{ type: "text", text: "127\n" }]);
    await expect(bash.execute("t", { command: "python3 -c 1" })).rejects.toThrow(
      new Error(`bash: python3: command not found\n${NOTE}\n\n\nCommand exited with code 127`),
    );
  });

  it("the user's !command stores the same output and exit code 127", async () => {
    const ctx = await project();
    const message = await executeUserBash(
      ctx,
      { command: "npm install", excludeFromContext: false },
      { now: () => 5 },
    );
    expect(message).toEqual({
      role: "bashExecution",
      command: "npm install",
      output: `bash: npm: command not found\n${NOTE}\n`,
      exitCode: 127,
      cancelled: false,
      truncated: false,
      timestamp: 5,
    });
  });
  it("a file holding a not-found line comes back byte for byte; a real missing command still gets the note", async () => {
    const browserLine =
      "bash: tar: command not available in browser environments. Exclude 'tar' from your commands or use the Node.js bundle.\n";
    const log = `${browserLine}bash: npm: command not found\nend\n`;
    const ctx = await project({ "log.txt": log });
    const bash = createBashTool(ctx);
    expect((await bash.execute("t", { command: "cat log.txt" })).content).toEqual([
      { type: "text", text: log },
    ]);
    const message = await executeUserBash(
      ctx,
      { command: "cat log.txt", excludeFromContext: false },
      { now: () => 7 },
    );
    expect(message).toMatchObject({ output: log, exitCode: 0 });
    // A file and a real missing command in one run: only the shell's own stderr line gets the note.
    await expect(bash.execute("t", { command: "cat log.txt; npm install" })).rejects.toThrow(
      new Error(`${log}bash: npm: command not found\n${NOTE}\n\n\nCommand exited with code 127`),
    );
    const npm = await executeUserBash(
      ctx,
      { command: "npm install", excludeFromContext: false },
      { now: () => 8 },
    );
    expect(npm).toMatchObject({ output: `bash: npm: command not found\n${NOTE}\n`, exitCode: 127 });
  });

  it("a program's own stderr naming a command the shell has is left alone", async () => {
    const bash = createBashTool(await project());
    const out = await bash.execute("t", { command: "echo 'bash: ls: command not found' >&2" });
    expect(out.content).toEqual([{ type: "text", text: "bash: ls: command not found\n" }]);
  });
});
