/**
 * `POST /api/projects/:id/entries` (the tree's New file / New folder) against the real Postgres: an empty file and
 * a folder are created (the folder shows in the tree without a file in it), nothing is overwritten (409 with the
 * exact message), and invalid paths are refused with the form's words.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createEntry } from "@/app/api/projects/[id]/entries/route";
import { GET as getFile } from "@/app/api/projects/[id]/file/route";
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

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const post = (p: Project, body: unknown) =>
  createEntry(
    asUser(signedIn.user, "http://127.0.0.1/x", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    params(p.id),
  );

async function project(files: Record<string, string>): Promise<Project> {
  const actor = await signedIn.actor();
  const p = await insertProject(scope, { workspaceId: actor.workspaceId, name: "entries", source: null });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(actor.workspaceId, s);
  await vfs.mkdir(p.rootPath, { recursive: true });
  for (const [path, c] of Object.entries(files)) await vfs.writeFile(`${p.rootPath}/${path}`, c);
  await vfs.flush();
  await s.release();
  return p;
}

async function tree(p: Project): Promise<string[]> {
  const res = await getTree(asUser(signedIn.user, "http://127.0.0.1/x"), params(p.id));
  return ((await res.json()) as { entries: { path: string; kind: string }[] }).entries.map(
    (e) => `${e.kind}:${e.path}`,
  );
}

describe("POST /api/projects/:id/entries", () => {
  it("creates an empty file and a folder (parents too)", async () => {
    const p = await project({ "a.txt": "A" });
    const file = await post(p, { path: " src/new.ts ", kind: "file" });
    expect(file.status).toBe(201);
    expect(await file.json()).toEqual({ path: "src/new.ts", kind: "file" });
    const dir = await post(p, { path: "docs/notes", kind: "dir" });
    expect(dir.status).toBe(201);
    expect(await dir.json()).toEqual({ path: "docs/notes", kind: "dir" });
    expect(await tree(p)).toEqual(["file:a.txt", "dir:docs", "dir:docs/notes", "dir:src", "file:src/new.ts"]);
    const read = await getFile(
      asUser(signedIn.user, `http://127.0.0.1/x?path=${encodeURIComponent("src/new.ts")}`),
      params(p.id),
    );
    expect(await read.json()).toMatchObject({ path: "src/new.ts", content: "", size: 0 });
  });

  it("never overwrites: 409 exists with the form's message", async () => {
    const p = await project({ "a.txt": "keep", "src/b.ts": "B" });
    for (const [path, kind] of [
      ["a.txt", "file"],
      ["a.txt", "dir"],
      ["src", "dir"],
    ] as const) {
      const res = await post(p, { path, kind });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({
        error: { code: "exists", message: `"${path}" already exists. Choose another name.` },
      });
    }
    const read = await getFile(asUser(signedIn.user, "http://127.0.0.1/x?path=a.txt"), params(p.id));
    expect(await read.json()).toMatchObject({ content: "keep" });
  });

  it("refuses traversal, .git as any part, control, bidi and backslash characters, and a file as a parent", async () => {
    const p = await project({ "a.txt": "A" });
    const cases: [string, number, string, string][] = [
      [
        "../escape.txt",
        400,
        "einval",
        'Use a path inside the project: no leading "/", no "." or ".." parts and no empty parts ("//").',
      ],
      [".git/x", 400, "einval", "The .git folder is managed by Strata. Choose another name."],
      ["a.txt/inner", 400, "enotdir", '"a.txt" is a file, so nothing can be created inside it.'],
      ["x\ny", 400, "einval", "Names must not contain line breaks, tabs or other control characters."],
      ["a\u0000b", 400, "einval", "Names must not contain line breaks, tabs or other control characters."],
      [
        "invoice\u202Etxt.exe",
        400,
        "einval",
        "Names must not contain bidirectional text controls (U+202A–U+202E, U+2066–U+2069): they make a name read differently from what it is.",
      ],
      [
        "a\\b.txt",
        400,
        "einval",
        'Names must not contain "\\": use "/" between folders (a backslash in a name breaks the project on Windows).',
      ],
      [
        "sub/.git",
        400,
        "einval",
        'No folder or file may be named ".git" (git would take it for a repository\'s own data). Choose another name.',
      ],
      [
        "sub/.Git/config",
        400,
        "einval",
        'No folder or file may be named ".git" (git would take it for a repository\'s own data). Choose another name.',
      ],
      ["", 400, "bad_request", "path: Too small: expected string to have >=1 characters"],
    ];
    for (const [path, status, code, message] of cases) {
      const res = await post(p, { path, kind: "file" });
      expect(res.status, path).toBe(status);
      expect(await res.json(), path).toEqual({ error: { code, message } });
    }
    expect(await tree(p)).toEqual(["file:a.txt"]);
  });
});
