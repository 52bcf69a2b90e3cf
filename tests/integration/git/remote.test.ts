/**
 * Getting work out (issue 14) end to end against the real Postgres, real isomorphic-git on the project VFS and real
 * `git` (the loopback server's `git http-backend`, and `git clone` / `git push` on disk): a session's checkpoints are
 * pushed as `strata/<slug>` with the workspace's stored credential, cloned back byte for byte with one commit per
 * checkpoint, and new upstream commits are pulled into the working tree (fast-forward, merge, refusals). Also: the
 * credential appears in no response or log line, a wrong one answers a clear 401, the zip of a commit equals its tree.
 */
import { execFile } from "node:child_process";
import { lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import * as git from "isomorphic-git";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as archiveGET } from "@/app/api/projects/[id]/archive/route";
import { GET as remoteGET } from "@/app/api/projects/[id]/git-remote/route";
import { POST as pullPOST } from "@/app/api/projects/[id]/pull/route";
import { POST as pushPOST } from "@/app/api/projects/[id]/push/route";
import { GET as tree } from "@/app/api/projects/[id]/tree/route";
import { PUT as credPUT } from "@/app/api/workspaces/[id]/git-credentials/[host]/route";
import { GET as credGET } from "@/app/api/workspaces/[id]/git-credentials/route";
import { DbScope } from "@/lib/db/client";
import type { Project } from "@/lib/projects/projects";
import { sessionRef } from "@/lib/remote";
import { createSession, setSessionTitle } from "@/lib/session/store";
import { checkpoint, commitAll, resolveRef } from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { type GitServer, makeEmptyBare, startGitServer } from "../../git-server";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";
import { setEnv } from "../../helpers/env";
import { makeProject } from "../../helpers/lifecycle-fixture";
import { unzipEntries } from "./remote-helpers";

const run = promisify(execFile);
const TOKEN = "ghp_TestToken0123456789abcdefXYZ";
const USERNAME = "strata-bot";
const AGENT = { name: "Strata", email: "agent@strata.local" };
const ADA = { name: "Ada Lovelace", email: "ada@example.test" };

let user: TestUser;
let project: Project;
let sessionId: string;
let server: GitServer;
let bare: string;
let remoteUrl: string;
let host: string;
const temp: string[] = [];
let restoreEnv: () => void;
const logged: string[] = [];
const seen: string[] = [];

const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temp.push(dir);
  return dir;
};
const gitCli = async (cwd: string, ...args: string[]) =>
  (
    await run(
      "git",
      ["-c", `http.extraHeader=Authorization: Basic ${btoa(`${USERNAME}:${TOKEN}`)}`, ...args],
      {
        cwd,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: "Upstream Dev",
          GIT_AUTHOR_EMAIL: "dev@example.test",
          GIT_COMMITTER_NAME: "Upstream Dev",
          GIT_COMMITTER_EMAIL: "dev@example.test",
        },
      },
    )
  ).stdout;

