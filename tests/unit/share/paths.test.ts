/** lib/share/paths.ts: which paths a share lists and a fork writes. */
import { describe, expect, it } from "vitest";
import { isShareablePath } from "@/lib/share/paths";

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
