/**
 * Rule-loading diagnostics through `GET /api/sessions/:id/resources` (what the Context panel reads), against the real
 * Postgres: a session in `pkg/app/src` of a project whose `pkg/AGENTS.md` links to the root one, whose
 * `pkg/app/AGENTS.md` is 70,000 bytes and whose `pkg/app/src/AGENTS.md` climbs out of the workspace beside a CLAUDE.md.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getResources } from "@/app/api/sessions/[id]/resources/route";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { createSession } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";

let user: TestUser;
let scope: DbScope;
beforeAll(async () => {
  scope = new DbScope();
  user = await createTestUser();
});
afterAll(async () => {
  await scope.release();
});

describe("GET /api/sessions/:id/resources: rule-loading diagnostics", () => {
  it("lists the duplicate, the escaping link and the truncation with their exact fields", async () => {
    const p = await insertProject(scope, { workspaceId: user.workspaceId, name: "links", source: null });
    const root = p.rootPath;
    const s = new DbScope();
    const { vfs } = openWorkspaceVfs(user.workspaceId, s);
    await vfs.writeFile(`${root}/AGENTS.md`, "Root rules.\n");
    await vfs.symlink("../AGENTS.md", `${root}/pkg/AGENTS.md`);
    await vfs.writeFile(`${root}/pkg/app/AGENTS.md`, `${"r".repeat(99)}\n`.repeat(700));
    await vfs.symlink("../../../../../../etc/AGENTS.md", `${root}/pkg/app/src/AGENTS.md`);
    await vfs.writeFile(`${root}/pkg/app/src/CLAUDE.md`, "Fallback rules.\n");
    await vfs.flush();
    await s.release();
    const cwd = `${root}/pkg/app/src`;
    const session = await createSession(scope, { projectId: p.id, cwd });

    const res = await getResources(asUser(user, "http://x/"), {
      params: Promise.resolve({ id: session.id }),
    });
    expect(res.status).toBe(200);
    const view = (await res.json()) as {
      provenance: { kind: string; path: string }[];
      diagnostics: unknown[];
    };
    expect(view.provenance.filter((x) => x.kind === "context").map((x) => x.path)).toEqual([
      `${root}/pkg/AGENTS.md`,
      `${root}/pkg/app/AGENTS.md`,
    ]);
    const marker = `[Strata: truncated ${root}/pkg/app/AGENTS.md: loaded 65500 of 70000 bytes (per-file cap 65536 bytes)]`;
    expect(view.diagnostics).toEqual([
      {
        type: "warning",
        message: `symlink ${cwd}/AGENTS.md -> ../../../../../../etc/AGENTS.md leaves the workspace; not followed, and no other context file of ${cwd} is loaded in its place`,
        path: `${cwd}/AGENTS.md`,
        code: "symlink_escape",
        link: `${cwd}/AGENTS.md`,
        target: "../../../../../../etc/AGENTS.md",
      },
      {
        type: "info",
        message: `${root}/AGENTS.md is the same file as ${root}/pkg/AGENTS.md (${root}/AGENTS.md); loaded once`,
        path: `${root}/AGENTS.md`,
        code: "duplicate",
        canonical: `${root}/AGENTS.md`,
        duplicateOf: `${root}/pkg/AGENTS.md`,
      },
      {
        type: "warning",
        message: `Context file ${root}/pkg/app/AGENTS.md truncated: 70000 bytes, 65500 loaded (per-file cap 65536 bytes)`,
        path: `${root}/pkg/app/AGENTS.md`,
        code: "truncated",
        sizeBytes: 70000,
        loadedBytes: 65500,
        marker,
      },
    ]);
  });
});
