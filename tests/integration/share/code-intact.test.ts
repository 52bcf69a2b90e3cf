/**
 * Sharing with files keeps code intact (issue: `key = lambda x: …` became `key = [redacted:SecretAssignment] x: …` and
 * the fork failed with SyntaxError): ordinary code reaches the preview, the share and the fork byte for byte; only the
 * seeded secrets are redacted; the preview, the share page, the file page and the fork's commit say which files the
 * redaction changed.
 */
import { describe, expect, it } from "vitest";
import { GET as filePage } from "@/app/s/[token]/files/[...path]/route";
import { GET as sharePage } from "@/app/s/[token]/route";
import { DbScope } from "@/lib/db/client";
import { getSession } from "@/lib/session/store";
import { log } from "@/lib/vfs/git";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { createTestUser } from "../../helpers/auth";
import { routes, share } from "./helpers";
import { call, mock, ownerProject, prompt, scope, withShareStack } from "./share-fixture";

withShareStack();

const SORTING = [
  "import itertools",
  "",
  "key = lambda x: (x.name, x.size)",
  "",
  "def order(rows, password_hint=None):",
  "    rows.sort(key = lambda x: x[1])",
  "    best = sorted(rows, key=lambda r: r.score)",
  "    it = iter(rows)",
  "    token = next(it)",
  '    password_hint = "your first pet"',
  "    return best, token",
  "",
].join("\n");
const TESTS = [
  "import unittest",
  "from pkg.sorting import key",
  "",
  "class T(unittest.TestCase):",
  "    def test_key(self):",
  "        self.assertEqual(key(type('R', (), {'name': 'a', 'size': 1})), ('a', 1))",
  "",
].join("\n");
const SETTINGS = 'API_KEY = "sk-proj-Qw3rTy8uIo9pAs5dFg7hJk2lZx4cVb6nM1"\nDB_PASSWORD = "Tr0ub4dor&3x"\n';
const DB_YML = "production:\n  password: hunter2-Secret-99\n";

describe("share with files", () => {
  it("keeps code byte for byte, redacts only the secrets, and marks each changed file everywhere", async () => {
    const f = await ownerProject(scope, {
      "pkg/__init__.py": "",
      "pkg/sorting.py": SORTING,
      "tests/test_sorting.py": TESTS,
      "settings.py": SETTINGS,
      "config/db.yml": DB_YML,
    });
    await prompt(mock, f, "sort the rows", []);
    const leafId = (await getSession(scope, f.session.id))!.leafId!;
    const { preview, token } = await share(f.owner, f.session.id, { leafId, includeFiles: true });

    expect(preview.fileTexts).toEqual({
      "config/db.yml": "production:\n  password: [redacted:YamlSecretValue]\n",
      "pkg/__init__.py": "",
      "pkg/sorting.py": SORTING,
      "settings.py": 'API_KEY = "[redacted:SecretKeySk]"\nDB_PASSWORD = "[redacted:SecretAssignment]"\n',
      "tests/test_sorting.py": TESTS,
    });
    expect(preview.snapshot.files?.map((i) => [i.path, i.redacted ?? 0])).toEqual([
      ["config/db.yml", 1],
      ["pkg/__init__.py", 0],
      ["pkg/sorting.py", 0],
      ["settings.py", 2],
      ["tests/test_sorting.py", 0],
    ]);

    // The share page's file list and each file's page say which files are not as written.
    const page = await call(sharePage, null, `/s/${token}`, { token });
    expect(page.status).toBe(200);
    const badges = [...page.body.matchAll(/>([^<>]+)<\/a> <span class="badge badge-warn"[^>]*>([^<]+)</g)];
    expect(badges.map((m) => [m[1], m[2]])).toEqual([
      ["config/db.yml", "1 secret redacted"],
      ["settings.py", "2 secrets redacted"],
    ]);
    const filePageOf = (path: string) =>
      call(filePage, null, `/s/${token}/files/${path}`, { token, path: path.split("/") });
    expect((await filePageOf("settings.py")).body).toContain(">2 secrets redacted</span>");
    expect((await filePageOf("pkg/sorting.py")).body).not.toMatch(/secrets? redacted/);

    // The fork holds the code as written, and its first commit names the redacted files.
    const forker = await createTestUser("Fork User");
    const res = await call(routes.fork.POST, forker, `/api/s/${token}/fork`, { token }, { json: {} });
    expect(res.status).toBe(201);
    const { project } = JSON.parse(res.body) as { project: { rootPath: string } };
    const { vfs, scope: vs } = openWorkspaceVfs(forker.workspaceId, new DbScope());
    try {
      expect(await vfs.readText(`${project.rootPath}/pkg/sorting.py`)).toBe(SORTING);
      expect(await vfs.readText(`${project.rootPath}/tests/test_sorting.py`)).toBe(TESTS);
      const [first] = await log(vfs, project.rootPath);
      expect(first.message).toBe(
        [
          `Forked from shared session "${preview.snapshot.title}"`,
          "",
          "Redacted before sharing (secrets replaced by [redacted:<kind>]):",
          "- config/db.yml",
          "- settings.py",
          "",
        ].join("\n"),
      );
    } finally {
      await vs.release();
    }
  });
});
