/**
 * The layout's rules, checked on the source: every import in `lib/` (runtime or type) goes down the rank table of
 * `docs/architecture.md` ("Layers"; the checker is `layers.ts`), so the folders form no cycle; no runtime import
 * cycles between files of `lib/` and `components/`; and `lib/` free of Node-only modules (it runs on the edge
 * runtime).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type ImportEdge, layerViolations, parseRankTable, unitCycles, unrankedFiles } from "./layers";
import { ROOT, sources } from "./source-files";

const IMPORT = /^(?:import|export)\s+(type\s+)?[^"';]*?from\s+["']([^"']+)["']|^import\s+["']([^"']+)["']/gm;
/** Every import a file's text names: static (runtime or type), side-effect, dynamic, and `import("…")` types. */
const ANY_IMPORT =
  /^(?:import|export)\s+(type\s+)?[^"';]*?from\s+["']([^"']+)["']|^import\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;

function resolveImport(from: string, spec: string): string | undefined {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = path.join(path.dirname(from), spec);
  else return undefined;
  return [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, path.join(base, "index.ts")].find(
    (c) => fs.existsSync(path.join(ROOT, c)) && fs.statSync(path.join(ROOT, c)).isFile(),
  );
}

/** Runtime imports (`import type` is erased and cannot form a cycle). */
function imports(file: string): { specs: string[]; local: string[] } {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const specs: string[] = [];
  const local: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    if (m[1]) continue;
    const spec = m[2] ?? m[3];
    specs.push(spec);
    const target = resolveImport(file, spec);
    if (target) local.push(target);
  }
  return { specs, local };
}

/** Every local import edge of a file; `typeOnly` for `import type` and `import("…")` in a type position. */
function allEdges(file: string): ImportEdge[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const edges: ImportEdge[] = [];
  for (const m of text.matchAll(ANY_IMPORT)) {
    const target = resolveImport(file, m[2] ?? m[3] ?? m[4]);
    if (target) edges.push({ from: file, to: target, typeOnly: Boolean(m[1]) });
  }
  return edges;
}

