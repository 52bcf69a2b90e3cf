/**
 * `Vfs.forget`: a route's VFS that cached a directory's listing and files sees what another writer (the execution
 * service) changed in Postgres once told the paths, and hands them to the checkpointer once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbScope } from "@/lib/db/client";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { projectWithFiles } from "./fixture";

let scope: DbScope;
beforeAll(() => {
  scope = new DbScope();
});
afterAll(() => scope.release());

describe("Vfs.forget", () => {
  it("drops the cached state of changed paths (and their parents' listings); keeps unflushed local writes", async () => {
    const { workspaceId, root } = await projectWithFiles(scope, { "a.txt": "a\n", "d/b.txt": "b\n" });
    const { vfs: route } = openWorkspaceVfs(workspaceId, scope);
    expect(await route.readdir(root)).toEqual([".git", "a.txt", "d"]);
    expect(await route.readText(`${root}/d/b.txt`)).toBe("b\n");
    expect(await route.readText(`${root}/a.txt`)).toBe("a\n");
    await route.writeFile(`${root}/local.txt`, "mine\n");

    const other = new DbScope();
    const { vfs: service } = openWorkspaceVfs(workspaceId, other);
    await service.writeFile(`${root}/a.txt`, "changed\n");
    await service.rmdir(`${root}/d`, { recursive: true });
    await service.writeFile(`${root}/e/new.txt`, "new\n");
    const changed = service.dirtyPaths();
    await service.flush();
    await other.release();

    // Before: the route still answers from its cache.
    expect(await route.readText(`${root}/a.txt`)).toBe("a\n");
    route.forget(changed);
    expect(await route.readdir(root)).toEqual([".git", "a.txt", "e", "local.txt"]);
    expect(await route.readText(`${root}/a.txt`)).toBe("changed\n");
    expect(await route.exists(`${root}/d/b.txt`)).toBe(false);
    expect(await route.readText(`${root}/e/new.txt`)).toBe("new\n");
    expect(route.dirtyPaths()).toEqual([`${root}/local.txt`]);
    expect(route.takeChangedElsewhere()).toEqual(changed);
    expect(route.takeChangedElsewhere()).toEqual([]);
  });
});
