/**
 * One rule for names (lib/vfs/names.ts, issue 26 items 6 and 13): `PUT /api/projects/:id/file` (the editor's save)
 * and `POST /api/projects/:id/entries` (the tree's New file) refuse the same names — a backslash, control characters
 * (newline, tab), bidi overrides, names made of dots, what git reads as `.git`, a nested `.git` — with 400 `einval`
 * and the rule's words, and store nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createEntry } from "@/app/api/projects/[id]/entries/route";
import { PUT as putFile } from "@/app/api/projects/[id]/file/route";
import { GET as getTree } from "@/app/api/projects/[id]/tree/route";
import { DbScope } from "@/lib/db/client";
import { insertProject, type Project } from "@/lib/projects/projects";
import { NAME_ERRORS, quoteName } from "@/lib/vfs/names";
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
const json = (method: string, body: unknown) =>
  asUser(user, "http://127.0.0.1/x", {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function project(): Promise<Project> {
  const p = await insertProject(scope, { workspaceId: user.workspaceId, name: "names", source: null });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(user.workspaceId, s);
  await vfs.writeFile(`${p.rootPath}/a.txt`, "A");
  await vfs.flush();
  await s.release();
  return p;
}

async function tree(p: Project): Promise<string[]> {
  const res = await getTree(asUser(user, "http://127.0.0.1/x"), params(p.id));
  return ((await res.json()) as { entries: { path: string }[] }).entries.map((e) => e.path);
}

describe("PUT /file and POST /entries refuse the same names", () => {
  // [path, the refused component as PUT /file's message shows it, the rule's words]
  const refused: [string, string, string][] = [
    ["a\\b.txt", '"a\\b.txt"', NAME_ERRORS.backslash],
    ["src/x\\y.txt", '"x\\y.txt"', NAME_ERRORS.backslash],
    ["x\ny.txt", '"x<U+000A>y.txt"', NAME_ERRORS.control],
    ["tab\there.txt", '"tab<U+0009>here.txt"', NAME_ERRORS.control],
    ["invoice\u202Etxt.exe", '"invoice<U+202E>txt.exe"', NAME_ERRORS.bidi],
    ["...", '"..."', NAME_ERRORS.dots],
    ["src/. /x.txt", '". "', NAME_ERRORS.dots],
    ["sub/.git.", '".git."', NAME_ERRORS.gitAlias],
    ["GIT~1/x", '"GIT~1"', NAME_ERRORS.gitAlias],
  ];

  for (const [path, shown, reason] of refused) {
    it(`refuses ${quoteName(path)}`, async () => {
      const p = await project();
      const put = await putFile(json("PUT", { path, content: "q" }), params(p.id));
      expect(put.status).toBe(400);
      expect(await put.json()).toEqual({
        error: { code: "einval", message: `Invalid name ${shown}: ${reason}` },
      });
      const post = await createEntry(json("POST", { path, kind: "file" }), params(p.id));
      expect(post.status).toBe(400);
      expect(await post.json()).toEqual({ error: { code: "einval", message: reason } });
      expect(await tree(p)).toEqual(["a.txt"]);
    });
  }

  it("refuses a nested .git with the same words on both", async () => {
    const p = await project();
    for (const path of ["sub/.git/config", "sub/.Git"]) {
      const put = await putFile(json("PUT", { path, content: "q" }), params(p.id));
      expect(put.status, path).toBe(400);
      expect(await put.json(), path).toEqual({ error: { code: "einval", message: NAME_ERRORS.nestedGit } });
      const post = await createEntry(json("POST", { path, kind: "file" }), params(p.id));
      expect(await post.json(), path).toEqual({ error: { code: "einval", message: NAME_ERRORS.nestedGit } });
    }
    expect(await tree(p)).toEqual(["a.txt"]);
  });

  it("both accept names the rule allows (dots inside, unicode, a colon)", async () => {
    const p = await project();
    const put = await putFile(json("PUT", { path: "docs/naïve..v2 日本.md", content: "q" }), params(p.id));
    expect(await put.json()).toEqual({ path: "docs/naïve..v2 日本.md", size: 1 });
    const post = await createEntry(json("POST", { path: "a:b/.gitkeep", kind: "file" }), params(p.id));
    expect(await post.json()).toEqual({ path: "a:b/.gitkeep", kind: "file" });
    expect(await tree(p)).toEqual(["a.txt", "a:b", "a:b/.gitkeep", "docs", "docs/naïve..v2 日本.md"]);
  });
});
