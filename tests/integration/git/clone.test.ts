/** Clone over smart HTTP (the loopback `git http-backend` server) into the Postgres-backed VFS. */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import * as git from "isomorphic-git";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGitImportHttp } from "@/lib/net/git-http";
import { cloneRepository, log, readTextAt } from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import { type GitServer, makeBareClone, startGitServer } from "../../git-server";
import { createTestVfs } from "../../helpers/vfs";

const run = promisify(execFile);
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "Fixture",
  GIT_AUTHOR_EMAIL: "fixture@example.com",
  GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z",
  GIT_COMMITTER_NAME: "Fixture",
  GIT_COMMITTER_EMAIL: "fixture@example.com",
  GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};
const gitCli = (cwd: string, ...args: string[]) => run("git", args, { cwd, env: GIT_ENV });

let server: GitServer;
let temp: string;
let strataBare: string;
let fixtureHead: string;
let fixtureFirst: string;
let authServer: Server;
let authUrl: string;
let closedPort: number;
const BIN = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 31) % 256));

beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), "strata-clone-test-"));
  const work = join(temp, "work");
  await run("git", ["init", "--quiet", "--initial-branch=trunk", work], { env: GIT_ENV });
  await writeFile(join(work, "README.md"), "# fixture v1\n");
  await gitCli(work, "add", ".");
  await gitCli(work, "commit", "--quiet", "-m", "first");
  await run("mkdir", ["-p", join(work, "src/nested")]);
  await writeFile(join(work, "README.md"), "# fixture v2\n");
  await writeFile(join(work, "src/nested/deep.ts"), "export const deep = true;\n");
  await writeFile(join(work, "logo.bin"), BIN);
  await writeFile(join(work, "run.sh"), "#!/bin/sh\necho hi\n", { mode: 0o755 });
  await run("ln", ["-s", "src/nested/deep.ts", join(work, "link.ts")]);
  await gitCli(work, "add", ".");
  await gitCli(work, "commit", "--quiet", "-m", "second");
  await gitCli(work, "branch", "feature");
  fixtureHead = (await gitCli(work, "rev-parse", "HEAD")).stdout.trim();
  fixtureFirst = (await gitCli(work, "rev-parse", "HEAD~1")).stdout.trim();
  const bare = join(temp, "fixture.git");
  await run("git", ["clone", "--quiet", "--bare", work, bare], { env: GIT_ENV });
  strataBare = await makeBareClone(process.cwd());
  server = await startGitServer({ repos: { fixture: bare, strata: strataBare } });

  authServer = createServer((_req, res) => {
    res.writeHead(401, { "www-authenticate": 'Basic realm="git"', "content-type": "text/plain" });
    res.end("auth required\n");
  });
  await new Promise<void>((r) => authServer.listen(0, "127.0.0.1", () => r()));
  authUrl = `http://127.0.0.1:${(authServer.address() as AddressInfo).port}/private.git`;
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", () => r()));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
}, 120_000);

afterAll(async () => {
  await server?.close();
  await new Promise((r) => authServer?.close(r));
  await rm(temp, { recursive: true, force: true });
  if (strataBare) await rm(dirname(strataBare), { recursive: true, force: true });
});

type T = Awaited<ReturnType<typeof createTestVfs>>;
let t: T;
beforeEach(async () => {
  t = await createTestVfs();
});
afterEach(async () => {
  await t.cleanup();
});

