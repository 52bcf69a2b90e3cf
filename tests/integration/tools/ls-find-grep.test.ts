import { describe, expect, it } from "vitest";
import { createFindTool } from "@/lib/tools/find";
import { createGrepTool } from "@/lib/tools/grep";
import { createLsTool } from "@/lib/tools/ls";
import { project, ROOT, text } from "./fixture";

const TREE = {
  ".gitignore": "dist/\n*.log\n!keep.log\n",
  ".env": "SECRET=1\n",
  "README.md": "# Demo\nTODO: write docs\n",
  "src/index.ts": "export const x = 1;\n// TODO: more\nexport const y = 2;\n",
  "src/util.spec.ts": "it('works', () => {});\n",
  "src/nested/.gitignore": "gen.ts\n",
  "src/nested/gen.ts": "// TODO generated\n",
  "src/nested/real.ts": "// todo lower\n",
  "dist/out.js": "// TODO built\n",
  "debug.log": "TODO log\n",
  "keep.log": "TODO kept\n",
  "node_modules/pkg/index.js": "// TODO dep\n",
  "bin.dat": new Uint8Array([84, 79, 68, 79, 0, 1, 2]),
};

describe("ls", () => {
  it("lists sorted entries with dir suffixes and dotfiles", async () => {
    const ctx = await project({ "b.txt": "", "A.txt": "", ".hidden": "", "src/x.ts": "" });
    const ls = createLsTool(ctx);
    expect(ls.promptSnippet).toBe("List directory contents");
    expect(text(await ls.execute("t", {}))).toBe(".hidden\nA.txt\nb.txt\nsrc/");
    expect(text(await ls.execute("t", { limit: 2 }))).toBe(
      ".hidden\nA.txt\n\n[2 entries limit reached. Use limit=4 for more]",
    );
    expect((await ls.execute("t", { limit: 2 })).details).toEqual({ entryLimitReached: 2 });
  });

  it("reports pi's errors and empty directories", async () => {
    const ctx = await project({ "f.txt": "" });
    await ctx.fs.mkdir(`${ROOT}/empty`);
    const ls = createLsTool(ctx);
    expect(text(await ls.execute("t", { path: "empty" }))).toBe("(empty directory)");
    await expect(ls.execute("t", { path: "nope" })).rejects.toThrow("Path not found: /proj/nope");
    await expect(ls.execute("t", { path: "f.txt" })).rejects.toThrow("Not a directory: /proj/f.txt");
  });
});

describe("find", () => {
  it("matches basenames, respects .gitignore, skips node_modules", async () => {
    const find = createFindTool(await project(TREE));
    expect(find.promptSnippet).toBe("Find files by glob pattern (respects .gitignore)");
    expect(text(await find.execute("t", { pattern: "*.ts" }))).toBe(
      "src/index.ts\nsrc/nested/real.ts\nsrc/util.spec.ts",
    );
    expect(text(await find.execute("t", { pattern: "*.log" }))).toBe("keep.log");
    expect(text(await find.execute("t", { pattern: ".env" }))).toBe(".env");
  });

  it("matches path patterns like fd --full-path, lists directories with a slash", async () => {
    const find = createFindTool(await project(TREE));
    expect(text(await find.execute("t", { pattern: "src/**/*.spec.ts" }))).toBe("src/util.spec.ts");
    expect(text(await find.execute("t", { pattern: "nested" }))).toBe("src/nested/");
    expect(text(await find.execute("t", { pattern: "*.ts", path: "src/nested" }))).toBe("real.ts");
  });

  it("reports no matches, limits and missing paths", async () => {
    const find = createFindTool(await project(TREE));
    expect(text(await find.execute("t", { pattern: "*.py" }))).toBe("No files found matching pattern");
    expect(text(await find.execute("t", { pattern: "*.ts", limit: 1 }))).toBe(
      "src/index.ts\n\n[1 results limit reached. Use limit=2 for more, or refine pattern]",
    );
    await expect(find.execute("t", { pattern: "*", path: "missing" })).rejects.toThrow(
      "Path not found: /proj/missing",
    );
  });
});

describe("grep", () => {
  it("finds matches with paths and line numbers, respecting ignores and skipping binaries", async () => {
    const grep = createGrepTool(await project(TREE));
    expect(grep.promptSnippet).toBe("Search file contents for patterns (respects .gitignore)");
    expect(text(await grep.execute("t", { pattern: "TODO" }))).toBe(
      "README.md:2: TODO: write docs\nkeep.log:1: TODO kept\nsrc/index.ts:2: // TODO: more",
    );
  });

  it("supports ignoreCase, literal, glob, context and a file path", async () => {
    const grep = createGrepTool(await project(TREE));
    expect(text(await grep.execute("t", { pattern: "todo", ignoreCase: true, glob: "*.ts" }))).toBe(
      "src/index.ts:2: // TODO: more\nsrc/nested/real.ts:1: // todo lower",
    );
    expect(text(await grep.execute("t", { pattern: "x = 1;", literal: true, context: 1 }))).toBe(
      "src/index.ts:1: export const x = 1;\nsrc/index.ts-2- // TODO: more",
    );
    expect(text(await grep.execute("t", { pattern: "const", path: "src/index.ts" }))).toBe(
      "index.ts:1: export const x = 1;\nindex.ts:3: export const y = 2;",
    );
  });

  it("reports no matches, limits, long lines and bad paths", async () => {
    const ctx = await project({ ...TREE, "long.txt": `TODO ${"z".repeat(600)}\n` });
    const grep = createGrepTool(ctx);
    expect(text(await grep.execute("t", { pattern: "NOPE_NOT_HERE" }))).toBe("No matches found");
    expect(text(await grep.execute("t", { pattern: "TODO", limit: 1 }))).toBe(
      "README.md:2: TODO: write docs\n\n[1 matches limit reached. Use limit=2 for more, or refine pattern]",
    );
    const long = text(await grep.execute("t", { pattern: "TODO z", path: "long.txt" }));
    expect(long).toBe(
      `long.txt:1: TODO ${"z".repeat(495)}... [truncated]\n\n[Some lines truncated to 500 chars. Use read tool to see full lines]`,
    );
    await expect(grep.execute("t", { pattern: "x", path: "nope" })).rejects.toThrow(
      "Path not found: /proj/nope",
    );
  });
});
