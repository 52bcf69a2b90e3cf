/**
 * The IDE around files (issue 14) against the real Postgres: `PATCH /api/projects/:id/entries` renames and moves
 * files and folders (a folder with its subtree; never overwriting: 409; traversal, `.git`, the root and a folder
 * into itself refused), `GET /api/projects/:id/search` (the grep engine: `.gitignore`, regex, case, the cap, an
 * invalid regex) and `GET /api/projects/:id/tree/version` (the change feed: changes with every file change made
 * anywhere, stays put otherwise).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATCH as moveEntry } from "@/app/api/projects/[id]/entries/route";
import { GET as getFile } from "@/app/api/projects/[id]/file/route";
import { GET as search } from "@/app/api/projects/[id]/search/route";
import { GET as getTree } from "@/app/api/projects/[id]/tree/route";
import { GET as treeVersion } from "@/app/api/projects/[id]/tree/version/route";
import { DbScope } from "@/lib/db/client";
import { insertProject, type Project } from "@/lib/projects/projects";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";

let user: TestUser;
let scope: DbScope;
beforeAll(async () => {
  user = await createTestUser();
  scope = new DbScope();
});
afterAll(async () => {
  await scope.release();
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const url = (query = "") => `http://127.0.0.1/x${query}`;

const move = (p: Project, body: unknown) =>
  moveEntry(
    asUser(user, url(), {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    params(p.id),
  );

/** Write (or with `null` delete) files of the project through a VFS of its own, as another tab or the agent. */
async function write(p: Project, files: Record<string, string | null>): Promise<void> {
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(user.workspaceId, s);
  await vfs.mkdir(p.rootPath, { recursive: true });
  for (const [path, c] of Object.entries(files)) {
    if (c === null) await vfs.removeTree(`${p.rootPath}/${path}`);
    else await vfs.writeFile(`${p.rootPath}/${path}`, c);
  }
  await vfs.flush();
  await s.release();
}

async function project(files: Record<string, string>): Promise<Project> {
  const p = await insertProject(scope, { workspaceId: user.workspaceId, name: "file-ops", source: null });
  await write(p, files);
  return p;
}

async function tree(p: Project): Promise<string[]> {
  const res = await getTree(asUser(user, url()), params(p.id));
  return ((await res.json()) as { entries: { path: string; kind: string }[] }).entries.map(
    (e) => `${e.kind}:${e.path}`,
  );
}

async function read(p: Project, path: string): Promise<unknown> {
  const res = await getFile(asUser(user, url(`?path=${encodeURIComponent(path)}`)), params(p.id));
  return res.status === 200 ? ((await res.json()) as { content: string }).content : res.status;
}

