/**
 * Redaction end to end (docs/sharing.md): secrets seeded in a user message, a tool result, tool call arguments, a file
 * and a `.env` file are absent from every response — preview, published data, file URLs, the share page, file pages,
 * the HTML and pi JSONL downloads, and the fork's session and files — and the preview lists each redaction with its site and rule. The owner's own string is redacted too.
 */
import { describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/s/[token]/export/route";
import { GET as filePage } from "@/app/s/[token]/files/[...path]/route";
import { GET as sharePage } from "@/app/s/[token]/route";
import { DbScope } from "@/lib/db/client";
import { loadAllEntries } from "@/lib/session/context-load";
import { getSession, setSessionTitle } from "@/lib/session/store";
import type { ShareSummary } from "@/lib/share/types";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { createTestUser } from "../../helpers/auth";
import { readAll, routes, share } from "./helpers";
import { call, mock, ownerProject, prompt, scope, withShareStack } from "./share-fixture";

withShareStack();

const SK = "sk-proj-Qw3rTy8uIo9pAs5dFg7hJk2lZx4cVb6nM1";
const AKIA = "AKIAQ4KZ7N3XW2PL5RTY";
const AWS_SECRET = "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";
const KEY_BODY = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0";
const PRIVATE_KEY = `-----BEGIN RSA PRIVATE KEY-----\n${KEY_BODY}\n-----END RSA PRIVATE KEY-----\n`;
const SECRETS = [
  SK,
  AKIA,
  AWS_SECRET,
  AWS_SECRET.slice(20), // the tail secretlint's AWS range leaves
  KEY_BODY,
  "hunter2-Secret-99",
  "pepper-salt-value-123",
  "visible-value-456",
  "Nightingale",
];

describe("share redaction", () => {
  it("removes every secret from every response and lists each redaction", async () => {
    const f = await ownerProject(scope, {
      "config.txt": `# settings\nAWS_ACCESS_KEY_ID=${AKIA}\nAWS_SECRET_ACCESS_KEY=${AWS_SECRET}\nDB_PASSWORD=hunter2-Secret-99\n`,
      ".env": "SESSION_SALT=pepper-salt-value-123\nPLAIN=visible-value-456\n",
      "readme.md": "# Demo\nNothing secret here: the token bucket refills.\n",
    });
    await prompt(mock, f, `use the key ${SK} for Project Nightingale`, [
      { name: "read", input: { path: "config.txt" } },
      { name: "write", input: { path: "key.pem", content: PRIVATE_KEY } },
    ]);
    const leafId = (await getSession(scope, f.session.id))!.leafId!;
    const { previewBody, preview, token } = await share(f.owner, f.session.id, {
      leafId,
      includeFiles: true,
      redact: ["Project Nightingale"],
    });
    const entries = preview.snapshot.entries;
    const roleAt = (i: number) =>
      (entries[i] as { message?: { role: string } }).message?.role ?? entries[i].type;
    const listed = preview.snapshot.redactions.map((r) => ({
      at:
        r.site.kind === "entry"
          ? `${roleAt(r.site.entry)}:${r.site.part}:${r.site.line}`
          : r.site.kind === "file"
            ? `file:${r.site.path}:${r.site.line}`
            : r.site.kind,
      rule: r.rule,
      kind: r.kind,
    }));
    expect(listed).toEqual(EXPECTED);
    for (const r of preview.snapshot.redactions) for (const s of SECRETS) expect(r.excerpt).not.toContain(s);

    const paths = (preview.snapshot.files ?? []).map((x) => x.path);
    expect(paths).toEqual([".env", "config.txt", "key.pem", "readme.md"]);
    const bodies = await readAll(token, paths);
    expect(bodies.map((b) => b.status)).toEqual([200, 200, 200, 200, 200]);
    expect(bodies[1].body).toBe("SESSION_SALT=[redacted:DotenvValue]\nPLAIN=[redacted:DotenvValue]\n");
    expect(bodies[2].body).toBe(
      "# settings\nAWS_ACCESS_KEY_ID=[redacted:AWSAccessKeyID]\n[redacted:AWSSecretAccessKey]\nDB_PASSWORD=[redacted:SecretAssignment]\n",
    );
    expect(bodies[3].body).toBe("[redacted:PrivateKeyBlock]\n");
    expect(bodies[4].body).toBe("# Demo\nNothing secret here: the token bucket refills.\n");

    const forker = await createTestUser("Forker");
    const forked = await call(routes.fork.POST, forker, `/api/s/${token}/fork`, { token }, { json: {} });
    expect(forked.status).toBe(201);
    const { project, session } = JSON.parse(forked.body) as {
      project: { id: string; rootPath: string };
      session: { id: string };
    };
    const forkEntries = JSON.stringify(await loadAllEntries(scope, session.id));
    const { vfs, scope: vs } = openWorkspaceVfs(forker.workspaceId, new DbScope());
    const forkFiles: string[] = [];
    for (const p of paths) forkFiles.push(await vfs.readText(`${project.rootPath}/${p}`));
    await vs.release();
    expect(forkFiles).toEqual(bodies.slice(1).map((b) => b.body));

    // The share page, each file's page and both downloads (the offline HTML inlines the files).
    const page = await call(sharePage, null, `/s/${token}`, { token });
    const html = await call(exportRoute, null, `/api/s/${token}/export?format=html`, { token });
    const jsonl = await call(exportRoute, null, `/api/s/${token}/export?format=jsonl`, { token });
    const filePages = [];
    for (const p of paths)
      filePages.push(await call(filePage, null, `/s/${token}/files/${p}`, { token, path: p.split("/") }));
    expect([page, html, jsonl, ...filePages].map((r) => r.status)).toEqual([
      200, 200, 200, 200, 200, 200, 200,
    ]);
    expect(html.body).toContain('SESSION_SALT=<mark class="redacted">[redacted:DotenvValue]</mark>');
    expect(page.body).toContain('<mark class="redacted">[redacted:SecretKeySk]</mark>');
    expect(jsonl.body).toContain("use the key [redacted:SecretKeySk] for [redacted:owner]");

    const everything = [
      previewBody,
      page.body,
      html.body,
      jsonl.body,
      ...filePages.map((r) => r.body),
      ...bodies.map((b) => b.body),
      forked.body,
      forkEntries,
      ...forkFiles,
    ].join("\n");
    for (const s of SECRETS) expect(everything, s).not.toContain(s);
  });
});

describe("share summaries", () => {
  it("give the redacted title as sessionTitle in every list, never the live session's title", async () => {
    const f = await ownerProject(scope, { "a.txt": "a\n" });
    await prompt(mock, f, "hello", []);
    await setSessionTitle(scope, f.session.id, `Deploy with ${SK}`);
    const leafId = (await getSession(scope, f.session.id))!.leafId!;
    const { summary } = await share(f.owner, f.session.id, { leafId });
    const mine = await call(routes.mine.GET, f.owner, "/api/shares", {});
    const ofSession = await call(routes.sessionShares.GET, f.owner, `/api/sessions/${f.session.id}/shares`, {
      id: f.session.id,
    });
    const listed = [
      summary,
      ...(JSON.parse(mine.body).shares as ShareSummary[]),
      ...(JSON.parse(ofSession.body).shares as ShareSummary[]),
    ].filter((s) => s.id === summary.id);
    expect(listed.map((s) => [s.title, s.sessionTitle])).toEqual([
      ["Deploy with [redacted:SecretKeySk]", "Deploy with [redacted:SecretKeySk]"],
      ["Deploy with [redacted:SecretKeySk]", "Deploy with [redacted:SecretKeySk]"],
      ["Deploy with [redacted:SecretKeySk]", "Deploy with [redacted:SecretKeySk]"],
    ]);
    expect(`${mine.body}${ofSession.body}`).not.toContain(SK);
  });
});

/**
 * Where (title, `role:line` of an entry, `file:path:line`), which rule, which kind. The title is the first prompt with
 * its key already taken out when the session was titled (lib/text/credential-shape.ts `titleFromPrompt`), so only the
 * owner's phrase is redacted there.
 */
const EXPECTED: { at: string; rule: string; kind: string }[] = [
  { at: "title", rule: "owner", kind: "owner" },
  { at: "user:text:1", rule: "@secretlint/secretlint-rule-pattern", kind: "SecretKeySk" },
  { at: "user:text:1", rule: "owner", kind: "owner" },
  { at: "assistant:content:1", rule: "@secretlint/secretlint-rule-pattern", kind: "PrivateKeyBlock" },
  { at: "toolResult:text:2", rule: "@secretlint/secretlint-rule-aws", kind: "AWSAccessKeyID" },
  { at: "toolResult:text:3", rule: "@secretlint/secretlint-rule-aws", kind: "AWSSecretAccessKey" },
  { at: "toolResult:text:4", rule: "@secretlint/secretlint-rule-pattern", kind: "SecretAssignment" },
  { at: "file:.env:1", rule: "@secretlint/secretlint-rule-pattern", kind: "DotenvValue" },
  { at: "file:.env:2", rule: "@secretlint/secretlint-rule-pattern", kind: "DotenvValue" },
  { at: "file:config.txt:2", rule: "@secretlint/secretlint-rule-aws", kind: "AWSAccessKeyID" },
  { at: "file:config.txt:3", rule: "@secretlint/secretlint-rule-aws", kind: "AWSSecretAccessKey" },
  { at: "file:config.txt:4", rule: "@secretlint/secretlint-rule-pattern", kind: "SecretAssignment" },
  { at: "file:key.pem:1", rule: "@secretlint/secretlint-rule-pattern", kind: "PrivateKeyBlock" },
];
