/**
 * Rule-loading diagnostics through `GET /api/sessions/:id/resources` (what the Context panel reads), against the real
 * Postgres: a session in `pkg/app/src` of a project whose `pkg/AGENTS.md` links to the root one, whose
 * `pkg/app/AGENTS.md` is 70,000 bytes and whose `pkg/app/src/AGENTS.md` climbs out of the workspace beside a CLAUDE.md
 * (tests/helpers/rule-links.ts).
 * First with the files written into the VFS and the session made in that cwd directly; then as a person gets there
 * in the IDE: the repository imported through `POST /api/projects` (a real git clone from the loopback git server,
 * which keeps the symlinks) and a pi session file whose header names that cwd imported through
 * `POST /api/projects/:id/sessions/import`. Both answer exactly: the symlinked AGENTS.md in effect once (its other
 * path a duplicate), the 70,000-byte file truncated with its sizes and marker line, the escaping link a diagnostic,
 * CLAUDE.md not in effect; the imported one also its provenance and trust cwd. How the Context panel words this:
 * tests/unit/components/context-panel.test.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as importSession } from "@/app/api/projects/[id]/sessions/import/route";
import { POST as postProject } from "@/app/api/projects/route";
import { GET as getResources } from "@/app/api/sessions/[id]/resources/route";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { createSession } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { type GitServer, makeBareClone, startGitServer } from "../../git-server";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";
import { setEnv } from "../../helpers/env";
import { ESCAPING_TARGET, RULE_LINE, ruleLinkDiagnostics } from "../../helpers/rule-links";

let user: TestUser;
let scope: DbScope;
beforeAll(async () => {
  scope = new DbScope();
  user = await createTestUser();
});
afterAll(async () => {
  await scope.release();
});

/** The resources view as the route answers it (the fields these tests read). */
interface ResourcesView {
  provenance: { kind: string; path: string }[];
  preview: unknown;
  diagnostics: unknown[];
  trust: { trusted: boolean; cwd: string; withheld: string[] };
}

