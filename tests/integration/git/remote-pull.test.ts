/**
 * Pulling upstream commits into a project (issue 14): a commit made with real `git` on a clone of the loopback
 * remote is fetched into the project's repository and fast-forwards HEAD's branch, the working tree and the index in
 * one flush; a diverged branch merges when clean; uncommitted changes to touched files and merge conflicts refuse
 * with 409 naming the files, writing nothing. Fixture: remote-fixture.ts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as git from "isomorphic-git";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as tree } from "@/app/api/projects/[id]/tree/route";
import { commitAll, resolveRef } from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import { asUser } from "../../helpers/auth";
import { ADA, credentialNowhere, type RemoteFixture, startRemoteFixture, TOKEN } from "./remote-fixture";

let fx: RemoteFixture;
let user: RemoteFixture["user"];
let project: RemoteFixture["project"];
let remoteUrl: string;
let host: string;
let push: RemoteFixture["push"];
let pull: RemoteFixture["pull"];
let putCredential: RemoteFixture["putCredential"];
let withVfs: RemoteFixture["withVfs"];
let gitCli: RemoteFixture["gitCli"];
let tempDir: RemoteFixture["tempDir"];

beforeAll(async () => {
  fx = await startRemoteFixture();
  ({ user, project, remoteUrl, host, push, pull, putCredential, withVfs, gitCli, tempDir } = fx);
}, 120_000);

afterAll(async () => {
  await fx?.close();
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });

/** The workspace's credential for the loopback remote. */
beforeAll(async () => {
  expect((await putCredential(TOKEN)).status).toBe(200);
});
/** A real clone of the remote's `main`, for upstream commits made with git itself. */
let upstream: string;
async function upstreamCommit(files: Record<string, string>, message: string): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(upstream, path)), { recursive: true });
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
    // The temporary fetch refspec is gone from .git/config.
    expect(await vfsText(".git/config")).not.toContain("strata-pull");
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

describe("pull errors", () => {
  it("a missing remote branch is named", async () => {
    expect(await pull({ url: remoteUrl, branch: "nope" })).toEqual({
      status: 404,
      body: {
        error: {
          code: "remote_branch_not_found",
          message: `Pull failed: there is no branch nope on ${host}.`,
        },
      },
    });
  });

  it("no answer and no log line carried the credential", () => {
    expect(credentialNowhere(fx)).toEqual([]);
    expect(fx.seen.length).toBeGreaterThan(8);
  });
});
