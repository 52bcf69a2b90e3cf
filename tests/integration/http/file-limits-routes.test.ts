/**
 * The file API under hostile input, against the real Postgres: a 1,600-level path in one PUT (issue 9: 41.6 s
 * with a server-wide stall) is refused up front with the depth limit and writes nothing; 64 levels work;
 * DELETE removes files and folders (one statement), answers 404 for a missing path and refuses `.git` and
 * the root, in a project and in the agent dir.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DELETE as deleteAgentFile,
  GET as getAgentFile,
  PUT as putAgentFile,
} from "@/app/api/agent/file/route";
import { GET as getAgentTree } from "@/app/api/agent/tree/route";
import { GET as getConfig } from "@/app/api/config/route";
import { DELETE as deleteFile, GET as getFile, PUT as putFile } from "@/app/api/projects/[id]/file/route";
import { GET as getTree } from "@/app/api/projects/[id]/tree/route";
import { DbScope } from "@/lib/db/client";
import { insertProject, type Project } from "@/lib/projects/projects";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, signedInUser } from "../../helpers/auth";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

let scope: DbScope;
beforeAll(() => {
  scope = new DbScope();
});
afterAll(async () => {
  await scope.release();
});

const levels = (n: number) => Array.from({ length: n }, () => "a").join("/");
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const url = (path: string) => `http://127.0.0.1/x?path=${encodeURIComponent(path)}`;
const put = (body: unknown) =>
  asUser(signedIn.user, "http://127.0.0.1/x", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const del = (path: string) => asUser(signedIn.user, url(path), { method: "DELETE" });

async function project(files: Record<string, string>, links: Record<string, string> = {}): Promise<Project> {
  const actor = await signedIn.actor();
  const p = await insertProject(scope, { workspaceId: actor.workspaceId, name: "files", source: null });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(actor.workspaceId, s);
  await vfs.mkdir(p.rootPath, { recursive: true });
  for (const [path, c] of Object.entries(files)) await vfs.writeFile(`${p.rootPath}/${path}`, c);
  for (const [path, target] of Object.entries(links)) await vfs.symlink(target, `${p.rootPath}/${path}`);
  await vfs.flush();
  await s.release();
  return p;
}

async function tree(p: Project): Promise<string[]> {
  const res = await getTree(asUser(signedIn.user, "http://127.0.0.1/x"), params(p.id));
  expect(res.status).toBe(200);
  return ((await res.json()) as { entries: { path: string }[] }).entries.map((e) => e.path);
}

async function serverAnswers(): Promise<void> {
  const res = await getConfig(asUser(signedIn.user, "http://127.0.0.1/api/config"));
  expect(res.status).toBe(200);
}

describe("deep paths through PUT /api/projects/:id/file", () => {
  it("refuses a 1,600-level path with 400 and the depth limit, writes nothing, and keeps serving", async () => {
    const p = await project({ "keep.txt": "kept\n" });
    const res = await putFile(put({ path: `${levels(1600)}/f.txt`, content: "x" }), params(p.id));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "enametoolong",
        message: "Path is 1601 levels deep; the limit is 64. Use a shallower path.",
      },
    });
    expect(await tree(p)).toEqual(["keep.txt"]);
    const get = await getFile(asUser(signedIn.user, url("keep.txt")), params(p.id));
    expect(((await get.json()) as { content: string }).content).toBe("kept\n");
    await serverAnswers();
  });

  it("writes and reads a 64-level path; 65 levels answer 400", async () => {
    const p = await project({});
    const deep = `${levels(63)}/f.txt`;
    const res = await putFile(put({ path: deep, content: "deep\n" }), params(p.id));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ path: deep, size: 5 });
    const get = await getFile(asUser(signedIn.user, url(deep)), params(p.id));
    expect(get.status).toBe(200);
    expect(((await get.json()) as { content: string }).content).toBe("deep\n");
    const over = await putFile(put({ path: `${levels(64)}/f.txt`, content: "x" }), params(p.id));
    expect(over.status).toBe(400);
    expect(((await over.json()) as { error: { message: string } }).error.message).toBe(
      "Path is 65 levels deep; the limit is 64. Use a shallower path.",
    );
  });

  it("refuses a path over 4096 bytes with 400 and the length limit", async () => {
    const p = await project({});
    const res = await getFile(
      asUser(signedIn.user, url(`${"x".repeat(3000)}/${"y".repeat(1200)}`)),
      params(p.id),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "enametoolong",
        message: "Path is 4201 bytes long; the limit is 4096. Use a shorter path.",
      },
    });
  });
});

describe("DELETE /api/projects/:id/file", () => {
  it("deletes a file, then a folder with everything below it", async () => {
    const p = await project({ "a.txt": "a", "src/x.ts": "x", "src/lib/y.ts": "y", "srcs/z.ts": "z" });
    let res = await deleteFile(del("a.txt"), params(p.id));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ path: "a.txt", kind: "file", deleted: 1 });
    res = await deleteFile(del("src"), params(p.id));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ path: "src", kind: "dir", deleted: 4 });
    expect(await tree(p)).toEqual(["srcs", "srcs/z.ts"]);
  });

  it("answers 404 for a missing path and changes nothing", async () => {
    const p = await project({ "a.txt": "a" });
    const res = await deleteFile(del("nope/b.txt"), params(p.id));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: "enoent", message: "No such file or folder: 'nope/b.txt'" },
    });
    expect(await tree(p)).toEqual(["a.txt"]);
  });

  it("refuses .git (directly, inside, or through a symlinked folder) and the root, with 400", async () => {
    const p = await project({ ".git/HEAD": "ref: refs/heads/main\n", "a.txt": "a" }, { link: "." });
    for (const path of [".git", ".git/HEAD", "link/.git"]) {
      const res = await deleteFile(del(path), params(p.id));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: {
          code: "eacces",
          message: `EACCES: refusing to delete '${path}': the repository's .git directory is managed by Strata.`,
        },
      });
    }
    const root = await deleteFile(del("."), params(p.id));
    expect(root.status).toBe(400);
    expect(((await root.json()) as { error: { message: string } }).error.message).toBe(
      "EACCES: refusing to delete '.': it is the root folder itself. Delete the files or folders inside it instead.",
    );
    const outside = await deleteFile(del("../other"), params(p.id));
    expect(outside.status).toBe(400);
    expect(await outside.json()).toEqual({
      error: { code: "path_escape", message: `Path "../other" is outside the project root ${p.rootPath}` },
    });
    const s = new DbScope();
    const { vfs } = openWorkspaceVfs(p.workspaceId, s);
    expect(await vfs.readText(`${p.rootPath}/.git/HEAD`)).toBe("ref: refs/heads/main\n");
    await s.release();
  });

  it("deletes a symlink itself, never its target", async () => {
    const p = await project({ "real/f.txt": "f" }, { alias: "real" });
    const res = await deleteFile(del("alias"), params(p.id));
    expect(await res.json()).toEqual({ path: "alias", kind: "symlink", deleted: 1 });
    expect(await tree(p)).toEqual(["real", "real/f.txt"]);
  });

  it("deletes a 2,000-level tree stored before the limit existed, in one request", async () => {
    const p = await project({ "keep.txt": "k" });
    // Rows as an older Strata (no depth limit) could store them: straight into vfs_nodes.
    const paths = Array.from({ length: 2000 }, (_, i) => `${p.rootPath}/${levels(i + 1)}`);
    await scope.query(
      `INSERT INTO vfs_nodes (workspace_id, path, parent, kind, mode, size, data, mtime_ms, version)
       SELECT $1, x.path, regexp_replace(x.path, '/[^/]*$', ''), 'dir', 16384, 0, NULL, 0, 1
       FROM unnest($2::text[]) AS x(path)`,
      [p.workspaceId, paths],
    );
    const res = await deleteFile(del("a"), params(p.id));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ path: "a", kind: "dir", deleted: 2000 });
    expect(await tree(p)).toEqual(["keep.txt"]);
    await serverAnswers();
  });
});

describe("DELETE /api/agent/file", () => {
  it("deletes a file and a folder of the agent dir; 404 when missing", async () => {
    for (const [path, content] of [
      ["drafts/gone/SKILL.md", "---\nname: gone\ndescription: d\n---\n"],
      ["archive/keep.md", "k"],
      ["notes.md", "n"],
    ]) {
      const res = await putAgentFile(put({ path, content }));
      expect(res.status).toBe(200);
    }
    let res = await deleteAgentFile(del("drafts"));
    expect(await res.json()).toEqual({ path: "drafts", kind: "dir", deleted: 3 });
    res = await deleteAgentFile(del("notes.md"));
    expect(await res.json()).toEqual({ path: "notes.md", kind: "file", deleted: 1 });
    res = await deleteAgentFile(del("notes.md"));
    expect(res.status).toBe(404);
    const get = await getAgentFile(asUser(signedIn.user, url("archive/keep.md")));
    expect(((await get.json()) as { content: string }).content).toBe("k");
    const treeRes = await getAgentTree(asUser(signedIn.user, "http://127.0.0.1/api/agent/tree"));
    const listed = ((await treeRes.json()) as { entries: { path: string }[] }).entries.map((e) => e.path);
    expect(listed.filter((x) => x.startsWith("drafts") || x === "notes.md")).toEqual([]);
    expect(listed).toContain("archive/keep.md");
    // The agent dir is the one local user's, shared with test files running in parallel: no resource folder
    // (skills/, prompts/) is touched, and the dir is left as found.
    res = await deleteAgentFile(del("archive/keep.md"));
    expect(await res.json()).toEqual({ path: "archive/keep.md", kind: "file", deleted: 1 });
  });
});
