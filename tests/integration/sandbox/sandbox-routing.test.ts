/** Which bash commands go to the sandbox when it is on (lib/tools/bash-sandbox.ts `sandboxScript`). */
import { describe, expect, it } from "vitest";
import { firstWord, sandboxScript } from "@/lib/tools/bash-sandbox";

describe("sandboxScript", () => {
  it("routes a first word the simulated shell lacks, unchanged", () => {
    for (const command of [
      "npm test",
      "npx vitest run",
      "pytest -q",
      "cargo test",
      "make",
      "yarn build",
      "go test ./...",
    ])
      expect(sandboxScript(command)).toBe(command);
    expect(sandboxScript("CI=1 NODE_ENV=test npm test")).toBe("CI=1 NODE_ENV=test npm test");
    expect(sandboxScript("  npm test && echo ok")).toBe("  npm test && echo ok");
  });

  it("routes a command any part of which needs it: after cd, in a pipe, after a keyword, on a later line", () => {
    for (const command of [
      "cd src && npm test",
      "cd pkg; make",
      "echo 1 | python3 -c 'print(input())'",
      "if [ -f setup.py ]; then python3 -m unittest; fi",
      "ls\npytest -q",
      "(cd a && cargo test)",
    ])
      expect(sandboxScript(command)).toBe(command);
  });

  it("routes the language runtimes, which the simulated shell has only as WebAssembly/QuickJS builds", () => {
    for (const command of [
      "python3 -m unittest discover -s tests",
      "python main.py",
      "node test.js",
      "pip install -r requirements.txt",
      "sqlite3 a.db .tables",
    ])
      expect(sandboxScript(command)).toBe(command);
  });

  it("routes `sandbox <command>` without the prefix", () => {
    expect(sandboxScript("sandbox cd pkg && npm test")).toBe("cd pkg && npm test");
    expect(sandboxScript("sandbox node test.js")).toBe("node test.js");
    // Only the word itself is the prefix; another unknown word is routed as it is.
    expect(sandboxScript("sandboxes")).toBe("sandboxes");
  });

  it("keeps the simulated shell's commands and builtins there", () => {
    for (const command of [
      "ls -la",
      "cat a.txt | grep x",
      "git status",
      "cd src && ls",
      'echo "a; npm test"',
      "echo 'x | pytest'",
      "echo a\\;b",
      "echo hi",
      "for f in *; do echo $f; done",
      "X=1 ls",
      "./run.sh",
      "# a comment",
      "",
    ])
      expect(sandboxScript(command)).toBeUndefined();
  });

  it("firstWord skips assignments", () => {
    expect(firstWord("A=1 B=2 make all")).toBe("make");
    expect(firstWord("   ")).toBeUndefined();
  });
});
