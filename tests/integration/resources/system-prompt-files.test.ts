import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  formatProjectTrustPrompt,
  getProjectTrustOptions,
  MemoryTrustStore,
  resolveProjectTrusted,
} from "@/lib/resources/project-trust";
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
const AGENT = "/u/.pi/agent";

describe("SYSTEM.md / APPEND_SYSTEM.md and trust (pi 2.x)", () => {
  it("2.1 SYSTEM.md from a trusted <cwd>/.pi", async () => {
    const fs = await build(t, { "/p/.pi/SYSTEM.md": "You are a helpful assistant." });
    const r = await loadResources({ fs, cwd: "/p", projectTrusted: true });
    expect(r.systemPrompt).toBe("You are a helpful assistant.");
    expect(r.systemPromptSource).toEqual({ path: "/p/.pi/SYSTEM.md" });
    expect(r.provenance).toContainEqual({
      kind: "system",
      path: "/p/.pi/SYSTEM.md",
      filesystem: "project",
      scope: "project",
      trustGated: true,
    });
  });

  it("2.2 untrusted project: the agent dir's SYSTEM.md is used", async () => {
    const agentFs = await build(agent, { [`${AGENT}/SYSTEM.md`]: "Global system prompt." });
    const fs = await build(t, { "/p/.pi/SYSTEM.md": "Project system prompt." });
    const r = await loadResources({ fs, cwd: "/p", agentFs, agentDir: AGENT, projectTrusted: false });
    expect(r.systemPrompt).toBe("Global system prompt.");
    expect(r.provenance).toContainEqual({
      kind: "system",
      path: `${AGENT}/SYSTEM.md`,
      filesystem: "agent",
      scope: "personal",
      trustGated: false,
    });
  });

  it("2.3 APPEND_SYSTEM.md is discovered the same way, as a list", async () => {
    const fs = await build(t, { "/p/.pi/APPEND_SYSTEM.md": "\uFEFFAdditional instructions." });
    const r = await loadResources({ fs, cwd: "/p", projectTrusted: true });
    expect(r.appendSystemPrompt).toEqual(["Additional instructions."]);
    expect(r.appendSystemPromptSources).toEqual([{ path: "/p/.pi/APPEND_SYSTEM.md" }]);
  });

  it("2.4 explicit systemPrompt and appendSystemPrompt replace discovery", async () => {
    const fs = await build(t, {
      "/p/.pi/SYSTEM.md": "discovered",
      "/p/.pi/APPEND_SYSTEM.md": "discovered append",
    });
    const r = await loadResources({
      fs,
      cwd: "/p",
      projectTrusted: true,
      systemPrompt: "Explicit.",
      appendSystemPrompt: [],
    });
    expect(r.systemPrompt).toBe("Explicit.");
    expect(r.appendSystemPrompt).toEqual([]);
  });

  it("2.5 file path if such a file exists, else literal; source only for files", async () => {
    const fs = await build(t, { "/p/custom.md": "From file." });
    const file = await loadResources({ fs, cwd: "/p", projectTrusted: true, systemPrompt: "custom.md" });
    expect([file.systemPrompt, file.systemPromptSource]).toEqual(["From file.", { path: "/p/custom.md" }]);
    const literal = await loadResources({
      fs: t.reopen(),
      cwd: "/p",
      projectTrusted: true,
      systemPrompt: "Be terse.",
    });
    expect([literal.systemPrompt, literal.systemPromptSource]).toEqual(["Be terse.", undefined]);
  });

  it("2.6 only file-backed append prompts are sources", async () => {
    const fs = await build(t, { "/p/append.md": "Custom append prompt." });
    const r = await loadResources({
      fs,
      cwd: "/p",
      projectTrusted: true,
      appendSystemPrompt: ["/p/append.md", "Literal append prompt."],
    });
    expect(r.appendSystemPrompt).toEqual(["Custom append prompt.", "Literal append prompt."]);
    expect(r.appendSystemPromptSources).toEqual([{ path: "/p/append.md" }]);
  });

  it("2.7 overrides post-process the values", async () => {
    const fs = await build(t, { "/p/.pi/SYSTEM.md": "base" });
    const r = await loadResources({
      fs,
      cwd: "/p",
      projectTrusted: true,
      appendSystemPrompt: ["a", "b"],
      systemPromptOverride: (b) => `${b}!`,
      appendSystemPromptOverride: (b) => [...b, "c"],
    });
    expect([r.systemPrompt, r.appendSystemPrompt]).toEqual(["base!", ["a", "b", "c"]]);
  });

  it("2.8 an unreadable prompt file: warning and the path is the text", async () => {
    const vfs = await build(t, { "/p/.pi/SYSTEM.md": "x" });
    const fs = new Proxy(vfs, {
      get(target, prop) {
        if (prop === "readFile") return async () => Promise.reject(new Error("EIO"));
        const v = Reflect.get(target, prop);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const r = await loadResources({ fs, cwd: "/p", projectTrusted: true, noContextFiles: true });
    expect(r.systemPrompt).toBe("/p/.pi/SYSTEM.md");
    expect(r.diagnostics).toContainEqual({
      type: "warning",
      message: "Could not read system prompt file /p/.pi/SYSTEM.md: Error: EIO",
      path: "/p/.pi/SYSTEM.md",
    });
  });

  it("2.9 projects without trust-requiring resources are trusted; .pi entries and .agents/skills require trust", async () => {
    const fs = await build(t, {
      "/a/AGENTS.md": "x",
      "/b/.pi/prompts/p.md": "x",
      "/c/.agents/skills/s/SKILL.md": "x",
      "/d/.pi/other.txt": "x",
    });
    const store = new MemoryTrustStore();
    const decide = (cwd: string) => resolveProjectTrusted({ fs, cwd, trustStore: store });
    expect(await decide("/a")).toBe(true);
    expect(await decide("/b")).toBe(false);
    expect(await decide("/c/sub")).toBe(false);
    expect(await decide("/d")).toBe(true);
  });

  it("2.10 decision order: override, hooks, stored (nearest ancestor), default, no UI", async () => {
    const fs = await build(t, { "/w/p/.pi/SYSTEM.md": "x" });
    const store = new MemoryTrustStore();
    const base = { fs, cwd: "/w/p", trustStore: store };
    expect(
      await resolveProjectTrusted({ ...base, trustOverride: false, defaultProjectTrust: "always" }),
    ).toBe(false);
    const errors: string[] = [];
    expect(
      await resolveProjectTrusted({
        ...base,
        hooks: [
          async () => {
            throw new Error("boom");
          },
          async () => ({ trusted: "undecided" }),
          async () => ({ trusted: "yes", remember: true }),
          async () => ({ trusted: "no" }),
        ],
        onHookError: (m) => errors.push(m),
      }),
    ).toBe(true);
    expect(errors).toEqual(['Extension "0" project_trust error: boom']);
    expect(await store.get("/w/p")).toBe(true);
    await store.setMany([
      { path: "/w/p", decision: null },
      { path: "/w", decision: false },
    ]);
    expect(await resolveProjectTrusted({ ...base, defaultProjectTrust: "always" })).toBe(false);
    await store.setMany([{ path: "/w", decision: null }]);
    expect(await resolveProjectTrusted({ ...base, defaultProjectTrust: "always" })).toBe(true);
    expect(await resolveProjectTrusted({ ...base, defaultProjectTrust: "never" })).toBe(false);
    expect(await resolveProjectTrusted(base)).toBe(false);
  });

  it("2.11 prompt text (product name Strata) and options in order; cancel → untrusted", async () => {
    expect(formatProjectTrustPrompt("/w/p")).toBe(
      "Trust project folder?\n/w/p\n\nThis allows Strata to load .pi settings and resources, install missing project packages, and execute project extensions.",
    );
    expect(getProjectTrustOptions("/w/p").map((o) => o.label)).toEqual([
      "Trust",
      "Trust parent folder (/w)",
      "Trust (this session only)",
      "Do not trust",
      "Do not trust (this session only)",
    ]);
    expect(getProjectTrustOptions("/").map((o) => o.label)).not.toContain("Trust parent folder (/)");
    const fs = await build(t, { "/w/p/.pi/SYSTEM.md": "x" });
    const seen: string[] = [];
    const cancelled = await resolveProjectTrusted({
      fs,
      cwd: "/w/p",
      trustStore: new MemoryTrustStore(),
      ui: {
        select: async (title) => {
          seen.push(title);
          return undefined;
        },
      },
    });
    expect(cancelled).toBe(false);
    expect(seen).toEqual([formatProjectTrustPrompt("/w/p")]);
  });

  it("2.12 'Trust parent folder' stores the parent and deletes cwd; session-only stores nothing", async () => {
    const fs = await build(t, { "/w/p/.pi/SYSTEM.md": "x" });
    const store = new MemoryTrustStore();
    await store.set("/w/p", false);
    const pick = (label: string) => ({ select: async () => label });
    expect(
      await resolveProjectTrusted({
        fs,
        cwd: "/w/p",
        trustStore: new MemoryTrustStore(),
        ui: pick("Trust (this session only)"),
      }),
    ).toBe(true);
    await store.setMany([{ path: "/w/p", decision: null }]);
    expect(
      await resolveProjectTrusted({
        fs,
        cwd: "/w/p",
        trustStore: store,
        ui: pick("Trust parent folder (/w)"),
      }),
    ).toBe(true);
    expect([...store.decisions]).toEqual([["/w", true]]);
    expect(await resolveProjectTrusted({ fs, cwd: "/w/p", trustStore: store })).toBe(true);
  });

  it("2.13 trust resolution runs before project resources load (loadResources resolves trust from the store)", async () => {
    const fs = await build(t, { "/p/.pi/SYSTEM.md": "Project system prompt." });
    const store = new MemoryTrustStore();
    const before = await loadResources({ fs, cwd: "/p", trust: { trustStore: store } });
    expect([before.projectTrusted, before.systemPrompt]).toEqual([false, undefined]);
    await store.set("/p", true);
    const after = await loadResources({ fs: t.reopen(), cwd: "/p", trust: { trustStore: store } });
    expect([after.projectTrusted, after.systemPrompt]).toEqual([true, "Project system prompt."]);
  });
});
