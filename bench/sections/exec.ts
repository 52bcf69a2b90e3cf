/**
 * The execution service (issue 12, must-show 5), reached over HTTP through its client (lib/exec/client.ts) as
 * the app reaches it:
 * (a) shell round trip of `echo` (`POST /v1/shell` on a small project of the bench database): p50/p99 over 300
 *     warm runs, target ≤ 5 ms;
 * (b) sandbox start-to-exit of `node -e 0` (`POST /v1/sandbox`, the bwrap backend) on a 2,000-file project,
 *     materialisation of the tree included: 10 runs, target ≤ 2 s. Skipped, with the reason, when the service
 *     has no sandbox handler or the backend cannot run here; then where the time goes (load from Postgres,
 *     materialise, run, diff, write back), from the sandbox's own hook `benchSandboxNodeStart` in this process.
 * The service is started by the bench (bench/hostile/exec-service.ts) on the bench database, through a database
 * proxy process of its own (bench/hostile/db-proxy-process.ts).
 */

import { gzipSync } from "fflate";
import { packTar, type TarEntry } from "modern-tar";
import { createExecutor, type ExecClient } from "@/lib/exec/client";
import { benchSandboxNodeStart, type SandboxTimings } from "@/lib/exec/service/sandbox/run";
import { importArchive } from "@/lib/vfs/import";
import type { BenchSection } from "../context";
import { startProxyProcess } from "../hostile/db-proxy-process";
import { startBenchExecService } from "../hostile/exec-service";
import { percentile } from "./responsive";
import { generateRepo } from "./vfs";

const SHELL_TARGET_MS = 5;
const SANDBOX_TARGET_MS = 2000;
const f = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(2));

/** `name: p50 X ms, p99 Y ms, min..max (n runs) target ≤ T ms met|MISSED` (p50 against the target). */
function spread(name: string, samples: number[], targetMs: number): string {
  const p50 = percentile(samples, 50);
  const sorted = [...samples].sort((a, b) => a - b);
  return (
    `${name}: p50 ${f(p50)} ms, p99 ${f(percentile(samples, 99))} ms, ${f(sorted[0])}..${f(sorted[sorted.length - 1])} ` +
    `(${samples.length} runs) target ≤ ${targetMs} ms ${p50 <= targetMs ? "met" : "MISSED"}`
  );
}

/** A .tar.gz of the vfs section's generated 2,000-file repository. */
async function repositoryArchive(): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const tar = await packTar(
    generateRepo().map(({ path, text }): TarEntry => {
      const body = encoder.encode(text);
      return { header: { name: path, size: body.length, type: "file", mode: 0o644 }, body };
    }),
  );
  return gzipSync(tar);
}

async function shellRoundTrip(client: ExecClient, workspaceId: string): Promise<void> {
  const request = { workspaceId, projectRoot: "/echo", cwd: "/echo", script: "echo hi" };
  for (let i = 0; i < 30; i++) await client.shell(request);
  const samples: number[] = [];
  for (let i = 0; i < 300; i++) {
    const started = performance.now();
    const result = await client.shell(request);
    samples.push(performance.now() - started);
    if (result.output !== "hi\n" || result.exitCode !== 0)
      throw new Error(`echo answered ${JSON.stringify(result).slice(0, 300)}`);
  }
  console.log(spread("shell round trip `echo hi` (POST /v1/shell, warm)", samples, SHELL_TARGET_MS));
}

async function sandboxStartToExit(client: ExecClient, workspaceId: string): Promise<void> {
  const health = await client.health();
  if (!health.kinds.includes("sandbox")) {
    console.log(
      `SKIPPED sandbox start-to-exit: the execution service has no sandbox handler (kinds: ${health.kinds.join(", ")})`,
    );
    return;
  }
  const request = { workspaceId, projectRoot: "/sandboxed", cwd: "/sandboxed", command: "node -e 0" };
  const first = await client.sandbox(request);
  if (first.exitCode !== 0 || first.killed) {
    console.log(
      `SKIPPED sandbox start-to-exit: \`node -e 0\` answered exit ${first.exitCode}: ${(first.killed?.message ?? first.output).slice(0, 300)}`,
    );
    return;
  }
  const samples: number[] = [];
  const inside: number[] = [];
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    const result = await client.sandbox(request);
    samples.push(performance.now() - started);
    inside.push(result.usage.wallMs);
    if (result.exitCode !== 0) throw new Error(`node -e 0 answered ${JSON.stringify(result).slice(0, 300)}`);
  }
  console.log(
    spread(
      "sandbox start-to-exit `node -e 0` on 2,000 files (POST /v1/sandbox, materialisation included)",
      samples,
      SANDBOX_TARGET_MS,
    ),
  );
  console.log(
    `  of which in the service (its usage.wallMs: load, materialise, run, diff, write back): p50 ${f(percentile(inside, 50))} ms`,
  );
}

/** The parts of a sandbox run (benchSandboxNodeStart in this process, its own 2,000-file project), 5 runs. */
async function sandboxParts(workspaceId: string): Promise<void> {
  const runs: { totalMs: number; timings: SandboxTimings }[] = [];
  try {
    for (let i = 0; i < 6; i++) runs.push(await benchSandboxNodeStart(workspaceId, { files: 2000 }));
  } catch (error) {
    console.log(`SKIPPED sandbox parts: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  const warm = runs.slice(1);
  const p50 = (pick: (r: (typeof runs)[number]) => number) => f(percentile(warm.map(pick), 50));
  console.log(
    `  parts (benchSandboxNodeStart in the bench process, ${warm[0].timings.files} files, p50 of ${warm.length}): ` +
      `total ${p50((r) => r.totalMs)} ms = load ${p50((r) => r.timings.loadMs)} + materialise ${p50((r) => r.timings.materialiseMs)} + ` +
      `run ${p50((r) => r.timings.runMs)} + diff ${p50((r) => r.timings.diffMs)} + write back ${p50((r) => r.timings.writeBackMs)} ms`,
  );
}

export const execSection: BenchSection = {
  name: "exec",
  async run(ctx) {
    // The service reaches Postgres through a proxy process of its own, as under `npm start`.
    const database = new URL(process.env.DATABASE_URL ?? "");
    const proxy = await startProxyProcess(`${database.hostname}:${database.port || 5432}`);
    const exec = await startBenchExecService({ ...process.env, STRATA_DB_PROXY: proxy.endpoint });
    const workspace = await ctx.createVfs();
    try {
      const client = createExecutor(exec.env);
      if (!client) throw new Error("the bench's execution service has no URL");
      await workspace.fs.mkdir("/echo", { recursive: true });
      await workspace.fs.writeFile("/echo/README.md", "# echo\n");
      const report = await importArchive(
        workspace.fs,
        "/sandboxed",
        await repositoryArchive(),
        "repo.tar.gz",
      );
      await workspace.fs.flush();
      console.log(`projects: /echo (1 file), /sandboxed (${report.files} files); ${exec.describe}`);
      await shellRoundTrip(client, workspace.workspaceId);
      await sandboxStartToExit(client, workspace.workspaceId);
      await sandboxParts(workspace.workspaceId);
    } finally {
      await workspace.cleanup();
      await exec.close();
      await proxy.close();
    }
  },
};
