import { getCommandNames } from "just-bash/browser";
import { describe, expect, it } from "vitest";
import { SHELL_HINT, SHELL_HINT_TITLE } from "@/components/chat/shell-hint";
import {
  commandNotFoundNote,
  explainMissingCommands,
  runtimeCommandNames,
  SERVICE_CAPABILITIES,
  shellCommandNames,
} from "@/lib/exec/shell/commands";
import { bashToolDescription } from "@/lib/tools/bash";
import { SANDBOX_DESCRIPTION_NOTE } from "@/lib/tools/bash-sandbox";
import { SHELL_COMMAND_NAMES, SHELL_RUNTIME_COMMAND_NAMES } from "@/lib/vfs/shell-command-names";

/** The in-process shell's note (no runtimes). */
const NOTE =
  "Strata's shell is simulated: no npm, npx, pip, network or host programs; node, python3 and sqlite3 need the execution service (npm start). Available: ls, cat, grep, rg, find, sed, awk, jq, diff, mkdir, cp, mv, rm, git and 66 more.";
/** The execution service's note (with node, python3, sqlite3). */
const SERVICE_NOTE =
  "Strata's shell is simulated: no npm, npx, pip, network or host programs. Available: ls, cat, grep, rg, find, sed, awk, jq, diff, mkdir, cp, mv, rm, git, node, python3, sqlite3 and 68 more.";
const PI =
  "Execute a bash command in the current working directory. Returns stdout and stderr. Output is truncated to last 2000 lines or 50KB (whichever is hit first). If truncated, full output is saved to a temp file. Optionally provide a timeout in seconds.";
const SHELL = (names: string) =>
  `In Strata this is a simulated shell (just-bash) over the project's files, not a host shell; its commands are ${names}, plus shell builtins such as cd, export, source and test. git works on the project's repository (status, diff, log, show, add, commit, branch, checkout, switch, restore, rev-parse, init).`;
const RUNTIMES =
  "node and js-exec run JavaScript on QuickJS (node -e CODE, node FILE ARGS; synchronous fs, path, child_process and other core modules; the project's own modules by import and, from a script file, by require; no npm packages; timers do not wait); python3 and python run CPython 3.13 on WebAssembly (python3 -c CODE, python3 FILE, python3 -m MODULE; the script's directory or the working directory is on sys.path; standard library only: no pip, no sqlite3 module, no subprocess or threads); sqlite3 runs SQL on database files in the project (sqlite3 FILE 'SQL'; no dot-commands such as .tables). The simulated shell has no npm, npx or pip, no network access and no host programs.";

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

  it("the browser copy of the runtimes' commands and the composer's hint", () => {
    expect([...SHELL_RUNTIME_COMMAND_NAMES]).toEqual(runtimeCommandNames(SERVICE_CAPABILITIES));
    expect(SHELL_HINT).toBe(
      "Simulated shell: ls, grep, git, node, python3, sqlite3… (hover for all), no npm, pip or network · Enter to run the command · Shift+Enter for a new line",
    );
    expect(SHELL_HINT_TITLE).toBe(
      `The project shell is simulated (just-bash on the project files). Commands: ${shellCommandNames().join(" ")}. Runtimes (in the execution service): js-exec node python python3 sqlite3 (JavaScript on QuickJS, Python 3.13 standard library, SQLite; no npm or pip packages, no network). Builtins: cd, export, source, test and more (run !help).`,
    );
  });

  it("with the runtimes: node, js-exec, python, python3 and sqlite3 more", () => {
    expect(runtimeCommandNames(SERVICE_CAPABILITIES)).toEqual([
      "js-exec",
      "node",
      "python",
      "python3",
      "sqlite3",
    ]);
    expect(runtimeCommandNames({ python: true })).toEqual(["python", "python3"]);
    expect(shellCommandNames(SERVICE_CAPABILITIES)).toEqual(
      [...shellCommandNames(), "js-exec", "node", "python", "python3", "sqlite3"].sort(),
    );
    expect(shellCommandNames(SERVICE_CAPABILITIES)).toHaveLength(85);
  });

  it("the bash tool description keeps pi's text, then says what exists and what does not", () => {
    expect(bashToolDescription({ runtimes: false, sandbox: false, names: ["cat", "ls"] })).toBe(
      `${PI} ${SHELL("cat, ls")} The simulated shell has no node, python, sqlite3, npm, npx or pip, no network access and no host programs.`,
    );
    expect(bashToolDescription({ runtimes: true, sandbox: false, names: ["cat", "ls"] })).toBe(
      `${PI} ${SHELL("cat, ls")} ${RUNTIMES}`,
    );
    expect(bashToolDescription({ runtimes: true, sandbox: true, names: ["cat", "ls"] })).toBe(
      `${PI} ${SHELL("cat, ls")} ${RUNTIMES} Commands that use a language runtime or a program the simulated shell lacks (python3, node, npm, npx, pytest, cargo, make, …) run in an isolated Linux sandbox on a copy of the project's files, without network; files they change are written back.`,
    );
    expect(SANDBOX_DESCRIPTION_NOTE).toBe(
      "Commands that use a language runtime or a program the simulated shell lacks (python3, node, npm, npx, pytest, cargo, make, …) run in an isolated Linux sandbox on a copy of the project's files, without network; files they change are written back.",
    );
    expect(bashToolDescription()).toBe(
      `${PI} ${SHELL(shellCommandNames().join(", "))} The simulated shell has no node, python, sqlite3, npm, npx or pip, no network access and no host programs.`,
    );
    // The word the sandbox note brings is in no other description.
    expect(bashToolDescription({ runtimes: true, sandbox: false })).not.toContain("sandbox");
  });
});

describe("command not found note", () => {
  it("has the exact text", () => {
    expect(commandNotFoundNote()).toBe(NOTE);
    expect(commandNotFoundNote(shellCommandNames(SERVICE_CAPABILITIES))).toBe(SERVICE_NOTE);
    expect(commandNotFoundNote(["cat", "ls", "zcat"])).toBe(
      "Strata's shell is simulated: no npm, npx, pip, network or host programs; node, python3 and sqlite3 need the execution service (npm start). Available: ls, cat and 1 more.",
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