const params = (id: string) => ({ params: Promise.resolve({ id }) });
async function call<P>(
  handler: (r: Request, c: { params: Promise<P> }) => Promise<Response>,
  url: string,
  init: { method?: string; json?: unknown; params: P },
): Promise<{
  status: number;
  body: { error?: { code: string; message: string; paths?: string[] } } & Record<string, unknown>;
}> {
  const req = asUser(user, url, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers: init.json === undefined ? {} : { "content-type": "application/json" },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const res = await handler(req, { params: Promise.resolve(init.params) });
  const text = await res.text();
  seen.push(text);
  return { status: res.status, body: JSON.parse(text) };
}
const push = (json: unknown) =>
  call(pushPOST, `/api/projects/${project.id}/push`, { json, params: { id: project.id } });
const pull = (json: unknown) =>
  call(pullPOST, `/api/projects/${project.id}/pull`, { json, params: { id: project.id } });
const putCredential = (password: string) =>
  call(credPUT, `/api/workspaces/${user.workspaceId}/git-credentials/${encodeURIComponent(host)}`, {
    method: "PUT",
    json: { username: USERNAME, password },
    params: { id: user.workspaceId, host: encodeURIComponent(host) },
  });

async function withVfs<T>(fn: (vfs: ReturnType<typeof openWorkspaceVfs>["vfs"]) => Promise<T>): Promise<T> {
  const scope = new DbScope();
  try {
    return await fn(openWorkspaceVfs(user.workspaceId, scope).vfs);
  } finally {
    await scope.release();
  }
}

/** Every byte value, to check binary safety. */
const BINARY = Uint8Array.from({ length: 256 }, (_, i) => i);
/** The checkpoints: files written, then committed on the session ref by `author`. */
const CHECKPOINTS: {
  author: { name: string; email: string };
  message: string;
  files: Record<string, string | Uint8Array>;
  exec?: string[];
  links?: Record<string, string>;
}[] = [
  {
    author: AGENT,
    message: "Strata checkpoint: 2 files changed",
    files: { "src/login.ts": "export const login = 1;\n", "assets/logo.bin": BINARY },
  },
  {
    author: ADA,
    message: "Strata: changes made between turns",
    files: { "src/login.ts": "export const login = 2;\n", "run.sh": "#!/bin/sh\necho hi\n" },
    exec: ["run.sh"],
  },
  {
    author: AGENT,
    message: "Strata checkpoint: 1 file changed",
    files: { "docs/ünïcode.md": "# Grüße\n" },
    links: { "latest.ts": "src/login.ts" },
  },
];

beforeAll(async () => {
  restoreEnv = setEnv({ STRATA_GIT_IMPORT_ALLOW_PRIVATE: "1" });
  for (const method of ["log", "error", "warn", "info"] as const)
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
    });
  user = await createTestUser("Ada Lovelace");
  bare = await makeEmptyBare("remote");
  temp.push(dirname(bare));
  server = await startGitServer({
    repos: { remote: bare },
    push: true,
    auth: { username: USERNAME, password: TOKEN },
  });
  remoteUrl = `${server.url}/remote.git`;
  host = new URL(server.url).host;
  const scope = new DbScope();
  try {
    project = await makeProject(scope, `Remote ${Date.now()}`, {
      userId: user.id,
      workspaceId: user.workspaceId,
    });
    const session = await createSession(scope, { projectId: project.id, cwd: project.rootPath });
    sessionId = session.id;
    await setSessionTitle(scope, sessionId, "Fix the login bug!");
    const { vfs } = openWorkspaceVfs(user.workspaceId, scope);
    for (const cp of CHECKPOINTS) {
      const changed: string[] = [];
      for (const [path, content] of Object.entries(cp.files)) {
        const abs = `${project.rootPath}/${path}`;
        await vfs.writeFile(abs, content, { mode: cp.exec?.includes(path) ? 0o100755 : 0o100644 });
        changed.push(abs);
      }
      for (const [path, target] of Object.entries(cp.links ?? {})) {
        await vfs.symlink(target, `${project.rootPath}/${path}`);
        changed.push(`${project.rootPath}/${path}`);
      }
      await checkpoint(vfs, project.rootPath, {
        changedPaths: changed,
        ref: sessionRef(sessionId),
        message: cp.message,
        author: cp.author,
      });
      await vfs.flush();
    }
  } finally {
    await scope.release();
  }
}, 120_000);

afterEach(() => undefined);

