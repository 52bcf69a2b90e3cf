/**
 * VFS + git on Postgres, for a generated 2,000-file repository (~100 directories, text files of
 * 200 B–8 KB): (a) archive import into the VFS (importArchive + flush), (b) the grep tool on a cold VFS,
 * (c) a per-turn checkpoint of 10 changed files on a cold VFS (checkpoint + flush).
 */
import { gzipSync } from "fflate";
import { packTar, type TarEntry } from "modern-tar";
import { createGrepTool } from "@/lib/tools/grep";
import { checkpoint } from "@/lib/vfs/git";
import { importArchive } from "@/lib/vfs/import";
import type { BenchSection } from "../context";

const FILES = 2000;
const DIRS = 100;
const DIR = "/bench";
const NEEDLE = "strata-bench-needle";

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "const",
  "value",
  "return",
  "export",
  "function",
  "import",
  "result",
  "config",
  "item",
  "await",
];

/** `FILES` paths over `DIRS` directories (two levels) with realistic TypeScript-ish text. */
export function generateRepo(seed = 1): { path: string; text: string }[] {
  const rand = rng(seed);
  const dirs = Array.from({ length: DIRS }, (_, i) => `src/pkg${i % 10}/mod${i}`);
  const out: { path: string; text: string }[] = [
    { path: "README.md", text: "# Bench repository\n" },
    { path: ".gitignore", text: "node_modules/\ndist/\n*.log\n" },
  ];
  for (let i = out.length; i < FILES; i++) {
    const size = 200 + Math.floor(rand() * rand() * 7800);
    const lines: string[] = [];
    let n = 0;
    while (n < size) {
      const w = Array.from(
        { length: 3 + Math.floor(rand() * 8) },
        () => WORDS[Math.floor(rand() * WORDS.length)],
      );
      const line = `  ${w.join(" ")}(${Math.floor(rand() * 1000)});`;
      lines.push(line);
      n += line.length + 1;
    }
    if (i % 40 === 0) lines.splice(lines.length >> 1, 0, `  // TODO(${NEEDLE}): file ${i}`);
    out.push({
      path: `${dirs[i % DIRS]}/file${i}.ts`,
      text: `export function f${i}() {\n${lines.join("\n")}\n}\n`,
    });
  }
  return out;
}

export const vfsSection: BenchSection = {
  name: "vfs",
  async run(ctx) {
    const repo = generateRepo();
    const encoder = new TextEncoder();
    const tar = await packTar(
      repo.map(({ path, text }): TarEntry => {
        const body = encoder.encode(text);
        return { header: { name: `bench-main/${path}`, size: body.length, type: "file", mode: 0o644 }, body };
      }),
    );
    const archive = gzipSync(tar);
    const totalBytes = repo.reduce((n, f) => n + encoder.encode(f.text).length, 0);
    console.log(
      `repository: ${repo.length} files, ${DIRS} dirs, ${(totalBytes / 1024).toFixed(0)} KiB; .tar.gz ${(archive.length / 1024).toFixed(0)} KiB`,
    );

    // (a) import: importArchive + flush into a fresh workspace.
    const importRuns: number[] = [];
    const unpackRuns: number[] = [];
    const flushRuns: number[] = [];
    let workspace: Awaited<ReturnType<typeof ctx.createVfs>> | undefined;
    for (let i = 0; i < 3; i++) {
      const w = await ctx.createVfs();
      const t0 = performance.now();
      const report = await importArchive(w.fs, DIR, archive, "bench-main.tar.gz");
      const t1 = performance.now();
      await w.fs.flush();
      const t2 = performance.now();
      if (report.files !== FILES) throw new Error(`imported ${report.files} files`);
      unpackRuns.push(t1 - t0);
      flushRuns.push(t2 - t1);
      importRuns.push(t2 - t0);
      if (workspace) await w.cleanup();
      else workspace = w;
    }
    ctx.report("import 2,000 files (.tar.gz → importArchive → flush)", importRuns, 5000);
    ctx.report("  of which importArchive (unpack, write, git add + commit)", unpackRuns);
    ctx.report("  of which flush", flushRuns);
    const w = workspace!;

    // (b) grep through the tool on a cold VFS.
    const grepRuns: number[] = [];
    for (let i = 0; i < 7; i++) {
      const fs = w.reopen();
      const grep = createGrepTool({ fs, cwd: DIR, projectRoot: DIR });
      grepRuns.push(
        await ctx.time(async () => {
          const result = await grep.execute("bench", { pattern: `TODO\\(${NEEDLE}\\)` });
          const first = result.content[0];
          if (first.type !== "text" || first.text.split("\n").length !== 49)
            throw new Error("unexpected grep result");
        }),
      );
    }
    ctx.report("grep over 2,000 files (cold VFS, grep tool)", grepRuns, 300);

    // (c) per-turn checkpoint of 10 changed files: cold VFS, write 10 files, checkpoint + flush (timed).
    const writeRuns: number[] = [];
    const checkpointRuns: number[] = [];
    const onlyCheckpoint: number[] = [];
    const targets = repo.filter((f) => f.path.endsWith(".ts"));
    for (let i = 0; i < 9; i++) {
      const fs = w.reopen();
      const changed = Array.from(
        { length: 10 },
        (_, k) => `${DIR}/${targets[(i * 97 + k * 191) % targets.length].path}`,
      );
      writeRuns.push(
        await ctx.time(async () => {
          for (const p of changed) await fs.writeFile(p, `// turn ${i}\n${p}\n`);
        }),
      );
      const t0 = performance.now();
      const result = await checkpoint(fs, DIR, {
        changedPaths: fs.dirtyPaths(),
        ref: "refs/heads/strata/session-bench",
        message: `turn ${i}`,
        author: { name: "Strata", email: "strata@localhost" },
      });
      const t1 = performance.now();
      await fs.flush();
      const t2 = performance.now();
      if (!result) throw new Error("checkpoint made no commit");
      onlyCheckpoint.push(t1 - t0);
      checkpointRuns.push(t2 - t0);
    }
    ctx.report("checkpoint 10 changed files (cold VFS, checkpoint + flush)", checkpointRuns, 100);
    ctx.report("  of which checkpoint", onlyCheckpoint);
    ctx.report("  (untimed setup) write 10 files on the cold VFS", writeRuns);
    await w.cleanup();
  },
};
