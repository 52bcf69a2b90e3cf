import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import git from "isomorphic-git";
import http from "isomorphic-git/http/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitServer, makeBareClone, startGitServer } from "@/tests/git-server";

const REPO_ROOT = join(dirname(new URL(import.meta.url).pathname), "../../..");
const cleanup: string[] = [];
const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(dir);
  return dir;
};
const gitCli = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "test@example.com",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "test@example.com",
    },
  }).trim();

let work: string;
let fixtureBare: string;
let strataBare: string;
let server: GitServer;

beforeAll(async () => {
  work = tempDir("strata-git-src-");
  gitCli(work, "init", "--quiet", "--initial-branch=main");
  fs.mkdirSync(join(work, "src"));
  writeFileSync(join(work, "README.md"), "# fixture\n");
  writeFileSync(join(work, "src", "a.ts"), "export const a = 1;\n");
  gitCli(work, "add", ".");
  gitCli(work, "commit", "--quiet", "-m", "first");
  writeFileSync(join(work, "src", "b.ts"), "export const b = 2;\n");
  gitCli(work, "add", ".");
  gitCli(work, "commit", "--quiet", "-m", "second");

  fixtureBare = await makeBareClone(work);
  strataBare = await makeBareClone(REPO_ROOT);
  cleanup.push(dirname(fixtureBare), dirname(strataBare));
  server = await startGitServer({ repos: { fixture: fixtureBare, strata: strataBare } });
});

afterAll(async () => {
  await server?.close();
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

describe("git smart-HTTP test server", () => {
  it("binds to loopback", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("makes a bare clone", () => {
    expect(gitCli(fixtureBare, "rev-parse", "--is-bare-repository")).toBe("true");
    expect(gitCli(fixtureBare, "rev-parse", "HEAD")).toBe(gitCli(work, "rev-parse", "HEAD"));
  });

  it("clones a fixture repository with isomorphic-git", async () => {
    const dir = tempDir("strata-git-clone-");
    await git.clone({ fs, http, dir, url: `${server.url}/fixture.git`, singleBranch: true });
    expect(readFileSync(join(dir, "README.md"), "utf8")).toBe("# fixture\n");
    expect(readFileSync(join(dir, "src", "a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(readFileSync(join(dir, "src", "b.ts"), "utf8")).toBe("export const b = 2;\n");
    expect(await git.resolveRef({ fs, dir, ref: "HEAD" })).toBe(gitCli(work, "rev-parse", "HEAD"));
    const log = await git.log({ fs, dir });
    expect(log.map((entry) => entry.commit.message.trim())).toEqual(["second", "first"]);
    expect(await git.currentBranch({ fs, dir })).toBe("main");
  });

  it("clones Strata's own repository", async () => {
    const dir = tempDir("strata-git-self-");
    await git.clone({ fs, http, dir, url: `${server.url}/strata.git`, singleBranch: true, depth: 1 });
    expect(await git.resolveRef({ fs, dir, ref: "HEAD" })).toBe(gitCli(strataBare, "rev-parse", "HEAD"));
    expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(
      `${gitCli(strataBare, "show", "HEAD:package.json")}\n`,
    );
  });

  it("serves the smart-HTTP advertisement and refuses the rest", async () => {
    const refs = await fetch(`${server.url}/fixture.git/info/refs?service=git-upload-pack`);
    expect(refs.status).toBe(200);
    expect(refs.headers.get("content-type")).toBe("application/x-git-upload-pack-advertisement");
    expect(await refs.text()).toContain("# service=git-upload-pack");
    expect((await fetch(`${server.url}/missing.git/info/refs?service=git-upload-pack`)).status).toBe(404);
    expect((await fetch(`${server.url}/fixture.git/info/refs?service=git-receive-pack`)).status).toBe(403);
    expect((await fetch(`${server.url}/fixture.git/git-receive-pack`, { method: "POST" })).status).toBe(404);
    expect((await fetch(`${server.url}/fixture.git/HEAD`)).status).toBe(404);
  });
});

describe("git smart-HTTP test server accepting pushes", () => {
  it("asks for Basic credentials, then receives a push made with git", async () => {
    const { makeEmptyBare } = await import("@/tests/git-server");
    const target = await makeEmptyBare("pushed");
    cleanup.push(dirname(target));
    const auth = { username: "bot", password: "s3cret" };
    const pushServer = await startGitServer({ repos: { pushed: target }, push: true, auth });
    try {
      const refs = `${pushServer.url}/pushed.git/info/refs?service=git-receive-pack`;
      const denied = await fetch(refs);
      expect(denied.status).toBe(401);
      expect(denied.headers.get("www-authenticate")).toBe('Basic realm="git"');
      const header = `Authorization: Basic ${Buffer.from("bot:s3cret").toString("base64")}`;
      const ok = await fetch(refs, { headers: { authorization: header.slice("Authorization: ".length) } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("content-type")).toBe("application/x-git-receive-pack-advertisement");
      // Not execFileSync: the server runs in this process and must answer while git waits.
      const { execFile } = await import("node:child_process");
      const { promisify } = await import("node:util");
      const url = `${pushServer.url}/pushed.git`;
      await promisify(execFile)(
        "git",
        ["-c", `http.extraHeader=${header}`, "push", "--quiet", url, "HEAD:main"],
        {
          cwd: work,
        },
      );
      expect(gitCli(target, "rev-parse", "main")).toBe(gitCli(work, "rev-parse", "HEAD"));
      expect(pushServer.authorizations.at(-1)).toBe(header.slice("Authorization: ".length));
    } finally {
      await pushServer.close();
    }
  });
});
