/**
 * The system prompt and the rules that shaped it are shared only when the owner asks (docs/sharing.md, "System
 * prompt"): without `includeSystem` no text of the system prompt, of the project's AGENTS.md or of the tool
 * declarations reaches the data URL, the page, the HTML or JSONL download or a fork; with it they are there.
 */
import { describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/s/[token]/export/route";
import { GET as sharePage } from "@/app/s/[token]/route";
import { loadAllEntries } from "@/lib/session/context-load";
import { getSession } from "@/lib/session/store";
import type { ShareSnapshot } from "@/lib/share/types";
import { createTestUser } from "../../helpers/auth";
import { readAll, routes, share } from "./helpers";
import { call, mock, ownerProject, prompt, scope, withShareStack } from "./share-fixture";

const RULE = "RULE_TEXT_ONLY_IN_AGENTS_MD";
const PROMPT_HEAD = "You are an expert coding assistant operating inside Strata";

withShareStack();

/** A session of a project whose AGENTS.md holds `RULE`, after one prompt that read a file. */
async function ruledSession() {
  const f = await ownerProject(scope, { "AGENTS.md": `# Rules\n\n${RULE}\n`, "a.txt": "alpha\n" });
  await prompt(mock, f, "read a.txt please", [{ name: "read", input: { path: "a.txt" } }], "It says alpha.");
  const stored = await loadAllEntries(scope, f.session.id);
  const systemEntries = stored.filter(
    (e) => e.type === "message" && (e as { message: { role: string } }).message.role === "system",
  );
  expect(systemEntries.length).toBe(1);
  expect(JSON.stringify(systemEntries[0])).toContain(RULE);
  return { f, leafId: (await getSession(scope, f.session.id))!.leafId!, stored };
}

/** Every public response of a share: data, page, HTML and JSONL download. */
async function everything(token: string) {
  const [data] = await readAll(token, []);
  const page = await call(sharePage, null, `/s/${token}`, { token });
  const html = await call(exportRoute, null, `/api/s/${token}/export?format=html`, { token });
  const jsonl = await call(exportRoute, null, `/api/s/${token}/export?format=jsonl`, { token });
  expect([data.status, page.status, html.status, jsonl.status]).toEqual([200, 200, 200, 200]);
  return { data: data.body, page: page.body, html: html.body, jsonl: jsonl.body };
}

describe("sharing the system prompt", () => {
  it("is off by default: no system message, prompt text or rule in any response, and the chain is relinked", async () => {
    const { f, leafId, stored } = await ruledSession();
    const { token, preview } = await share(f.owner, f.session.id, { leafId });
    expect(preview.snapshot.system).toBeNull();
    // The stored path minus its one system message; parents relinked into one chain.
    expect(preview.snapshot.entries.length).toBe(stored.length - 1);
    expect(preview.snapshot.entries.map((e) => e.parentId)).toEqual([
      null,
      ...preview.snapshot.entries.slice(0, -1).map((e) => e.id),
    ]);
    const bodies = await everything(token);
    for (const [where, body] of Object.entries(bodies)) {
      expect(body, where).toContain("It says alpha.");
      expect(body, where).not.toContain(RULE);
      expect(body, where).not.toContain(PROMPT_HEAD);
      expect(body, where).not.toContain('"toolsAdded"');
    }
    // A fork of it starts without the owner's system message.
    const viewer = await createTestUser("System Viewer");
    const forked = await call(routes.fork.POST, viewer, `/api/s/${token}/fork`, { token }, { json: {} });
    expect(forked.status).toBe(201);
    const sessionId = (JSON.parse(forked.body) as { session: { id: string } }).session.id;
    const copied = JSON.stringify(await loadAllEntries(scope, sessionId));
    expect(copied).toContain("It says alpha.");
    expect(copied).not.toContain(RULE);
    expect(copied).not.toContain(PROMPT_HEAD);
  });

  it("with includeSystem the prompt, its AGENTS.md source and the path's system message are shared", async () => {
    const { f, leafId, stored } = await ruledSession();
    const { token, preview } = await share(f.owner, f.session.id, { leafId, includeSystem: true });
    expect(preview.snapshot.entries.length).toBe(stored.length);
    const system = preview.snapshot.system as NonNullable<ShareSnapshot["system"]>;
    expect(system.prompt).toContain(PROMPT_HEAD);
    expect(system.prompt).toContain(RULE);
    expect(system.sources.map((s) => s.path)).toContain(`${f.project.rootPath}/AGENTS.md`);
    const bodies = await everything(token);
    for (const where of ["data", "page", "html", "jsonl"] as const)
      expect(bodies[where], where).toContain(RULE);
  });

  it("redacts the sources' labels and paths too, reported as system line 0", async () => {
    const { f, leafId } = await ruledSession();
    const { preview } = await share(f.owner, f.session.id, {
      leafId,
      includeSystem: true,
      redact: ["AGENTS"],
    });
    const system = preview.snapshot.system as NonNullable<ShareSnapshot["system"]>;
    expect(system.sources.map((s) => s.path)).toContain(`${f.project.rootPath}/[redacted:owner].md`);
    expect(JSON.stringify(system.sources)).not.toContain("AGENTS");
    expect(
      preview.snapshot.redactions
        .filter((r) => r.site.kind === "system" && r.site.line === 0)
        .map((r) => r.excerpt),
    ).toContain(`${f.project.rootPath}/[redacted:owner].md`);
  });
});
