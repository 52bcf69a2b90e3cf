import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DbScope } from "@/lib/db/client";
import { VfsConflictError } from "@/lib/vfs/errors";
import type { Vfs } from "@/lib/vfs/vfs";
import { openMainVfs, openSessionVfs } from "@/lib/vfs/workspace";

const ROOT = "/p";
let scope: DbScope;
let workspaceId: string;
let projectId: string;
const scopes: DbScope[] = [];

async function newSession(): Promise<string> {
  const [row] = await scope.query<{ id: string }>(
    "INSERT INTO sessions (project_id, cwd) VALUES ($1, $2) RETURNING id",
    [projectId, ROOT],
  );
  return row.id;
}

function sessionFs(sessionId: string): Vfs {
  const s = new DbScope();
  scopes.push(s);
  return openSessionVfs({ workspaceId, rootPath: ROOT }, sessionId, s).vfs;
}

function mainFs(): Vfs {
  const s = new DbScope();
  scopes.push(s);
  return openMainVfs(workspaceId, { projectId, root: ROOT }, s).vfs;
}

async function ownRows(sessionId: string): Promise<{ path: string; kind: string }[]> {
  return scope.query<{ path: string; kind: string }>(
    "SELECT path, kind FROM worktree_nodes WHERE session_id = $1 ORDER BY path",
    [sessionId],
  );
}

beforeEach(async () => {
  scope = new DbScope();
  const [ws] = await scope.query<{ id: string }>(
    "INSERT INTO workspaces (name, kind, slug) VALUES ('wt', 'personal', 'wt-' || gen_random_uuid()) RETURNING id",
  );
  workspaceId = ws.id;
  const [p] = await scope.query<{ id: string }>(
    "INSERT INTO projects (workspace_id, name, root_path) VALUES ($1, 'p', $2) RETURNING id",
    [workspaceId, ROOT],
  );
  projectId = p.id;
  const main = mainFs();
  await main.writeFile(`${ROOT}/notes.md`, "main\n");
  await main.writeFile(`${ROOT}/src/a.ts`, "export const a = 1;\n");
  await main.writeFile(`${ROOT}/.git/HEAD`, "ref: refs/heads/main\n");
  await main.flush();
});

afterEach(async () => {
  await scope.query("DELETE FROM workspaces WHERE id = $1", [workspaceId]);
  await scope.release();
  for (const s of scopes.splice(0)) await s.release();
});

