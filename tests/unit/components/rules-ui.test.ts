import { describe, expect, it } from "vitest";
import { parsePatch } from "@/components/rules/diff-lines";
import { defaultTitle } from "@/components/rules/propose-dialog";
import { cleanNewRulesPath } from "@/components/rules/rules-paths";

describe("parsePatch", () => {
  it("drops the file headers and numbers the lines of each hunk", () => {
    const patch = [
      "===================================================================",
      "--- a/AGENTS.md",
      "+++ b/AGENTS.md",
      "@@ -1,3 +1,3 @@",
      " # Team",
      "-old line",
      "+new line",
      " last",
      "\\ No newline at end of file",
      "",
    ].join("\n");
    expect(parsePatch(patch)).toEqual([
      { kind: "hunk", text: "@@ -1,3 +1,3 @@" },
      { kind: "context", text: " # Team", oldLine: 1, newLine: 1 },
      { kind: "del", text: "-old line", oldLine: 2 },
      { kind: "add", text: "+new line", newLine: 2 },
      { kind: "context", text: " last", oldLine: 3, newLine: 3 },
      { kind: "meta", text: "\\ No newline at end of file" },
    ]);
  });

  it("starts counting at each hunk's header", () => {
    expect(parsePatch("@@ -10,2 +12,1 @@\n-a\n b\n")).toEqual([
      { kind: "hunk", text: "@@ -10,2 +12,1 @@" },
      { kind: "del", text: "-a", oldLine: 10 },
      { kind: "context", text: " b", oldLine: 11, newLine: 12 },
    ]);
  });

  it("answers no lines for a patch without hunks", () => {
    expect(parsePatch("--- a/x\n+++ b/x\n")).toEqual([]);
  });
});

describe("cleanNewRulesPath", () => {
  it("drops a leading / or ./", () => {
    expect(cleanNewRulesPath(" /skills/review/SKILL.md ")).toEqual({ path: "skills/review/SKILL.md" });
    expect(cleanNewRulesPath("./AGENTS.md")).toEqual({ path: "AGENTS.md" });
  });

  it("refuses what the rules root refuses, with what to type instead", () => {
    const hint = "Use a relative path inside the rules root such as AGENTS.md or skills/review/SKILL.md.";
    expect(cleanNewRulesPath("")).toEqual({ problem: `Type a path. ${hint}` });
    expect(cleanNewRulesPath("a/../b.md")).toEqual({
      problem: `A path part must not be empty, "." or "..". ${hint}`,
    });
    expect(cleanNewRulesPath(".GIT/config")).toEqual({ problem: `.git is managed by Strata. ${hint}` });
    expect(cleanNewRulesPath("a\\b.md")).toEqual({
      problem: `Use / between folders, not a backslash. ${hint}`,
    });
    expect(cleanNewRulesPath("skills/")).toEqual({ problem: `Name the file, not only its folder. ${hint}` });
    expect(cleanNewRulesPath("a\tb")).toEqual({ problem: `The path contains control characters. ${hint}` });
  });
});

describe("defaultTitle", () => {
  it("names the one file, or counts them", () => {
    expect(defaultTitle([{ path: "AGENTS.md", content: "x" }])).toBe("Update AGENTS.md");
    expect(defaultTitle([{ path: "prompts/a.md", content: null }])).toBe("Delete prompts/a.md");
    expect(
      defaultTitle([
        { path: "a.md", content: "" },
        { path: "b.md", content: null },
      ]),
    ).toBe("Update 2 rules files");
  });
});
