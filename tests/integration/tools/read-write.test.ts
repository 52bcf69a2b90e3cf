import { describe, expect, it } from "vitest";
import { createReadTool } from "@/lib/tools/read";
import { createWriteTool } from "@/lib/tools/write";
import { project, ROOT, text } from "./fixture";

const PNG_1x1 = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

describe("read", () => {
  it("has pi's name, snippet and guidelines", async () => {
    const tool = createReadTool(await project());
    expect(tool.name).toBe("read");
    expect(tool.promptSnippet).toBe("Read file contents");
    expect(tool.promptGuidelines).toEqual(["Use read to examine files instead of cat or sed."]);
    expect(tool.description).toContain("output is truncated to 2000 lines or 50KB (whichever is hit first)");
  });

  it("reads a whole file and pages with offset/limit", async () => {
    const ctx = await project({ "a.txt": "one\ntwo\nthree\nfour\nfive" });
    const read = createReadTool(ctx);
    expect(text(await read.execute("t", { path: "a.txt" }))).toBe("one\ntwo\nthree\nfour\nfive");
    expect(text(await read.execute("t", { path: "a.txt", offset: 2, limit: 2 }))).toBe(
      "two\nthree\n\n[2 more lines in file. Use offset=4 to continue.]",
    );
    await expect(read.execute("t", { path: "a.txt", offset: 9 })).rejects.toThrow(
      "Offset 9 is beyond end of file (5 lines total)",
    );
  });

  it("truncates at 2000 lines with pi's continuation notice", async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join("\n");
    const read = createReadTool(await project({ "big.txt": lines }));
    const out = text(await read.execute("t", { path: "big.txt" }));
    expect(out.endsWith("line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")).toBe(
      true,
    );
  });

  it("truncates at 50KB with the byte-limit notice", async () => {
    const lines = Array.from({ length: 100 }, () => "x".repeat(1023)).join("\n");
    const read = createReadTool(await project({ "wide.txt": lines }));
    const out = text(await read.execute("t", { path: "wide.txt" }));
    expect(out.endsWith("\n\n[Showing lines 1-50 of 100 (50.0KB limit). Use offset=51 to continue.]")).toBe(
      true,
    );
  });

  it("points to bash when the first line exceeds the byte limit", async () => {
    const read = createReadTool(await project({ "min.js": "y".repeat(60 * 1024) }));
    expect(text(await read.execute("t", { path: "min.js" }))).toBe(
      "[Line 1 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '1p' min.js | head -c 51200]",
    );
  });

  it("returns images as attachments", async () => {
    const read = createReadTool(await project({ "dot.png": PNG_1x1 }));
    const result = await read.execute("t", { path: "dot.png" });
    expect(result.content[0]).toEqual({ type: "text", text: "Read image file [image/png]" });
    expect(result.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
  });

  it("surfaces missing files as errors", async () => {
    const read = createReadTool(await project());
    await expect(read.execute("t", { path: "nope.txt" })).rejects.toThrow(/ENOENT/);
  });
});

describe("write", () => {
  it("creates parents and reports pi's text", async () => {
    const ctx = await project();
    const write = createWriteTool(ctx);
    expect(write.promptSnippet).toBe("Create or overwrite files");
    expect(write.promptGuidelines).toEqual(["Use write only for new files or complete rewrites."]);
    const result = await write.execute("t", { path: "src/deep/new.ts", content: "héllo" });
    expect(text(result)).toBe("Successfully wrote 5 bytes to src/deep/new.ts");
    expect(await ctx.fs.readText(`${ROOT}/src/deep/new.ts`)).toBe("héllo");
  });

  it("refuses paths outside the project", async () => {
    const write = createWriteTool(await project());
    await expect(write.execute("t", { path: "../other/x", content: "" })).rejects.toThrow(
      'Path "../other/x" is outside the project root /proj',
    );
  });
});
