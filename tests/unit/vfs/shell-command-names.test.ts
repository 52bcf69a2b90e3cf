import { getCommandNames } from "just-bash/browser";
import { describe, expect, it } from "vitest";
import { bashToolDescription } from "@/lib/tools/bash";
import { commandNotFoundNote, explainMissingCommands, shellCommandNames } from "@/lib/vfs/bash-commands";
import { SHELL_COMMAND_NAMES } from "@/lib/vfs/shell-command-names";

const NOTE =
  "Strata's shell is simulated: no npm, node, python or network. Available: ls, cat, grep, rg, find, sed, awk, jq, diff, mkdir, cp, mv, rm and 67 more.";

describe("shell command names", () => {
  it("are exactly just-bash's registered commands plus Strata's rm, ln and git, sorted", () => {
    const expected = [...new Set([...getCommandNames(), "rm", "ln", "git"])].sort();
    expect(shellCommandNames()).toEqual(expected);
    expect(shellCommandNames()).toHaveLength(80);
    for (const missing of ["npm", "node", "python3", "curl", "tar", "sqlite3"])
      expect(shellCommandNames()).not.toContain(missing);
  });

  it("the browser copy equals the derived list (paste the printed list into lib/vfs/shell-command-names.ts)", () => {
    expect(
      [...SHELL_COMMAND_NAMES],
      `SHELL_COMMAND_NAMES drifted: ${JSON.stringify(shellCommandNames())}`,
    ).toEqual(shellCommandNames());
  });

  it("the bash tool description keeps pi's text and appends the list", () => {
    const pi =
      "Execute a bash command in the current working directory. Returns stdout and stderr. Output is truncated to last 2000 lines or 50KB (whichever is hit first). If truncated, full output is saved to a temp file. Optionally provide a timeout in seconds.";
    expect(bashToolDescription(["cat", "ls"])).toBe(
      `${pi} In Strata this is a simulated shell (just-bash) over the project's files, without npm, node, python, git or network access; its commands are cat, ls, plus shell builtins such as cd, export, source and test.`,
    );
    expect(bashToolDescription()).toContain(`its commands are ${shellCommandNames().join(", ")}, plus`);
  });
});

describe("command not found note", () => {
  it("has the exact text", () => {
    expect(commandNotFoundNote()).toBe(NOTE);
    expect(commandNotFoundNote(["cat", "ls", "zcat"])).toBe(
      "Strata's shell is simulated: no npm, node, python or network. Available: ls, cat and 1 more.",
    );
  });

  it("follows the first not-found line only", () => {
    expect(explainMissingCommands("bash: npm: command not found\nbash: cargo: command not found\n")).toBe(
      `bash: npm: command not found\n${NOTE}\nbash: cargo: command not found\n`,
    );
    expect(explainMissingCommands("a\nb\n")).toBe("a\nb\n");
    expect(explainMissingCommands("")).toBe("");
  });

  it("rewrites just-bash's browser-bundle answer to bash's", () => {
    expect(
      explainMissingCommands(
        "bash: python3: command not available in browser environments. Exclude 'python3' from your commands or use the Node.js bundle.\n",
      ),
    ).toBe(`bash: python3: command not found\n${NOTE}\n`);
  });
});