async function resourcesOf(sessionId: string): Promise<ResourcesView> {
  const res = await getResources(asUser(user, `http://127.0.0.1/api/sessions/${sessionId}/resources`), {
    params: Promise.resolve({ id: sessionId }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as ResourcesView;
}

describe("GET /api/sessions/:id/resources: rule-loading diagnostics", () => {
  it("lists the duplicate, the escaping link and the truncation with their exact fields", async () => {
    const p = await insertProject(scope, { workspaceId: user.workspaceId, name: "links", source: null });
    const root = p.rootPath;
    const s = new DbScope();
    const { vfs } = openWorkspaceVfs(user.workspaceId, s);
    await vfs.writeFile(`${root}/AGENTS.md`, "Root rules.\n");
    await vfs.symlink("../AGENTS.md", `${root}/pkg/AGENTS.md`);
    await vfs.writeFile(`${root}/pkg/app/AGENTS.md`, RULE_LINE.repeat(700));
    await vfs.symlink(ESCAPING_TARGET, `${root}/pkg/app/src/AGENTS.md`);
    await vfs.writeFile(`${root}/pkg/app/src/CLAUDE.md`, "Fallback rules.\n");
    await vfs.flush();
    await s.release();
    const cwd = `${root}/pkg/app/src`;
    const session = await createSession(scope, { projectId: p.id, cwd });

    const view = await resourcesOf(session.id);
    expect(view.provenance.filter((x) => x.kind === "context").map((x) => x.path)).toEqual([
      `${root}/pkg/AGENTS.md`,
      `${root}/pkg/app/AGENTS.md`,
    ]);
    expect(view.diagnostics).toEqual(ruleLinkDiagnostics(root, cwd));
  });
});

describe("GET /api/sessions/:id/resources: a link to a host path", () => {
  it("is an escape, not a broken link, and the CLAUDE.md beside it is not loaded in its place", async () => {
    const p = await insertProject(scope, { workspaceId: user.workspaceId, name: "host-link", source: null });
    const root = p.rootPath;
    const s = new DbScope();
    const { vfs } = openWorkspaceVfs(user.workspaceId, s);
    // As a sandbox command's `ln -s /etc/AGENTS.md AGENTS.md` or a cloned repository leaves it.
    await vfs.symlink("/etc/AGENTS.md", `${root}/AGENTS.md`);
    await vfs.writeFile(`${root}/CLAUDE.md`, "Fallback rules.\n");
    await vfs.flush();
    await s.release();
    const session = await createSession(scope, { projectId: p.id, cwd: root });

    const view = await resourcesOf(session.id);
    expect(view.provenance.filter((x) => x.kind === "context")).toEqual([]);
    expect(view.diagnostics).toEqual([
      {
        type: "warning",
        message: `symlink ${root}/AGENTS.md -> /etc/AGENTS.md leaves the workspace; not followed, and no other context file of ${root} is loaded in its place`,
        path: `${root}/AGENTS.md`,
        code: "symlink_escape",
        link: `${root}/AGENTS.md`,
        target: "/etc/AGENTS.md",
      },
    ]);
  });
});

/** When {@link makeRepo} commits (author and committer date), so the provenance's change time is exact. */
const COMMITTED_AT = "2026-01-01T09:00:00Z";

/**
 * The layout above as a git repository on host disk (real symlinks, plus `pkg/app/src/main.ts`), committed by `Rules`
 * at {@link COMMITTED_AT}; @returns a bare clone of it (its parent directory is the caller's to remove).
 */
async function makeRepo(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "strata-rule-links-"));
  try {
    mkdirSync(join(dir, "pkg/app/src"), { recursive: true });
    writeFileSync(join(dir, "AGENTS.md"), "Root rules.\n");
    symlinkSync("../AGENTS.md", join(dir, "pkg/AGENTS.md"));
    writeFileSync(join(dir, "pkg/app/AGENTS.md"), RULE_LINE.repeat(700));
    symlinkSync(ESCAPING_TARGET, join(dir, "pkg/app/src/AGENTS.md"));
    writeFileSync(join(dir, "pkg/app/src/CLAUDE.md"), "Fallback rules.\n");
    writeFileSync(join(dir, "pkg/app/src/main.ts"), "export {};\n");
    const env = { ...process.env, GIT_AUTHOR_DATE: COMMITTED_AT, GIT_COMMITTER_DATE: COMMITTED_AT };
    const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe", env });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git(
      "-c",
      "user.name=Rules",
      "-c",
      "user.email=rules@example.test",
      "commit",
      "-q",
      "-m",
      "Rules with links",
    );
    return await makeBareClone(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the repository through the git import, a session file naming the cwd, then the resources", () => {
  let server: GitServer;
  let bare: string;
  let restoreEnv: () => void;
  beforeAll(async () => {
    bare = await makeRepo();
    server = await startGitServer({ repos: { rules: bare } });
    // The git server is on loopback, which an import refuses by default (lib/net/git-http.ts).
    restoreEnv = setEnv({ STRATA_GIT_IMPORT_ALLOW_PRIVATE: "1" });
  });
  afterAll(async () => {
    restoreEnv();
    await server.close();
    rmSync(dirname(bare), { recursive: true, force: true });
  });

  it("the link once naming its other path, the truncation with sizes and marker, the escape; no CLAUDE.md", async () => {
    const created = await postProject(
      asUser(user, "http://127.0.0.1/api/projects", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ gitUrl: `${server.url}/rules.git`, name: "rules" }),
      }),
    );
    expect(created.status, await created.clone().text()).toBe(201);
    const { project } = (await created.json()) as { project: { id: string; rootPath: string } };
    const root = project.rootPath;
    const cwd = `${root}/pkg/app/src`;

    const header = {
      type: "session",
      version: 3,
      id: "0198a6f0-0000-7000-8000-00000000c0c0",
      timestamp: "2026-01-01T09:00:00.000Z",
      cwd,
    };
    const entry = {
      type: "message",
      id: "c0c0c0c0",
      parentId: null,
      timestamp: "2026-01-01T09:00:01.000Z",
      message: { role: "user", content: "Which rules apply here?", timestamp: 1767258001000 },
    };
    const imported = await importSession(
      asUser(user, `http://127.0.0.1/api/projects/${project.id}/sessions/import?name=in-src.jsonl`, {
        method: "POST",
        headers: { "content-type": "application/x-ndjson" },
        body: `${JSON.stringify(header)}\n${JSON.stringify(entry)}\n`,
      }),
      { params: Promise.resolve({ id: project.id }) },
    );
    expect(imported.status).toBe(201);
    const { session, diagnostics } = (await imported.json()) as {
      session: { id: string };
      diagnostics: unknown[];
    };
    expect(diagnostics).toEqual([]);

    const view = await resourcesOf(session.id);
    // The session works where its file's header says: the Context panel's trust line shows this cwd.
    expect(view.trust).toMatchObject({ trusted: true, cwd, withheld: [] });
    expect(view.preview).toBeNull();
    // In effect: the symlink's path (its target, the root AGENTS.md, is the same file: loaded once) and the
    // truncated file; no CLAUDE.md (the escaping AGENTS.md of the cwd stands for it, not followed).
    const fromGit = { filesystem: "project", scope: "project", trustGated: false, lastChangedBy: "Rules" };
    expect(view.provenance).toEqual([
      {
        kind: "context",
        path: `${root}/pkg/AGENTS.md`,
        ...fromGit,
        lastChangedAt: "2026-01-01T09:00:00.000Z",
      },
      {
        kind: "context",
        path: `${root}/pkg/app/AGENTS.md`,
        ...fromGit,
        lastChangedAt: "2026-01-01T09:00:00.000Z",
      },
    ]);
    expect(view.diagnostics).toEqual(ruleLinkDiagnostics(root, cwd));
    expect(JSON.stringify(view)).not.toContain("CLAUDE.md");
  });
});
