/**
 * Rule loading you can trust (issue 13): symlinked context files load once by canonical path (also between the agent
 * dir and the project on one filesystem), a link out of the workspace is reported and never replaced by a sibling, a
 * broken link is reported, and oversized files are cut with a marker line and a `truncated` warning (nearest first).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildSystemPromptSections } from "@/lib/prompt/sections";
import {
  applyContextFileBudget,
  CONTEXT_FILE_MAX_BYTES,
  CONTEXT_FILES_TOTAL_BYTES,
  cutPoint,
  truncationMarker,
} from "@/lib/resources/context-budget";
import { loadProjectContextFiles } from "@/lib/resources/context-files";
import type { ResourceDiagnostic } from "@/lib/resources/fs-util";
import { loadResources } from "@/lib/resources/resource-loader";
import { build, createTestVfs, type TestVfs } from "./fixtures";

let t: TestVfs;
let agent: TestVfs;
beforeEach(async () => {
  t = await createTestVfs();
  agent = await createTestVfs();
});
afterEach(async () => {
  await t.cleanup();
  await agent.cleanup();
});

describe("symlinked context files", () => {
  it("a symlinked AGENTS.md in a package of a monorepo loads once, under the nearest path, with an info", async () => {
    const fs = await build(t, {
      "/P/AGENTS.md": "Root rules.\n",
      "/P/pkg/AGENTS.md": { link: "../AGENTS.md" },
    });
    const diagnostics: ResourceDiagnostic[] = [];
    expect(await loadProjectContextFiles(fs, "/P/pkg", { root: "/", diagnostics })).toEqual([
      { path: "/P/pkg/AGENTS.md", content: "Root rules.\n" },
    ]);
    expect(diagnostics).toEqual([
      {
        type: "info",
        message: "/P/AGENTS.md is the same file as /P/pkg/AGENTS.md (/P/AGENTS.md); loaded once",
        path: "/P/AGENTS.md",
        code: "duplicate",
        canonical: "/P/AGENTS.md",
        duplicateOf: "/P/pkg/AGENTS.md",
      },
    ]);
  });

  it("the agent dir inside the workspace: its AGENTS.md linking to the project's loads once", async () => {
    const fs = await build(t, {
      "/ws/.pi/agent/AGENTS.md": { link: "../../p/AGENTS.md" },
      "/ws/p/AGENTS.md": "Project rules.\n",
    });
    const diagnostics: ResourceDiagnostic[] = [];
    const files = await loadProjectContextFiles(fs, "/ws/p", {
      root: "/ws",
      agentFs: fs,
      agentDir: "/ws/.pi/agent",
      diagnostics,
    });
    expect(files).toEqual([{ path: "/ws/.pi/agent/AGENTS.md", content: "Project rules.\n" }]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      "/ws/p/AGENTS.md is the same file as /ws/.pi/agent/AGENTS.md (/ws/p/AGENTS.md); loaded once",
    ]);
  });

  it("the agent dir inside the workspace: its links must stay inside the workspace root too", async () => {
    const fs = await build(t, {
      "/ws/.pi/agent/AGENTS.md": { link: "/elsewhere/AGENTS.md" },
      "/ws/.pi/agent/CLAUDE.md": "agent claude",
      "/elsewhere/AGENTS.md": "not in the workspace",
    });
    const diagnostics: ResourceDiagnostic[] = [];
    const files = await loadProjectContextFiles(fs, "/ws/p", {
      root: "/ws",
      agentFs: fs,
      agentDir: "/ws/.pi/agent",
      diagnostics,
    });
    expect(files).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "symlink_escape",
        "symlink /ws/.pi/agent/AGENTS.md -> /elsewhere/AGENTS.md leaves the workspace; not followed, and no other context file of /ws/.pi/agent is loaded in its place",
      ],
    ]);
  });

  it("a symlinked folder that leaves the workspace is named as the link", async () => {
    const fs = await build(t, {
      "/ws/p/docs": { link: "/outside" },
      "/ws/p/docs/AGENTS.md": "unused",
      "/outside/AGENTS.md": "outside",
    });
    const diagnostics: ResourceDiagnostic[] = [];
    expect(await loadProjectContextFiles(fs, "/ws/p/docs", { root: "/ws", diagnostics })).toEqual([]);
    expect(diagnostics[0]).toMatchObject({
      path: "/ws/p/docs",
      message:
        "symlink /ws/p/docs -> /outside leaves the workspace; not followed, and no other context file of /ws/p/docs is loaded in its place",
      code: "symlink_escape",
      link: "/ws/p/docs",
      target: "/outside",
    });
  });

  it("a loop of links is reported as a loop, and the next candidate loads", async () => {
    const fs = await build(t, {
      "/p/AGENTS.md": { link: "b.md" },
      "/p/b.md": { link: "AGENTS.md" },
      "/p/CLAUDE.md": "claude",
    });
    const diagnostics: ResourceDiagnostic[] = [];
    expect(await loadProjectContextFiles(fs, "/p", { diagnostics })).toEqual([
      { path: "/p/CLAUDE.md", content: "claude" },
    ]);
    expect(diagnostics.map((d) => [d.message, d.code])).toEqual([
      [
        "symlink /p/AGENTS.md -> b.md is a loop (too many levels of symbolic links); skipped",
        "symlink_broken",
      ],
    ]);
  });

  it("a broken link is reported and the next candidate loads, as pi skips it", async () => {
    const fs = await build(t, { "/p/AGENTS.md": { link: "missing.md" }, "/p/CLAUDE.md": "claude" });
    const diagnostics: ResourceDiagnostic[] = [];
    expect(await loadProjectContextFiles(fs, "/p", { diagnostics })).toEqual([
      { path: "/p/CLAUDE.md", content: "claude" },
    ]);
    expect(diagnostics).toEqual([
      {
        type: "warning",
        message: "symlink /p/AGENTS.md -> missing.md points to nothing; skipped",
        path: "/p/AGENTS.md",
        code: "symlink_broken",
        target: "missing.md",
      },
    ]);
  });
});

describe("size caps", () => {
  it("the caps are 64 KiB per file and 128 KiB together", () => {
    expect([CONTEXT_FILE_MAX_BYTES, CONTEXT_FILES_TOTAL_BYTES]).toEqual([65536, 131072]);
  });

  it("cutPoint keeps whole lines, else whole UTF-8 characters", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(cutPoint(enc("line1\nline2\nline3\n"), 10)).toBe(6);
    expect(cutPoint(enc("line1\nline2\n"), 12)).toBe(12);
    expect(cutPoint(enc("abcdefghijklmnop"), 10)).toBe(10);
    expect(cutPoint(enc("ééééé"), 5)).toBe(4);
    expect(cutPoint(enc("€€"), 2)).toBe(0);
    expect(cutPoint(enc("a\nb\n"), 0)).toBe(0);
  });

  it("a file over the per-file cap ends with the marker line and a truncated warning", () => {
    const diagnostics: ResourceDiagnostic[] = [];
    const out = applyContextFileBudget(
      [{ path: "/p/AGENTS.md", content: "line1\nline2\nline3\n" }],
      diagnostics,
      {
        maxFileBytes: 10,
      },
    );
    expect(out).toEqual([
      {
        path: "/p/AGENTS.md",
        content: "line1\n[Strata: truncated /p/AGENTS.md: loaded 6 of 18 bytes (per-file cap 10 bytes)]",
      },
    ]);
    expect(diagnostics).toEqual([
      {
        type: "warning",
        message: "Context file /p/AGENTS.md truncated: 18 bytes, 6 loaded (per-file cap 10 bytes)",
        path: "/p/AGENTS.md",
        code: "truncated",
        sizeBytes: 18,
        loadedBytes: 6,
        marker: "[Strata: truncated /p/AGENTS.md: loaded 6 of 18 bytes (per-file cap 10 bytes)]",
      },
    ]);
  });

  it("the total budget is spent nearest first: farther files are cut first, one with no room keeps the marker", () => {
    const files = [
      { path: "/a/AGENTS.md", content: "agent\n" },
      { path: "/AGENTS.md", content: "aaaaaaa\nbbbbbbb\n" },
      { path: "/p/AGENTS.md", content: "nearest\n" },
    ];
    const diagnostics: ResourceDiagnostic[] = [];
    const out = applyContextFileBudget(files, diagnostics, { maxFileBytes: 100, maxTotalBytes: 16 });
    const totalMarker = (path: string, loaded: number, size: number) =>
      truncationMarker(path, loaded, size, "total", 16);
    expect(out.map((f) => f.content)).toEqual([
      totalMarker("/a/AGENTS.md", 0, 6),
      `aaaaaaa\n${totalMarker("/AGENTS.md", 8, 16)}`,
      "nearest\n",
    ]);
    expect(out[2]).toBe(files[2]);
    expect(totalMarker("/AGENTS.md", 8, 16)).toBe(
      "[Strata: truncated /AGENTS.md: loaded 8 of 16 bytes (total cap 16 bytes for all context files; nearer files are kept first)]",
    );
    expect(diagnostics.map((d) => [d.message, d.sizeBytes, d.loadedBytes])).toEqual([
      [
        "Context file /a/AGENTS.md truncated: 6 bytes, 0 loaded (total cap 16 bytes for all context files)",
        6,
        0,
      ],
      [
        "Context file /AGENTS.md truncated: 16 bytes, 8 loaded (total cap 16 bytes for all context files)",
        16,
        8,
      ],
    ]);
  });

  it("files within the caps are returned unchanged, without diagnostics", () => {
    const files = [{ path: "/p/AGENTS.md", content: "x".repeat(10) }];
    const diagnostics: ResourceDiagnostic[] = [];
    expect(applyContextFileBudget(files, diagnostics, { maxFileBytes: 10, maxTotalBytes: 10 })).toEqual(
      files,
    );
    expect(diagnostics).toEqual([]);
  });

  it("through loadResources at the default caps: a 70,000-byte AGENTS.md is cut at 65,500 bytes in the prompt", async () => {
    const line = `${"r".repeat(99)}\n`;
    const big = line.repeat(700);
    const agentFs = await build(agent, { "/.pi/agent/AGENTS.md": "Personal.\n" });
    const fs = await build(t, { "/p/AGENTS.md": big });
    const r = await loadResources({
      fs,
      cwd: "/p",
      root: "/",
      agentFs,
      agentDir: "/.pi/agent",
      projectTrusted: true,
    });
    const marker = "[Strata: truncated /p/AGENTS.md: loaded 65500 of 70000 bytes (per-file cap 65536 bytes)]";
    expect(r.agentsFiles).toEqual([
      { path: "/.pi/agent/AGENTS.md", content: "Personal.\n" },
      { path: "/p/AGENTS.md", content: `${line.repeat(655)}${marker}` },
    ]);
    expect(r.diagnostics).toEqual([
      {
        type: "warning",
        message: "Context file /p/AGENTS.md truncated: 70000 bytes, 65500 loaded (per-file cap 65536 bytes)",
        path: "/p/AGENTS.md",
        code: "truncated",
        sizeBytes: 70000,
        loadedBytes: 65500,
        marker,
      },
    ]);
    expect(r.provenance.filter((p) => p.kind === "context").map((p) => [p.path, p.filesystem])).toEqual([
      ["/.pi/agent/AGENTS.md", "agent"],
      ["/p/AGENTS.md", "project"],
    ]);
    const sections = buildSystemPromptSections({ cwd: "/p", contextFiles: r.agentsFiles });
    expect(sections.project_context.endsWith(`${marker}\n</project_instructions>\n</project_context>`)).toBe(
      true,
    );
  });
});

describe("each problem is reported once", () => {
  it("an escaping link in an agent dir that is also an ancestor of cwd gives one diagnostic", async () => {
    const fs = await build(t, { "/ws/.pi/agent/AGENTS.md": { link: "../../../../x.md" } });
    const diagnostics: ResourceDiagnostic[] = [];
    await loadProjectContextFiles(fs, "/ws/.pi/agent", {
      root: "/ws",
      agentFs: fs,
      agentDir: "/ws/.pi/agent",
      diagnostics,
    });
    expect(diagnostics.map((d) => d.message)).toEqual([
      "symlink /ws/.pi/agent/AGENTS.md -> ../../../../x.md leaves the workspace; not followed, and no other context file of /ws/.pi/agent is loaded in its place",
    ]);
  });
});
