/**
 * Pushing a session's checkpoints (issue 14) against the real Postgres, isomorphic-git on the project VFS and real
 * `git` (the loopback server's `git http-backend`, `git clone` on disk): stored as `strata/<slug of the title>` with
 * the workspace's credential, cloned back byte for byte with exactly one commit per checkpoint and its author; the
 * zip of a commit equals its tree; wrong or missing credentials, non-fast-forward and SSRF answers; the credential
 * appears in no answer and no log line. Fixture: remote-fixture.ts.
 */
import { lstatSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as archiveGET } from "@/app/api/projects/[id]/archive/route";
import { GET as remoteGET } from "@/app/api/projects/[id]/git-remote/route";
import { GET as credGET } from "@/app/api/workspaces/[id]/git-credentials/route";
import { DbScope } from "@/lib/db/client";
import { resolveRef } from "@/lib/vfs/git";
import { sessionRef } from "@/lib/vfs/session-ref";
import { asUser } from "../../helpers/auth";
import { setEnv } from "../../helpers/env";
import {
  credentialNowhere,
  expectedFiles,
  type RemoteFixture,
  startRemoteFixture,
  TOKEN,
  USERNAME,
} from "./remote-fixture";
import { unzipEntries } from "./remote-helpers";

let fx: RemoteFixture;
let user: RemoteFixture["user"];
let project: RemoteFixture["project"];
let sessionId: string;
let server: RemoteFixture["server"];
let remoteUrl: string;
let host: string;
let call: RemoteFixture["call"];
let push: RemoteFixture["push"];
let pull: RemoteFixture["pull"];
let putCredential: RemoteFixture["putCredential"];
let withVfs: RemoteFixture["withVfs"];
let gitCli: RemoteFixture["gitCli"];
let tempDir: RemoteFixture["tempDir"];

beforeAll(async () => {
  fx = await startRemoteFixture();
  ({
    user,
    project,
    sessionId,
    server,
    remoteUrl,
    host,
    call,
    push,
    pull,
    putCredential,
    withVfs,
    gitCli,
    tempDir,
  } = fx);
}, 120_000);

afterAll(async () => {
  await fx?.close();
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });
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

  it("a non-fast-forward push is rejected with what to do; force overwrites; a missing repository is named", async () => {
    const tip = await withVfs((vfs) => resolveRef(vfs, project.rootPath, sessionRef(sessionId)));
    const head = await withVfs((vfs) => resolveRef(vfs, project.rootPath, "HEAD"));
    // HEAD (the session's first parent) onto the session's branch: the remote has commits HEAD lacks.
    expect(await push({ url: remoteUrl, branch: "strata/fix-the-login-bug" })).toEqual({
      status: 409,
      body: {
        error: {
          code: "push_rejected",
          message: `Push rejected: strata/fix-the-login-bug on ${host} has commits that are not in what you push (not a fast-forward). Pull first, push to a new branch name, or push with "Overwrite the remote branch" (force).`,
        },
      },
    });
    expect(await push({ url: remoteUrl, branch: "strata/fix-the-login-bug", force: true })).toEqual({
      status: 200,
      body: {
        pushed: { host, branch: "strata/fix-the-login-bug", commit: head, previous: tip, forced: true },
      },
    });
    expect((await push({ url: `${server.url}/missing.git` })).body.error?.code).toBe("remote_not_found");
    expect((await push({ url: remoteUrl, branch: "bad..name" })).body.error).toEqual({
      code: "invalid_branch",
      message: 'Branch name bad..name is not valid: a ref name must not contain "..".',
    });
  });

  it("a session's branch name that holds other history on the remote is skipped for the next free one", async () => {
    // Someone else's work on strata/fix-the-login-bug (unrelated history, pushed with git itself).
    const other = join(tempDir("strata-other-"), "other");
    await gitCli(dirname(other), "init", "--quiet", "--initial-branch=main", other);
    writeFileSync(join(other, "theirs.txt"), "theirs\n");
    await gitCli(other, "add", "-A");
    await gitCli(other, "commit", "--quiet", "-m", "Someone else's work");
    await gitCli(other, "push", "--quiet", "--force", remoteUrl, "HEAD:refs/heads/strata/fix-the-login-bug");
    const tip = await withVfs((vfs) => resolveRef(vfs, project.rootPath, sessionRef(sessionId)));
    expect((await push({ url: remoteUrl, sessionId })).body).toEqual({
      pushed: { host, branch: "strata/fix-the-login-bug-2", commit: tip, previous: null, forced: false },
    });
    // Again: -2 now holds the session's tip, so it is reused.
    expect((await push({ url: remoteUrl, sessionId })).body).toEqual({
      pushed: { host, branch: "strata/fix-the-login-bug-2", commit: tip, previous: tip, forced: false },
    });
  });

  it("a session without checkpoints has nothing to push; a session of another project is not found", async () => {
    const scope = new DbScope();
    let fresh: string;
    try {
      const { createSession } = await import("@/lib/session/store");
      fresh = (await createSession(scope, { projectId: project.id, cwd: project.rootPath })).id;
    } finally {
      await scope.release();
    }
    expect(await push({ url: remoteUrl, sessionId: fresh })).toEqual({
      status: 404,
      body: {
        error: {
          code: "no_checkpoints",
          message:
            "This session has no checkpoint yet (none of its turns changed files), so there is nothing of it to push.",
        },
      },
    });
    const stranger = "00000000-0000-4000-8000-000000000000";
    expect((await push({ url: remoteUrl, sessionId: stranger })).body.error).toEqual({
      code: "not_found",
      message: `Session ${stranger} not found`,
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
              "Push failed: the remote could not be reached (its host name did not resolve, it did not answer, or it is not a public http(s) host; private addresses need STRATA_GIT_IMPORT_ALLOW_PRIVATE). Check the URL and that this server can reach it.",
          },
        },
      });
    } finally {
      restore();
    }
  });

  it("no answer and no log line carried the credential", () => {
    expect(credentialNowhere(fx, ["wrong-token-0000"])).toEqual([]);
    expect(fx.seen.length).toBeGreaterThan(15);
  });
});
