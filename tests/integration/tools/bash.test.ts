import { describe, expect, it } from "vitest";
import { createBashTool } from "@/lib/tools/bash";
import { createCodingTools, toolParametersJsonSchema } from "@/lib/tools/index";
import { project, ROOT, text } from "./fixture";

describe("bash", () => {
  it("has pi's strings", async () => {
    const bash = createBashTool(await project());
    expect(bash.promptSnippet).toBe("Execute bash commands (ls, grep, find, etc.)");
    expect(bash.promptGuidelines).toEqual([
      "You can inspect PI_* environment variables for current model and session details.",
    ]);
  });

  it("runs in the project cwd on the VFS", async () => {
    const ctx = await project({ "a.txt": "hello\n" });
    const bash = createBashTool(ctx);
    expect(text(await bash.execute("t", { command: "pwd && cat a.txt" }))).toBe("/proj\nhello\n");
    await bash.execute("t", { command: "mkdir -p out && echo made > out/b.txt" });
    expect(await ctx.fs.readText(`${ROOT}/out/b.txt`)).toBe("made\n");
    expect(text(await bash.execute("t", { command: "true" }))).toBe("(no output)");
  });

  it("throws pi's exit-code text with the output", async () => {
    const bash = createBashTool(await project());
    await expect(bash.execute("t", { command: "echo oops; exit 3" })).rejects.toThrow(
      "oops\n\n\nCommand exited with code 3",
    );
  });

  it("refuses writes outside the project root", async () => {
    const ctx = await project();
    const bash = createBashTool(ctx);
    await expect(bash.execute("t", { command: "echo x > /etc/evil" })).rejects.toThrow(
      'bash: Path "/etc/evil" is outside the project root /proj\n\n\nCommand exited with code 1',
    );
    expect(await ctx.fs.exists("/etc/evil")).toBe(false);
  });

  it("tail-truncates long output with pi's notice", async () => {
    const bash = createBashTool(await project());
    const out = text(await bash.execute("t", { command: "for i in $(seq 1 2500); do echo line$i; done" }));
    expect(out.startsWith("line501\n")).toBe(true);
    expect(out.endsWith("line2500\n\n[Showing lines 501-2500 of 2500.]")).toBe(true);
  });

  it("validates timeouts", async () => {
    const bash = createBashTool(await project());
    await expect(bash.execute("t", { command: "true", timeout: -1 })).rejects.toThrow(
      "Invalid timeout: must be a finite number of seconds",
    );
  });
});

describe("createCodingTools", () => {
  it("returns pi's default tools with JSON schemas", async () => {
    const tools = createCodingTools(await project());
    expect(tools.map((t) => t.name)).toEqual(["read", "bash", "edit", "write"]);
    expect(toolParametersJsonSchema(tools[0])).toMatchObject({
      type: "object",
      required: ["path"],
      properties: {
        path: { type: "string", description: "Path to the file to read (relative or absolute)" },
      },
    });
  });
});
