/**
 * The shell's `git` against real git on the same repository: a history of three commits made in the shell and
 * working changes of every kind (staged, unstaged, both, new, deleted, untracked file and directory); each
 * command's stdout, stderr and exit code in the shell equal real git's on a materialised copy of the tree.
 */
import { describe, expect, it } from "vitest";
import { dates, materialise, realGit, vfsRepo } from "./harness";

const LIB_V1 = `export function parse(input) {\n  const parts = input.split(",");\n  return parts.map((p) => p.trim());\n}\n\nexport function join(parts) {\n  return parts.join(", ");\n}\n\nfunction helper() {\n  return 1;\n}\n`;
const LIB_V2 = LIB_V1.replace(
  '  return parts.join(", ");',
  '  return parts.filter(Boolean).join(", ");',
).replace("  return 1;", "  return 2;");
const LIB_V3 = LIB_V2.replace("export function parse(input) {", 'export function parse(input = "") {');
const LIB_V4 = `${LIB_V3}\nexport const VERSION = 4;\n`;

/** Three commits made with the shell's git, then working changes. */
async function history() {
  const repo = await vfsRepo();
  const { vfs, sh } = repo;
  await vfs.writeFile("/proj/a.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n");
  await vfs.writeFile("/proj/src/lib.js", LIB_V1);
  await vfs.writeFile("/proj/README.md", "# Demo\n");
  // An executable file: recorded 100644, as git does with isomorphic-git's `core.filemode = false`.
  await vfs.writeFile("/proj/run.sh", "#!/bin/sh\necho hi\n", { mode: 0o100755 });
  expect(await sh("git add .", dates(1))).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  const first = await sh('git commit -m "Initial commit"', dates(1));
  expect(first.stderr).toBe("");
  expect(first.stdout).toMatch(
    /^\[main \(root-commit\) [0-9a-f]{7}\] Initial commit\n 4 files changed, 25 insertions\(\+\)\n create mode 100644 README.md\n create mode 100644 a\.txt\n create mode 100644 run\.sh\n create mode 100644 src\/lib\.js\n$/,
  );
  await vfs.writeFile("/proj/src/lib.js", LIB_V2);
  await vfs.writeFile("/proj/docs/guide.md", "Read me.\nTwice.\n");
  await sh("git add src docs", dates(2));
  await sh('git commit -m "Add the guide" -m "Also filter empty parts."', dates(2));
  await vfs.writeFile("/proj/a.txt", "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n");
  await vfs.unlink("/proj/README.md");
  await sh('git commit -am "Edit a, drop the readme"', dates(3));
  // Working changes: staged (M, A), staged then edited again (MM), unstaged (M, D), untracked file and directory.
  await vfs.writeFile("/proj/src/lib.js", LIB_V3);
  await vfs.writeFile("/proj/new.txt", "brand new\n");
  await sh("git add src/lib.js new.txt");
  await vfs.writeFile("/proj/src/lib.js", LIB_V4);
  await vfs.writeFile(
    "/proj/a.txt",
    "zero\none\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n",
  );
  await vfs.unlink("/proj/docs/guide.md");
  await vfs.writeFile("/proj/notes/todo.txt", "later\n");
  await vfs.writeFile("/proj/scratch.txt", "x\n");
  await vfs.writeFile("/proj/.gitignore", "*.log\n");
  await vfs.writeFile("/proj/debug.log", "ignored\n");
  await vfs.flush();
  return repo;
}

const COMMANDS = [
  "status",
  "status -s",
  "status --short --branch",
  "status --porcelain",
  "status -uno",
  "status -s -uall",
  "status --untracked-files=no --short",
  "status -s src notes",
  "status docs",
  "diff",
  "diff --staged",
  "diff --cached --stat",
  "diff HEAD",
  "diff HEAD~2 HEAD",
  "diff HEAD~2..HEAD --stat",
  "diff HEAD~1 HEAD --name-only",
  "diff HEAD~2 HEAD --name-status",
  "diff --numstat",
  "diff -U1",
  "diff --unified=0 HEAD~1",
  "diff --color=never --stat",
  "log -p -U1 -1",
  "log --author=Ada --oneline",
  "log --grep=guide --oneline",
  "log --grep=nothing-matches",
  "ls-files",
  "config user.name",
  "config core.bare",
  "config nope.key",
  "diff -- a.txt",
  "log",
  "log --oneline",
  "log -n 2 -- src/lib.js",
  "log -1 --oneline",
  "log --pretty=oneline",
  "log --format=%H%n%an%n%ae%n%ad%n%s%n%b%n--",
  "log --pretty=format:%h:%p:%t:%s:%cn",
  "log --pretty=short -n 1",
  "log --pretty=full -1",
  "log --format=%aI",
  "show -s --format=%H",
  "show --pretty=format:%s --stat HEAD~1",
  "log --stat",
  "show",
  "show HEAD~1",
  "show --stat HEAD~2",
  "show HEAD~2:src/lib.js",
  "rev-parse HEAD",
  "rev-parse --short HEAD",
  "rev-parse --abbrev-ref HEAD",
  "rev-parse HEAD~1",
  "branch",
  "log nope",
  "show HEAD:missing.txt",
  "frobnicate",
];