describe("PATCH /api/projects/:id/entries (rename / move)", () => {
  it("renames a file and moves a folder with its subtree (missing parents created)", async () => {
    const p = await project({ "a.txt": "A", "src/lib/b.ts": "B", "src/c.ts": "C", "docs/x.md": "X" });
    const renamed = await move(p, { from: "a.txt", to: " b.txt " });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual({ from: "a.txt", to: "b.txt", kind: "file", moved: 1 });
    const moved = await move(p, { from: "src", to: "docs/old/src" });
    expect(await moved.json()).toEqual({ from: "src", to: "docs/old/src", kind: "dir", moved: 4 });
    expect(await tree(p)).toEqual([
      "file:b.txt",
      "dir:docs",
      "dir:docs/old",
      "dir:docs/old/src",
      "file:docs/old/src/c.ts",
      "dir:docs/old/src/lib",
      "file:docs/old/src/lib/b.ts",
      "file:docs/x.md",
    ]);
    expect(await read(p, "b.txt")).toBe("A");
    expect(await read(p, "docs/old/src/lib/b.ts")).toBe("B");
    expect(await read(p, "a.txt")).toBe(404);
  });

  it("never overwrites: 409 exists, and both stay as they were", async () => {
    const p = await project({ "a.txt": "keep A", "b.txt": "keep B", "src/a.txt": "S" });
    for (const [from, to] of [
      ["a.txt", "b.txt"],
      ["a.txt", "src"],
      ["src", "b.txt"],
    ]) {
      const res = await move(p, { from, to });
      expect(res.status, `${from} → ${to}`).toBe(409);
      expect(await res.json()).toEqual({
        error: { code: "exists", message: `"${to}" already exists. Choose another name.` },
      });
    }
    expect(await tree(p)).toEqual(["file:a.txt", "file:b.txt", "dir:src", "file:src/a.txt"]);
    expect(await read(p, "b.txt")).toBe("keep B");
  });

  it("refuses traversal, .git, the root, a folder into itself, a file as parent, and a missing source", async () => {
    const p = await project({ "a.txt": "A", "src/lib/b.ts": "B" });
    const cases: [unknown, number, string, string][] = [
      [
        { from: "a.txt", to: "../escape.txt" },
        400,
        "einval",
        'Use a path inside the project: no leading "/", no "." or ".." parts and no empty parts ("//").',
      ],
      [
        { from: "../outside", to: "in.txt" },
        400,
        "path_escape",
        `Path "../outside" is outside the project root ${p.rootPath}`,
      ],
      [
        { from: "a.txt", to: ".git/a.txt" },
        400,
        "einval",
        "The .git folder is managed by Strata. Choose another name.",
      ],
      [
        { from: ".git", to: "git-copy" },
        400,
        "eacces",
        "The .git folder is managed by Strata and cannot be moved.",
      ],
      [
        { from: ".", to: "root-copy" },
        400,
        "eacces",
        "The project folder itself cannot be moved. Move the files or folders inside it instead.",
      ],
      [
        { from: "src", to: "src/lib/src" },
        400,
        "einval",
        'Cannot move "src" into itself ("src/lib/src" is inside it). Choose a folder outside it.',
      ],
      [{ from: "src", to: "src" }, 400, "einval", '"src" is already there.'],
      [
        { from: "src", to: "a.txt/src" },
        400,
        "enotdir",
        '"a.txt" is a file, so nothing can be created inside it.',
      ],
      [
        { from: "gone.txt", to: "b.txt" },
        404,
        "enoent",
        '"gone.txt" does not exist (it may have been moved or deleted elsewhere). Refresh the tree.',
      ],
      [
        { from: "a.txt", to: "" },
        400,
        "bad_request",
        "to: Too small: expected string to have >=1 characters",
      ],
    ];
    for (const [body, status, code, message] of cases) {
      const res = await move(p, body);
      const json = (await res.json()) as { error: { code: string; message: string } };
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(json.error.code, JSON.stringify(body)).toBe(code);
      expect(json.error.message, JSON.stringify(body)).toBe(message);
    }
    expect(await tree(p)).toEqual(["file:a.txt", "dir:src", "dir:src/lib", "file:src/lib/b.ts"]);
  });
});

interface SearchBody {
  files: {
    path: string;
    hits: { line: number; column: number; text: string; ranges: [number, number][] }[];
  }[];
  matches: number;
  searched: number;
  capped: null | { reason: string; message: string };
}
const find = async (p: Project, query: string): Promise<{ status: number; body: SearchBody }> => {
  const res = await search(asUser(user, url(`?${query}`)), params(p.id));
  return { status: res.status, body: (await res.json()) as SearchBody };
};

