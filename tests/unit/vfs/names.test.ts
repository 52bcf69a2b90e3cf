/**
 * The one name rule (lib/vfs/names.ts): what git cannot hold agrees with isomorphic-git's own check (a property over
 * names built from the characters that matter), Strata's rule adds control and bidi characters, and the VFS refuses
 * to create such a name (`writeFile`, `mkdir`, `rename`, `symlink`) while a stored one stays readable and movable.
 */
import fc from "fast-check";
import * as git from "isomorphic-git";
import { describe, expect, it } from "vitest";
import { writeTreeObject } from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import { MemoryVfsStore } from "@/lib/vfs/memory-store";
import {
  checkCreatablePath,
  gitNameProblem,
  NAME_ERRORS,
  nameProblem,
  quoteName,
  UnsafeNameError,
} from "@/lib/vfs/names";
import { Vfs } from "@/lib/vfs/vfs";
import { propertyParameters } from "../../helpers/property";

const BACKSLASH_MESSAGE =
  'Invalid name "a\\b.txt": Names must not contain "\\": use "/" between folders (a backslash in a name breaks the project on Windows).';

const gitFs = createGitFs(new Vfs(new MemoryVfsStore([{ path: "/r/.git", kind: "dir" }])));

/** Whether isomorphic-git refuses `name` as a tree entry (its `writeTree` runs `assertSafeEntryPath`). */
async function isomorphicGitRefuses(name: string): Promise<boolean> {
  try {
    await git.writeTree({
      fs: gitFs,
      gitdir: "/r/.git",
      tree: [{ mode: "100644", path: name, oid: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", type: "blob" }],
    });
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === "UnsafeFilepathError") return true;
    throw error;
  }
}

describe("gitNameProblem: what git cannot hold", () => {
  it("names each refusal with its words", () => {
    const cases: [string, string | null][] = [
      ["a.txt", null],
      [".gitignore", null],
      ["git~0", null],
      ["a:b", null],
      ["..a", null],
      ["a\\b.txt", NAME_ERRORS.backslash],
      ["a\u0000b", NAME_ERRORS.control],
      [".", NAME_ERRORS.dots],
      ["..", NAME_ERRORS.dots],
      ["...", NAME_ERRORS.dots],
      [". .", NAME_ERRORS.dots],
      [" ", NAME_ERRORS.dots],
      [".git", NAME_ERRORS.nestedGit],
      [".GIT", NAME_ERRORS.gitAlias],
      [".git.", NAME_ERRORS.gitAlias],
      [".git ", NAME_ERRORS.gitAlias],
      [".git::$INDEX_ALLOCATION", NAME_ERRORS.gitAlias],
      [".g\u200cit", NAME_ERRORS.gitAlias],
      ["\ufeff.git", NAME_ERRORS.gitAlias],
      ["git~1", NAME_ERRORS.gitAlias],
      [".GIT~9", NAME_ERRORS.gitAlias],
      // Characters git holds: Strata's own rule refuses them (below).
      ["a\tb", null],
      ["invoice\u202etxt.exe", null],
    ];
    for (const [name, reason] of cases) expect(gitNameProblem(name), JSON.stringify(name)).toBe(reason);
  });

  it("agrees with isomorphic-git's assertSafeEntryPath on names made of the characters that matter", async () => {
    const char = fc.constantFrom(..."._ gitGIT~19:\\a\u200c\u202e\u206a\ufeff\t".split(""));
    await fc.assert(
      fc.asyncProperty(fc.array(char, { minLength: 1, maxLength: 8 }), async (chars) => {
        const name = chars.join("");
        expect(gitNameProblem(name) !== null, JSON.stringify(name)).toBe(await isomorphicGitRefuses(name));
      }),
      propertyParameters(),
    );
  });

  it("the NUL (which ends a tree entry) is the one name it adds", async () => {
    expect(await isomorphicGitRefuses("a\u0000b")).toBe(false);
    expect(gitNameProblem("a\u0000b")).toBe(NAME_ERRORS.control);
  });
});

describe("writeTreeObject", () => {
  it("refuses an entry name git cannot hold: such a tree could never be read back", async () => {
    const vfs = new Vfs(new MemoryVfsStore([{ path: "/r/.git", kind: "dir" }]));
    const entry = (path: string) => ({
      mode: "100644",
      path,
      oid: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
      type: "blob" as const,
    });
    await expect(writeTreeObject(vfs, "/r/.git", [entry("ok"), entry("a\\b")])).rejects.toThrow(
      `Cannot write a git tree entry named "a\\b": ${NAME_ERRORS.backslash}`,
    );
    await expect(writeTreeObject(vfs, "/r/.git", [entry(".git")])).rejects.toThrow(
      `Cannot write a git tree entry named ".git": ${NAME_ERRORS.nestedGit}`,
    );
    expect(await writeTreeObject(vfs, "/r/.git", [entry("a\tb")])).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe("nameProblem: Strata's rule", () => {
  it("adds control and bidi characters to git's refusals, and leaves the rest alone", () => {
    expect(nameProblem("a\tb")).toBe(NAME_ERRORS.control);
    expect(nameProblem("x\ny")).toBe(NAME_ERRORS.control);
    expect(nameProblem("a\u0085b")).toBe(NAME_ERRORS.control);
    expect(nameProblem("invoice\u202etxt.exe")).toBe(NAME_ERRORS.bidi);
    expect(nameProblem("a\u2066b")).toBe(NAME_ERRORS.bidi);
    expect(nameProblem("a\\b.txt")).toBe(NAME_ERRORS.backslash);
    expect(nameProblem("...")).toBe(NAME_ERRORS.dots);
    expect(nameProblem("naïve 日本 👨‍👩‍👧.md")).toBe(null);
  });

  it("quotes a name for a message with its invisible characters spelled out", () => {
    expect(quoteName("x\ny\u202e\\")).toBe('"x<U+000A>y<U+202E>\\"');
  });
});

describe("checkCreatablePath", () => {
  it("refuses a component the rule refuses, naming it; allows .git and leaves what is below it to git", () => {
    expect(() => checkCreatablePath("/p/src/a\\b.txt")).toThrow(BACKSLASH_MESSAGE);
    expect(() => checkCreatablePath("/p/d\te/x.txt")).toThrow(
      `Invalid name "d<U+0009>e": ${NAME_ERRORS.control}`,
    );
    expect(() => checkCreatablePath("/p/.GIT/x")).toThrow(`Invalid name ".GIT": ${NAME_ERRORS.gitAlias}`);
    for (const ok of ["/p/a.txt", "/p/.git/objects/ab/cdef", "/p/sub/.git/refs/heads/x\\y", "/"])
      expect(() => checkCreatablePath(ok), ok).not.toThrow();
  });
});

describe("Vfs: names are refused where they are written", () => {
  const stored = () =>
    new Vfs(
      new MemoryVfsStore([
        { path: "/p/ok.txt", data: "ok" },
        { path: "/p/old/a\\b.txt", data: "old" },
      ]),
    );

  it("writeFile, mkdir, rename and symlink throw UnsafeNameError (EINVAL) and create nothing", async () => {
    const vfs = stored();
    const attempts: [string, () => Promise<void>][] = [
      ["writeFile", () => vfs.writeFile("/p/a\\b.txt", "q")],
      ["mkdir", () => vfs.mkdir("/p/a\\b.txt", { recursive: true })],
      ["rename", () => vfs.rename("/p/ok.txt", "/p/a\\b.txt")],
      ["symlink", () => vfs.symlink("ok.txt", "/p/a\\b.txt")],
    ];
    for (const [what, attempt] of attempts) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error, what).toBeInstanceOf(UnsafeNameError);
      expect(error, what).toMatchObject({ code: "EINVAL", path: "/p/a\\b.txt", message: BACKSLASH_MESSAGE });
    }
    expect(vfs.dirtyPaths()).toEqual([]);
    expect(await vfs.readdir("/p")).toEqual(["ok.txt", "old"]);
  });

  it("a stored name the rule refuses stays readable, movable out of the way, and moves with its folder", async () => {
    const vfs = stored();
    expect(await vfs.readText("/p/old/a\\b.txt")).toBe("old");
    await vfs.rename("/p/old", "/p/moved");
    expect(await vfs.readText("/p/moved/a\\b.txt")).toBe("old");
    await vfs.rename("/p/moved/a\\b.txt", "/p/moved/a-b.txt");
    expect(await vfs.readdir("/p/moved")).toEqual(["a-b.txt"]);
    await expect(vfs.writeFile("/p/moved/a\\b.txt", "again")).rejects.toThrow(BACKSLASH_MESSAGE);
  });
});
