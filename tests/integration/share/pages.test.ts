/**
 * The share page and downloads (issue 15, docs/sharing.md "The share page and exports"): `/s/<token>` renders the
 * shared branch as HTML without any script, with the share headers and meta tags, and nothing of the other branch;
 * its file links open highlighted file pages; `/api/s/<token>/export` downloads the offline HTML and the pi JSONL
 * (which imports back into Strata); a revoked share's page, file and export are 404; the owner's branch export of a
 * session holding an OpenAI key carries `[redacted:` and never the key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/s/[token]/export/route";
import { GET as branchExport } from "@/app/api/sessions/[id]/branch-export/route";
import { GET as filePage } from "@/app/s/[token]/files/[...path]/route";
import { GET as sharePage } from "@/app/s/[token]/route";
import { DbScope } from "@/lib/db/client";
import { insertProject, type Project } from "@/lib/projects/projects";
import type { NewEntry } from "@/lib/session/entries";
import { importSessionJsonl } from "@/lib/session/import-export";
import { parseSessionJsonl } from "@/lib/session/jsonl";
import {
  appendEntry,
  branch,
  createSession,
  getSession,
  type SessionRow,
  setSessionTitle,
} from "@/lib/session/store";
import { buildSharePreview } from "@/lib/share/build";
import { publishShare, revokeShare } from "@/lib/share/store";
import { commitAll, initRepository } from "@/lib/vfs/git";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";

type Handler = (
  req: Request,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

const KEY = `sk-proj-${"Ab3dE5gH7jK9mN1pQ3rS5tU7vW9xY1z".repeat(2)}T3BlbkFJ${"x7Yz9Ab2Cd4Ef6Gh8Ij0Kl".repeat(2)}`;
const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const answer = (text: string): NewEntry => ({
  type: "message" as const,
  message: {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage,
    stopReason: "stop",
    timestamp: 2,
  },
});
const question = (text: string): NewEntry => ({
  type: "message" as const,
  message: { role: "user", content: text, timestamp: 1 },
});

let scope: DbScope;
let owner: TestUser;
let project: Project;
let session: SessionRow;
let token: string;
let shareId: string;
let sharedLeaf: string;

async function call(
  handler: Handler,
  url: string,
  params: Record<string, string | string[]>,
  user: TestUser | null = null,
) {
  const res = await handler(asUser(user, url), { params: Promise.resolve(params) });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

function expectShareHeaders(headers: Headers) {
  expect(headers.get("cache-control")).toBe("no-store");
  expect(headers.get("x-robots-tag")).toBe("noindex, nofollow");
  expect(headers.get("referrer-policy")).toBe("no-referrer");
  expect(headers.get("x-content-type-options")).toBe("nosniff");
}

beforeAll(async () => {
  scope = new DbScope();
  owner = await createTestUser("Page Owner");
  project = await insertProject(scope, { workspaceId: owner.workspaceId, name: "pages", source: null });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(owner.workspaceId, s);
  await initRepository(vfs, project.rootPath);
  await vfs.writeFile(`${project.rootPath}/src/app.ts`, "export const answer: number = 42;\n");
  await vfs.writeFile(`${project.rootPath}/notes <b>.md`, "# Notes\n");
  const commit = await commitAll(vfs, project.rootPath, {
    message: "init",
    author: { name: "t", email: "t@x" },
  });
  await vfs.flush();
  await s.release();
  session = await createSession(scope, { projectId: project.id, cwd: project.rootPath, userId: owner.id });
  await setSessionTitle(scope, session.id, "Parser <fix> session");
  // Root question, then two branches: the shared one (bound to the commit) and the other one.
  const root = await appendEntry(scope, session.id, question("Explain **the parser**"));
  await appendEntry(scope, session.id, answer("Other branch answer, never shared"));
  await branch(scope, session.id, root.id);
  const leaf = await appendEntry(scope, session.id, answer("Shared branch answer about `src/app.ts`"), {
    commit,
  });
  sharedLeaf = leaf.id;
  const row = (await getSession(scope, session.id))!;
  const options = { leafId: sharedLeaf, includeFiles: true, includeSystem: false, redact: [] };
  const preview = await buildSharePreview(scope, row, options);
  const share = await publishShare(scope, {
    session: row,
    project,
    userId: owner.id,
    preview,
    options,
    expiresAt: null,
  });
  token = share.url.slice("/s/".length);
  shareId = share.id;
});

afterAll(async () => {
  await scope?.release();
});

describe("the share page", () => {
  it("is HTML with the share headers and meta tags, the path's texts and nothing of the other branch", async () => {
    const res = await call(sharePage as Handler, `/s/${token}`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expectShareHeaders(res.headers);
    expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(res.body).toContain('<meta name="referrer" content="same-origin">');
    expect(res.body).toContain("<title>Parser &lt;fix&gt; session · Strata</title>");
    expect(res.body).toContain("<p>Explain <strong>the parser</strong></p>");
    expect(res.body).toContain("<p>Shared branch answer about <code>src/app.ts</code></p>");
    expect(res.body).not.toContain("Other branch answer");
    expect(res.body).not.toMatch(/<script/i);
    expect(res.body).toContain(`<form method="post" action="/api/s/${token}/fork">`);
    expect(res.body).toContain(
      `<a class="btn" href="/api/s/${token}/export?format=jsonl" download>Download pi JSONL</a>`,
    );
  });

  it("links each shared file to a page with its highlighted code", async () => {
    const page = await call(sharePage as Handler, `/s/${token}`, { token });
    expect(page.body).toContain(`<a href="/s/${token}/files/src/app.ts">src/app.ts</a>`);
    expect(page.body).toContain(`<a href="/s/${token}/files/notes%20%3Cb%3E.md">notes &lt;b&gt;.md</a>`);
    const res = await call(filePage as Handler, `/s/${token}/files/src/app.ts`, {
      token,
      path: ["src", "app.ts"],
    });
    expect(res.status).toBe(200);
    expectShareHeaders(res.headers);
    expect(res.body).toContain(
      '<pre class="code" data-language="typescript"><code><span class="line" id="L1"><span class="hljs-keyword">export</span> <span class="hljs-keyword">const</span> <span class="hljs-attr">answer</span>: <span class="hljs-built_in">number</span> = <span class="hljs-number">42</span>;</span></code></pre>',
    );
    const encoded = await call(filePage as Handler, `/s/${token}/files/notes%20%3Cb%3E.md`, {
      token,
      path: ["notes%20%3Cb%3E.md"],
    });
    expect(encoded.status).toBe(200);
    expect(encoded.body).toContain('<h1 class="file-view-path">notes &lt;b&gt;.md</h1>');
  });

  it("answers the same 404 page for a path not shared and an unknown token", async () => {
    const missing = await call(filePage as Handler, `/s/${token}/files/nope.ts`, {
      token,
      path: ["nope.ts"],
    });
    const unknown = await call(sharePage as Handler, "/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", {
      token: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    });
    expect(missing.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toBe(missing.body);
    expect(unknown.body).toContain("<h1>This share link is not available</h1>");
    expect(unknown.body).toContain(
      '<p>Ask whoever sent it for a new link, or <a href="/">open Strata</a>.</p>',
    );
    expectShareHeaders(unknown.headers);
  });
});

describe("downloads", () => {
  it("exports the offline HTML with the files inline and no link back", async () => {
    const res = await call(exportRoute as Handler, `/api/s/${token}/export?format=html`, { token });
    expect(res.status).toBe(200);
    expectShareHeaders(res.headers);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="Parser _fix_ session.html"; filename*=UTF-8''Parser%20_fix_%20session.html`,
    );
    expect(res.body).toContain('<summary>src/app.ts <span class="muted">· 34 B</span></summary>');
    expect(res.body).not.toContain("/api/s/");
    expect(res.body).not.toContain("<form");
    expect(res.body).not.toMatch(/<script/i);
  });

  it("exports pi JSONL that parses as pi's format and imports back into Strata", async () => {
    const res = await call(exportRoute as Handler, `/api/s/${token}/export?format=jsonl`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    const parsed = parseSessionJsonl(res.body);
    expect(parsed.header.cwd).toBe("/project");
    expect(parsed.entries.map((e) => e.type)).toEqual(["message", "message"]);
    expect(parsed.diagnostics).toEqual([]);
    const imported = await importSessionJsonl(scope, project.id, res.body, { userId: owner.id });
    const texts = (
      await scope.query<{ entry: { message: { content: unknown } } }>(
        "SELECT entry FROM session_entries WHERE session_id = $1 ORDER BY seq",
        [imported.session.id],
      )
    ).map((r) => r.entry.message.content);
    expect(texts).toEqual([
      "Explain **the parser**",
      [{ type: "text", text: "Shared branch answer about `src/app.ts`" }],
    ]);
    expect(imported.session.leafId).toBe(parsed.entries[1].id);
  });

  it("refuses another format with 400", async () => {
    const res = await call(exportRoute as Handler, `/api/s/${token}/export?format=pdf`, { token });
    expect(res.status).toBe(400);
  });
});

describe("the owner's branch export", () => {
  it("redacts like a share: the key never leaves, [redacted: marks it", async () => {
    const s = await createSession(scope, { projectId: project.id, cwd: project.rootPath, userId: owner.id });
    await setSessionTitle(scope, s.id, "Key leak");
    await appendEntry(scope, s.id, question(`Use OPENAI_API_KEY=${KEY} please`));
    const leaf = await appendEntry(scope, s.id, answer(`Set it to ${KEY}.`));
    for (const format of ["html", "jsonl"]) {
      const res = await call(
        branchExport as Handler,
        `/api/sessions/${s.id}/branch-export?leaf=${leaf.id}&format=${format}`,
        { id: s.id },
        owner,
      );
      expect(res.status, res.body.slice(0, 300)).toBe(200);
      expect(res.headers.get("content-disposition")).toContain(`filename="Key leak.${format}"`);
      expect(res.body).toContain("[redacted:");
      expect(res.body).not.toContain(KEY);
      expect(res.body).not.toContain(KEY.slice(8, 40));
    }
    const unknownLeaf = await call(
      branchExport as Handler,
      `/api/sessions/${s.id}/branch-export?leaf=ffffffff&format=html`,
      { id: s.id },
      owner,
    );
    expect(unknownLeaf.status).toBe(404);
    expect(JSON.parse(unknownLeaf.body).error.code).toBe("entry_not_found");
  });
});

describe("an expired share", () => {
  it("answers the same 404 page as an unknown token", async () => {
    const row = (await getSession(scope, session.id))!;
    const options = { leafId: sharedLeaf, includeFiles: false, includeSystem: false, redact: [] };
    const preview = await buildSharePreview(scope, row, options);
    const expiresAt = new Date(Date.now() + 60_000);
    const share = await publishShare(scope, {
      session: row,
      project,
      userId: owner.id,
      preview,
      options,
      expiresAt,
    });
    const t = share.url.slice("/s/".length);
    expect((await call(sharePage as Handler, `/s/${t}`, { token: t })).status).toBe(200);
    await scope.query("UPDATE session_shares SET expires_at = now() - interval '1 second' WHERE id = $1", [
      share.id,
    ]);
    const page = await call(sharePage as Handler, `/s/${t}`, { token: t });
    const unknown = await call(sharePage as Handler, `/s/${"B".repeat(32)}`, { token: "B".repeat(32) });
    expect(page.status).toBe(404);
    expect(page.body).toBe(unknown.body);
    const download = await call(exportRoute as Handler, `/api/s/${t}/export?format=jsonl`, { token: t });
    expect([download.status, JSON.parse(download.body)]).toEqual([404, { error: "Share not found" }]);
  });
});

describe("a revoked share", () => {
  it("has its page, file page and downloads answer 404", async () => {
    await revokeShare(scope, { userId: owner.id }, shareId);
    const page = await call(sharePage as Handler, `/s/${token}`, { token });
    const file = await call(filePage as Handler, `/s/${token}/files/src/app.ts`, {
      token,
      path: ["src", "app.ts"],
    });
    const html = await call(exportRoute as Handler, `/api/s/${token}/export?format=html`, { token });
    const jsonl = await call(exportRoute as Handler, `/api/s/${token}/export?format=jsonl`, { token });
    expect([page.status, file.status, html.status, jsonl.status]).toEqual([404, 404, 404, 404]);
    expect(page.body).toContain("This share link is not available");
    expect(file.body).toBe(page.body);
    expect(JSON.parse(html.body)).toEqual({ error: "Share not found" });
    expect(jsonl.body).toBe(html.body);
    expectShareHeaders(html.headers);
  });
});