describe("GET /api/projects/:id/search", () => {
  it("finds lines grouped by file with the matched ranges, respecting .gitignore; regex and case", async () => {
    const p = await project({
      ".gitignore": "dist/\n",
      "src/a.ts": "const Foo = 1;\nfoo(); foo();\nnothing\n",
      "README.md": "# foo\r\n",
      "dist/out.js": "foo\n",
      "bin.dat": "foo\u0000",
    });
    const plain = await find(p, "q=foo");
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({
      files: [
        { path: "README.md", hits: [{ line: 1, column: 3, text: "# foo", ranges: [[2, 5]] }] },
        {
          path: "src/a.ts",
          hits: [
            { line: 1, column: 7, text: "const Foo = 1;", ranges: [[6, 9]] },
            {
              line: 2,
              column: 1,
              text: "foo(); foo();",
              ranges: [
                [0, 3],
                [7, 10],
              ],
            },
          ],
        },
      ],
      matches: 3,
      searched: 4,
      capped: null,
    });
    const cased = await find(p, "q=Foo&case=1");
    expect(cased.body.files.map((f) => [f.path, f.hits.map((h) => h.line)])).toEqual([["src/a.ts", [1]]]);
    const literal = await find(p, "q=foo()");
    expect(literal.body.matches).toBe(1);
    const regex = await find(p, `q=${encodeURIComponent("^foo\\(\\)")}&regex=1`);
    expect(regex.body.files).toEqual([
      { path: "src/a.ts", hits: [{ line: 2, column: 1, text: "foo(); foo();", ranges: [[0, 5]] }] },
    ]);
  });

  it("shows 500 characters around the first match of a long line, with its ranges shifted", async () => {
    const p = await project({ "long.txt": `${"x".repeat(600)}needle${"y".repeat(100)}\n` });
    const { body } = await find(p, "q=needle");
    expect(body.files).toEqual([
      {
        path: "long.txt",
        hits: [
          { line: 1, column: 601, text: `…${"x".repeat(100)}needle${"y".repeat(100)}`, ranges: [[101, 107]] },
        ],
      },
    ]);
  });

  it("caps the matching lines and says so; an invalid regex is a 400 with the parser's message", async () => {
    const p = await project({ "many.txt": "hit\n".repeat(501), "z.txt": "hit\n" });
    const capped = await find(p, "q=hit");
    expect(capped.body.matches).toBe(500);
    expect(capped.body.files.map((f) => [f.path, f.hits.length])).toEqual([["many.txt", 500]]);
    expect(capped.body.capped).toEqual({
      reason: "matches",
      message: "Showing the first 500 matching lines; there are more. Refine the search.",
    });
    const bad = await find(p, `q=${encodeURIComponent("a(b")}&regex=1`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: {
        code: "invalid_regex",
        message: "regex parse error: Invalid regular expression: /a(b/i: Unterminated group",
      },
    });
    const empty = await find(p, "q=");
    expect(empty.status).toBe(400);
  });
});

describe("GET /api/projects/:id/tree/version", () => {
  const version = async (p: Project) =>
    ((await (await treeVersion(asUser(user, url()), params(p.id))).json()) as { version: string }).version;

  it("changes with every change below the root made by anyone, not with .git or another project", async () => {
    const p = await project({ "a.txt": "A", "src/b.ts": "B" });
    const other = await project({ "o.txt": "O" });
    const v0 = await version(p);
    expect(v0).toMatch(/^3\.\d+\.\d+\.-?\d+$/);
    expect(await version(p)).toBe(v0);
    await write(other, { "o.txt": "changed" });
    await write(p, { ".git/HEAD": "ref: refs/heads/main\n" });
    expect(await version(p)).toBe(v0);

    const seen = new Set([v0]);
    const expectNew = async (what: string) => {
      const v = await version(p);
      expect(seen.has(v), what).toBe(false);
      seen.add(v);
    };
    await write(p, { "a.txt": "A2" });
    await expectNew("content changed");
    await write(p, { "new.txt": "" });
    await expectNew("file created");
    await move(p, { from: "src", to: "lib" });
    await expectNew("folder moved");
    await write(p, { "new.txt": null });
    await expectNew("file deleted");
    await write(p, { "new.txt": "" });
    await expectNew("deleted and created again at the same path");
  });
});
