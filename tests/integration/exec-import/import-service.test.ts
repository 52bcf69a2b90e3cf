/**
 * Archive import through the execution service (`POST /v1/import`, the service started for the run by
 * tests/global-setup.ts, `STRATA_EXEC_URL`) against the in-process path (`importArchive` in this process), on
 * the real Postgres: the same working tree (paths, kinds, modes, bytes), the same report, the same commit (tree
 * id, message, author, no parent) and a clean status; a refusal keeps its exact message and leaves nothing;
 * `POST /api/projects` goes through the service when `STRATA_EXEC_URL` is set (an unreachable one answers 503
 * with what to do), and without it imports in process; and what an import stopped at a limit wrote is removed by the app.
 */

import { gzipSync, strToU8, zipSync } from "fflate";
import git from "isomorphic-git";
import { packTar } from "modern-tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/projects/route";
import { DbScope } from "@/lib/db/client";
import { createExecutor } from "@/lib/exec/client";
import type { ImportExecAnswer } from "@/lib/exec/types";
import { importProject } from "@/lib/projects/import";
import { createGitFs } from "@/lib/vfs/git-fs";
import { importArchive } from "@/lib/vfs/import";
import type { Vfs } from "@/lib/vfs/vfs";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";
import { createTestVfs } from "../../helpers/vfs";

const SPLIT = "Split it into smaller archives, or clone the repository by its git URL.";
const TOO_MANY = `Archive refused: more than 10000 entries (files and directories count; the limit for one import). ${SPLIT}`;

/** A GitHub-style .tar.gz: one top directory, nested files, an executable, a symlink, and entries that are skipped. */
async function sampleArchive(): Promise<Uint8Array> {
  const tar = await packTar([
    { header: { name: "demo-main/", size: 0, type: "directory", mode: 0o755 } },
    { header: { name: "demo-main/README.md", size: 7, type: "file", mode: 0o644 }, body: "# Demo\n" },
    {
      header: { name: "demo-main/src/a.ts", size: 19, type: "file", mode: 0o644 },
      body: "export const a = 1;",
    },
    {
      header: { name: "demo-main/src/deep/b.ts", size: 12, type: "file", mode: 0o644 },
      body: "export {};\n\n",
    },
    { header: { name: "demo-main/bin/run", size: 10, type: "file", mode: 0o755 }, body: "#!/bin/sh\n" },
    { header: { name: "demo-main/empty/", size: 0, type: "directory", mode: 0o755 } },
    { header: { name: "demo-main/link", size: 0, type: "symlink", linkname: "src/a.ts", mode: 0o777 } },
    { header: { name: "demo-main/../evil", size: 2, type: "file", mode: 0o644 }, body: "x\n" },
    { header: { name: "demo-main/.git/config", size: 2, type: "file", mode: 0o644 }, body: "x\n" },
    {
      header: { name: "demo-main/out", size: 0, type: "symlink", linkname: "../../etc/passwd", mode: 0o777 },
    },
  ]);
  return gzipSync(tar);
}

/** Every node below `root` except `.git`: path relative to it, kind, mode and content. */
async function treeOf(fs: Vfs, root: string): Promise<string[]> {
  const nodes = await fs.walk(root, { skip: (p) => p === `${root}/.git` });
  const out: string[] = [];
  for (const { path, stat } of nodes) {
    const rel = path.slice(root.length + 1);
    const body =
      stat.kind === "file"
        ? JSON.stringify(await fs.readText(path))
        : stat.kind === "symlink"
          ? `-> ${await fs.readlink(path)}`
          : "";
    out.push(`${stat.kind} ${stat.mode.toString(8)} ${rel} ${body}`.trimEnd());
  }
  return out;
}

/** HEAD's commit (all but its times) and `git status` of `root`. */
async function commitOf(fs: Vfs, root: string) {
  const gitFs = createGitFs(fs);
  const [head] = await git.log({ fs: gitFs, dir: root, depth: 1 });
  const { tree, message, parent, author } = head.commit;
  const status = await git.statusMatrix({ fs: gitFs, dir: root });
  return { tree, message, parent, author: `${author.name} <${author.email}>`, status };
}

