/**
 * Cross-origin requests (CSRF) against the share routes, through the app as Next runs it: the request guard
 * (`proxy.ts`, no matcher: before every route) and then the real route handler on the real Postgres. A page on another
 * origin making the signed-in owner's browser publish, preview, revoke or fork is refused with 403 `cross_origin`
 * before the route runs, and nothing changes; Strata's own pages do all of it. Reads answer no CORS header (no
 * `Access-Control-Allow-Origin`, never with credentials), carry `Cross-Origin-Resource-Policy: same-origin`, and the
 * session cookie is `HttpOnly; SameSite=Lax` (a cross-site fetch does not carry it at all).
 */
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { createAuth } from "@/lib/auth/server";
import { withDb } from "@/lib/db/client";
import { getSession } from "@/lib/session/store";
import * as proxyModule from "@/proxy";
import { proxy } from "@/proxy";
import { createTestUser, ORIGIN, type TestUser } from "../../helpers/auth";
import { routes, share } from "./helpers";
import { mock, ownerProject, prompt, scope, withShareStack } from "./share-fixture";

withShareStack();

type Handler<P> = (req: Request, ctx: { params: Promise<P> }) => Promise<Response>;

/** A request as `user`'s browser sends it to Strata at {@link ORIGIN} (Host, cookie) with `headers` and a body. */
function browser(
  user: TestUser | null,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; json?: unknown; form?: Record<string, string> } = {},
): Request {
  const headers: Record<string, string> = { host: new URL(ORIGIN).host, ...init.headers };
  if (user) headers.cookie = user.cookie;
  let body: string | undefined;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.form).toString();
  }
  return new Request(`${ORIGIN}${path}`, { method, headers, body });
}

/** The app as Next runs it: the guard first (its refusal is the answer), then the route with the guard's headers. */
async function app<P>(handler: Handler<P>, params: P, request: Request): Promise<Response> {
  const guard = proxy(request);
  if (guard.headers.get("x-middleware-next") !== "1") return guard;
  const res = await handler(request, { params: Promise.resolve(params) });
  const out = new Response(res.body, res);
  for (const [k, v] of guard.headers) if (!k.startsWith("x-middleware")) out.headers.set(k, v);
  return out;
}

const WHO =
  "State-changing requests (POST, PUT, PATCH, DELETE) are accepted only from Strata's own pages, or from clients that send neither Origin nor Sec-Fetch-Site (curl, scripts, the strata CLI).";
const SAME_ORIGIN = { origin: ORIGIN, "sec-fetch-site": "same-origin" };
/** What a foreign page's request carries, by browser and situation, and the 403 message each gets. */
const FOREIGN: { what: string; headers: Record<string, string>; message: string }[] = [
  {
    what: "another site (fetch or form post)",
    headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    message: `Cross-site request refused: Sec-Fetch-Site is "cross-site", not "same-origin". ${WHO}`,
  },
  {
    what: "another site, a browser without Sec-Fetch-Site",
    headers: { origin: "https://evil.example" },
    message: `Cross-origin request refused: Origin "https://evil.example" is not this Strata (${ORIGIN}). ${WHO}`,
  },
  {
    what: "a sandboxed iframe or a no-referrer form (Origin: null)",
    headers: { origin: "null" },
    message: `Cross-origin request refused: Origin "null" is not this Strata (${ORIGIN}). ${WHO}`,
  },
  {
    what: "the same site on another port (SameSite=Lax cookies are sent)",
    headers: { origin: "http://127.0.0.1:3001", "sec-fetch-site": "same-site" },
    message: `Cross-site request refused: Sec-Fetch-Site is "same-site", not "same-origin". ${WHO}`,
  },
  {
    what: "another port, a browser without Sec-Fetch-Site",
    headers: { origin: "http://127.0.0.1:3001" },
    message: `Cross-origin request refused: Origin "http://127.0.0.1:3001" is not this Strata (${ORIGIN}). ${WHO}`,
  },
  {
    what: "a cross-site request without Origin",
    headers: { "sec-fetch-site": "cross-site" },
    message: `Cross-site request refused: Sec-Fetch-Site is "cross-site", not "same-origin". ${WHO}`,
  },
];

/** An owner's session with one turn and files, one published share of it, and a second signed-in user. */
async function published() {
  const f = await ownerProject(scope, { "a.txt": "alpha\n" });
  await prompt(mock, f, "hello", []);
  const leafId = (await getSession(scope, f.session.id))!.leafId!;
  const shared = await share(f.owner, f.session.id, { leafId, includeFiles: true });
  const forker = await createTestUser("CSRF forker");
  return { f, leafId, forker, ...shared };
}

