import { describe, expect, it } from "vitest";
import { folderPrefix } from "@/components/tree/new-entry";
import { checkNewEntryPath } from "@/lib/projects/new-entry-path";

const tree = [
  { path: "src", kind: "dir" as const },
  { path: "src/a.ts", kind: "file" as const },
  { path: "README.md", kind: "file" as const },
];

describe("checkNewEntryPath", () => {
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

  it("prefills with the open file's folder", () => {
    expect(folderPrefix("src/a.ts")).toBe("src/");
    expect(folderPrefix("README.md")).toBe("");
    expect(folderPrefix(null)).toBe("");
  });
});
