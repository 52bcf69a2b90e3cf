/**
 * The route authorisation matrix (issue 11, "What it must show" 1): every route handler on disk (`app/**∕route.ts`,
 * Better Auth's `app/api/auth/**` excepted — see route-matrix-table.ts) and every server action (`"use server"`
 * files) must have a row in route-matrix-table.ts; each row is called as anonymous, as a user of another workspace,
 * and as the team's viewer, member, admin and owner, against the real Postgres and the mock provider. Expected:
 * anonymous 401, outsider 404 (the same body a random id gets), a role below the row's permission 403, at or above
 * it 2xx; no denied body names any of the team's data.
 *
 * Provider keys never leave the server (issue 11, "What it must show" 3): the server environment holds recognisable
 * keys (`…LEAKTEST…`) and the team workspace has its own as secrets; no answer of any call above (SSE streams, the
 * export and the preview included), none of Better Auth's listings and no line the handlers log contains `LEAKTEST`
 * or STRATA_SECRETS_KEY, while the provider receives the workspace's key. (What only a browser and the running server
 * show — pages, chunks, the build, the server's log — is tests/e2e/secrets-leak.spec.ts.)
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { strToU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAuth } from "@/lib/auth/server";
import { withDb } from "@/lib/db/client";
import { openAgentVfs } from "@/lib/projects/agent-dir";
import { insertProject } from "@/lib/projects/projects";
import { setSecret } from "@/lib/secrets";
import { createSessionUpload, putSessionUploadPart } from "@/lib/session/session-upload";
import { appendEntry, createSession, setSessionTitle } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, authJson, createTestUser, ORIGIN, type TestUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";
import {
  BETTER_AUTH_GET_SESSION,
  type MatrixCall,
  type MatrixFixture,
  type MatrixRole,
  type MatrixRow,
  ROUTE_MATRIX,
} from "./route-matrix-table";

const APP = join(process.cwd(), "app");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const ROLES: MatrixRole[] = ["anonymous", "outsider", "viewer", "member", "admin", "owner"];
const LADDER: Record<string, number> = { viewer: 1, member: 2, admin: 3, owner: 4 };
const NEEDS: Record<string, number> = { read: 1, write: 2, manage: 3, delete: 4 };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The server environment's provider keys and the team's own (workspace secrets): none may ever be answered. */
const SERVER_KEYS = {
  ANTHROPIC_API_KEY: "sk-ant-LEAKTEST-server-env-5f2c81",
  OPENAI_API_KEY: "sk-LEAKTEST-server-openai-93ad27",
};
const WORKSPACE_KEYS = {
  ANTHROPIC_API_KEY: "sk-ant-LEAKTEST-workspace-c41d9e7a",
  MISTRAL_API_KEY: "LEAKTEST-workspace-mistral-0b8f2d",
};
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The needles found in `text`: `LEAKTEST` (every key above) and the secrets' encryption key. */
function leaks(text: string): string[] {
  return ["LEAKTEST", process.env.STRATA_SECRETS_KEY as string].filter((n) => text.includes(n));
}

/** Every line the handlers log through `console` while the matrix runs (still printed). */
const logged: string[] = [];

/** Every file below `dir`, relative to `app/`, with `/` separators. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return [relative(APP, path).split(sep).join("/")];
  });
}

const appFiles = filesUnder(APP);
/** `api/projects/[id]/file/route.ts` → `/api/projects/[id]/file`; Better Auth's catch-all is not Strata's. */
const routeFiles = appFiles
  .filter((f) => /(^|\/)route\.(ts|tsx|js|mjs)$/.test(f))
  .filter((f) => !f.startsWith("api/auth/"))
  .map((f) => ({ file: f, path: `/${f.replace(/\/?route\.[a-z]+$/, "")}` }));
