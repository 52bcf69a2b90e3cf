/** Importing a project keeps no credentials from its git URL (stored source, .git/config). */
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbScope } from "@/lib/db/client";
import { createGitImportHttp } from "@/lib/net/git-http";
import { getLocalActor } from "@/lib/projects/identity";
import { importProject, withoutCredentials } from "@/lib/projects/import";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { type GitServer, makeBareClone, startGitServer } from "../../git-server";

let server: GitServer;
let bare: string;
const scope = new DbScope();

beforeAll(async () => {
  bare = await makeBareClone(process.cwd());
  server = await startGitServer({ repos: { strata: bare } });
});
afterAll(async () => {
  await scope.release();
  await server.close();
  await rm(bare, { recursive: true, force: true });
});

describe("importProject from a git URL with credentials", () => {
  it("strips user info", () => {
    expect(withoutCredentials("https://alice:s3cret@example.com/o/r.git")).toBe(
      "https://example.com/o/r.git",
    );
    expect(withoutCredentials("https://example.com/o/r.git")).toBe("https://example.com/o/r.git");
    expect(withoutCredentials("not a url")).toBe("not a url");
  });

  it("clones with them but stores the URL without them", async () => {
    const actor = await getLocalActor(scope);
    const url = server.url.replace("http://", "http://alice:s3cretPW@");
    const { project } = await importProject(
      scope,
      actor.workspaceId,
      { kind: "git", url: `${url}/strata.git` },
      "creds",
      { gitHttp: createGitImportHttp({ allowPrivate: true }) },
    );
    const [row] = await scope.query<{ source: { url: string } }>(
      "SELECT source FROM projects WHERE id = $1",
      [project.id],
    );
    expect(row.source.url).toBe(`${server.url}/strata.git`);
    const s = new DbScope();
    const config = await openWorkspaceVfs(actor.workspaceId, s).vfs.readText(
      `${project.rootPath}/.git/config`,
    );
    await s.release();
    expect(config).not.toContain("s3cretPW");
    expect(config).toContain(`url = ${server.url}/strata.git`);
  });
});