afterAll(async () => {
  vi.restoreAllMocks();
  restoreEnv?.();
  await server?.close();
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

/** The files of the session's last checkpoint as the test wrote them (later checkpoints win), plus `a.txt`. */
function expectedFiles(): Map<string, { data: Uint8Array; kind: "file" | "exec" | "symlink" }> {
  const out = new Map<string, { data: Uint8Array; kind: "file" | "exec" | "symlink" }>();
  out.set("a.txt", { data: new TextEncoder().encode("alpha\n"), kind: "file" });
  for (const cp of CHECKPOINTS) {
    for (const [path, content] of Object.entries(cp.files))
      out.set(path, {
        data: typeof content === "string" ? new TextEncoder().encode(content) : content,
        kind: cp.exec?.includes(path) ? "exec" : "file",
      });
    for (const [path, target] of Object.entries(cp.links ?? {}))
      out.set(path, { data: new TextEncoder().encode(target), kind: "symlink" });
  }
  return out;
}

describe("credentials", () => {
  it("stores the credential for the remote's host and never answers it", async () => {
    const put = await putCredential(TOKEN);
    expect(put.status).toBe(200);
    expect(Object.keys(put.body)).toEqual(["credential"]);
    expect((put.body.credential as { host: string }).host).toBe(host);
    const list = await call(credGET, `/api/workspaces/${user.workspaceId}/git-credentials`, {
      params: { id: user.workspaceId },
    });
    expect((list.body.credentials as { host: string }[]).map((c) => c.host)).toEqual([host]);
    const status = await call(
      remoteGET,
      `/api/projects/${project.id}/git-remote?url=${encodeURIComponent(remoteUrl)}`,
      { params: { id: project.id } },
    );
    expect(status).toEqual({ status: 200, body: { host, credential: true } });
  });

  it("keeps git credentials out of the provider secrets and the provider environment", async () => {
    const scope = new DbScope();
    try {
      const { listSecretNames, workspaceProviderEnv } = await import("@/lib/secrets");
      expect(await listSecretNames(scope, user.workspaceId)).toEqual([]);
      const env = await workspaceProviderEnv(scope, user.workspaceId, { PATH: "/bin" });
      expect(env).toEqual({ PATH: "/bin" });
    } finally {
      await scope.release();
    }
  });

  it("refuses a URL with a user name and password in it, without echoing them", async () => {
    const url = `http://${USERNAME}:${TOKEN}@${host}/remote.git`;
    const res = await push({ url, sessionId });
    expect(res).toEqual({
      status: 400,
      body: {
        error: {
          code: "credentials_in_url",
          message: `The remote URL contains a user name or password. Remove them from the URL and store them as the git credential for ${host} in Workspace settings → Git credentials (encrypted, never shown again).`,
        },
      },
    });
  });
});

describe("push a session's checkpoints", () => {
  it("pushes the session ref as strata/<slug of its title>", async () => {
    const tip = await withVfs((vfs) => resolveRef(vfs, project.rootPath, sessionRef(sessionId)));
    const res = await push({ url: remoteUrl, sessionId });
    expect(res).toEqual({
      status: 200,
      body: {
        pushed: { host, branch: "strata/fix-the-login-bug", commit: tip, previous: null, forced: false },
      },
    });
    // The server saw Basic credentials only after its first 401 (isomorphic-git's onAuth), and they were right.
    expect(server.authorizations.every((a) => a === `Basic ${btoa(`${USERNAME}:${TOKEN}`)}`)).toBe(true);
    // Pushing the same session again updates the same branch (nothing new: previous = the tip).
    const again = await push({ url: remoteUrl, sessionId });
    expect(again.body).toEqual({
      pushed: { host, branch: "strata/fix-the-login-bug", commit: tip, previous: tip, forced: false },
    });
  });

  it("a real git clone has the checkpoint's files byte for byte and one commit per checkpoint", async () => {
    const dir = join(tempDir("strata-clone-"), "clone");
    await gitCli(dirname(dir), "clone", "--quiet", "--branch", "strata/fix-the-login-bug", remoteUrl, dir);
    const files = (await gitCli(dir, "-c", "core.quotePath=false", "ls-files")).trim().split("\n");
    const expected = expectedFiles();
    expect(files.sort()).toEqual([...expected.keys()].sort());
    for (const [path, want] of expected) {
      const abs = join(dir, path);
      if (want.kind === "symlink") {
        expect(lstatSync(abs).isSymbolicLink(), path).toBe(true);
        expect(readlinkSync(abs)).toBe(new TextDecoder().decode(want.data));
        continue;
      }
      expect(new Uint8Array(readFileSync(abs)), path).toEqual(want.data);
      expect(lstatSync(abs).mode & 0o111 ? "exec" : "file", path).toBe(want.kind);
    }
    const log = (await gitCli(dir, "log", "--format=%an <%ae>|%s")).trim().split("\n");
    expect(log).toEqual([
      "Strata <agent@strata.local>|Strata checkpoint: 1 file changed",
      "Ada Lovelace <ada@example.test>|Strata: changes made between turns",
      "Strata <agent@strata.local>|Strata checkpoint: 2 files changed",
      "t <t@x>|init",
    ]);
  });

  it("the zip of the session's commit equals its tree; bad commits answer 400/404", async () => {
    const tip = (await withVfs((vfs) => resolveRef(vfs, project.rootPath, sessionRef(sessionId)))) as string;
    const res = await archiveGET(
      asUser(user, `/api/projects/${project.id}/archive?commit=${encodeURIComponent(sessionRef(sessionId))}`),
      params(project.id),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    const stem = project.name.replace(/ /g, "-");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="${stem}-${tip.slice(0, 7)}.zip"`,
    );
    const entries = await unzipEntries(new Uint8Array(await res.arrayBuffer()));
    const expected = expectedFiles();
    expect([...entries.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, want] of expected) {
      const got = entries.get(path);
      expect(got?.data, path).toEqual(want.data);
      expect(got?.mode, path).toBe(
        want.kind === "symlink" ? 0o120777 : want.kind === "exec" ? 0o100755 : 0o100644,
      );
    }
    const bad = async (commit: string) => {
      const r = await archiveGET(
        asUser(user, `/api/projects/${project.id}/archive?commit=${encodeURIComponent(commit)}`),
        params(project.id),
      );
      return { status: r.status, body: await r.json() };
    };
    expect(await bad("refs/heads/../../../etc/passwd")).toEqual({
      status: 400,
      body: {
        error: {
          code: "invalid_commit",
          message: 'refs/heads/../../../etc/passwd is not a valid ref: a ref name must not contain "..".',
        },
      },
    });
    expect(await bad("0123456789abcdef0123456789abcdef01234567")).toEqual({
      status: 404,
      body: {
        error: {
          code: "commit_not_found",
          message: "0123456789abcdef0123456789abcdef01234567 is not a commit of this project's repository.",
        },
      },
    });
    expect(await bad("refs/heads/strata/session-nope")).toEqual({
      status: 404,
      body: {
        error: {
          code: "commit_not_found",
          message: "refs/heads/strata/session-nope is not a commit of this project's repository.",
        },
      },
    });
    expect((await bad("/etc/passwd")).body.error.code).toBe("invalid_commit");
  });

  it("the working-tree zip has the working tree's files and no .git", async () => {
    const res = await archiveGET(asUser(user, `/api/projects/${project.id}/archive`), params(project.id));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="${project.name.replace(/ /g, "-")}-working-tree.zip"`,
    );
    const entries = await unzipEntries(new Uint8Array(await res.arrayBuffer()));
    expect([...entries.keys()].sort()).toEqual([...expectedFiles().keys()].sort());
  });
});

/** A real clone of the remote's `main`, for upstream commits made with git itself. */
let upstream: string;
async function upstreamCommit(files: Record<string, string>, message: string): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    await run("mkdir", ["-p", dirname(join(upstream, path))]);
    writeFileSync(join(upstream, path), content);
  }
  await gitCli(upstream, "add", "-A");
  await gitCli(upstream, "commit", "--quiet", "-m", message);
  await gitCli(upstream, "push", "--quiet", "origin", "HEAD:main");
  return (await gitCli(upstream, "rev-parse", "HEAD")).trim();
}
const vfsText = (path: string) =>
  withVfs((vfs) => vfs.readText(`${project.rootPath}/${path}`).catch(() => null));