/** What a cross-origin request could change: the session's shares and files, and the forker's projects and sessions. */
async function state(sessionId: string, forker: TestUser) {
  const [row] = await scope.query(
    `SELECT (SELECT array_agg(id::text ORDER BY id) FROM session_shares WHERE session_id = $1) AS shares,
            (SELECT count(*)::int FROM session_share_files f JOIN session_shares s ON s.id = f.share_id
              WHERE s.session_id = $1) AS files,
            (SELECT count(*)::int FROM projects WHERE workspace_id = $2) AS projects,
            (SELECT count(*)::int FROM sessions WHERE user_id = $3) AS sessions`,
    [sessionId, forker.workspaceId, forker.id],
  );
  return row;
}

describe("cross-origin state changes on shares", () => {
  it("refuses publish, preview, revoke and fork (JSON and form) from every foreign origin: 403, nothing changed", async () => {
    const { f, leafId, forker, token, summary, preview } = await published();
    const before = await state(f.session.id, forker);
    expect(before).toEqual({ shares: [summary.id], files: 1, projects: 0, sessions: 0 });
    const sid = f.session.id;
    const body = { leafId, includeFiles: true };
    const answers: { what: string; route: string; status: number; body: unknown }[] = [];
    for (const { what, headers } of FOREIGN) {
      const attempts: [string, Promise<Response>][] = [
        [
          "publish",
          app(
            routes.sessionShares.POST,
            { id: sid },
            browser(f.owner, "POST", `/api/sessions/${sid}/shares`, {
              headers,
              json: { ...body, digest: preview.digest },
            }),
          ),
        ],
        [
          "preview",
          app(
            routes.preview.POST,
            { id: sid },
            browser(f.owner, "POST", `/api/sessions/${sid}/shares/preview`, { headers, json: body }),
          ),
        ],
        [
          "revoke",
          app(
            routes.revoke.DELETE,
            { shareId: summary.id },
            browser(f.owner, "DELETE", `/api/shares/${summary.id}`, { headers }),
          ),
        ],
        [
          "fork json",
          app(
            routes.fork.POST,
            { token },
            browser(forker, "POST", `/api/s/${token}/fork`, { headers, json: {} }),
          ),
        ],
        [
          "fork form",
          app(
            routes.fork.POST,
            { token },
            browser(forker, "POST", `/api/s/${token}/fork`, { headers, form: {} }),
          ),
        ],
      ];
      for (const [route, res] of attempts) {
        const r = await res;
        answers.push({ what, route, status: r.status, body: await r.json() });
      }
    }
    expect(answers).toEqual(
      FOREIGN.flatMap(({ what, message }) =>
        ["publish", "preview", "revoke", "fork json", "fork form"].map((route) => ({
          what,
          route,
          status: 403,
          body: { error: { code: "cross_origin", message } },
        })),
      ),
    );
    expect(await state(f.session.id, forker)).toEqual(before);
    const data = await app(routes.data.GET, { token }, browser(null, "GET", `/api/s/${token}`));
    expect(data.status).toBe(200);
  });

  it("lets Strata's own pages publish, list, fork (JSON 201, form 303) and revoke", async () => {
    const { f, leafId, forker, token, summary, preview } = await published();
    const sid = f.session.id;
    const headers = SAME_ORIGIN;
    const published2 = await app(
      routes.sessionShares.POST,
      { id: sid },
      browser(f.owner, "POST", `/api/sessions/${sid}/shares`, {
        headers,
        json: { leafId, includeFiles: true, digest: preview.digest },
      }),
    );
    expect(published2.status).toBe(201);
    const second = (await published2.json()).share as { id: string };
    const listed = await app(routes.mine.GET, {}, browser(f.owner, "GET", "/api/shares", { headers }));
    expect(((await listed.json()).shares as { id: string }[]).map((s) => s.id).sort()).toEqual(
      [summary.id, second.id].sort(),
    );
    const json = await app(
      routes.fork.POST,
      { token },
      browser(forker, "POST", `/api/s/${token}/fork`, { headers, json: {} }),
    );
    const form = await app(
      routes.fork.POST,
      { token },
      browser(forker, "POST", `/api/s/${token}/fork`, { headers, form: {} }),
    );
    expect([json.status, form.status]).toEqual([201, 303]);
    expect(form.headers.get("location")).toMatch(/^\/projects\/[0-9a-f-]{36}$/);
    for (const id of [summary.id, second.id]) {
      const revoked = await app(
        routes.revoke.DELETE,
        { shareId: id },
        browser(f.owner, "DELETE", `/api/shares/${id}`, { headers }),
      );
      expect(revoked.status).toBe(204);
    }
    expect(await state(sid, forker)).toEqual({ shares: null, files: 0, projects: 2, sessions: 2 });
  });

  it("puts every state-changing share route behind the guard: proxy.ts has no matcher, and refuses each cross-site", async () => {
    expect(Object.keys(proxyModule)).toEqual(["proxy"]);
    const root = join(process.cwd(), "app");
    const files = (readdirSync(root, { recursive: true }) as string[])
      .map((p) => relative(root, join(root, p)).split(sep).join("/"))
      .filter((p) => p.endsWith("/route.ts") && /(^|\/)(shares?|s)(\/|$)/.test(p));
    const seen: string[] = [];
    for (const file of files.sort()) {
      const mod = (await import(/* @vite-ignore */ `@/app/${file}`)) as Record<string, unknown>;
      const path = `/${file.replace(/\/route\.ts$/, "")}`
        .replace("[id]", "00000000-0000-0000-0000-000000000001")
        .replace("[shareId]", "00000000-0000-0000-0000-000000000002")
        .replace("[token]", "A".repeat(32))
        .replace("[...path]", "a.txt");
      for (const method of ["POST", "PUT", "PATCH", "DELETE"].filter((m) => typeof mod[m] === "function")) {
        const res = proxy(browser(null, method, path, { headers: FOREIGN[0].headers }));
        seen.push(`${method} ${path} ${res.status} ${(await res.json()).error.code}`);
      }
    }
    const token = "A".repeat(32);
    expect(seen).toEqual([
      `POST /api/s/${token}/fork 403 cross_origin`,
      "POST /api/sessions/00000000-0000-0000-0000-000000000001/shares/preview 403 cross_origin",
      "POST /api/sessions/00000000-0000-0000-0000-000000000001/shares 403 cross_origin",
      "DELETE /api/shares/00000000-0000-0000-0000-000000000002 403 cross_origin",
    ]);
  });
});

