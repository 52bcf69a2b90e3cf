/**
 * The fixture of the push/pull tests (remote-push.test.ts, remote-pull.test.ts): a signed-in user ("Ada Lovelace"),
 * a project with a git repository (`a.txt` on main, tests/helpers/lifecycle-fixture.ts) and a session titled
 * "Fix the login bug!" with three checkpoints on its ref (by the agent and by Ada: text, binary, executable, a
 * non-ASCII name, a symlink), and the loopback git server accepting pushes to an empty bare `remote.git` behind
 * Basic auth. Route calls go through the real handlers as the user; every answer is kept in `seen` and every console
 * line in `logged`, so a test can check that the credential appears in neither.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { vi } from "vitest";
import { POST as pullPOST } from "@/app/api/projects/[id]/pull/route";
import { POST as pushPOST } from "@/app/api/projects/[id]/push/route";
import { PUT as credPUT } from "@/app/api/workspaces/[id]/git-credentials/[host]/route";
import { DbScope } from "@/lib/db/client";
import type { Project } from "@/lib/projects/projects";
import { createSession, setSessionTitle } from "@/lib/session/store";
import { checkpoint } from "@/lib/vfs/git";
import { sessionRef } from "@/lib/vfs/session-ref";
import type { Vfs } from "@/lib/vfs/vfs";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { type GitServer, makeEmptyBare, startGitServer } from "../../git-server";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";
import { setEnv } from "../../helpers/env";
import { makeProject } from "../../helpers/lifecycle-fixture";

const run = promisify(execFile);
export const TOKEN = "ghp_TestToken0123456789abcdefXYZ";
export const USERNAME = "strata-bot";
export const AGENT = { name: "Strata", email: "agent@strata.local" };
export const ADA = { name: "Ada Lovelace", email: "ada@example.test" };

/** Every byte value, to check binary safety. */
const BINARY = Uint8Array.from({ length: 256 }, (_, i) => i);
/** The checkpoints: files written, then committed on the session ref by `author`. */
export const CHECKPOINTS: {
  author: { name: string; email: string };
  message: string;
  files: Record<string, string | Uint8Array>;
  exec?: string[];
  links?: Record<string, string>;
}[] = [
  {
    author: AGENT,
    message: "Strata checkpoint: 2 files changed",
    files: { "src/login.ts": "export const login = 1;\n", "assets/logo.bin": BINARY },
  },
  {
    author: ADA,
    message: "Strata: changes made between turns",
    files: { "src/login.ts": "export const login = 2;\n", "run.sh": "#!/bin/sh\necho hi\n" },
    exec: ["run.sh"],
  },
  {
    author: AGENT,
    message: "Strata checkpoint: 1 file changed",
    files: { "docs/ünïcode.md": "# Grüße\n" },
    links: { "latest.ts": "src/login.ts" },
  },
];

/** The files of the session's last checkpoint as written (later checkpoints win), plus `a.txt`. */
export function expectedFiles(): Map<string, { data: Uint8Array; kind: "file" | "exec" | "symlink" }> {
  const out = new Map<string, { data: Uint8Array; kind: "file" | "exec" | "symlink" }>();
  out.set("a.txt", { data: new TextEncoder().encode("alpha\n"), kind: "file" });
  for (const cp of CHECKPOINTS) {
    for (const [path, content] of Object.entries(cp.files))
      out.set(path, {
        data: typeof content === "string" ? new TextEncoder().encode(content) : content,
        kind: cp.exec?.includes(path) ? "exec" : "file",
      });
    for (const [path, target] of Object.entries(cp.links ?? {}))
      out.set(path, { data: new TextEncoder().encode(target), kind: "symlink" });
  }
  return out;
}

export type Answer = {
  status: number;
  body: { error?: { code: string; message: string; paths?: string[] } } & Record<string, unknown>;
};

/** The running fixture. */
export interface RemoteFixture {
  user: TestUser;
  project: Project;
  sessionId: string;
  server: GitServer;
  remoteUrl: string;
  host: string;
  /** Response bodies of every route call so far. */
  seen: string[];
  /** Console lines printed so far. */
  logged: string[];
  call<P>(
    handler: (r: Request, c: { params: Promise<P> }) => Promise<Response>,
    url: string,
    init: { method?: string; json?: unknown; params: P },
  ): Promise<Answer>;
  push(json: unknown): Promise<Answer>;
  pull(json: unknown): Promise<Answer>;
  putCredential(password: string): Promise<Answer>;
  withVfs<T>(fn: (vfs: Vfs) => Promise<T>): Promise<T>;
  /** `git` on disk with the right Basic credentials (as "Upstream Dev"). */
  gitCli(cwd: string, ...args: string[]): Promise<string>;
  tempDir(prefix: string): string;
  close(): Promise<void>;
}

