import { describe, expect, it } from "vitest";
import { createEditTool } from "@/lib/tools/edit";
import { project, ROOT, text } from "./fixture";

describe("edit", () => {
  it("has pi's snippet and guidelines", async () => {
    const edit = createEditTool(await project());
    expect(edit.promptSnippet).toBe(
      "Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
    );
    expect(edit.promptGuidelines).toHaveLength(4);
    expect(edit.promptGuidelines?.[0]).toBe(
      "Use edit for precise changes (edits[].oldText must match exactly)",
    );
  });

  it("applies disjoint edits against the original and returns a diff", async () => {
    const ctx = await project({ "a.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n" });
    const edit = createEditTool(ctx);
    const result = await edit.execute("t", {
      path: "a.ts",
      edits: [
        { oldText: "a = 1", newText: "a = 10" },
        { oldText: "c = 3", newText: "c = 30" },
      ],
    });
    expect(text(result)).toBe("Successfully replaced 2 block(s) in a.ts.");
    expect(await ctx.fs.readText(`${ROOT}/a.ts`)).toBe("const a = 10;\nconst b = 2;\nconst c = 30;\n");
    expect(result.details?.diff).toBe(
      "-1 const a = 1;\n+1 const a = 10;\n 2 const b = 2;\n-3 const c = 3;\n+3 const c = 30;",
    );
    expect(result.details?.firstChangedLine).toBe(1);
    expect(result.details?.patch).toContain("--- a.ts\n+++ a.ts\n@@ -1,3 +1,3 @@");
  });

  it("keeps CRLF endings and the BOM", async () => {
    const ctx = await project({ "w.txt": "\uFEFFone\r\ntwo\r\n" });
    await createEditTool(ctx).execute("t", { path: "w.txt", edits: [{ oldText: "two", newText: "2" }] });
    const bytes = await ctx.fs.readFile(`${ROOT}/w.txt`);
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes)).toBe("\uFEFFone\r\n2\r\n");
  });

  it("accepts legacy top-level oldText/newText", async () => {
    const ctx = await project({ "l.txt": "alpha beta" });
    const edit = createEditTool(ctx);
    const args = edit.prepareArguments?.({ path: "l.txt", oldText: "beta", newText: "gamma" });
    expect(args).toEqual({ path: "l.txt", edits: [{ oldText: "beta", newText: "gamma" }] });
    await edit.execute("t", args as never);
    expect(await ctx.fs.readText(`${ROOT}/l.txt`)).toBe("alpha gamma");
  });

  it("matches fuzzily across smart quotes and trailing whitespace", async () => {
    const ctx = await project({ "q.txt": "say \u201chi\u201d   \nkeep\u2014this\n" });
    await createEditTool(ctx).execute("t", {
      path: "q.txt",
      edits: [{ oldText: 'say "hi"', newText: "say bye" }],
    });
    expect(await ctx.fs.readText(`${ROOT}/q.txt`)).toBe("say bye\nkeep\u2014this\n");
  });

  it("reports pi's not-found, duplicate, overlap, empty and no-change errors", async () => {
    const ctx = await project({ "e.txt": "foo\nfoo\nbar baz\n" });
    const edit = createEditTool(ctx);
    await expect(
      edit.execute("t", { path: "e.txt", edits: [{ oldText: "qux", newText: "x" }] }),
    ).rejects.toThrow(
      "Could not find the exact text in e.txt. The old text must match exactly including all whitespace and newlines.\nFile starts with:\n  1: foo\n  2: foo\n  3: bar baz\n  4: ",
    );
    await expect(
      edit.execute("t", { path: "e.txt", edits: [{ oldText: "foo", newText: "x" }] }),
    ).rejects.toThrow(
      "Found 2 occurrences of the text in e.txt. The text must be unique. Please provide more context to make it unique.",
    );
    await expect(
      edit.execute("t", {
        path: "e.txt",
        edits: [
          { oldText: "bar baz", newText: "x" },
          { oldText: "baz", newText: "y" },
        ],
      }),
    ).rejects.toThrow(
      "edits[0] and edits[1] overlap in e.txt. Merge them into one edit or target disjoint regions.",
    );
    await expect(
      edit.execute("t", { path: "e.txt", edits: [{ oldText: "", newText: "x" }] }),
    ).rejects.toThrow("oldText must not be empty in e.txt.");
    await expect(
      edit.execute("t", { path: "e.txt", edits: [{ oldText: "bar", newText: "bar" }] }),
    ).rejects.toThrow("No changes made to e.txt. The replacement produced identical content.");
    await expect(edit.execute("t", { path: "e.txt", edits: [] })).rejects.toThrow(
      "Edit tool input is invalid. edits must contain at least one replacement.",
    );
    await expect(
      edit.execute("t", { path: "missing.txt", edits: [{ oldText: "a", newText: "b" }] }),
    ).rejects.toThrow("Could not edit file: missing.txt. Error code: ENOENT.");
  });

  it("shows the closest match context for near misses", async () => {
    const ctx = await project({ "c.ts": "function computeTotal(items) {\n  return 0;\n}\n" });
    await expect(
      createEditTool(ctx).execute("t", {
        path: "c.ts",
        edits: [{ oldText: "function computeTotal(list) {", newText: "x" }],
      }),
    ).rejects.toThrow(
      "Closest match is around line 1:\n  1: function computeTotal(items) {\n  2:   return 0;",
    );
  });
});
