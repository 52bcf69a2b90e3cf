/** Which bash commands go to the sandbox when it is on (lib/tools/bash-sandbox.ts `sandboxScript`). */
import { describe, expect, it } from "vitest";
import { programOf, sandboxScript } from "@/lib/tools/bash-sandbox";

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

  it("routes a runtime started through env, command, nohup, nice, timeout or xargs", () => {
    for (const command of [
      "env node test.js",
      "env -i PATH=/usr/bin FOO=1 node t.js",
      "env -u HOME python3 -V",
      "command python3 main.py",
      "command -p node -e 1",
      "nohup python3 serve.py",
      "nice -n 5 make",
      "timeout 60 npm test",
      "timeout -s KILL -k 5 30 pytest -q",
      "find . -name '*.py' | xargs -n 1 python3",
      "cd tests && env CI=1 npm test",
    ])
      expect(sandboxScript(command)).toBe(command);
    for (const command of ["env", "env FOO=1 ls", "command -v ls", "timeout 5 cat a.txt", "nohup echo hi"])
      expect(sandboxScript(command)).toBeUndefined();
  });

  it("programOf skips keywords, assignments and wrappers with their options", () => {
    expect(programOf("A=1 B=2 make all")).toBe("make");
    expect(programOf("then env -u X FOO=1 timeout 5 node t.js")).toBe("node");
    expect(programOf("timeout -- 5 npm test")).toBe("npm");
    expect(programOf("   ")).toBeUndefined();
  });
});
