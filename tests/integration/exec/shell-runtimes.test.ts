/**
 * The shell's runtimes through the execution service (the one tests/global-setup.ts started, on the test
 * database): node/js-exec on QuickJS, python3 on CPython WASM, sqlite3 on database files of the VFS — outputs,
 * files written back to Postgres, runaway loops stopped at the runtime deadline (the command's CPU-time limit),
 * and the bash tool's view of it. The in-process shell (no service) has none of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbScope } from "@/lib/db/client";
import { createExecutor, type ExecClient } from "@/lib/exec/client";
import { NODE_VERSION_TEXT } from "@/lib/exec/service/node-command";
import type { ExecLimits, ShellExecRequest } from "@/lib/exec/types";
import { bashToolDescription, createBashTool, runShell } from "@/lib/tools/bash";
import { sandboxScript } from "@/lib/tools/bash-sandbox";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { projectWithFiles, readStored } from "./fixture";

let scope: DbScope;
let exec: ExecClient;
let target: Omit<ShellExecRequest, "script">;
let root: string;
let workspaceId: string;

const SCRIPT = `const fs = require("fs");
const lines = fs.readFileSync("data/numbers.txt", "utf8").trim().split("\\n").map(Number);
console.log(process.argv.slice(2).join("+"), lines.reduce((a, b) => a + b, 0));
`;

beforeAll(async () => {
  scope = new DbScope();
  exec = createExecutor(process.env)!;
  ({ workspaceId, root } = await projectWithFiles(scope, {
    "data/numbers.txt": "1\n2\n3\n4\n",
    "sum.js": SCRIPT,
    "main.js": 'import { twice } from "./lib.mjs";\nconsole.log(twice(21));\n',
    "lib.mjs": "export const twice = (n) => n * 2;\n",
    "cjs/main.js":
      'const { twice } = require("./lib");\nconst data = require("./data.json");\nconst util = require("./util");\nconsole.log(twice(21), data.name, util.shout("hi"), require.main === module, process.argv.slice(2));\n',
    "cjs/lib.js": "exports.twice = (n) => n * 2;\n",
    "cjs/data.json": '{ "name": "strata" }\n',
    "cjs/util/package.json": '{ "main": "src/shout.js" }\n',
    "cjs/util/src/shout.js":
      'const { twice } = require("../../lib.js");\nmodule.exports = { shout: (s) => s.toUpperCase() + "!".repeat(twice(1)) };\n',
    "cjs/missing.js": 'require("./nope");\n',
    "stats.py":
      "import sys, statistics\nprint(statistics.mean(int(x) for x in open('data/numbers.txt')), sys.argv[1:])\n",
  }));
  target = { workspaceId, projectRoot: root, cwd: root };
});
afterAll(() => scope.release());

const run = (script: string, limits?: Partial<ExecLimits>) => exec.shell({ ...target, script, limits });
const answer = async (script: string, limits?: Partial<ExecLimits>) => {
  const r = await run(script, limits);
  return [r.output, r.exitCode];
};

describe("node and js-exec (QuickJS)", () => {
  it("node FILE requires the project's own CommonJS modules as Node resolves them, from any directory", async () => {
    const out = '42 strata HI!! true ["x"]\n';
    expect(await answer("node cjs/main.js x")).toEqual([out, 0]);
    expect(await answer("cd cjs && node main.js x")).toEqual([out, 0]);
    const [text, code] = await answer("node cjs/missing.js");
    expect(code).toBe(1);
    expect(String(text)).toContain(`Cannot find module './nope'\nRequire stack:\n- ${root}/cjs/missing.js`);
  });

  it("node -e, node FILE ARGS reading a VFS file, -p, stdin, js-exec", async () => {
    expect(await answer("node -e 'console.log(1+1)'")).toEqual(["2\n", 0]);
    expect(await answer("node sum.js a b")).toEqual(["a+b 10\n", 0]);
    expect(await answer("node -p '6*7'")).toEqual(["42\n", 0]);
    expect(await answer("echo 'console.log(process.argv.slice(1))' | node - x")).toEqual(['["x"]\n', 0]);
    expect(await answer("js-exec -c 'console.log(process.argv)' q")).toEqual(['["node","q"]\n', 0]);
    expect(await answer("node -e 'process.exit(3)'")).toEqual(["", 3]);
    // Timers on a virtual clock (due order, no waiting) and process.stdout.write over console.log.
    expect(
      await answer(
        `node -e 'setTimeout(() => console.log("b"), 20); setTimeout(() => console.log("a"), 10); console.log("now")'`,
      ),
    ).toEqual(["now\na\nb\n", 0]);
    expect(
      await answer(
        `node -e '(async () => { await new Promise((r) => setTimeout(r, 1000)); process.stdout.write("a"); process.stdout.write("b\\nc"); })()'`,
      ),
    ).toEqual(["ab\nc\n", 0]);
    // A .js file written as an ES module runs as one (Node 22's syntax detection), importing a project file.
    expect(await answer("node main.js")).toEqual(["42\n", 0]);
  }, 60_000);

  it("node writes a file that Postgres holds afterwards; --version is honest; other flags are refused", async () => {
    const r = await run(`node -e 'require("fs").writeFileSync("out/js.txt", "from js\\n")'`);
    expect([r.output, r.exitCode]).toEqual(["", 0]);
    expect(r.changedPaths).toContain(`${root}/out/js.txt`);
    expect(await readStored(workspaceId, `${root}/out/js.txt`)).toBe("from js\n");
    expect(await answer("node --version")).toEqual([NODE_VERSION_TEXT, 0]);
    expect(NODE_VERSION_TEXT).toBe(
      "v22.0.0-quickjs (js-exec: QuickJS compiled to WebAssembly; not Node.js)\n",
    );
    expect(await answer("node --inspect sum.js")).toEqual([
      "node: bad option: --inspect\nStrata's node is js-exec on QuickJS: it takes -e/--eval CODE, -p/--print CODE, --input-type=module, -v/--version, -h/--help, a script file (or - for stdin) and its arguments.\n",
      9,
    ]);
  }, 60_000);
});

describe("python3 (CPython WASM)", () => {
  it("python3 -c, python3 FILE ARGS, python alias", async () => {
    expect(await answer("python3 -c 'print(sum(range(10)))'")).toEqual(["45\n", 0]);
    expect(await answer("python3 stats.py x y")).toEqual(["2.5 ['x', 'y']\n", 0]);
    expect(await answer("python --version")).toEqual(["Python 3.13.2 (Emscripten)\n", 0]);
  }, 60_000);

  it("a file python3 writes is in the VFS and in Postgres", async () => {
    const r = await run(`python3 -c 'open("out/py.txt", "w").write("from python\\n")' && cat out/py.txt`);
    expect([r.output, r.exitCode]).toEqual(["from python\n", 0]);
    expect(r.changedPaths).toContain(`${root}/out/py.txt`);
    expect(await readStored(workspaceId, `${root}/out/py.txt`)).toBe("from python\n");
  }, 60_000);
});

describe("sqlite3 (sql.js) on database files of the VFS", () => {
  it("create, insert, select; the database file persists and a later command reads it", async () => {
    const created = await run(
      `sqlite3 app.db "create table users(id integer primary key, name text); insert into users(name) values ('ada'), ('linus'); select id, name from users order by id;"`,
    );
    expect([created.output, created.exitCode]).toEqual(["1|ada\n2|linus\n", 0]);
    expect(created.changedPaths).toContain(`${root}/app.db`);
    const later = await run(
      `sqlite3 -header -csv app.db "select count(*) as n from users"; ls -l app.db | cut -c1-10`,
    );
    expect([later.output, later.exitCode]).toEqual(["n\n2\n-rw-r--r--\n", 0]);
    // The image in Postgres is a SQLite 3 database.
    expect((await readStored(workspaceId, `${root}/app.db`))?.slice(0, 15)).toBe("SQLite format 3");
  }, 60_000);
});

describe("runaway runtimes stop at the command's CPU-time limit", () => {
  it("while True: pass in python3, for(;;){} in node, a recursive query in sqlite3", async () => {
    const limits = { cpuMs: 1500 };
    // The runtime's host side may time its worker out in the same moment (a loaded machine): its line comes first.
    const [py, pyCode] = await answer("python3 -c 'while True: pass'", limits);
    expect([py, pyCode]).toEqual([
      expect.stringMatching(
        /^(\npython3: execution timeout exceeded\n)?python3: Execution timeout: exceeded 1500ms limit\n$/,
      ),
      124,
    ]);
    const [js, code] = await answer("node -e 'for(;;){}'", limits);
    expect([js, code]).toEqual([
      expect.stringMatching(
        /^(\njs-exec: execution timeout exceeded\n)?js-exec: Execution timeout: exceeded 1500ms limit\n$/,
      ),
      124,
    ]);
    expect(
      await answer(
        `sqlite3 :memory: "with recursive c(x) as (select 1 union all select x+1 from c) select count(*) from c"`,
        limits,
      ),
    ).toEqual(["sqlite3: Query timeout: exceeded 1500ms limit\n", 1]);
    // The service goes on: the next command answers.
    expect(await answer("node -e 'console.log(\"next\")'")).toEqual(["next\n", 0]);
  }, 60_000);
});

describe("what the shell does not have", () => {
  it("npm and pip are not found, with the note naming the runtimes; the runtimes see only the project", async () => {
    expect(await answer("pip install requests")).toEqual([
      "bash: pip: command not found\nStrata's shell is simulated: no npm, npx, pip, network or host programs. Available: ls, cat, grep, rg, find, sed, awk, jq, diff, mkdir, cp, mv, rm, git, node, python3, sqlite3 and 68 more.\n",
      127,
    ]);
    expect(await answer(`node -e 'fetch("http://127.0.0.1:1").catch(e => console.log(e.message))'`)).toEqual([
      "Network access not configured. Enable network in Bash options.\n",
      0,
    ]);
    // The runtimes see only the project's files.
    const passwd = await run(`python3 -c 'print(open("/etc/passwd").read())'`);
    expect([
      passwd.output.endsWith("OSError: [Errno 29] I/O error: '/host/etc/passwd'\n"),
      passwd.exitCode,
    ]).toEqual([true, 1]);
    expect(await answer(`node -e 'require("fs").readFileSync("/etc/passwd", "utf8")'`)).toEqual([
      `at <anonymous> (<compat>:49:19): Path "<path>" is outside the project root ${root}\n`,
      1,
    ]);
    // With the sandbox on, the runtimes go there (its routing: sandbox-routing.test.ts); shell commands stay here.
    for (const command of ["node -e 1", "python3 -c 1", "npm test"])
      expect(sandboxScript(command)).toBe(command);
    expect(sandboxScript("ls && git status")).toBeUndefined();
  }, 60_000);
});

describe("Strata's own commands in the service's Node build", () => {
  it("git sees what python3 wrote and commits it (git reaches the repository behind the adapter)", async () => {
    const fresh = await projectWithFiles(scope, { "a.txt": "a\n" });
    const at = { workspaceId: fresh.workspaceId, projectRoot: fresh.root, cwd: fresh.root };
    const shell = async (script: string) => {
      const r = await exec.shell({ ...at, script });
      return [r.output, r.exitCode];
    };
    expect(await shell(`python3 -c 'open("b.txt", "w").write("b\\n")' && git status --short`)).toEqual([
      "?? b.txt\n",
      0,
    ]);
    expect(
      await shell("git add b.txt && git commit -qm 'add b' && git log --oneline | wc -l && rm a.txt && ls"),
    ).toEqual(["2\nb.txt\n", 0]);
  }, 60_000);
});

describe("the bash tool's view", () => {
  it("with the service the description names the runtimes and python3 answers; in process runShell refuses them", async () => {
    const s = new DbScope();
    try {
      const { vfs } = openWorkspaceVfs(workspaceId, s);
      const ctx = { fs: vfs, cwd: root, projectRoot: root };
      const absorbed: string[][] = [];
      const toolExec = {
        executor: exec,
        workspaceId,
        sandbox: false,
        sync: async () => void (await vfs.flush()),
        absorb: async (paths: string[]) => void absorbed.push(paths),
      };
      const bash = createBashTool({ ...ctx, exec: toolExec });
      expect(bash.description).toBe(bashToolDescription({ runtimes: true, sandbox: false }));
      expect(bash.description).toContain(
        "python3 and python run CPython 3.13 on WebAssembly (python3 -c CODE, python3 FILE, python3 -m MODULE; the script's directory or the working directory is on sys.path; standard library only",
      );
      expect(createBashTool(ctx).description).toBe(bashToolDescription());
      const out = await bash.execute("t", { command: "python3 -c 'print(sum(range(10)))'" });
      expect(out.content).toEqual([{ type: "text", text: "45\n" }]);
      await expect(runShell(ctx, "python3 -c 1", { capabilities: { python: true } })).rejects.toThrow(
        "runShell: python needs the Node runner (createShell: runtimeShell from lib/exec/service/shell-runtimes.ts)",
      );
    } finally {
      await s.release();
    }
  }, 60_000);
});
