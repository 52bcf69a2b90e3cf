/**
 * Test harness for the shell's `git`: a project repository in a real Postgres-backed VFS, the shell over it
 * (just-bash with Strata's commands, stdout and stderr apart), and REAL git (/usr/bin/git) on a copy of the same
 * tree (`.git` included) materialised in a temp dir, with a fixed, config-free environment.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Bash } from "just-bash/browser";
import { onTestFinished } from "vitest";
import { projectShellCommands } from "@/lib/exec/shell/commands";
import { ProjectBashFs } from "@/lib/vfs/bash-fs";
import { initRepository } from "@/lib/vfs/git";
import type { Vfs } from "@/lib/vfs/vfs";
import { createTestVfs } from "../../helpers/vfs";

export const ROOT = "/proj";
export const IDENT = {
  GIT_AUTHOR_NAME: "Ada Lovelace",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_COMMITTER_NAME: "Ada Lovelace",
  GIT_COMMITTER_EMAIL: "ada@example.com",
};

// Each helper below undoes itself when the calling test finishes (`onTestFinished`, not a module-level `afterEach`:
// the files of a worker share this module, so a hook registered at its import would run only in the first file).

/** A result of one command: stdout, stderr, exit code. */
export interface Run {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The dates both gits use for commit number `n` (a fixed epoch plus n minutes). */
export const dates = (n: number) => {
  const d = `@${1_700_000_000 + n * 60} +0000`;
  return { GIT_AUTHOR_DATE: d, GIT_COMMITTER_DATE: d };
};

/** A fresh VFS with an empty repository at /proj, and a shell runner on it. */
export async function vfsRepo(): Promise<{
  vfs: Vfs;
  sh: (script: string, env?: Record<string, string>, cwd?: string) => Promise<Run>;
}> {
  const { fs: vfs, cleanup } = await createTestVfs();
  onTestFinished(cleanup);
  await initRepository(vfs, ROOT);
  await vfs.flush();
  const sh = async (script: string, env: Record<string, string> = {}, cwd = ROOT) => {
    const shell = new Bash({
      fs: new ProjectBashFs(vfs, ROOT),
      customCommands: projectShellCommands,
      cwd,
      env: { HOME: ROOT, ...IDENT, ...env },
      python: false,
      javascript: false,
    });
    const r = await shell.exec(script, { rawScript: true });
    await vfs.flush();
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  };
  return { vfs, sh };
}

/** Copy every node below /proj (files with their modes, symlinks, `.git`) into a new temp dir. */
export async function materialise(vfs: Vfs): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "strata-git-shell-"));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const e of await vfs.walk(ROOT)) {
    const target = path.join(dir, e.path.slice(ROOT.length + 1));
    if (e.stat.kind === "dir") fs.mkdirSync(target, { recursive: true });
    else if (e.stat.kind === "symlink") fs.symlinkSync(await vfs.readlink(e.path), target);
    else {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, await vfs.readFile(e.path));
      fs.chmodSync(target, e.stat.mode & 0o111 ? 0o755 : 0o644);
    }
  }
  return dir;
}

const home = fs.mkdtempSync(path.join(os.tmpdir(), "strata-git-home-"));

/** Run real git in `dir` (or a subdirectory `cwd` of it) with no system or user config and fixed identity. */
export function realGit(dir: string, args: string[], env: Record<string, string> = {}, cwd = ""): Run {
  const r = spawnSync("/usr/bin/git", args, {
    cwd: path.join(dir, cwd),
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      GIT_CONFIG_NOSYSTEM: "1",
      TZ: "UTC",
      LANG: "C",
      ...IDENT,
      ...env,
    } as unknown as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? -1 };
}
