import { describe, expect, it } from "vitest";
import { isUuid } from "@/lib/db/ids";
import { createReadTool } from "@/lib/tools/read";
import { PathEscapeError } from "@/lib/vfs/errors";
import { normalizePosix, relativePosix, resolveProjectPath } from "@/lib/vfs/paths";
import { project, ROOT } from "./fixture";

describe("resolveProjectPath", () => {
  it("resolves relative, absolute, @-prefixed and ~ paths inside the root", () => {
    expect(resolveProjectPath("/proj", "/proj/src", "a.ts")).toBe("/proj/src/a.ts");
    expect(resolveProjectPath("/proj", "/proj/src", "../b.ts")).toBe("/proj/b.ts");
    expect(resolveProjectPath("/proj", "/proj/src", "/proj/c/./d.ts")).toBe("/proj/c/d.ts");
    expect(resolveProjectPath("/proj", "/proj/src", "@x.ts")).toBe("/proj/src/x.ts");
    expect(resolveProjectPath("/proj", "/proj/src", "~/y.ts")).toBe("/proj/y.ts");
    expect(resolveProjectPath("/proj", "/proj", "my\u00A0file.txt")).toBe("/proj/my file.txt");
  });

  it("refuses escapes with a PathEscapeError naming the path and root", () => {
    expect(() => resolveProjectPath("/proj", "/proj", "../etc/passwd")).toThrow(PathEscapeError);
    expect(() => resolveProjectPath("/proj", "/proj", "/etc/passwd")).toThrow(
      'Path "/etc/passwd" is outside the project root /proj',
    );
    expect(() => resolveProjectPath("/proj", "/proj", "/project2/a")).toThrow(PathEscapeError);
  });

  it("normalises and relativises POSIX paths", () => {
    expect(normalizePosix("//a/./b/../c/")).toBe("/a/c");
    expect(relativePosix("/a/b", "/a/c/d")).toBe("../c/d");
    expect(relativePosix("/a", "/a")).toBe("");
  });
});

describe("symlink confinement", () => {
  it("refuses a symlink whose target leaves the project", async () => {
    const ctx = await project({ "ok.txt": "fine" });
    await ctx.fs.mkdir("/secret", { recursive: true });
    await ctx.fs.writeFile("/secret/key", "s3cr3t");
    await ctx.fs.symlink("/secret", `${ROOT}/link`);
    await ctx.fs.symlink("ok.txt", `${ROOT}/inside`);
    const read = createReadTool(ctx);
    await expect(read.execute("t", { path: "link/key" })).rejects.toThrow(
      'Path "/proj/link/key" is outside the project root /proj (symlink /proj/link points to /secret)',
    );
    expect((await read.execute("t", { path: "inside" })).content).toEqual([{ type: "text", text: "fine" }]);
  });
});

describe("resolveProjectPath input checks", () => {
  it("refuses a NUL byte with EINVAL (never reaches the database)", () => {
    expect(() => resolveProjectPath("/p", "/p", "a\u0000b")).toThrow(
      'Invalid path (contains a NUL byte): "a\\u0000b"',
    );
  });
});

describe("isUuid", () => {
  it("accepts only canonical UUIDs", () => {
    expect(isUuid("0198a6f0-0000-7000-8000-000000000001")).toBe(true);
    expect(isUuid("-".repeat(36))).toBe(false);
    expect(isUuid("0198a6f0000070008000000000000001")).toBe(false);
  });
});
