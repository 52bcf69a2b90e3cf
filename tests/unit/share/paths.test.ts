/** lib/share/paths.ts: which paths a share lists and a fork writes. */
import { describe, expect, it } from "vitest";
import { isShareablePath, placePath } from "@/lib/share/paths";

describe("isShareablePath", () => {
  it("accepts relative paths and refuses .., ., empty and .git segments, absolute paths and control characters", () => {
    const paths = [
      "a.txt",
      "src/app.ts",
      ".env",
      ".github/workflows/ci.yml",
      "notes <b>.md",
      "a..b/c...txt",
      "",
      "/etc/passwd",
      "../escape.txt",
      "a/../../b.txt",
      "a/./b.txt",
      "a//b.txt",
      "a/",
      ".git/config",
      "sub/.git/hooks/pre-commit",
      "sub/.GIT/config",
      "a\u0000b",
      "a\nb",
      "a\u007fb",
    ];
    expect(paths.filter(isShareablePath)).toEqual([
      "a.txt",
      "src/app.ts",
      ".env",
      ".github/workflows/ci.yml",
      "notes <b>.md",
      "a..b/c...txt",
    ]);
  });
});

describe("placePath", () => {
  const place = (paths: string[]) => {
    const taken = { files: new Set<string>(), dirs: new Set<string>() };
    return paths.map((p) => placePath(p, taken));
  };

  it("appends ~2, ~3 to a path that clashes with a placed file or directory", () => {
    expect(place(["k/[r].txt", "k/[r].txt", "k/[r].txt", "plain.txt"])).toEqual([
      "k/[r].txt",
      "k/[r].txt~2",
      "k/[r].txt~3",
      "plain.txt",
    ]);
    expect(place(["a~2", "a", "a"])).toEqual(["a~2", "a", "a~3"]);
    expect(place(["x/[r]/y.txt", "x/[r]"])).toEqual(["x/[r]/y.txt", "x/[r]~2"]);
  });

  it("suffixes a directory segment that is a placed file's name", () => {
    expect(place(["x/[r]", "x/[r]/y.txt", "x/[r]/z.txt", "x/[r]~2"])).toEqual([
      "x/[r]",
      "x/[r]~2/y.txt",
      "x/[r]~2/z.txt",
      "x/[r]~2~2",
    ]);
  });
});
