import { describe, expect, it } from "vitest";
import { folderPrefix } from "@/components/tree/new-entry";
import { checkNewEntryPath } from "@/lib/projects/new-entry-path";

const tree = [
  { path: "src", kind: "dir" as const },
  { path: "src/a.ts", kind: "file" as const },
  { path: "README.md", kind: "file" as const },
];

describe("checkNewEntryPath", () => {
  it("refuses the other names the one name rule refuses: dots and spaces only, what git reads as .git", () => {
    const dots =
      'Names made only of dots and spaces ("...", ". ") are not allowed: git cannot hold them. Choose another name.';
    const alias =
      'Names git reads as ".git" (".GIT", ".git.", ".git:x", "git~1") are not allowed: git would take them for a repository\'s own data. Choose another name.';
    for (const input of ["...", "src/. /x", "a/.. /b"])
      expect(checkNewEntryPath(input, tree), JSON.stringify(input)).toEqual({ error: dots });
    for (const input of ["git~1", "src/.git.", "x/.git::$DATA/y", "a/.g\u200cit"])
      expect(checkNewEntryPath(input, tree), JSON.stringify(input)).toEqual({ error: alias });
    expect(checkNewEntryPath("a..b/.x./git~0", tree)).toEqual({ path: "a..b/.x./git~0" });
  });

  it("accepts a name or a path below existing or new folders, trimmed", () => {
    expect(checkNewEntryPath("  new.txt ", tree)).toEqual({ path: "new.txt" });
    expect(checkNewEntryPath("src/b.ts", tree)).toEqual({ path: "src/b.ts" });
    expect(checkNewEntryPath("lib/deep/c.ts", tree)).toEqual({ path: "lib/deep/c.ts" });
    expect(checkNewEntryPath(".gitignore", tree)).toEqual({ path: ".gitignore" });
  });

  it("refuses an empty name (also a folder prefix with nothing after it)", () => {
    for (const input of ["", "   ", "src/"])
      expect(checkNewEntryPath(input, tree)).toEqual({ error: "Enter a name." });
  });

  it("refuses traversal, absolute and empty parts", () => {
    const error =
      'Use a path inside the project: no leading "/", no "." or ".." parts and no empty parts ("//").';
    for (const input of ["..", "../x", "src/../../x", "/etc/passwd", "a//b", "./a", "src/."])
      expect(checkNewEntryPath(input, tree)).toEqual({ error });
  });

  it("refuses .git, an existing name and a file as a parent", () => {
    expect(checkNewEntryPath(".git/hooks/x", tree)).toEqual({
      error: "The .git folder is managed by Strata. Choose another name.",
    });
    expect(checkNewEntryPath("src/a.ts", tree)).toEqual({
      error: '"src/a.ts" already exists. Choose another name.',
    });
    expect(checkNewEntryPath("src", tree)).toEqual({ error: '"src" already exists. Choose another name.' });
    expect(checkNewEntryPath("README.md/x", tree)).toEqual({
      error: '"README.md" is a file, so nothing can be created inside it.',
    });
  });

  it("refuses control characters, bidi controls, a backslash and .git as any part (any case)", () => {
    const control = "Names must not contain line breaks, tabs or other control characters.";
    for (const input of ["x\ny", "a\tb", "a\u0000b", "a\u001bb", "a\u007fb", "a\u0085b", "src/x\ry"])
      expect(checkNewEntryPath(input, tree), JSON.stringify(input)).toEqual({ error: control });
    const bidi =
      "Names must not contain bidirectional text controls (U+202A–U+202E, U+2066–U+2069): they make a name read differently from what it is.";
    for (const input of ["a\u202Ab", "invoice\u202Etxt.exe", "a\u2066b", "src/a\u2069b"])
      expect(checkNewEntryPath(input, tree), JSON.stringify(input)).toEqual({ error: bidi });
    // Neighbours of the ranges are ordinary characters.
    expect(checkNewEntryPath("a\u2029b\u2065c\u206Ad", tree)).toEqual({ path: "a\u2029b\u2065c\u206Ad" });
    expect(checkNewEntryPath("a\\b", tree)).toEqual({
      error:
        'Names must not contain "\\": use "/" between folders (a backslash in a name breaks the project on Windows).',
    });
    const nested =
      'No folder or file may be named ".git" (git would take it for a repository\'s own data). Choose another name.';
    for (const input of ["sub/.git", "sub/.git/config", "a/.GIT", "src/x/.Git/y"])
      expect(checkNewEntryPath(input, tree), input).toEqual({ error: nested });
    expect(checkNewEntryPath(".GIT/x", tree)).toEqual({
      error: "The .git folder is managed by Strata. Choose another name.",
    });
    expect(checkNewEntryPath("sub/.github/x.yml", tree)).toEqual({ path: "sub/.github/x.yml" });
    expect(checkNewEntryPath("sub/x.git", tree)).toEqual({ path: "sub/x.git" });
  });

  it("prefills with the open file's folder", () => {
    expect(folderPrefix("src/a.ts")).toBe("src/");
    expect(folderPrefix("README.md")).toBe("");
    expect(folderPrefix(null)).toBe("");
  });
});
