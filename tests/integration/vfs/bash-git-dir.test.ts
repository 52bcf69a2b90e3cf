/**
 * The project's `.git` is read-only for the shell also through symlinks (in any path component, the
 * final one and chains of them), `rm -f` reports the refusal, and `ln` names the refused target.
 */
import { describe, expect, it } from "vitest";
import { createBashTool, runShell } from "@/lib/tools/bash";
import { ProjectBashFs } from "@/lib/vfs/bash-fs";
import { project, ROOT } from "../tools/fixture";

const refusal = (path: string) =>
  `EACCES: permission denied, '${path}' (the repository's .git directory is managed by Strata)`;
const HEAD = "ref: refs/heads/main\n";
const MAIN = "abc\n";

/** A project with a `.git`, `g -> .git`, `g2 -> g`, `h -> .git/HEAD` and a dangling `dang -> .git/nope`. */
async function repo() {
  const ctx = await project({ ".git/HEAD": HEAD, ".git/refs/heads/main": MAIN, "a.txt": "a" });
  await ctx.fs.symlink(".git", `${ROOT}/g`);
  await ctx.fs.symlink("g", `${ROOT}/g2`);
  await ctx.fs.symlink(".git/HEAD", `${ROOT}/h`);
  await ctx.fs.symlink(".git/nope", `${ROOT}/dang`);
  const gitPaths = async () => (await ctx.fs.walk(`${ROOT}/.git`)).map((e) => e.path);
  const before = await gitPaths();
  const unchanged = async () => {
    expect(await gitPaths()).toEqual(before);
    expect(await ctx.fs.readText(`${ROOT}/.git/HEAD`)).toBe(HEAD);
    expect(await ctx.fs.readText(`${ROOT}/.git/refs/heads/main`)).toBe(MAIN);
  };
  return { ctx, unchanged };
}

describe("runShell: writes through symlinks into .git are refused", () => {
  const aborting: [string, string][] = [
    ["ln -s .git/HEAD hh; echo evil > hh", `${ROOT}/.git/HEAD`],
    [
      "ln -s .git/refs/heads/main m; echo 0000000000000000000000000000000000000000 > m",
      `${ROOT}/.git/refs/heads/main`,
    ],
    ["mkdir sub; cd sub; ln -s ../.git g; echo x > g/HEAD", `${ROOT}/.git/HEAD`],
    ["echo x >> g2/HEAD", `${ROOT}/.git/HEAD`],
    ["echo x > dang", `${ROOT}/.git/nope`],
  ];
  for (const [script, path] of aborting) {
    it(`redirection: ${script}`, async () => {
      const { ctx, unchanged } = await repo();
      expect(await runShell(ctx, `${script}; echo after`)).toEqual({
        output: `bash: ${refusal(path)}\n`,
        exitCode: 1,
        timedOut: false,
        aborted: false,
      });
      await unchanged();
    });
  }

  const commands: [string, string][] = [
    ["touch g2/HEAD", `touch: cannot touch 'g2/HEAD': ${refusal(`${ROOT}/.git/HEAD`)}`],
    ["touch g2/new", `touch: cannot touch 'g2/new': ${refusal(`${ROOT}/.git/new`)}`],
    ["mv a.txt g2/a", `mv: cannot move 'a.txt': ${refusal(`${ROOT}/.git/a`)}`],
    ["mv g2/HEAD z", `mv: cannot move 'g2/HEAD': ${refusal(`${ROOT}/.git/HEAD`)}`],
    ["cp a.txt g2/new", `cp: cannot copy 'a.txt': ${refusal(`${ROOT}/.git/new`)}`],
    ["mkdir g2/newdir", `mkdir: cannot create directory 'g2/newdir': ${refusal(`${ROOT}/.git/newdir`)}`],
    ["mkdir -p g2/x/y", `mkdir: cannot create directory 'g2/x/y': ${refusal(`${ROOT}/.git/x/y`)}`],
    ["rm g2/HEAD", `rm: cannot remove 'g2/HEAD': ${refusal(`${ROOT}/.git/HEAD`)}`],
    ["rm -rf g2/refs", `rm: cannot remove 'g2/refs': ${refusal(`${ROOT}/.git/refs`)}`],
    ["rm -rf .git", `rm: cannot remove '.git': ${refusal(`${ROOT}/.git`)}`],
    ["rm -f .git/HEAD", `rm: cannot remove '.git/HEAD': ${refusal(`${ROOT}/.git/HEAD`)}`],
    ["ln a.txt g2/hl", `ln: ${refusal(`${ROOT}/.git/hl`)}`],
    ["ln a.txt dang", `ln: ${refusal(`${ROOT}/.git/nope`)}`],
    ["ln -s a.txt g2/sl", `ln: ${refusal(`${ROOT}/.git/sl`)}`],
    ["ln -s a.txt .git/y", `ln: ${refusal(`${ROOT}/.git/y`)}`],
  ];
  for (const [command, stderr] of commands) {
    it(`command: ${command}`, async () => {
      const { ctx, unchanged } = await repo();
      expect(await runShell(ctx, `${command}; echo rc=$?`)).toMatchObject({
        output: `rc=1\n${stderr}\n`,
        exitCode: 0,
      });
      await unchanged();
    });
  }

  it("links into .git may be created, read, replaced, moved and removed (only the link changes)", async () => {
    const { ctx, unchanged } = await repo();
    const run = await runShell(
      ctx,
      "ln -s .git/HEAD l; cat l; cat g2/refs/heads/main; mv l l2; ln -sf a.txt h; cat h; rm l2 dang g2; echo rc=$?; ls",
    );
    expect(run).toMatchObject({ output: `${HEAD}${MAIN}arc=0\na.txt\ng\nh\n`, exitCode: 0 });
    await unchanged();
  });

  it("rm -f still ignores missing operands; other refusals are reported too", async () => {
    const { ctx } = await repo();
    expect(await runShell(ctx, "rm -f nothing; echo rc=$?; rm -rf /etc; echo rc=$?")).toMatchObject({
      output: `rc=0\nrc=1\nrm: cannot remove '/etc': Path "/etc" is outside the project root ${ROOT}\n`,
    });
  });

  it("cp -r .git makes an ordinary directory", async () => {
    const { ctx, unchanged } = await repo();
    const run = await runShell(
      ctx,
      "cp -r .git gitcopy; cat gitcopy/HEAD; echo x > gitcopy/HEAD; rm -r gitcopy; ls",
    );
    expect(run).toMatchObject({ output: `${HEAD}a.txt\ndang\ng\ng2\nh\n`, exitCode: 0 });
    await unchanged();
  });

  it("ln names the symlink target it refuses", async () => {
    const { ctx } = await repo();
    const run = await runShell(ctx, "ln -s /etc/passwd p; ln -s ../../tmp/x q; echo rc=$?");
    expect(run.output).toBe(
      `rc=1\nln: Path "/etc/passwd" is outside the project root ${ROOT} (target of symlink ${ROOT}/p)\n` +
        `ln: Path "/tmp/x" is outside the project root ${ROOT} (target of symlink ${ROOT}/q)\n`,
    );
  });
});