describe("architecture", () => {
  const files = [...sources("lib"), ...sources("components")];

  describe("layers (docs/architecture.md's rank table)", () => {
    const rows = parseRankTable(fs.readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8"));
    const libFiles = sources("lib");
    const edges = libFiles.flatMap(allEdges);

    it("ranks every lib/ folder", () => {
      expect(unrankedFiles(rows, libFiles)).toEqual([]);
      const folders = new Set(libFiles.map((f) => `${f.split("/").slice(0, 2).join("/")}/`));
      const listed = new Set(rows.flatMap((r) => r.units));
      expect([...listed].filter((u) => u.split("/").length === 3 && !folders.has(u))).toEqual([]);
    });

    it("imports only down the table, runtime and type imports alike", () => {
      expect(edges.length).toBeGreaterThan(1000);
      expect(
        layerViolations(rows, edges).map(
          (v) => `${v.from} (${v.fromUnit}, rank ${v.fromRank}) -> ${v.to} (${v.toUnit}, rank ${v.toRank})`,
        ),
      ).toEqual([]);
    });

    it("has no folder cycle", () => {
      expect(unitCycles(rows, edges)).toEqual([]);
    });

    it("keeps the old paths of moved modules as aliases to existing files, and uses none of them itself", async () => {
      const tsconfig = JSON.parse(fs.readFileSync(path.join(ROOT, "tsconfig.json"), "utf8")) as {
        compilerOptions: { paths: Record<string, string[]> };
      };
      const moved = Object.entries(tsconfig.compilerOptions.paths).filter(([from]) => !from.includes("*"));
      expect(moved.length).toBe(13);
      expect(moved.filter(([, [to]]) => !fs.existsSync(path.join(ROOT, to)))).toEqual([]);
      const oldPaths = new Set(moved.map(([from]) => from));
      const users = [...files, ...sources("app"), ...sources("tests")].flatMap((f) =>
        [...fs.readFileSync(path.join(ROOT, f), "utf8").matchAll(/["'](@\/lib\/[^"']+)["']/g)]
          .filter((m) => oldPaths.has(m[1]) && f !== "tests/unit/architecture/imports.test.ts")
          .map((m) => `${f}: ${m[1]}`),
      );
      expect(users).toEqual([]);
      expect(await import("@/lib/agent/context-preview-redact")).toBe(await import("@/lib/llm/redact"));
    });

    it("imports nothing of app/ or components/ from lib/", () => {
      expect(
        edges.filter((e) => /^(app|components)\//.test(e.to)).map((e) => `${e.from} -> ${e.to}`),
      ).toEqual([]);
    });
  });

  it("has no runtime import cycle in lib/ and components/", () => {
    const graph = new Map(files.map((f) => [f, imports(f).local]));
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const cycles: string[] = [];
    const visit = (file: string) => {
      state.set(file, "open");
      stack.push(file);
      for (const dep of graph.get(file) ?? []) {
        if (state.get(dep) === "open") cycles.push([...stack.slice(stack.indexOf(dep)), dep].join(" -> "));
        else if (!state.has(dep)) visit(dep);
      }
      stack.pop();
      state.set(file, "done");
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it("checks a URL's row id with lib/db/ids.ts's isUuid only, nowhere with a pattern of its own", () => {
    const own = [...files, ...sources("app")].filter(
      (f) =>
        f !== "lib/db/ids.ts" &&
        /\/\^\[0-9a-f-?\]\{(36|8)\}/i.test(fs.readFileSync(path.join(ROOT, f), "utf8")),
    );
    expect(own).toEqual([]);
  });

  it("keeps data access in lib/: no SQL and no Drizzle query in app/ or components/", () => {
    const query =
      /\bscope\.query\s*[<(]|\.query<|\bsql`|from "drizzle-orm|\bdb\.(select|insert|update|delete|execute)\(/;
    const offenders = [...sources("app"), ...sources("components")].filter((f) =>
      query.test(fs.readFileSync(path.join(ROOT, f), "utf8")),
    );
    expect(offenders).toEqual([]);
  });

  it("keeps lib/ edge-safe: no fs, child_process, net, http(s), dns or ws imports (lib/net/, lib/exec/service/ exempt)", () => {
    const banned =
      /^(node:)?(fs|fs\/promises|child_process|net|tls|worker_threads|http|https|http2|dns|dns\/promises)$|^ws$/;
    // lib/net/ and lib/exec/service/ are the server-only folders. lib/net/: the git import's guarded transport
    // resolves names and checks the addresses it connects to (node:http, node:https, node:dns), which the edge
    // runtime cannot do; only nodejs routes import it (app/api/projects/route.ts); docs/architecture.md, "Edge
    // runtime". lib/exec/service/: the execution service's own process (worker_threads, node:http, the sandbox's
    // child processes), never imported by the app (docs/exec.md).
    const SERVER_ONLY = ["lib/net/", "lib/exec/service/"];
    const offenders = sources("lib")
      .filter((f) => !SERVER_ONLY.some((dir) => f.startsWith(dir)))
      .flatMap((f) =>
        imports(f)
          .specs.filter((s) => banned.test(s))
          .map((s) => `${f}: ${s}`),
      );
    expect(offenders).toEqual([]);
  });

  it("keeps zod out of the browser: nothing components/ loads at runtime imports it", () => {
    // zod 4 probes `new Function("")` when it is first used (its JIT check), which the IDE's CSP refuses and
    // reports as a violation (tests/e2e/web-boundary.spec.ts). Schemas stay on the server.
    const seen = new Set<string>();
    const offenders: string[] = [];
    const walk = (file: string, chain: string[]) => {
      if (seen.has(file)) return;
      seen.add(file);
      const { specs, local } = imports(file);
      if (specs.some((s) => s === "zod" || s.startsWith("zod/")))
        offenders.push([...chain, file].join(" -> "));
      for (const dep of local) walk(dep, [...chain, file]);
    };
    for (const file of sources("components")) walk(file, []);
    expect(offenders).toEqual([]);
  });

  it("imports lib/exec/service/ (the execution service's process) from nowhere in lib/, components/ or app/ but itself", () => {
    // `import type` is erased: lib/exec/types.ts is the shared interface; the service runs in its own process.
    const users = [...files, ...sources("app")].filter(
      (f) =>
        !f.startsWith("lib/exec/service/") && imports(f).local.some((d) => d.startsWith("lib/exec/service/")),
    );
    expect(users).toEqual([]);
  });

  it("imports lib/net/ (server-only) at runtime only from lib/net/ itself and from nodejs routes", () => {
    const users = [...files, ...sources("app")].filter(
      (f) => !f.startsWith("lib/net/") && imports(f).local.some((d) => d.startsWith("lib/net/")),
    );
    const notNode = users.filter(
      (f) =>
        !/^app\/.*route\.ts$/.test(f) ||
        !/^export const runtime = "nodejs";$/m.test(fs.readFileSync(path.join(ROOT, f), "utf8")),
    );
    expect(users).toContain("app/api/projects/route.ts");
    expect(notNode).toEqual([]);
  });
});