let user: TestUser;
const scope = new DbScope();
beforeAll(async () => {
  user = await createTestUser();
});
afterAll(async () => {
  await scope.release();
});

function service() {
  const client = createExecutor(process.env);
  if (!client)
    throw new Error("STRATA_EXEC_URL is not set: tests/global-setup.ts starts the execution service");
  return client;
}

describe("archive import through the execution service", () => {
  it("writes the same tree, report and commit as the in-process import", async () => {
    const archive = await sampleArchive();
    const inProcess = await createTestVfs();
    const viaService = await createTestVfs();
    try {
      const local = await importArchive(inProcess.fs, "/demo", archive, "demo-main.tar.gz");
      await inProcess.fs.flush();
      const answer = await service().importArchive<ImportExecAnswer>(
        { workspaceId: viaService.workspaceId, root: "/demo", fileName: "demo-main.tar.gz" },
        archive,
      );
      expect(answer).toEqual({ report: local });
      expect(local).toEqual({
        files: 5,
        bytes: 56,
        skipped: [
          { path: "demo-main/../evil", reason: "path contains '..'" },
          { path: "demo-main/.git/config", reason: ".git metadata is not imported" },
          { path: "demo-main/out", reason: "symlink points outside the project" },
        ],
      });
      const expectedTree = [
        'file 100644 README.md "# Demo\\n"',
        "dir 40000 bin",
        'file 100755 bin/run "#!/bin/sh\\n"',
        "dir 40000 empty",
        "symlink 120000 link -> src/a.ts",
        "dir 40000 src",
        'file 100644 src/a.ts "export const a = 1;"',
        "dir 40000 src/deep",
        'file 100644 src/deep/b.ts "export {};\\n\\n"',
      ];
      // Read back from Postgres on cold VFSes: what each path stored, not what a cache holds.
      expect(await treeOf(inProcess.reopen(), "/demo")).toEqual(expectedTree);
      expect(await treeOf(viaService.reopen(), "/demo")).toEqual(expectedTree);
      const localCommit = await commitOf(inProcess.reopen(), "/demo");
      expect(await commitOf(viaService.reopen(), "/demo")).toEqual(localCommit);
      expect(localCommit.message).toBe("Import demo-main.tar.gz\n");
      expect(localCommit.author).toBe("Strata <strata@localhost>");
      expect(localCommit.parent).toEqual([]);
      expect(localCommit.status.map((row) => row.join(" "))).toEqual([
        "README.md 1 1 1",
        "bin/run 1 1 1",
        "link 1 1 1",
        "src/a.ts 1 1 1",
        "src/deep/b.ts 1 1 1",
      ]);
    } finally {
      await inProcess.cleanup();
      await viaService.cleanup();
    }
  });

  it("answers a refusal with the in-process message and leaves nothing in the VFS", async () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 10_001; i++) files[`f${i}.txt`] = strToU8("x");
    const archive = zipSync(files, { level: 0 });
    const w = await createTestVfs();
    try {
      await expect(importArchive(w.reopen(), "/many", archive, "many.zip")).rejects.toThrow(TOO_MANY);
      const answer = await service().importArchive<ImportExecAnswer>(
        { workspaceId: w.workspaceId, root: "/many", fileName: "many.zip" },
        archive,
      );
      expect(answer).toEqual({ failure: { name: "ArchiveRefusedError", message: TOO_MANY } });
      expect(await w.reopen().exists("/many")).toBe(false);
    } finally {
      await w.cleanup();
    }
  });

  it("POST /api/projects imports through the service: 201 with the report, and 422 with the exact refusal", async () => {
    const upload = async (bytes: Uint8Array, fileName: string) => {
      const form = new FormData();
      form.set("file", new File([new Uint8Array(bytes)], fileName));
      const res = await POST(asUser(user, "http://127.0.0.1/api/projects", { method: "POST", body: form }));
      return { status: res.status, body: await res.json() };
    };
    const ok = await upload(await sampleArchive(), "demo-main.tar.gz");
    expect(ok.status).toBe(201);
    expect(ok.body.report.files).toBe(5);
    const vfs = openWorkspaceVfs(user.workspaceId, scope).vfs;
    expect((await treeOf(vfs, ok.body.project.rootPath)).length).toBe(9);
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 10_001; i++) files[`d/f${i}.txt`] = strToU8("x");
    const refused = await upload(zipSync(files, { level: 0 }), "many.zip");
    expect(refused).toEqual({ status: 422, body: { error: { code: "import_failed", message: TOO_MANY } } });
  });

  it("POST /api/projects without STRATA_EXEC_URL imports in process: the same report and tree", async () => {
    const saved = process.env.STRATA_EXEC_URL;
    delete process.env.STRATA_EXEC_URL;
    try {
      const form = new FormData();
      form.set("file", new File([new Uint8Array(await sampleArchive())], "demo-main.tar.gz"));
      const res = await POST(asUser(user, "http://127.0.0.1/api/projects", { method: "POST", body: form }));
      const body = (await res.json()) as { project: { rootPath: string }; report: { files: number } };
      expect(res.status).toBe(201);
      expect(body.report.files).toBe(5);
      const tree = await treeOf(openWorkspaceVfs(user.workspaceId, scope).vfs, body.project.rootPath);
      expect(tree).toContain("symlink 120000 link -> src/a.ts");
      expect(tree.length).toBe(9);
    } finally {
      process.env.STRATA_EXEC_URL = saved;
    }
  });

  it("POST /api/projects with an unreachable STRATA_EXEC_URL answers 503 with what to do and keeps no project", async () => {
    const saved = process.env.STRATA_EXEC_URL;
    const list = async () =>
      ((await (await GET(asUser(user, "http://127.0.0.1/api/projects"))).json()) as { projects: unknown[] })
        .projects.length;
    const before = await list();
    process.env.STRATA_EXEC_URL = "http://127.0.0.1:9";
    try {
      const form = new FormData();
      form.set("file", new File([zipSync({ "a.txt": strToU8("a\n") })], "unreachable.zip"));
      const res = await POST(asUser(user, "http://127.0.0.1/api/projects", { method: "POST", body: form }));
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(res.status).toBe(503);
      expect(body.error.code).toBe("exec_unavailable");
      expect(body.error.message).toMatch(
        /^The execution service at http:\/\/127\.0\.0\.1:9 is not reachable: .+\. Start Strata with `npm start`/,
      );
    } finally {
      process.env.STRATA_EXEC_URL = saved;
    }
    expect(await list()).toBe(before);
  });

  it("removes what an import stopped at a limit wrote, and the project row", async () => {
    const stopped = "Command stopped: it used more than 60 s of CPU time (limit 60 s).";
    let root = "";
    const executor = {
      // What a worker terminated mid-import leaves: flushed rows below the root, no cleanup, a kill report.
      async importArchive<T>(request: { workspaceId: string; root: string }): Promise<T> {
        root = request.root;
        const s = new DbScope();
        const { vfs } = openWorkspaceVfs(request.workspaceId, s);
        await vfs.mkdir(`${request.root}/src`, { recursive: true });
        await vfs.writeFile(`${request.root}/src/half.ts`, "half\n");
        await vfs.flush();
        await s.release();
        return { killed: { reason: "cpu", message: stopped } } as T;
      },
    };
    await expect(
      importProject(
        scope,
        user.workspaceId,
        { kind: "archive", fileName: "stopped.zip", bytes: new Uint8Array() },
        "stopped",
        { executor },
      ),
    ).rejects.toThrow(stopped);
    expect(root).toBe("/stopped");
    expect(await openWorkspaceVfs(user.workspaceId, scope).vfs.exists("/stopped")).toBe(false);
    const rows = await scope.query("SELECT 1 FROM projects WHERE workspace_id = $1 AND name = 'stopped'", [
      user.workspaceId,
    ]);
    expect(rows).toEqual([]);
  });
});