describe("bash tool: .git stays read-only through symlinks", () => {
  it("refuses the tester's scripts with the EACCES text and a non-zero exit", async () => {
    const { ctx, unchanged } = await repo();
    const bash = createBashTool(ctx);
    await expect(bash.execute("t", { command: "ln -s .git/HEAD hh; echo evil > hh" })).rejects.toThrow(
      `bash: ${refusal(`${ROOT}/.git/HEAD`)}\n\n\nCommand exited with code 1`,
    );
    await expect(
      bash.execute("t", { command: "mkdir sub; cd sub; ln -s ../.git g2; echo x > g2/HEAD" }),
    ).rejects.toThrow(`bash: ${refusal(`${ROOT}/.git/HEAD`)}\n\n\nCommand exited with code 1`);
    await expect(bash.execute("t", { command: "rm -rf .git" })).rejects.toThrow(
      `rm: cannot remove '.git': ${refusal(`${ROOT}/.git`)}\n\n\nCommand exited with code 1`,
    );
    await expect(bash.execute("t", { command: "ln -s /etc/passwd p" })).rejects.toThrow(
      `ln: Path "/etc/passwd" is outside the project root ${ROOT} (target of symlink ${ROOT}/p)\n\n\nCommand exited with code 1`,
    );
    await unchanged();
  });
});

describe("ProjectBashFs: every writing operation resolves symlinks before the .git check", () => {
  it("refuses writes landing in .git", async () => {
    const { ctx, unchanged } = await repo();
    const fs = new ProjectBashFs(ctx.fs, ROOT);
    const git = (p: string) => refusal(`${ROOT}/.git/${p}`);
    const cases: [() => Promise<unknown>, string][] = [
      [() => fs.writeFile(`${ROOT}/h`, "x"), git("HEAD")],
      [() => fs.appendFile(`${ROOT}/g2/HEAD`, "x"), git("HEAD")],
      [() => fs.writeFile(`${ROOT}/dang`, "x"), git("nope")],
      [() => fs.mkdir(`${ROOT}/g/d`), git("d")],
      [() => fs.rm(`${ROOT}/g2/refs`, { recursive: true, force: true }), git("refs")],
      [() => fs.cp(`${ROOT}/a.txt`, `${ROOT}/h`), git("HEAD")],
      [() => fs.mv(`${ROOT}/g/HEAD`, `${ROOT}/x`), git("HEAD")],
      [() => fs.mv(`${ROOT}/a.txt`, `${ROOT}/g/a`), git("a")],
      [() => fs.chmod(`${ROOT}/h`, 0o755), git("HEAD")],
      [() => fs.utimes(`${ROOT}/g2/HEAD`), git("HEAD")],
      [() => fs.symlink("x", `${ROOT}/g/l`), git("l")],
      [() => fs.link(`${ROOT}/a.txt`, `${ROOT}/g2/l`), git("l")],
    ];
    for (const [op, message] of cases) await expect(op()).rejects.toThrow(message);
    await unchanged();
  });

  it("cp -r refuses a destination whose existing symlink leads into .git", async () => {
    const { ctx, unchanged } = await repo();
    await ctx.fs.writeFile(`${ROOT}/src/g/HEAD`, "x");
    await ctx.fs.mkdir(`${ROOT}/dst`);
    await ctx.fs.symlink("../.git", `${ROOT}/dst/g`);
    const fs = new ProjectBashFs(ctx.fs, ROOT);
    await expect(fs.cp(`${ROOT}/src`, `${ROOT}/dst`, { recursive: true })).rejects.toThrow(
      refusal(`${ROOT}/.git`),
    );
    await unchanged();
  });
});