describe("cross-origin reads of shares", () => {
  it("answer no CORS header (no Access-Control-Allow-Origin, no credentials) and Cross-Origin-Resource-Policy same-origin", async () => {
    const { f, token } = await published();
    const headers = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };
    const reads = [
      await app(routes.data.GET, { token }, browser(f.owner, "GET", `/api/s/${token}`, { headers })),
      await app(
        routes.file.GET,
        { token, path: ["a.txt"] },
        browser(f.owner, "GET", `/api/s/${token}/files/a.txt`, { headers }),
      ),
      await app(routes.mine.GET, {}, browser(f.owner, "GET", "/api/shares", { headers })),
      await app(
        routes.sessionShares.GET,
        { id: f.session.id },
        browser(f.owner, "GET", `/api/sessions/${f.session.id}/shares`, { headers }),
      ),
    ];
    expect(
      reads.map((r) => [
        r.status,
        [...r.headers.keys()].filter((k) => k.startsWith("access-control-")),
        r.headers.get("cross-origin-resource-policy"),
      ]),
    ).toEqual(reads.map(() => [200, [], "same-origin"]));
    // No route answers a CORS preflight itself (no OPTIONS handler that could allow an origin).
    for (const mod of Object.values(routes)) expect(Object.keys(mod)).not.toContain("OPTIONS");
  });

  it("sets the session cookie HttpOnly and SameSite=Lax: a cross-site fetch or form post does not carry it", async () => {
    const user = await createTestUser("Cookie check");
    const res = await withDb((s) =>
      s.run((db) =>
        createAuth(db, ORIGIN).handler(
          new Request(`${ORIGIN}/api/auth/sign-in/email`, {
            method: "POST",
            headers: { origin: ORIGIN, "content-type": "application/json" },
            body: JSON.stringify({ email: user.email, password: "correct horse battery" }),
          }),
        ),
      ),
    );
    expect(res.status).toBe(200);
    const session = res.headers.getSetCookie().find((c) => c.startsWith("strata.session_token="));
    const attributes = session!
      .split(";")
      .slice(1)
      .map((a) => a.trim().toLowerCase())
      .filter((a) => a === "httponly" || a.startsWith("samesite="));
    expect(attributes.sort()).toEqual(["httponly", "samesite=lax"]);
  });
});