describe("a working tree per session", () => {
  it("gives each session its own files, copying only what it changed", async () => {
    const a = await newSession();
    const b = await newSession();
    const fa = sessionFs(a);
    const fb = sessionFs(b);
    expect(await fa.readText(`${ROOT}/notes.md`)).toBe("main\n");
    await fa.writeFile(`${ROOT}/notes.md`, "from A\n");
    await fb.writeFile(`${ROOT}/notes.md`, "from B\n");
    await Promise.all([fa.flush(), fb.flush()]);
    expect(await sessionFs(a).readText(`${ROOT}/notes.md`)).toBe("from A\n");
    expect(await sessionFs(b).readText(`${ROOT}/notes.md`)).toBe("from B\n");
    expect(await mainFs().readText(`${ROOT}/notes.md`)).toBe("main\n");
    expect(await ownRows(a)).toEqual([{ path: "/p/notes.md", kind: "file" }]);
    expect(await ownRows(await newSession())).toEqual([]);
  });

  it("deletes with whiteouts, creates below them, and lists the merged tree", async () => {
    const a = await newSession();
    const fa = sessionFs(a);
    await fa.rmdir(`${ROOT}/src`, { recursive: true });
    await fa.writeFile(`${ROOT}/new/dir/x.txt`, "x");
    await fa.flush();
    const cold = sessionFs(a);
    expect(await cold.readdir(ROOT)).toEqual([".git", "new", "notes.md"]);
    expect(await cold.exists(`${ROOT}/src/a.ts`)).toBe(false);
    expect((await cold.walk(ROOT)).map((e) => e.path)).toEqual([
      "/p/.git",
      "/p/.git/HEAD",
      "/p/new",
      "/p/new/dir",
      "/p/new/dir/x.txt",
      "/p/notes.md",
    ]);
    expect(await ownRows(a)).toEqual([
      { path: "/p/new", kind: "dir" },
      { path: "/p/new/dir", kind: "dir" },
      { path: "/p/new/dir/x.txt", kind: "file" },
      { path: "/p/src", kind: "whiteout" },
      { path: "/p/src/a.ts", kind: "whiteout" },
    ]);
    await cold.mkdir(`${ROOT}/src`);
    await cold.writeFile(`${ROOT}/src/b.ts`, "b");
    await cold.flush();
    expect(await sessionFs(a).readdir(`${ROOT}/src`)).toEqual(["b.ts"]);
    expect(await mainFs().readdir(`${ROOT}/src`)).toEqual(["a.ts"]);
    expect(await sessionFs(await newSession()).readdir(`${ROOT}/src`)).toEqual(["a.ts"]);
  });

  it("refuses a write of the same session that lost a race, as the workspace VFS does", async () => {
    const a = await newSession();
    const one = sessionFs(a);
    const two = sessionFs(a);
    expect(await one.readText(`${ROOT}/notes.md`)).toBe("main\n");
    expect(await two.readText(`${ROOT}/notes.md`)).toBe("main\n");
    await one.writeFile(`${ROOT}/notes.md`, "one\n");
    await one.flush();
    await two.writeFile(`${ROOT}/notes.md`, "two\n");
    await two.writeFile(`${ROOT}/other.md`, "two's other file\n");
    await expect(two.flush()).rejects.toBeInstanceOf(VfsConflictError);
    const check = sessionFs(a);
    expect(await check.readText(`${ROOT}/notes.md`)).toBe("one\n");
    expect(await check.exists(`${ROOT}/other.md`)).toBe(false);
  });

  it("shares the repository: .git writes land in the workspace, not in the session's rows", async () => {
    const a = await newSession();
    const fa = sessionFs(a);
    await fa.writeFile(`${ROOT}/.git/refs/heads/strata/x`, "0".repeat(40));
    await fa.flush();
    expect(await mainFs().readText(`${ROOT}/.git/refs/heads/strata/x`)).toBe("0".repeat(40));
    expect(await ownRows(a)).toEqual([]);
  });

  it("keeps main's old nodes in every session when main moves, and a later session starts from the new main", async () => {
    const edited = await newSession();
    const idle = await newSession();
    const fe = sessionFs(edited);
    await fe.writeFile(`${ROOT}/notes.md`, "edited\n");
    await fe.flush();
    const main = mainFs();
    await main.writeFile(`${ROOT}/notes.md`, "main 2\n");
    await main.writeFile(`${ROOT}/added.md`, "added\n");
    await main.unlink(`${ROOT}/src/a.ts`);
    await main.flush();
    expect(await sessionFs(edited).readText(`${ROOT}/notes.md`)).toBe("edited\n");
    const fi = sessionFs(idle);
    expect(await fi.readText(`${ROOT}/notes.md`)).toBe("main\n");
    expect(await fi.exists(`${ROOT}/added.md`)).toBe(false);
    expect(await fi.readText(`${ROOT}/src/a.ts`)).toBe("export const a = 1;\n");
    expect(await ownRows(idle)).toEqual([
      { path: "/p/added.md", kind: "whiteout" },
      { path: "/p/notes.md", kind: "file" },
      { path: "/p/src/a.ts", kind: "file" },
    ]);
    const later = sessionFs(await newSession());
    expect(await later.readText(`${ROOT}/notes.md`)).toBe("main 2\n");
    expect(await later.readdir(ROOT)).toEqual([".git", "added.md", "notes.md", "src"]);
    // The idle session writes its pinned file: its version is the one it read.
    await fi.writeFile(`${ROOT}/notes.md`, "idle now\n");
    await fi.flush();
    expect(await sessionFs(idle).readText(`${ROOT}/notes.md`)).toBe("idle now\n");
  });

  it("removes a tree of the session now, with whiteouts, and counts what it saw", async () => {
    const a = await newSession();
    const fa = sessionFs(a);
    await fa.writeFile(`${ROOT}/src/own.ts`, "own");
    await fa.flush();
    expect(await sessionFs(a).removeTree(`${ROOT}/src`)).toBe(3);
    expect(await sessionFs(a).exists(`${ROOT}/src`)).toBe(false);
    expect(await mainFs().readText(`${ROOT}/src/a.ts`)).toBe("export const a = 1;\n");
  });
});
