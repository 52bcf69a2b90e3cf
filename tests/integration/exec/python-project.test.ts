/**
 * Python runs with the project's files where a user expects them (issue: `from helper import answer` next
 * to `main.py` failed with ModuleNotFoundError; `python3 -m unittest discover -s tests` ran 2 tests and errored): the
 * script's own directory and the working directory on the module path, packages importable, `-m` and `-c` working,
 * `__file__` and `sys.argv` as CPython sets them, a traceback naming the user's file only. Through the execution
 * service, on the VFS. (node's relative ESM imports: shell-runtimes.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbScope } from "@/lib/db/client";
import { createExecutor, type ExecClient } from "@/lib/exec/client";
import type { ShellExecRequest } from "@/lib/exec/types";
import { projectWithFiles } from "./fixture";

let scope: DbScope;
let exec: ExecClient;
let target: Omit<ShellExecRequest, "script">;
let root: string;

const TEST_CORE = `import unittest
from pkg.core import VALUE, double

class CoreTest(unittest.TestCase):
    def test_value(self):
        self.assertEqual(VALUE, 42)

    def test_double(self):
        self.assertEqual(double(4), 8)
`;
const TEST_HELPER = `import unittest
from helper import answer

class HelperTest(unittest.TestCase):
    def test_answer(self):
        self.assertEqual(answer(), "forty-two")
`;

beforeAll(async () => {
  scope = new DbScope();
  exec = createExecutor(process.env)!;
  let workspaceId: string;
  ({ root, workspaceId } = await projectWithFiles(scope, {
    "main.py": "import sys\nfrom helper import answer\nprint(answer(), sys.argv, __name__)\n",
    "helper.py": 'def answer():\n    return "forty-two"\n',
    "app/run.py": "from util import shout\nprint(shout('hi'), __file__)\n",
    "app/util.py": "def shout(s):\n    return s.upper() + '!'\n",
    "pkg/__init__.py": "",
    "pkg/core.py":
      "VALUE = 42\ndef double(n):\n    return n * 2\nif __name__ == '__main__':\n    import sys\n    print('core main', sys.argv[1:])\n",
    "tests/test_core.py": TEST_CORE,
    "tests/test_helper.py": TEST_HELPER,
    "boom.py": "def f():\n    raise ValueError('bad input')\nf()\n",
  }));
  target = { workspaceId, projectRoot: root, cwd: root };
});
afterAll(() => scope.release());

const answer = async (script: string, cwd = root) => {
  const r = await exec.shell({ ...target, cwd, script });
  return [r.output, r.exitCode];
};

describe("python3 with the project's files", () => {
  it("imports a sibling module of the script, with CPython's argv and __name__", async () => {
    expect(await answer("python3 main.py a b")).toEqual(["forty-two ['main.py', 'a', 'b'] __main__\n", 0]);
    expect(await answer("python main.py")).toEqual(["forty-two ['main.py'] __main__\n", 0]);
  });

  it("puts the script's own directory first, from any working directory", async () => {
    expect(await answer("python3 app/run.py")).toEqual([`HI! ${root}/app/run.py\n`, 0]);
    expect(await answer("python3 run.py", `${root}/app`)).toEqual([`HI! ${root}/app/run.py\n`, 0]);
  });

  it("imports packages of the working directory with -c and stdin, and runs one with -m", async () => {
    expect(await answer("python3 -c 'import pkg.core, sys; print(pkg.core.VALUE, sys.argv)' x")).toEqual([
      "42 ['-c', 'x']\n",
      0,
    ]);
    expect(await answer("echo 'from pkg.core import double; print(double(5))' | python3")).toEqual([
      "10\n",
      0,
    ]);
    expect(await answer("python3 -m pkg.core one two")).toEqual(["core main ['one', 'two']\n", 0]);
  });

  it("runs every test of the project with unittest discover", async () => {
    const [output, code] = await answer("python3 -m unittest discover -s tests");
    expect(code).toBe(0);
    expect(String(output)).toMatch(/^\.\.\.\n-{70}\nRan 3 tests in \d+\.\d{3}s\n\nOK\n$/);
  });

  it("shows a traceback of the user's frames only, and CPython's message for a missing script", async () => {
    const [output, code] = await answer("python3 boom.py");
    expect(code).toBe(1);
    expect(output).toBe(
      [
        "Traceback (most recent call last):",
        `  File "${root}/boom.py", line 3, in <module>`,
        "    f()",
        "    ~^^",
        `  File "${root}/boom.py", line 2, in f`,
        "    raise ValueError('bad input')",
        "ValueError: bad input",
        "",
      ].join("\n"),
    );
    expect(await answer("python3 nope.py")).toEqual([
      `python3: can't open file '${root}/nope.py': [Errno 2] No such file or directory\n`,
      2,
    ]);
  });
});