const headOid = () => withVfs((vfs) => resolveRef(vfs, project.rootPath, "HEAD"));

describe("pull upstream commits into the project", () => {
  it("pushes HEAD's branch, then fast-forwards to a new upstream commit made with git", async () => {
    const init = await headOid();
    const pushed = await push({ url: remoteUrl });
    expect(pushed.body).toEqual({
      pushed: { host, branch: "main", commit: init, previous: null, forced: false },
    });
    upstream = join(tempDir("strata-upstream-"), "up");
    await gitCli(dirname(upstream), "clone", "--quiet", "--branch", "main", remoteUrl, upstream);
    const oid = await upstreamCommit(
      { "a.txt": "alpha\nbeta\n", "upstream/new.txt": "from upstream\n" },
      "Upstream change",
    );

    const res = await pull({ url: remoteUrl });
    expect(res).toEqual({
      status: 200,
      body: {
        pulled: {
          status: "fast_forward",
          branch: "main",
          remoteBranch: "main",
          from: init,
          to: oid,
          files: [
            { path: "a.txt", status: "modified" },
            { path: "upstream/new.txt", status: "added" },
          ],
        },
      },
    });
    expect(await vfsText("a.txt")).toBe("alpha\nbeta\n");
    expect(await vfsText("upstream/new.txt")).toBe("from upstream\n");
    expect(await headOid()).toBe(oid);
    // The index follows: git status is clean for the pulled paths.
    const matrix = await withVfs((vfs) =>
      git.statusMatrix({ fs: createGitFs(vfs), dir: project.rootPath, filepaths: ["a.txt", "upstream"] }),
    );
    expect(matrix).toEqual([
      ["a.txt", 1, 1, 1],
      ["upstream/new.txt", 1, 1, 1],
    ]);
    // The IDE's tree (what a refresh shows) has the new file.
    const listed = await tree(asUser(user, `/api/projects/${project.id}/tree`), params(project.id));
    const entries = ((await listed.json()) as { entries: { path: string }[] }).entries.map((e) => e.path);
    expect(entries).toContain("upstream/new.txt");
    // Nothing new: up to date.
    expect((await pull({ url: remoteUrl })).body).toEqual({
      pulled: { status: "up_to_date", branch: "main", remoteBranch: "main", from: oid, to: oid, files: [] },
    });
  });

  it("refuses with 409 naming a file with uncommitted changes that the pull would change; nothing is written", async () => {
    const before = await headOid();
    await withVfs(async (vfs) => {
      await vfs.writeFile(`${project.rootPath}/a.txt`, "local edit\n");
      await vfs.flush();
    });
    await upstreamCommit({ "a.txt": "alpha\nbeta\ngamma\n", "other.txt": "other\n" }, "Upstream again");
    const res = await pull({ url: remoteUrl });
    expect(res).toEqual({
      status: 409,
      body: {
        error: {
          code: "pull_conflict",
          message:
            'Pull refused: these files have changes that are not committed, and the pull would change them: a.txt. Commit them (e.g. !git commit -am "…" in the chat) or undo them, then pull again.',
          paths: ["a.txt"],
        },
      },
    });
    expect(await vfsText("a.txt")).toBe("local edit\n");
    expect(await vfsText("other.txt")).toBeNull();
    expect(await headOid()).toBe(before);
    // Undo the edit: the same pull goes through.
    await withVfs(async (vfs) => {
      await vfs.writeFile(`${project.rootPath}/a.txt`, "alpha\nbeta\n");
      await vfs.flush();
    });
    expect((await pull({ url: remoteUrl })).body.pulled).toMatchObject({ status: "fast_forward" });
    expect(await vfsText("a.txt")).toBe("alpha\nbeta\ngamma\n");
    expect(await vfsText("other.txt")).toBe("other\n");
  });

  it("merges a diverged branch when it merges cleanly, and refuses a conflicting merge naming the file", async () => {
    const local = await withVfs(async (vfs) => {
      await vfs.writeFile(`${project.rootPath}/local.txt`, "local\n");
      const oid = await commitAll(vfs, project.rootPath, { message: "Local work", author: ADA });
      await vfs.flush();
      return oid;
    });
    const theirs = await upstreamCommit({ "upstream2.txt": "second upstream\n" }, "Upstream 2");
    const res = await pull({ url: remoteUrl });
    const pulled = res.body.pulled as { status: string; to: string; files: unknown[] };
    expect(res.status).toBe(200);
    expect(pulled.status).toBe("merged");
    expect(pulled.files).toEqual([{ path: "upstream2.txt", status: "added" }]);
    const [merge] = await withVfs((vfs) =>
      git.log({ fs: createGitFs(vfs), dir: project.rootPath, depth: 1 }),
    );
    expect(merge.oid).toBe(pulled.to);
    expect(merge.commit.parent).toEqual([local, theirs]);
    expect(merge.commit.author.name).toBe("Ada Lovelace");
    expect(merge.commit.message).toBe(`Merge branch 'main' of ${remoteUrl}\n`);
    expect(await vfsText("upstream2.txt")).toBe("second upstream\n");

    // Both sides change the same line of a.txt: refused, nothing changes.
    await withVfs(async (vfs) => {
      await vfs.writeFile(`${project.rootPath}/a.txt`, "alpha\nLOCAL\ngamma\n");
      await commitAll(vfs, project.rootPath, { message: "Local a.txt", author: ADA });
      await vfs.flush();
    });
    const head = await headOid();
    await upstreamCommit({ "a.txt": "alpha\nUPSTREAM\ngamma\n" }, "Upstream a.txt");
    const refused = await pull({ url: remoteUrl });
    expect(refused).toEqual({
      status: 409,
      body: {
        error: {
          code: "merge_conflict",
          message:
            "Pull refused: main and main both changed these files and they do not merge cleanly: a.txt. Nothing was changed. Resolve it outside Strata (merge and push to main), then pull again.",
          paths: ["a.txt"],
        },
      },
    });
    expect(await headOid()).toBe(head);
    expect(await vfsText("a.txt")).toBe("alpha\nLOCAL\ngamma\n");
  });
});

