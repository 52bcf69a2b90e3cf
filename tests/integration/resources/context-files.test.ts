import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ContextFile, loadProjectContextFiles } from "@/lib/resources/context-files";
import type { ResourceDiagnostic } from "@/lib/resources/fs-util";
import { loadResources } from "@/lib/resources/resource-loader";
import type { FileSystem } from "@/lib/vfs/types";
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

const contents = (files: ContextFile[]) => files.map((f) => f.content);

/** Main repo `/w/main` with a nested linked worktree `/w/main/worktrees/feat`. */
function nestedWorktree(extra: Record<string, string | { link: string }> = {}) {
  return {
    "/w/main/.git/HEAD": "ref: refs/heads/main\n",
    "/w/main/.git/worktrees/feat/HEAD": "ref: refs/heads/feat\n",
    "/w/main/.git/worktrees/feat/commondir": "../..\n",
    "/w/main/worktrees/feat/.git": "gitdir: /w/main/.git/worktrees/feat\n",
    "/w/main/worktrees/feat/src/x.ts": "",
    ...extra,
  };
}
const WT_CWD = "/w/main/worktrees/feat/src";

describe("context files (pi 1.x)", () => {
  it("1.1 first regular-file candidate per directory: AGENTS.md beats CLAUDE.md", async () => {
    const fs = await build(t, { "/p/AGENTS.md": "pkg agents", "/p/CLAUDE.md": "pkg claude" });
    expect(await loadProjectContextFiles(fs, "/p")).toEqual([
      { path: "/p/AGENTS.md", content: "pkg agents" },
    ]);
  });

  it("1.2 a candidate that is a directory is skipped silently", async () => {
    const fs = await build(t, { "/p/AGENTS.override.md": { dir: true } as never, "/p/AGENTS.MD": "upper" });
    const diagnostics: ResourceDiagnostic[] = [];
    expect(await loadProjectContextFiles(fs, "/p", { diagnostics })).toEqual([
      { path: "/p/AGENTS.MD", content: "upper" },
    ]);
    expect(diagnostics).toEqual([]);
  });

  it("1.3 a leading BOM is stripped, other whitespace kept", async () => {
    const fs = await build(t, { "/p/CLAUDE.md": "\uFEFFrepo claude\n\n" });
    expect(contents(await loadProjectContextFiles(fs, "/p"))).toEqual(["repo claude\n\n"]);
  });

  it("1.4 a read error is reported and the next candidate is tried", async () => {
    const vfs = await build(t, { "/p/AGENTS.md": "broken", "/p/CLAUDE.md": "fallback" });
    const fs = new Proxy(vfs, {
      get(target, prop, receiver) {
        if (prop === "readFile")
          return async (p: string) => {
            if (p === "/p/AGENTS.md") throw new Error("EIO: i/o error");
            return target.readFile(p);
          };
        const v = Reflect.get(target, prop, receiver);
        return typeof v === "function" ? v.bind(target) : v;
      },
    }) as FileSystem;
    const diagnostics: ResourceDiagnostic[] = [];
    expect(contents(await loadProjectContextFiles(fs, "/p", { diagnostics }))).toEqual(["fallback"]);
    expect(diagnostics).toEqual([
      {
        type: "warning",
        message: "Could not read /p/AGENTS.md: Error: EIO: i/o error",
        path: "/p/AGENTS.md",
      },
    ]);
  });

  it("1.5 agent dir first, then ancestors root-most first; AGENTS.override.md preferred per directory", async () => {
    const agentFs = await build(agent, {
      "/home/u/.pi/agent/AGENTS.md": "global",
      "/home/u/.pi/agent/AGENTS.override.md": "global override",
    });
    const fs = await build(t, {
      "/p/AGENTS.md": "project instructions",
      "/p/service/AGENTS.md": "service",
      "/p/service/AGENTS.override.md": "service override",
    });
    expect(
      await loadProjectContextFiles(fs, "/p/service", { agentFs, agentDir: "/home/u/.pi/agent" }),
    ).toEqual([
      { path: "/home/u/.pi/agent/AGENTS.override.md", content: "global override" },
      { path: "/p/AGENTS.md", content: "project instructions" },
      { path: "/p/service/AGENTS.override.md", content: "service override" },
    ]);
  });

  it("1.6 the walk reaches the filesystem root; entries carry absolute paths", async () => {
    const fs = await build(t, { "/AGENTS.md": "root", "/a/b/c.txt": "" });
    expect(await loadProjectContextFiles(fs, "/a/b")).toEqual([{ path: "/AGENTS.md", content: "root" }]);
  });

  it("1.7 a file already loaded is not added twice (cwd == agent dir on the same filesystem)", async () => {
    const fs = await build(t, { "/home/u/.pi/agent/AGENTS.md": "global" });
    const files = await loadProjectContextFiles(fs, "/home/u/.pi/agent", {
      agentFs: fs,
      agentDir: "/home/u/.pi/agent",
    });
    expect(files).toEqual([{ path: "/home/u/.pi/agent/AGENTS.md", content: "global" }]);
  });

  it("1.7 two paths to the same file (symlink inside the workspace) load once", async () => {
    const fs = await build(t, { "/AGENTS.md": "shared", "/p/AGENTS.md": { link: "../AGENTS.md" } });
    expect(await loadProjectContextFiles(fs, "/p")).toEqual([{ path: "/p/AGENTS.md", content: "shared" }]);
  });

  it("1.7 a symlink that leaves the workspace is reported, not followed, and no sibling replaces it", async () => {
    const fs = await build(t, {
      "/ws/p/AGENTS.md": { link: "/other/secret.md" },
      "/ws/p/CLAUDE.md": "claude",
      "/other/secret.md": "secret",
      "/ws/q/AGENTS.md": { link: "../../../../etc/passwd" },
    });
    const diagnostics: ResourceDiagnostic[] = [];
    expect(contents(await loadProjectContextFiles(fs, "/ws/p", { root: "/ws", diagnostics }))).toEqual([]);
    expect(diagnostics).toEqual([
      {
        type: "warning",
        message:
          "symlink /ws/p/AGENTS.md -> /other/secret.md leaves the workspace; not followed, and no other context file of /ws/p is loaded in its place",
        path: "/ws/p/AGENTS.md",
        code: "symlink_escape",
        link: "/ws/p/AGENTS.md",
        target: "/other/secret.md",
      },
    ]);
    const d2: ResourceDiagnostic[] = [];
    expect(await loadProjectContextFiles(fs, "/ws/q", { root: "/ws", diagnostics: d2 })).toEqual([]);
    expect(d2[0].message).toBe(
      "symlink /ws/q/AGENTS.md -> ../../../../etc/passwd leaves the workspace; not followed, and no other context file of /ws/q is loaded in its place",
    );
  });

  it("1.7 a link to a host path leaves the workspace also under the app's root `/`: an escape, not a broken link, and no sibling replaces it", async () => {
    // The workspace holds /p, /q, /r and /other: /etc and /home are not in it (the VFS is not the host's disk).
    const fs = await build(t, {
      "/p/AGENTS.md": { link: "/etc/passwd" },
      "/p/CLAUDE.md": "claude p",
      "/q/sub/AGENTS.md": { link: "../../home/me/dotfiles/AGENTS.md" },
      "/q/sub/CLAUDE.md": "claude q",
      "/r/AGENTS.md": { link: "gone.md" },
      "/r/CLAUDE.md": "claude r",
      "/other/x.md": "x",
    });
    const escaping = (dir: string, target: string): ResourceDiagnostic => ({
      type: "warning",
      message: `symlink ${dir}/AGENTS.md -> ${target} leaves the workspace; not followed, and no other context file of ${dir} is loaded in its place`,
      path: `${dir}/AGENTS.md`,
      code: "symlink_escape",
      link: `${dir}/AGENTS.md`,
      target,
    });
    const d1: ResourceDiagnostic[] = [];
    expect(await loadProjectContextFiles(fs, "/p", { root: "/", diagnostics: d1 })).toEqual([]);
    expect(d1).toEqual([escaping("/p", "/etc/passwd")]);
    const d2: ResourceDiagnostic[] = [];
    expect(await loadProjectContextFiles(fs, "/q/sub", { root: "/", diagnostics: d2 })).toEqual([]);
    expect(d2).toEqual([escaping("/q/sub", "../../home/me/dotfiles/AGENTS.md")]);
    // A missing file in a folder the workspace holds is a broken link: skipped as in pi, the sibling loads.
    const d3: ResourceDiagnostic[] = [];
    expect(await loadProjectContextFiles(fs, "/r", { root: "/", diagnostics: d3 })).toEqual([
      { path: "/r/CLAUDE.md", content: "claude r" },
    ]);
    expect(d3).toEqual([
      {
        type: "warning",
        message: "symlink /r/AGENTS.md -> gone.md points to nothing; skipped",
        path: "/r/AGENTS.md",
        code: "symlink_broken",
        target: "gone.md",
      },
    ]);
  });

  it("1.8 nested linked worktree with its own file drops the main repo's same-named file", async () => {
    const fs = await build(
      t,
      nestedWorktree({
        "/w/main/AGENTS.md": "main repo instructions",
        "/w/main/worktrees/feat/AGENTS.md": "worktree instructions",
      }),
    );
    expect(contents(await loadProjectContextFiles(fs, WT_CWD))).toEqual(["worktree instructions"]);
  });

  it("1.9 worktree root without a context file still inherits the main repo's", async () => {
    const fs = await build(t, nestedWorktree({ "/w/main/AGENTS.md": "main repo instructions" }));
    expect(contents(await loadProjectContextFiles(fs, WT_CWD))).toEqual(["main repo instructions"]);
  });

  it("1.10 only the same file name is shadowed", async () => {
    const fs = await build(
      t,
      nestedWorktree({
        "/w/main/CLAUDE.md": "main repo instructions",
        "/w/main/worktrees/feat/AGENTS.md": "worktree instructions",
      }),
    );
    expect(contents(await loadProjectContextFiles(fs, WT_CWD))).toEqual([
      "main repo instructions",
      "worktree instructions",
    ]);
  });

  it("1.11 bare layout (proj/.bare + proj/main): the container's file is kept", async () => {
    const fs = await build(t, {
      "/proj/.bare/HEAD": "ref: refs/heads/main\n",
      "/proj/.bare/worktrees/main/HEAD": "ref: refs/heads/main\n",
      "/proj/.bare/worktrees/main/commondir": "../..\n",
      "/proj/main/.git": "gitdir: ../.bare/worktrees/main\n",
      "/proj/AGENTS.md": "container instructions",
      "/proj/main/AGENTS.md": "worktree instructions",
    });
    expect(contents(await loadProjectContextFiles(fs, "/proj/main"))).toEqual([
      "container instructions",
      "worktree instructions",
    ]);
  });

  it("1.12 ancestors above the main repo are still loaded", async () => {
    const fs = await build(
      t,
      nestedWorktree({
        "/w/AGENTS.md": "outer instructions",
        "/w/main/AGENTS.md": "main repo instructions",
        "/w/main/worktrees/feat/AGENTS.md": "worktree instructions",
      }),
    );
    expect(contents(await loadProjectContextFiles(fs, WT_CWD))).toEqual([
      "outer instructions",
      "worktree instructions",
    ]);
  });

  it("1.13 a sibling worktree (main repo not an ancestor) drops nothing", async () => {
    const fs = await build(t, {
      "/w/main/.git/HEAD": "ref: refs/heads/main\n",
      "/w/main/.git/worktrees/feat/HEAD": "ref: refs/heads/feat\n",
      "/w/main/.git/worktrees/feat/commondir": "../..\n",
      "/w/feat/.git": "gitdir: /w/main/.git/worktrees/feat\n",
      "/w/AGENTS.md": "outer instructions",
      "/w/feat/AGENTS.md": "worktree instructions",
    });
    expect(contents(await loadProjectContextFiles(fs, "/w/feat"))).toEqual([
      "outer instructions",
      "worktree instructions",
    ]);
  });

  it("1.14 inside a submodule the superproject's file is kept", async () => {
    const fs = await build(t, {
      "/w/super/.git/HEAD": "ref: refs/heads/main\n",
      "/w/super/.git/modules/sub/HEAD": "ref: refs/heads/main\n",
      "/w/super/sub/.git": "gitdir: ../.git/modules/sub\n",
      "/w/super/AGENTS.md": "super instructions",
      "/w/super/sub/AGENTS.md": "sub instructions",
    });
    expect(contents(await loadProjectContextFiles(fs, "/w/super/sub"))).toEqual([
      "super instructions",
      "sub instructions",
    ]);
  });

  it("1.15 climbing continues past an ordinary repo root", async () => {
    const fs = await build(t, {
      "/w/AGENTS.md": "outer instructions",
      "/w/repo/.git/HEAD": "ref: refs/heads/main\n",
      "/w/repo/AGENTS.md": "repo instructions",
      "/w/repo/leaf/AGENTS.md": "leaf instructions",
    });
    expect(contents(await loadProjectContextFiles(fs, "/w/repo/leaf"))).toEqual([
      "outer instructions",
      "repo instructions",
      "leaf instructions",
    ]);
  });

  it("1.16 a broken gitdir: target means normal climbing", async () => {
    const fs = await build(t, {
      "/w/main/.git/HEAD": "ref: refs/heads/main\n",
      "/w/main/worktrees/feat/.git": "gitdir: /w/main/.git/worktrees/missing\n",
      "/w/main/AGENTS.md": "main repo instructions",
      "/w/main/worktrees/feat/AGENTS.md": "worktree instructions",
    });
    expect(contents(await loadProjectContextFiles(fs, "/w/main/worktrees/feat"))).toEqual([
      "main repo instructions",
      "worktree instructions",
    ]);
  });

  it("1.17 shadowing compares canonical paths (cwd reached through a symlink)", async () => {
    const tree: Record<string, string | { link: string }> = { "/alias": { link: "/real" } };
    for (const [k, v] of Object.entries(
      nestedWorktree({
        "/w/main/AGENTS.md": "main repo instructions",
        "/w/main/worktrees/feat/AGENTS.md": "worktree instructions",
      }),
    ))
      tree[k.replace("/w/", "/real/")] = typeof v === "string" ? v.replace("/w/", "/real/") : v;
    const fs = await build(t, tree);
    expect(contents(await loadProjectContextFiles(fs, "/alias/main/worktrees/feat/src"))).toEqual([
      "worktree instructions",
    ]);
  });

  it("1.18 noContextFiles: agentsFiles is []", async () => {
    const fs = await build(t, { "/p/AGENTS.md": "x" });
    const r = await loadResources({ fs, cwd: "/p", noContextFiles: true, projectTrusted: true });
    expect(r.agentsFiles).toEqual([]);
  });

  it("1.19 context files are not gated by project trust", async () => {
    const agentFs = await build(agent, { "/u/.pi/agent/AGENTS.md": "global" });
    const fs = await build(t, { "/p/AGENTS.md": "project", "/p/.pi/SYSTEM.md": "Project system prompt." });
    const r = await loadResources({
      fs,
      cwd: "/p",
      agentFs,
      agentDir: "/u/.pi/agent",
      projectTrusted: false,
    });
    expect(r.agentsFiles).toEqual([
      { path: "/u/.pi/agent/AGENTS.md", content: "global" },
      { path: "/p/AGENTS.md", content: "project" },
    ]);
    expect(r.provenance.filter((p) => p.kind === "context")).toEqual([
      {
        kind: "context",
        path: "/u/.pi/agent/AGENTS.md",
        filesystem: "agent",
        scope: "personal",
        trustGated: false,
      },
      { kind: "context", path: "/p/AGENTS.md", filesystem: "project", scope: "project", trustGated: false },
    ]);
  });

  it("1.20 agentsFilesOverride replaces the discovered list", async () => {
    const fs = await build(t, { "/p/AGENTS.md": "project" });
    const r = await loadResources({
      fs,
      cwd: "/p",
      projectTrusted: true,
      agentsFilesOverride: (base) => ({
        agentsFiles: [...base.agentsFiles, { path: "/virtual.md", content: "added" }],
      }),
    });
    expect(contents(r.agentsFiles)).toEqual(["project", "added"]);
  });
});
