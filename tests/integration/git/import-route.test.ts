/**
 * `POST /api/projects` with a git URL (issue 9, git import SSRF) against the real Postgres and the loopback git
 * server: without STRATA_GIT_IMPORT_ALLOW_PRIVATE a loopback or local URL answers 422 with the one generic text
 * and stores nothing; with it, the same URL imports. The handler keeps answering afterwards.
 */
import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/projects/route";
import { DbScope } from "@/lib/db/client";
import { GIT_IMPORT_UNREACHABLE } from "@/lib/net/git-http";
import { importProject } from "@/lib/projects/import";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { type GitServer, makeBareClone, startGitServer } from "../../git-server";
import { asUser, signedInUser } from "../../helpers/auth";
import { setEnv } from "../../helpers/env";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

const run = promisify(execFile);
let git: GitServer;
let bare: string;
let closedPort: number;
let trackedFiles: number;
let restoreEnv: (() => void) | undefined;

beforeAll(async () => {
  await signedIn.actor();
  bare = await makeBareClone(process.cwd());
  git = await startGitServer({ repos: { strata: bare } });
  const { stdout } = await run("git", ["--git-dir", bare, "ls-tree", "-r", "--name-only", "HEAD"]);
  trackedFiles = stdout.split("\n").filter((l) => l !== "").length;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
}, 120_000);

afterAll(async () => {
  await git?.close();
  if (bare) await rm(dirname(bare), { recursive: true, force: true });
});

afterEach(() => {
  restoreEnv?.();
  restoreEnv = undefined;
});

const importGit = (gitUrl: string, name: string) =>
  POST(
    asUser(signedIn.user, "http://127.0.0.1/api/projects", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ gitUrl, name }),
    }),
  );

async function projectNames(): Promise<string[]> {
  const res = await GET(asUser(signedIn.user, "http://127.0.0.1/api/projects"));
  expect(res.status).toBe(200);
  const body = (await res.json()) as { projects: { name: string }[] };
  return body.projects.map((p) => p.name);
}

describe("POST /api/projects (git URL) without STRATA_GIT_IMPORT_ALLOW_PRIVATE", () => {
  it("answers 422 with the generic text for the loopback git server, a closed port and local names; stores nothing", async () => {
    restoreEnv = setEnv({ STRATA_GIT_IMPORT_ALLOW_PRIVATE: "" });
    const before = await projectNames();
    const urls = [
      `${git.url}/strata.git`,
      `http://127.0.0.1:${closedPort}/x.git`,
      `http://localhost:${new URL(git.url).port}/strata.git`,
      `http://2130706433:${new URL(git.url).port}/strata.git`,
      "http://169.254.169.254/latest/meta-data/",
      "http://metadata.google.internal/computeMetadata/v1/",
    ];
    const answers: [number, unknown][] = [];
    for (const [i, url] of urls.entries()) {
      const res = await importGit(url, `ssrf-refused-${i}`);
      answers.push([res.status, await res.json()]);
    }
    expect(answers).toEqual(
      urls.map(() => [422, { error: { code: "import_failed", message: GIT_IMPORT_UNREACHABLE } }]),
    );
    // Still answering, and no project row was kept for any refused import.
    expect(await projectNames()).toEqual(before);
  });
});

describe("POST /api/projects (git URL) with STRATA_GIT_IMPORT_ALLOW_PRIVATE=1", () => {
  it("imports from the loopback git server", async () => {
    restoreEnv = setEnv({ STRATA_GIT_IMPORT_ALLOW_PRIVATE: "1" });
    const res = await importGit(`${git.url}/strata.git`, "ssrf-allowed");
    expect(res.status).toBe(201);
    const body = (await res.json()) as {
      project: { id: string; name: string; rootPath: string };
      report: { files: number; skipped: unknown[] };
    };
    expect(body.project.name).toBe("ssrf-allowed");
    expect(body.report.files).toBe(trackedFiles);
    expect(body.report.skipped).toEqual([]);
    expect(await projectNames()).toContain("ssrf-allowed");
    const scope = new DbScope();
    try {
      const actor = await signedIn.actor();
      const vfs = openWorkspaceVfs(actor.workspaceId, scope).vfs;
      expect(await vfs.readText(`${body.project.rootPath}/AGENTS.md`)).toMatch(/^# Working on Strata\n/);
    } finally {
      await scope.release();
    }
    // A closed port stays the generic text with the setting on: errors never tell open from closed ports.
    const closed = await importGit(`http://127.0.0.1:${closedPort}/x.git`, "ssrf-closed");
    expect([closed.status, await closed.json()]).toEqual([
      422,
      { error: { code: "import_failed", message: GIT_IMPORT_UNREACHABLE } },
    ]);
  });
});

describe("importProject without a git transport", () => {
  it("refuses a git source before storing anything (a user's URL never goes through the unguarded client)", async () => {
    const scope = new DbScope();
    try {
      const actor = await signedIn.actor();
      const before = await projectNames();
      await expect(
        importProject(
          scope,
          actor.workspaceId,
          { kind: "git", url: `${git.url}/strata.git` },
          "no-transport",
        ),
      ).rejects.toThrow("importProject: a git source needs options.gitHttp (see lib/net/git-http.ts)");
      expect(await projectNames()).toEqual(before);
    } finally {
      await scope.release();
    }
  });
});