describe("cloneRepository", () => {
  it("clones a fixture repository into a normal, checked-out repo that persists", async () => {
    const phases = new Set<string>();
    await cloneRepository(t.fs, "/p", `${server.url}/fixture.git`, {
      onProgress: (p) => phases.add(p.phase),
    });
    await t.fs.flush();
    expect(phases.size).toBeGreaterThan(0);

    const fs = t.reopen();
    const gfs = createGitFs(fs);
    expect(await fs.readdir("/p")).toEqual([".git", "README.md", "link.ts", "logo.bin", "run.sh", "src"]);
    expect(await fs.readText("/p/README.md")).toBe("# fixture v2\n");
    expect(await fs.readText("/p/src/nested/deep.ts")).toBe("export const deep = true;\n");
    expect(Buffer.from(await fs.readFile("/p/logo.bin")).equals(BIN)).toBe(true);
    expect((await fs.stat("/p/run.sh")).mode).toBe(0o100755);
    expect(await fs.readlink("/p/link.ts")).toBe("src/nested/deep.ts");
    expect(await git.currentBranch({ fs: gfs, dir: "/p" })).toBe("trunk");
    expect((await log(fs, "/p")).map((c) => c.oid)).toEqual([fixtureHead, fixtureFirst]);
    expect(await readTextAt(fs, "/p", fixtureFirst, "README.md")).toBe("# fixture v1\n");
    expect(await git.getConfig({ fs: gfs, dir: "/p", path: "remote.origin.url" })).toBe(
      `${server.url}/fixture.git`,
    );
    const matrix = await git.statusMatrix({ fs: gfs, dir: "/p" });
    expect(matrix.filter(([, h, w, s]) => !(h === 1 && w === 1 && s === 1))).toEqual([]);
  });

  it("clones a given ref with depth 1", async () => {
    await cloneRepository(t.fs, "/p", `${server.url}/fixture.git`, { ref: "feature", depth: 1 });
    await t.fs.flush();
    const fs = t.reopen();
    expect(await git.currentBranch({ fs: createGitFs(fs), dir: "/p" })).toBe("feature");
    expect((await log(fs, "/p")).map((c) => c.oid)).toEqual([fixtureHead]);
  });

  it("clones Strata's own repository: AGENTS.md equals the host file", async () => {
    await cloneRepository(t.fs, "/strata", `${server.url}/strata.git`, { depth: 1 });
    await t.fs.flush();
    const fs = t.reopen();
    expect(await fs.readText("/strata/AGENTS.md")).toBe(
      await readFile(join(process.cwd(), "AGENTS.md"), "utf8"),
    );
  }, 120_000);

  const failures: [string, () => string, RegExp][] = [
    [
      "an unknown repository (404)",
      () => `${server.url}/missing.git`,
      /^Cannot clone http:\/\/127\.0\.0\.1:\d+\/missing\.git: repository not found \(HTTP 404 Not Found\)$/,
    ],
    [
      "a server asking for credentials (401)",
      () => authUrl,
      /^Cannot clone http:\/\/127\.0\.0\.1:\d+\/private\.git: authentication required or access denied \(HTTP 401 Unauthorized\)$/,
    ],
    [
      "a refused connection",
      () => `http://127.0.0.1:${closedPort}/nothing.git`,
      /^Cannot clone http:\/\/127\.0\.0\.1:\d+\/nothing\.git: could not connect \(ECONNREFUSED\)$/,
    ],
    ["a malformed URL", () => "not a url", /^Cannot clone not a url: not a valid URL$/],
    [
      "a non-http URL",
      () => "ssh://example.com/x.git",
      /^Cannot clone ssh:\/\/example\.com\/x\.git: only http\(s\) URLs are supported$/,
    ],
    [
      "an unknown ref",
      () => `${server.url}/fixture.git`,
      /^Cannot clone http:\/\/127\.0\.0\.1:\d+\/fixture\.git: .*nope/,
    ],
  ];
  for (const [label, url, message] of failures) {
    it(`fails clearly on ${label} and leaves nothing behind`, async () => {
      await t.fs.writeFile("/other/keep.txt", "unrelated pending change");
      const ref = label === "an unknown ref" ? "nope" : undefined;
      await expect(cloneRepository(t.fs, "/p", url(), { ref })).rejects.toThrow(message);
      expect(t.fs.dirtyPaths()).toEqual(["/other", "/other/keep.txt"]);
      expect(await t.fs.exists("/p")).toBe(false);
      await t.fs.flush();
      expect(await t.reopen().exists("/p")).toBe(false);
    });
  }

  it("hides credentials in errors and refuses a non-empty directory", async () => {
    await expect(
      cloneRepository(t.fs, "/p", authUrl.replace("http://", "http://user:s3cret@")),
    ).rejects.toThrow(/^Cannot clone http:\/\/127\.0\.0\.1:\d+\/private\.git: authentication required/);
    await t.fs.writeFile("/q/file.txt", "x");
    await expect(cloneRepository(t.fs, "/q", `${server.url}/fixture.git`)).rejects.toThrow(
      /^Cannot clone http:\/\/127\.0\.0\.1:\d+\/fixture\.git into \/q: directory is not empty$/,
    );
  });

  it("aborts on a signal", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      cloneRepository(t.fs, "/p", `${server.url}/fixture.git`, { signal: controller.signal }),
    ).rejects.toMatchObject({
      name: "AbortError",
      message: /^Clone of http:\/\/127\.0\.0\.1:\d+\/fixture\.git was aborted$/,
    });
    expect(t.fs.dirtyPaths()).toEqual([]);
  });
});

describe("cloneRepository with a host allow-list (STRATA_GIT_IMPORT_HOSTS)", () => {
  // The guarded transport of a git import, loopback allowed (these servers are local): only the list decides.
  const hosts = (allowHost: (host: string) => boolean) =>
    createGitImportHttp({ allowHost, allowPrivate: true });
  let redirector: Server;
  let redirectUrl: string;
  beforeAll(async () => {
    // Sends every request on to the git server under another host name (localhost instead of 127.0.0.1).
    const target = new URL(server.url);
    redirector = createServer((req, res) => {
      res.writeHead(302, { location: `http://localhost:${target.port}${req.url}` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
    redirectUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => redirector.close(resolve));
  });

  it("refuses a host not on the list before any request", async () => {
    await expect(
      cloneRepository(t.fs, "/p", `${server.url}/fixture.git`, { http: hosts((h) => h === "example.com") }),
    ).rejects.toThrow(
      `Cannot clone ${server.url}/fixture.git: host 127.0.0.1 is not allowed (STRATA_GIT_IMPORT_HOSTS)`,
    );
    expect(await t.fs.exists("/p")).toBe(false);
  });

  it("checks every redirect's host: refused when it leaves the list, followed when it stays on it", async () => {
    await expect(
      cloneRepository(t.fs, "/p", `${redirectUrl}/fixture.git`, { http: hosts((h) => h === "127.0.0.1") }),
    ).rejects.toThrow(
      `Cannot clone ${redirectUrl}/fixture.git: redirected to host localhost is not allowed (STRATA_GIT_IMPORT_HOSTS)`,
    );
    await cloneRepository(t.fs, "/p", `${redirectUrl}/fixture.git`, {
      http: hosts((h) => h === "127.0.0.1" || h === "localhost"),
    });
    expect(await t.fs.readText("/p/README.md")).toBe("# fixture v2\n");
  });
});