describe("errors of the remote", () => {
  it("a wrong credential answers a clear 401; no credential too", async () => {
    expect((await putCredential("wrong-token-0000")).status).toBe(200);
    expect(await push({ url: remoteUrl, sessionId, branch: "strata/other" })).toEqual({
      status: 401,
      body: {
        error: {
          code: "remote_auth",
          message: `Push failed: ${host} refused the credential stored for it (HTTP 401 Unauthorized). Check the user name and token in Workspace settings → Git credentials; the token needs write access to the repository.`,
        },
      },
    });
    const scope = new DbScope();
    try {
      const { deleteGitCredential } = await import("@/lib/secrets");
      await deleteGitCredential(scope, user.workspaceId, host);
    } finally {
      await scope.release();
    }
    expect(await pull({ url: remoteUrl })).toEqual({
      status: 401,
      body: {
        error: {
          code: "remote_auth",
          message: `Pull failed: ${host} asks for credentials (HTTP 401 Unauthorized) and none is stored for it. A workspace owner or admin can add one in Workspace settings → Git credentials.`,
        },
      },
    });
    expect((await putCredential(TOKEN)).status).toBe(200);
  });

  it("a non-fast-forward push is rejected with what to do; a missing branch or repository is named", async () => {
    expect(await push({ url: remoteUrl, sessionId, branch: "main" })).toEqual({
      status: 409,
      body: {
        error: {
          code: "push_rejected",
          message: `Push rejected: main on ${host} has commits that are not in what you push (not a fast-forward). Pull first, push to a new branch name, or push with "Overwrite the remote branch" (force).`,
        },
      },
    });
    expect(await pull({ url: remoteUrl, branch: "nope" })).toEqual({
      status: 404,
      body: {
        error: {
          code: "remote_branch_not_found",
          message: `Pull failed: there is no branch nope on ${host}.`,
        },
      },
    });
    expect((await push({ url: `${server.url}/missing.git` })).body.error?.code).toBe("remote_not_found");
    expect((await push({ url: remoteUrl, branch: "bad..name" })).body.error).toEqual({
      code: "invalid_branch",
      message: 'Branch name bad..name is not valid: a ref name must not contain "..".',
    });
  });

  it("without STRATA_GIT_IMPORT_ALLOW_PRIVATE a loopback remote is refused with the one generic text", async () => {
    const restore = setEnv({ STRATA_GIT_IMPORT_ALLOW_PRIVATE: "" });
    try {
      expect(await push({ url: remoteUrl, sessionId })).toEqual({
        status: 502,
        body: {
          error: {
            code: "remote_unreachable",
            message:
              "Push failed: the remote could not be reached (only public http(s) hosts are allowed; see STRATA_GIT_IMPORT_ALLOW_PRIVATE).",
          },
        },
      });
    } finally {
      restore();
    }
  });

  it("no response and no log line carried the credential", () => {
    const secrets = [TOKEN, btoa(`${USERNAME}:${TOKEN}`), "wrong-token-0000"];
    for (const text of [...seen, ...logged]) for (const s of secrets) expect(text).not.toContain(s);
    expect(seen.length).toBeGreaterThan(15);
  });
});
