/**
 * A second account attacking someone else's shares (docs/sharing.md), through the real routes and Postgres: revoking,
 * listing or forking into the owner's workspace answers the 404 an unknown id gets (never 403, which would confirm the
 * id); publishing or previewing a session of another workspace is a 404, and so is publishing one's own session with
 * the owner's leaf id; a token in another letter case, URL-encoded, padded or otherwise bent, or thousands of
 * characters long, answers the same 404 on every public URL (never a 500) — a token longer than any real one is
 * refused by its shape, before any database lookup (no statement carries it). Nothing changes for the owner.
 */
import { Client } from "@neondatabase/serverless";
import { describe, expect, it, vi } from "vitest";
import { GET as exportRoute } from "@/app/api/s/[token]/export/route";
import { GET as sharePage } from "@/app/s/[token]/route";
import { getSession } from "@/lib/session/store";
import { createTestUser } from "../../helpers/auth";
import { routes, share } from "./helpers";
import { call, mock, ownerProject, prompt, scope, withShareStack } from "./share-fixture";

withShareStack();

const NOT_FOUND = JSON.stringify({ error: "Share not found" });
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

/** The owner's published share (with a file) and an attacker with a session of their own. */
async function victim() {
  const f = await ownerProject(scope, { "a.txt": "alpha\n" });
  await prompt(mock, f, "victim's secret plan", []);
  const leafId = (await getSession(scope, f.session.id))!.leafId!;
  const shared = await share(f.owner, f.session.id, { leafId, includeFiles: true });
  const attacker = await createTestUser("Attacker");
  const own = await ownerProject(scope, { "x.txt": "x\n" }, attacker);
  await prompt(mock, own, "attacker's turn", []);
  return { f, leafId, attacker, own, ...shared };
}

/** What the attack could change: the owner's shares and the rows of both workspaces. */
async function state(sessionId: string, workspaces: string[]) {
  const [row] = await scope.query(
    `SELECT (SELECT array_agg(id::text ORDER BY id) FROM session_shares WHERE session_id = $1) AS shares,
            (SELECT count(*)::int FROM projects WHERE workspace_id = ANY($2::uuid[])) AS projects,
            (SELECT count(*)::int FROM sessions s JOIN projects p ON p.id = s.project_id
              WHERE p.workspace_id = ANY($2::uuid[])) AS sessions,
            (SELECT count(*)::int FROM vfs_nodes WHERE workspace_id = ANY($2::uuid[])) AS nodes`,
    [sessionId, workspaces],
  );
  return row;
}

const parsed = (r: { status: number; body: string }) => [r.status, JSON.parse(r.body)];

describe("a second account against someone else's share", () => {
  it("revoke, list and fork-into-their-workspace answer exactly an unknown id's 404; nothing changes", async () => {
    const { f, attacker, token, summary } = await victim();
    const before = await state(f.session.id, [f.owner.workspaceId, attacker.workspaceId]);
    const revoke = (id: string) =>
      call(routes.revoke.DELETE, attacker, `/api/shares/${id}`, { shareId: id }, { method: "DELETE" });
    expect(parsed(await revoke(summary.id))).toEqual([
      404,
      { error: { code: "not_found", message: `Share ${summary.id} not found` } },
    ]);
    expect(parsed(await revoke(summary.id.toUpperCase()))).toEqual([
      404,
      { error: { code: "not_found", message: `Share ${summary.id.toUpperCase()} not found` } },
    ]);
    expect(parsed(await revoke(UNKNOWN))).toEqual([
      404,
      { error: { code: "not_found", message: `Share ${UNKNOWN} not found` } },
    ]);

    expect(parsed(await call(routes.mine.GET, attacker, "/api/shares", {}))).toEqual([200, { shares: [] }]);
    const list = (id: string) =>
      call(routes.sessionShares.GET, attacker, `/api/sessions/${id}/shares`, { id });
    expect(parsed(await list(f.session.id))).toEqual([
      404,
      { error: { code: "not_found", message: `Session ${f.session.id} not found` } },
    ]);
    expect(parsed(await list(UNKNOWN))).toEqual([
      404,
      { error: { code: "not_found", message: `Session ${UNKNOWN} not found` } },
    ]);

    const forkInto = (workspaceId: string) =>
      call(routes.fork.POST, attacker, `/api/s/${token}/fork`, { token }, { json: { workspaceId } });
    expect(parsed(await forkInto(f.owner.workspaceId))).toEqual([
      404,
      { error: { code: "not_found", message: `Workspace ${f.owner.workspaceId} not found` } },
    ]);
    expect(parsed(await forkInto(UNKNOWN))).toEqual([
      404,
      { error: { code: "not_found", message: `Workspace ${UNKNOWN} not found` } },
    ]);
    // The share's id is not its token: forking (or reading) by id is an unknown share.
    const byId = await call(
      routes.fork.POST,
      attacker,
      `/api/s/${summary.id}/fork`,
      { token: summary.id },
      {
        json: {},
      },
    );
    expect([byId.status, byId.body]).toEqual([404, NOT_FOUND]);
    expect(await state(f.session.id, [f.owner.workspaceId, attacker.workspaceId])).toEqual(before);
  });

  it("publishing or previewing a session of another workspace is a 404, and so is their leaf id on one's own session", async () => {
    const { f, leafId, attacker, own, preview } = await victim();
    const before = await state(f.session.id, [f.owner.workspaceId, attacker.workspaceId]);
    const hidden = { error: { code: "not_found", message: `Session ${f.session.id} not found` } };
    const theirs = { leafId, includeFiles: true };
    const previewOf = (id: string, body: object) =>
      call(routes.preview.POST, attacker, `/api/sessions/${id}/shares/preview`, { id }, { json: body });
    const publishOf = (id: string, body: object) =>
      call(routes.sessionShares.POST, attacker, `/api/sessions/${id}/shares`, { id }, { json: body });
    expect(parsed(await previewOf(f.session.id, theirs))).toEqual([404, hidden]);
    expect(parsed(await publishOf(f.session.id, { ...theirs, digest: preview.digest }))).toEqual([
      404,
      hidden,
    ]);

    const foreignLeaf = await previewOf(own.session.id, theirs);
    const published = await publishOf(own.session.id, { ...theirs, digest: preview.digest });
    const notOnSession = [foreignLeaf, published].map((r) => [r.status, JSON.parse(r.body).error.code]);
    expect(notOnSession).toEqual([
      [404, "entry_not_found"],
      [404, "entry_not_found"],
    ]);
    expect(foreignLeaf.body).not.toContain("victim's secret plan");
    expect(await state(f.session.id, [f.owner.workspaceId, attacker.workspaceId])).toEqual(before);
    const [mine] = await scope.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM session_shares WHERE session_id = $1",
      [own.session.id],
    );
    expect(mine.n).toBe(0);
  });
});

