/**
 * A sandbox command's files with names the one name rule refuses (lib/vfs/names.ts) are not written back: the
 * write-back (lib/exec/service/sandbox/write-back.ts) notes each with the rule's words and writes the rest. The
 * seam below bubblewrap: the tree is materialised, files are made in it as a command would, then diffed and written
 * back to the real Postgres VFS.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { diffTree, materialiseTree } from "@/lib/exec/service/sandbox/tree";
import { writeBack } from "@/lib/exec/service/sandbox/write-back";
import { NAME_ERRORS } from "@/lib/vfs/names";
import { createTestVfs } from "../../helpers/vfs";

let ws: Awaited<ReturnType<typeof createTestVfs>>;
let dir: string;
beforeAll(async () => {
  ws = await createTestVfs();
  await ws.fs.writeFile("/app/a.txt", "a");
  await ws.fs.flush();
  dir = mkdtempSync(path.join(tmpdir(), "strata-names-"));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await ws.cleanup();
});

it("notes each refused name and writes the other files", async () => {
  const tree = await materialiseTree([], "/app", dir);
  writeFileSync(path.join(dir, "x\\y.txt"), "q");
  writeFileSync(path.join(dir, "tab\there.txt"), "t");
  mkdirSync(path.join(dir, "d\\e"));
  writeFileSync(path.join(dir, "d\\e", "f.txt"), "f");
  mkdirSync(path.join(dir, "git~1"));
  writeFileSync(path.join(dir, "ok.txt"), "ok");
  const diff = await diffTree(tree);
  expect(diff.notes).toEqual([]);
  const report = await writeBack(ws.scope, { workspaceId: ws.workspaceId, root: "/app" }, diff.changes);
  expect(report).toEqual({
    changedPaths: ["/app/ok.txt"],
    notes: [
      `sandbox: d\\e not written back: Invalid name "d\\e": ${NAME_ERRORS.backslash}`,
      `sandbox: d\\e/f.txt not written back: Invalid name "d\\e": ${NAME_ERRORS.backslash}`,
      `sandbox: git~1 not written back: Invalid name "git~1": ${NAME_ERRORS.gitAlias}`,
      `sandbox: tab\there.txt not written back: Invalid name "tab<U+0009>here.txt": ${NAME_ERRORS.control}`,
      `sandbox: x\\y.txt not written back: Invalid name "x\\y.txt": ${NAME_ERRORS.backslash}`,
    ],
  });
  const fresh = ws.reopen();
  expect(await fresh.readdir("/app")).toEqual(["a.txt", "ok.txt"]);
  expect(await fresh.readText("/app/ok.txt")).toBe("ok");
});

it("writes back a symlink inside the project and notes one pointing outside it (absolute or climbing out)", async () => {
  const links = mkdtempSync(path.join(tmpdir(), "strata-links-"));
  const tree = await materialiseTree([], "/app", links);
  symlinkSync("a.txt", path.join(links, "inside"));
  symlinkSync("/.team", path.join(links, "team"));
  symlinkSync("../../etc/passwd", path.join(links, "up"));
  symlinkSync("/workspace/a.txt", path.join(links, "abs"));
  const diff = await diffTree(tree);
  const report = await writeBack(ws.scope, { workspaceId: ws.workspaceId, root: "/app" }, diff.changes);
  expect(report).toEqual({
    changedPaths: ["/app/inside"],
    notes: [
      "sandbox: abs not written back: the symlink points outside the project (/workspace/a.txt); use a relative target inside it",
      "sandbox: team not written back: the symlink points outside the project (/.team); use a relative target inside it",
      "sandbox: up not written back: the symlink points outside the project (../../etc/passwd); use a relative target inside it",
    ],
  });
  const fresh = ws.reopen();
  expect(await fresh.readlink("/app/inside")).toBe("a.txt");
  expect(await fresh.readdir("/app")).toEqual(["a.txt", "inside", "ok.txt"]);
  rmSync(links, { recursive: true, force: true });
});