/** Build the fixture (call in `beforeAll`, with a long timeout); `close()` in `afterAll`. */
export async function startRemoteFixture(): Promise<RemoteFixture> {
  const restoreEnv = setEnv({ STRATA_GIT_IMPORT_ALLOW_PRIVATE: "1" });
  const logged: string[] = [];
  const seen: string[] = [];
  const temp: string[] = [];
  for (const method of ["log", "error", "warn", "info"] as const)
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
    });
  const user = await createTestUser("Ada Lovelace");
  const bare = await makeEmptyBare("remote");
  temp.push(dirname(bare));
  const server = await startGitServer({
    repos: { remote: bare },
    push: true,
    auth: { username: USERNAME, password: TOKEN },
  });
  const host = new URL(server.url).host;
  const scope = new DbScope();
  let project: Project;
  let sessionId: string;
  try {
    project = await makeProject(scope, `Remote ${Date.now()}`, {
      userId: user.id,
      workspaceId: user.workspaceId,
    });
    sessionId = (await createSession(scope, { projectId: project.id, cwd: project.rootPath })).id;
    await setSessionTitle(scope, sessionId, "Fix the login bug!");
    const { vfs } = openWorkspaceVfs(user.workspaceId, scope);
    for (const cp of CHECKPOINTS) {
      const changed: string[] = [];
      for (const [path, content] of Object.entries(cp.files)) {
        const abs = `${project.rootPath}/${path}`;
        await vfs.writeFile(abs, content, { mode: cp.exec?.includes(path) ? 0o100755 : 0o100644 });
        changed.push(abs);
      }
      for (const [path, target] of Object.entries(cp.links ?? {})) {
        await vfs.symlink(target, `${project.rootPath}/${path}`);
        changed.push(`${project.rootPath}/${path}`);
      }
      const ref = sessionRef(sessionId);
      await checkpoint(vfs, project.rootPath, {
        changedPaths: changed,
        ref,
        message: cp.message,
        author: cp.author,
      });
      await vfs.flush();
    }
  } finally {
    await scope.release();
  }
  const call: RemoteFixture["call"] = async (handler, url, init) => {
    const req = asUser(user, url, {
      method: init.method ?? (init.json === undefined ? "GET" : "POST"),
      headers: init.json === undefined ? {} : { "content-type": "application/json" },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    const res = await handler(req, { params: Promise.resolve(init.params) });
    const text = await res.text();
    seen.push(text);
    return { status: res.status, body: JSON.parse(text) };
  };
  const id = project.id;
  return {
    user,
    project,
    sessionId,
    server,
    remoteUrl: `${server.url}/remote.git`,
    host,
    seen,
    logged,
    call,
    push: (json) => call(pushPOST, `/api/projects/${id}/push`, { json, params: { id } }),
    pull: (json) => call(pullPOST, `/api/projects/${id}/pull`, { json, params: { id } }),
    putCredential: (password) =>
      call(credPUT, `/api/workspaces/${user.workspaceId}/git-credentials/${encodeURIComponent(host)}`, {
        method: "PUT",
        json: { username: USERNAME, password },
        params: { id: user.workspaceId, host: encodeURIComponent(host) },
      }),
    async withVfs(fn) {
      const s = new DbScope();
      try {
        return await fn(openWorkspaceVfs(user.workspaceId, s).vfs);
      } finally {
        await s.release();
      }
    },
    async gitCli(cwd, ...args) {
      const auth = `http.extraHeader=Authorization: Basic ${btoa(`${USERNAME}:${TOKEN}`)}`;
      const dev = { name: "Upstream Dev", email: "dev@example.test" };
      const env = {
        ...process.env,
        GIT_AUTHOR_NAME: dev.name,
        GIT_AUTHOR_EMAIL: dev.email,
        GIT_COMMITTER_NAME: dev.name,
        GIT_COMMITTER_EMAIL: dev.email,
      };
      return (await run("git", ["-c", auth, ...args], { cwd, env })).stdout;
    },
    tempDir(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      temp.push(dir);
      return dir;
    },
    async close() {
      vi.restoreAllMocks();
      restoreEnv();
      await server.close();
      for (const dir of temp) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** No answer and no console line carried the credential (its token, its Basic header, or `extra` texts). */
export function credentialNowhere(fx: RemoteFixture, extra: string[] = []): string[] {
  const secrets = [TOKEN, btoa(`${USERNAME}:${TOKEN}`), ...extra];
  return [...fx.seen, ...fx.logged].filter((text) => secrets.some((s) => text.includes(s)));
}