describe("bent tokens", () => {
  /** Every public URL of `token`: data, file, export, page (status), fork as `user`. */
  async function everyUrl(token: string, user: Awaited<ReturnType<typeof createTestUser>>) {
    const data = await call(routes.data.GET, null, `/api/s/${token}`, { token });
    const file = await call(routes.file.GET, null, `/api/s/${token}/files/a.txt`, { token, path: ["a.txt"] });
    const exported = await call(exportRoute, null, `/api/s/${token}/export?format=jsonl`, { token });
    const page = await call(sharePage, null, `/s/${token}`, { token });
    const fork = await call(routes.fork.POST, user, `/api/s/${token}/fork`, { token }, { json: {} });
    return [
      [data.status, data.body],
      [file.status, file.body],
      [exported.status, exported.body],
      page.status,
      [fork.status, fork.body],
    ];
  }
  const missing = [[404, NOT_FOUND], [404, NOT_FOUND], [404, NOT_FOUND], 404, [404, NOT_FOUND]];

  it("another letter case, URL-encoding, padding or another base64 alphabet: 404 on every URL", async () => {
    const { attacker, token } = await victim();
    const swapped = [...token]
      .map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
      .join("");
    const percent = [...token].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join("");
    const bent = [
      swapped,
      token.toUpperCase(),
      token.toLowerCase(),
      percent,
      `${token.slice(0, 10)}%${token.charCodeAt(10).toString(16)}${token.slice(11)}`,
      encodeURIComponent(encodeURIComponent(`${token}/`)),
      `${token}=`,
      `${token}==`,
      `${token}%20`,
      ` ${token}`,
      `${token}\u0000`,
      `${token}%00`,
      `${token}.`,
      `${token}/..`,
      token.replaceAll("-", "+").replaceAll("_", "/"),
      token.replace(/[A-Za-z]/, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
      token.slice(0, -1),
      `${token}A`,
    ].filter((t) => t !== token);
    expect(bent.length).toBeGreaterThanOrEqual(17);
    for (const t of bent) expect([t, await everyUrl(t, attacker)]).toEqual([t, missing]);
    expect((await everyUrl(token, attacker)).slice(0, 4).map((r) => (Array.isArray(r) ? r[0] : r))).toEqual([
      200, 200, 200, 200,
    ]);
    const [projects] = await scope.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM projects WHERE workspace_id = $1",
      [attacker.workspaceId],
    );
    // The one fork of the real token above; none from the bent ones.
    expect(projects.n).toBe(2);
  });

  it("a token of 10 kB or 1 MB answers the same 404 on every URL, no 500, without reaching the database", async () => {
    const { attacker } = await victim();
    // Every statement the routes send (the driver's query), to see which carry the token.
    const query = vi.spyOn(Client.prototype, "query");
    const carrying = (token: string) =>
      query.mock.calls.filter((args) => JSON.stringify(args).includes(token)).length;
    try {
      // A token of a real one's shape (unknown) is looked up: one statement per URL carries it.
      const shaped = "B".repeat(43);
      expect(await everyUrl(shaped, attacker)).toEqual(missing);
      expect(carrying(shaped)).toBe(5);
      // Longer than any real token (64 characters): refused by its shape, no lookup.
      for (const length of [65, 10_000, 1_000_000]) {
        const t = "A".repeat(length);
        expect([length, await everyUrl(t, attacker), carrying(t)]).toEqual([length, missing, 0]);
      }
    } finally {
      query.mockRestore();
    }
  });
});
