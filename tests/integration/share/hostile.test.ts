/**
 * Hostile input on the share routes (docs/sharing.md): a file path with a NUL or another control character answers
 * the same 404 as an unknown file (the JSON one and the page), never a 500; a leaf id with one answers the preview's
 * and publish's 404 `entry_not_found`, as an unknown entry does. A fork's name with a control character is a 400; a
 * fork writes no unsafe path (`..`, absolute, `.git`) even when the share's rows hold one.
 */
import { describe, expect, it } from "vitest";
import { GET as filePage } from "@/app/s/[token]/files/[...path]/route";
import { getSession } from "@/lib/session/store";
import { createTestUser } from "../../helpers/auth";
import { routes, share } from "./helpers";
import { call, mock, ownerProject, prompt, scope, withShareStack } from "./share-fixture";

withShareStack();

const NOT_FOUND = JSON.stringify({ error: "Share not found" });

async function shared() {
  const f = await ownerProject(scope, { "a.txt": "alpha\n" });
  await prompt(mock, f, "hello", []);
  const leafId = (await getSession(scope, f.session.id))!.leafId!;
  return { f, leafId, ...(await share(f.owner, f.session.id, { leafId, includeFiles: true })) };
}

describe("hostile share input", () => {
  it("answers a file path with a NUL or control character with the unknown file's 404, JSON and page", async () => {
    const { token } = await shared();
    const segments = [["a%00b"], ["a\u0000b"], ["a.txt%00"], ["x", "%01y"], ["a\u001fb"], ["a%7F"]];
    const json = [];
    const pages = [];
    for (const path of [["missing.txt"], ...segments]) {
      const url = `/api/s/${token}/files/${path.join("/")}`;
      const r = await call(routes.file.GET, null, url, { token, path });
      json.push([r.status, r.body]);
      const p = await call(filePage, null, url.replace("/api", ""), { token, path });
      pages.push([p.status, p.body]);
    }
    expect(json).toEqual(json.map(() => [404, NOT_FOUND]));
    expect(pages.map((p) => p[0])).toEqual(pages.map(() => 404));
    expect(new Set(pages.map((p) => p[1])).size).toBe(1);
  });

  it("answers a leaf id with a NUL or control character with 404 entry_not_found on preview and publish", async () => {
    const { f } = await shared();
    const out = [];
    for (const leafId of ["abc\u0000def", "\u0000", "abc\u0007"]) {
      const p = await call(
        routes.preview.POST,
        f.owner,
        `/api/sessions/${f.session.id}/shares/preview`,
        { id: f.session.id },
        { json: { leafId } },
      );
      const s = await call(
        routes.sessionShares.POST,
        f.owner,
        `/api/sessions/${f.session.id}/shares`,
        { id: f.session.id },
        { json: { leafId, digest: "0".repeat(64) } },
      );
      out.push([p.status, JSON.parse(p.body).error.code, s.status, JSON.parse(s.body).error.code]);
    }
    expect(out).toEqual(out.map(() => [404, "entry_not_found", 404, "entry_not_found"]));
  });

  it("refuses a fork name with a control character: 400 naming it, nothing created", async () => {
    const { token } = await shared();
    const forker = await createTestUser("Hostile forker");
    const out = [];
    for (const name of ["bad\u0000name", "two\nlines", "tab\there", "bell\u0007"]) {
      const json = await call(
        routes.fork.POST,
        forker,
        `/api/s/${token}/fork`,
        { token },
        { json: { name } },
      );
      const form = await call(
        routes.fork.POST,
        forker,
        `/api/s/${token}/fork`,
        { token },
        { form: { name } },
      );
      out.push([json.status, JSON.parse(json.body).error, form.status]);
    }
    const error = {
      code: "bad_request",
      message: "name: The name must not contain control characters (a line break, a tab, NUL)",
    };
    expect(out).toEqual(out.map(() => [400, error, 400]));
    const projects = await scope.query("SELECT id FROM projects WHERE workspace_id = $1", [
      forker.workspaceId,
    ]);
    expect(projects).toEqual([]);
  });

  it("forks only safe paths: a share row holding .., absolute or .git paths writes none of them", async () => {
    const { token, summary } = await shared();
    for (const path of [
      "../escape.txt",
      "/abs.txt",
      ".git/config",
      "sub/.git/hooks/post-checkout",
      "a/../../up.txt",
    ])
      await scope.query(
        "INSERT INTO session_share_files (share_id, path, text, size, mode) VALUES ($1, $2, 'pwned', 5, '100644')",
        [summary.id, path],
      );
    const forker = await createTestUser("Path forker");
    const res = await call(routes.fork.POST, forker, `/api/s/${token}/fork`, { token }, { json: {} });
    expect(res.status).toBe(201);
    const { project } = JSON.parse(res.body) as { project: { rootPath: string } };
    const nodes = await scope.query<{ path: string }>(
      "SELECT path FROM vfs_nodes WHERE workspace_id = $1 AND kind = 'file' AND path NOT LIKE '%/.git/objects/%' ORDER BY path",
      [forker.workspaceId],
    );
    const written = nodes.map((n) => n.path);
    expect(written.filter((p) => !p.startsWith(`${project.rootPath}/.git/`))).toEqual([
      `${project.rootPath}/a.txt`,
    ]);
    const [config] = await scope.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM vfs_nodes WHERE workspace_id = $1 AND path = $2 AND size = 5",
      [forker.workspaceId, `${project.rootPath}/.git/config`],
    );
    expect(config.n).toBe(0);
  });

  it("lists a file with a NUL past its first 8 KiB as binary, and publishes (Postgres text refuses NUL)", async () => {
    const f = await ownerProject(scope, {
      "a.txt": "alpha\n",
      "late-nul.txt": `${"a".repeat(9000)}\u0000b\n`,
    });
    await prompt(mock, f, "hello", []);
    const leafId = (await getSession(scope, f.session.id))!.leafId!;
    const { preview, token } = await share(f.owner, f.session.id, { leafId, includeFiles: true });
    expect(preview.snapshot.files?.map((x) => [x.path, x.omitted ?? null])).toEqual([
      ["a.txt", null],
      ["late-nul.txt", "binary"],
    ]);
    expect(Object.keys(preview.fileTexts)).toEqual(["a.txt"]);
    const r = await call(routes.file.GET, null, `/api/s/${token}/files/late-nul.txt`, {
      token,
      path: ["late-nul.txt"],
    });
    expect([r.status, r.body]).toEqual([404, NOT_FOUND]);
  });
});