const serverActionFiles = appFiles.filter(
  (f) => /\.(ts|tsx)$/.test(f) && /^\s*["']use server["']/m.test(readFileSync(join(APP, f), "utf8")),
);

type Handler = (
  request: Request,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

const stack = withMockStack({
  reset: false,
  processEnv: true,
  // The matrix prompts a few times per user; the prompt limit is tested on its own (prompt-rate-limit.test.ts).
  extraEnv: { ...SERVER_KEYS, STRATA_PROMPT_RATE_LIMIT: "1000" },
});
const users = {} as Record<Exclude<MatrixRole, "anonymous">, TestUser>;
let fx: MatrixFixture;
let counter = 0;

const SESSION_FILE = [
  '{"type":"session","version":3,"id":"0198a6f0-0000-7000-8000-00000000aaaa","timestamp":"2026-01-01T09:00:00.000Z","cwd":"/x"}',
  '{"type":"message","id":"b0000001","parentId":null,"timestamp":"2026-01-01T09:00:01.000Z","message":{"role":"user","content":"imported question","timestamp":1}}',
  "",
].join("\n");

async function addMember(team: string, owner: TestUser, user: TestUser, role: string): Promise<void> {
  const invitation = await authJson<{ id: string }>(
    "/organization/invite-member",
    { email: user.email, role, organizationId: team },
    owner,
  );
  await authJson("/organization/accept-invitation", { invitationId: invitation.id }, user);
}

async function fixture(): Promise<MatrixFixture> {
  const names = ["outsider", "viewer", "member", "admin", "owner"] as const;
  for (const name of names) users[name] = await createTestUser(`Matrix ${name}`);
  const workspaceName = `Matrix Team ${users.owner.id.slice(0, 8)}`;
  const team = await authJson<{ id: string }>(
    "/organization/create",
    { name: workspaceName, slug: `matrix-${users.owner.id}` },
    users.owner,
  );
  for (const role of ["admin", "member", "viewer"] as const)
    await addMember(team.id, users.owner, users[role], role);
  for (const [name, value] of Object.entries(WORKSPACE_KEYS))
    await setSecret(stack.scope, team.id, name, value, users.owner.id);
  const projectName = "Zebra Secret Project";
  const filePath = "README.md";
  const fileContent = "team-only content 5a1d";
  const makeProject = async (name: string) => {
    const project = await insertProject(stack.scope, { workspaceId: team.id, name, source: null });
    const { vfs } = openWorkspaceVfs(team.id, stack.scope);
    await vfs.writeFile(`${project.rootPath}/${filePath}`, fileContent);
    await vfs.flush();
    return project;
  };
  const main = await makeProject(projectName);
  const makeSession = async (projectId: string, root: string) => {
    const session = await createSession(stack.scope, { projectId, cwd: root, userId: users.owner.id });
    const entry = await appendEntry(stack.scope, session.id, {
      type: "message",
      message: { role: "user", content: "team question", timestamp: 1 },
    });
    await appendEntry(stack.scope, session.id, {
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "team answer" }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: {
          input: 1,
          output: 1,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 2,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: "stop",
        timestamp: 2,
      },
    } as Parameters<typeof appendEntry>[2]);
    return { session, entry };
  };
  const { session, entry } = await makeSession(main.id, main.rootPath);
  const sessionTitle = "Quokka session title";
  await setSessionTitle(stack.scope, session.id, sessionTitle);
  return {
    workspaceId: team.id,
    workspaceName,
    projectId: main.id,
    projectName,
    filePath,
    fileContent,
    sessionId: session.id,
    sessionTitle,
    entryId: entry.id,
    sessionFile: SESSION_FILE,
    newProject: async () => (await makeProject(`Fresh ${++counter}`)).id,
    newSession: async () => (await makeSession(main.id, main.rootPath)).session.id,
    newUpload: async (withPart) => {
      const project = await makeProject(`Upload ${++counter}`);
      const upload = await createSessionUpload(stack.scope, project.id, "s.jsonl");
      const bytes = new TextEncoder().encode(SESSION_FILE);
      if (withPart) await putSessionUploadPart(stack.scope, project.id, upload.id, 0, bytes);
      return { projectId: project.id, uploadId: upload.id, bytes: bytes.length };
    },
    writeFile: async (path, content) => {
      const { vfs } = openWorkspaceVfs(team.id, stack.scope);
      await vfs.writeFile(`${main.rootPath}/${path}`, content);
      await vfs.flush();
    },
    writeAgentFile: async (userId, path, content) => {
      const { vfs } = await openAgentVfs(stack.scope, userId);
      await vfs.writeFile(`/.pi/agent/${path}`, content);
      await vfs.flush();
    },
  };
}

beforeAll(async () => {
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[method].bind(console);
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.stack}` : String(a))).join(" "));
      original(...args);
    });
  }
  fx = await fixture();
}, 120_000);
afterAll(() => {
  vi.restoreAllMocks();
});

/** The URL path of `route` with its `[segments]` filled from `params`. */
function fill(path: string, params: Record<string, string>): string {
  return path.replace(/\[(\.\.\.)?([^\]]+)\]/g, (_, _rest, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`row for ${path} gives no param '${name}'`);
    return value;
  });
}

function request(method: string, path: string, call: MatrixCall, caller: TestUser | null): Request {
  const url = `${ORIGIN}${fill(path, call.params ?? {})}${call.query ? `?${call.query}` : ""}`;
  const headers: Record<string, string> = {};
  let body: BodyInit | undefined;
  if (call.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(call.json);
  } else if (call.form) body = call.form;
  else if (call.bytes) {
    headers["content-type"] = call.contentType ?? "application/octet-stream";
    body = call.bytes as BodyInit;
  }
  return asUser(caller, url, { method, headers, body });
}

/** `call` with every uuid in its params, query and string fields replaced by a random one, and the mapping. */
function withRandomIds(call: MatrixCall): { call: MatrixCall; back: (text: string) => string } {
  const map = new Map<string, string>();
  const swap = (text: string) =>
    text.replace(UUID, (id) => {
      if (!map.has(id)) map.set(id, crypto.randomUUID());
      return map.get(id) as string;
    });
  let form: FormData | undefined;
  if (call.form) {
    form = new FormData();
    for (const [k, v] of call.form.entries()) form.append(k, typeof v === "string" ? swap(v) : v);
  }
  const swapped: MatrixCall = {
    ...call,
    params: Object.fromEntries(Object.entries(call.params ?? {}).map(([k, v]) => [k, swap(v)])),
    query: call.query === undefined ? undefined : swap(call.query),
    json: call.json === undefined ? undefined : JSON.parse(swap(JSON.stringify(call.json))),
    form,
  };
  const back = (text: string) => {
    let out = text;
    for (const [real, random] of map) out = out.replaceAll(random, real);
    return out;
  };
  return { call: swapped, back };
}

async function callAs(
  method: string,
  path: string,
  handler: Handler,
  call: MatrixCall,
  caller: TestUser | null,
): Promise<{ status: number; body: string; retryAfter: string | null }> {
  const req = request(method, path, call, caller);
  const res = await handler(req, { params: Promise.resolve(paramsFor(path, call.params ?? {})) });
  // Read to the end (an SSE run ends and releases its session before the next call).
  return { status: res.status, body: await res.text(), retryAfter: res.headers.get("retry-after") };
}

/** Next's params: a `[...rest]` segment is an array. */
function paramsFor(path: string, params: Record<string, string>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = { ...params };
  for (const m of path.matchAll(/\[\.\.\.([^\]]+)\]/g)) out[m[1]] = (params[m[1]] ?? "").split("/");
  return out;
}

/** What `role` must get from a row of `permission`: a status class. */
function expected(row: MatrixRow, role: MatrixRole): "ok" | 401 | 403 | 404 {
  if (row.permission === "public") return "ok";
  if (role === "anonymous") return 401;
  if (row.permission === "self") return "ok";
  if (role === "outsider") return 404;
  return LADDER[role] >= NEEDS[row.permission] ? "ok" : 403;
}

/** The team's data a denied body must not contain (unless the request itself carries it). */
function secrets(sent: string): string[] {
  return [
    fx.workspaceName,
    fx.projectName,
    fx.fileContent,
    fx.sessionTitle,
    fx.workspaceId,
    fx.projectId,
    fx.sessionId,
  ].filter((s) => !sent.includes(s));
}

const discovered: { key: string; path: string; file: string }[] = [];
for (const { file, path } of routeFiles) {
  const source = readFileSync(join(APP, file), "utf8");
  for (const method of METHODS) {
    if (new RegExp(`export\\s+(const|async\\s+function|function)\\s+${method}\\b`).test(source))
      discovered.push({ key: `${method} ${path}`, path, file });
  }
}

describe("route authorisation matrix", () => {
  it("finds the route files on disk", () => {
    expect(discovered.length).toBeGreaterThan(40);
    expect(discovered.map((d) => d.key)).toContain("GET /api/projects/[id]");
  });

  it("has no server actions without a row (none are callable by the matrix yet: add a route instead)", () => {
    expect(serverActionFiles).toEqual([]);
  });

  it("has no row for a route that no longer exists", () => {
    const keys = new Set(discovered.map((d) => d.key));
    expect(Object.keys(ROUTE_MATRIX).filter((k) => !keys.has(k))).toEqual([]);
  });

  it(`${BETTER_AUTH_GET_SESSION} without a cookie answers a null body`, async () => {
    const res = await withDb((s) =>
      s.run((db) => createAuth(db, ORIGIN).handler(new Request(`${ORIGIN}/api/auth/get-session`))),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("null");
  });

  for (const { key, path, file } of discovered) {
    it(key, async () => {
      const row = ROUTE_MATRIX[key];
      if (!row)
        throw new Error(
          `${key} (app/${file}) has no row in tests/integration/auth/route-matrix-table.ts: add one (format at the top of that file)`,
        );
      const method = key.split(" ")[0];
      const mod = (await import(/* @vite-ignore */ join(APP, file))) as Record<string, Handler>;
      const handler = mod[method];
      const seen: string[] = [];
      for (const role of ROLES) {
        const caller = role === "anonymous" ? null : users[role];
        const call = await row.build({ fx, scope: stack.scope, role, caller, n: ++counter });
        const got = await callAs(method, path, handler, call, caller);
        const want = expected(row, role);
        const label = `${key} as ${role}: ${got.status} ${got.body.slice(0, 300)}`;
        seen.push(`${role} ${got.status}`);
        expect(leaks(got.body), `${label} answers a provider key`).toEqual([]);
        if (want === "ok") {
          if (row.ok) expect(row.ok, label).toContain(got.status);
          else expect(got.status >= 200 && got.status < 300, label).toBe(true);
          // A caller-only route answers the outsider about the outsider alone: nothing of the team.
          if (role === "outsider" || role === "anonymous")
            for (const secret of secrets(""))
              expect(got.body, `${label} shows the team's ${secret}`).not.toContain(secret);
          continue;
        }
        expect(got.status, label).toBe(want);
        if (role === "anonymous" && method !== "GET" && method !== "HEAD") {
          // Who is calling is checked before the body: a malformed one still answers 401, not 400.
          const malformed = {
            ...call,
            json: undefined,
            form: undefined,
            bytes: strToU8("{"),
            contentType: "application/json",
          };
          const bad = await callAs(method, path, handler, malformed, caller);
          expect(
            `${bad.status} ${bad.body.slice(0, 200)}`,
            `${key} as anonymous with a malformed body`,
          ).toMatch(/^401 /);
        }
        const code = { 401: "unauthenticated", 403: "forbidden", 404: "not_found" }[want];
        expect(JSON.parse(got.body).error.code, label).toBe(code);
        const sent = `${fill(path, call.params ?? {})}?${call.query ?? ""} ${JSON.stringify(call.json ?? "")} ${[
          ...(call.form?.values() ?? []),
        ]
          .filter((v) => typeof v === "string")
          .join(" ")}`;
        for (const secret of secrets(sent))
          expect(got.body, `${label} leaks ${secret}`).not.toContain(secret);
        if (want === 404) {
          const random = withRandomIds(call);
          const other = await callAs(method, path, handler, random.call, caller);
          expect(random.back(other.body), `${label}: a random id answers differently`).toBe(got.body);
          expect(other.status).toBe(404);
          if (call.json !== undefined) {
            // Another workspace's resource answers 404 whatever the body: a body the route's schema refuses (a
            // JSON array) and one that is not JSON at all get the outsider's answer to the valid body, byte for byte.
            const invalid: MatrixCall[] = [
              { ...call, json: [] },
              { ...call, json: undefined, bytes: strToU8("{"), contentType: "application/json" },
            ];
            for (const bad of invalid) {
              const answer = await callAs(method, path, handler, bad, caller);
              expect(
                { status: answer.status, body: answer.body },
                `${key} as outsider with the body ${bad.json === undefined ? "{" : "[]"}`,
              ).toEqual({ status: 404, body: got.body });
            }
          }
        }
      }
      expect(seen.length).toBe(ROLES.length);
    }, 60_000);
  }

  it("Better Auth's listings answer no provider key", async () => {
    for (const path of ["/get-session", "/list-sessions", "/api-key/list", "/organization/list"]) {
      const res = await withDb((s) =>
        s.run((db) =>
          createAuth(db, ORIGIN).handler(
            new Request(`${ORIGIN}/api/auth${path}`, {
              headers: { cookie: users.owner.cookie },
            }),
          ),
        ),
      );
      const body = await res.text();
      expect(res.status, `${path}: ${body}`).toBe(200);
      expect(leaks(body), path).toEqual([]);
    }
  });

  it("the provider got the team's key, never the server's; no logged line carries a key", () => {
    const keys = new Set(stack.mock.requests.map((r) => r.credentialSha256));
    expect(keys.has(sha256(WORKSPACE_KEYS.ANTHROPIC_API_KEY))).toBe(true);
    expect(keys.has(sha256(SERVER_KEYS.ANTHROPIC_API_KEY))).toBe(false);
    expect(
      logged.flatMap((line) => leaks(line).map((n) => `${n.slice(0, 8)}… in: ${line.slice(0, 200)}`)),
    ).toEqual([]);
  });
});