describe("git in the shell, compared with real git on the same repository", () => {
  it("status, diff, log, show, rev-parse and branch print what real git prints", async () => {
    const { vfs, sh } = await history();
    const dir = await materialise(vfs);
    for (const command of COMMANDS) {
      const mine = await sh(`git ${command}`);
      const real = realGit(dir, command.split(" "));
      expect(mine, `git ${command}`).toEqual(real);
    }
  });

  it("binary files, symlinks, mode changes, a file without a final newline, names git quotes", async () => {
    const { vfs, sh } = await vfsRepo();
    await vfs.writeFile("/proj/img.bin", new Uint8Array([0, 1, 2, 3, 255]));
    await vfs.writeFile("/proj/tool.sh", "echo tool\n");
    await vfs.writeFile("/proj/end.txt", "no newline");
    await vfs.writeFile("/proj/caf\u00e9 menu.txt", "soup\n");
    await vfs.symlink("tool.sh", "/proj/link");
    await sh('git add -A && git commit -qm "Binary, link, text"', dates(1));
    await vfs.writeFile("/proj/img.bin", new Uint8Array([0, 1, 2, 3, 4, 5]));
    await vfs.writeFile("/proj/tool.sh", "echo tool\n", { mode: 0o100755 });
    await vfs.writeFile("/proj/end.txt", "no newline, still");
    await vfs.writeFile("/proj/caf\u00e9 menu.txt", "soup\nbread\n");
    await vfs.unlink("/proj/link");
    await vfs.symlink("end.txt", "/proj/link");
    await vfs.flush();
    const dir = await materialise(vfs);
    for (const command of [
      "status",
      "status -s",
      "diff",
      "diff --stat",
      "diff --numstat",
      "diff --name-status",
    ]) {
      const mine = await sh(`git ${command}`);
      expect(mine, `git ${command}`).toEqual(realGit(dir, command.split(" ")));
    }
    const env = dates(2);
    expect(await sh('git commit -qam "All of it"', env)).toEqual(
      realGit(dir, ["commit", "-qam", "All of it"], env),
    );
    expect(await sh("git show --stat")).toEqual(realGit(dir, ["show", "--stat"]));
    expect(await sh("git rev-parse HEAD")).toEqual(realGit(dir, ["rev-parse", "HEAD"]));
    // With core.filemode true the executable bit counts: a mode change, as in git.
    await sh("git config core.filemode true");
    await vfs.writeFile("/proj/end.txt", "no newline, still", { mode: 0o100755 });
    await vfs.flush();
    const again = await materialise(vfs);
    for (const command of ["diff", "status -s", "diff --stat"])
      expect(await sh(`git ${command}`), `git ${command}`).toEqual(realGit(again, command.split(" ")));
  });

  it("from a subdirectory, status and diff show paths as real git does", async () => {
    const { vfs, sh } = await history();
    const dir = await materialise(vfs);
    for (const command of [
      "status",
      "status -s",
      "diff --stat",
      "log --oneline -- lib.js",
      "show HEAD:./lib.js",
    ]) {
      const mine = await sh(`git ${command}`, {}, "/proj/src");
      expect(mine, `git ${command}`).toEqual(realGit(dir, command.split(" "), {}, "src"));
    }
  });

  it("commit -am makes the commit real git makes: same message, same tree, same object id", async () => {
    const { vfs, sh } = await history();
    const dir = await materialise(vfs);
    const env = dates(4);
    const mine = await sh('git commit -am "Work in progress"', env);
    const real = realGit(dir, ["commit", "-am", "Work in progress"], env);
    expect(mine).toEqual(real);
    expect(mine.stdout).toMatch(
      /^\[main [0-9a-f]{7}\] Work in progress\n 4 files changed, 5 insertions\(\+\), 3 deletions\(-\)\n delete mode 100644 docs\/guide\.md\n create mode 100644 new\.txt\n$/,
    );
    const after = await materialise(vfs);
    for (const args of [
      ["cat-file", "-p", "HEAD"],
      ["cat-file", "-p", "HEAD^{tree}"],
      ["rev-parse", "HEAD"],
      ["status", "--porcelain"],
    ])
      expect(realGit(after, args), args.join(" ")).toEqual(realGit(dir, args));
    expect(realGit(after, ["fsck", "--strict"])).toMatchObject({ exitCode: 0 });
    // Nothing left to commit: git's status text on stdout, exit 1 — both.
    const again = await sh('git commit -am "Again"', dates(5));
    expect(again).toEqual(realGit(dir, ["commit", "-am", "Again"], dates(5)));
    expect(again.exitCode).toBe(1);
  });
});
