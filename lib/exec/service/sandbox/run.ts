/**
 * One sandbox command from request to result: load the project's subtree from Postgres in one query (no
 * `.git`), materialise it into a fresh host directory, run the command through a `SandboxBackend`, diff
 * the tree, write what changed back to the VFS (flushed; recorded as the run's pending paths), remove the
 * directory. `runSandboxCommand` is what `POST /v1/sandbox` calls; `benchSandboxNodeStart` is the bench's hook.
 *
 * Node-only (lib/exec/service/).
 */
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DbScope } from "@/lib/db/client";
import { formatBytes, killReport } from "@/lib/exec/limits";
import type { ExecResult, ExecTarget, SandboxExecRequest } from "@/lib/exec/types";
import type { NodeRow } from "@/lib/vfs/store";
import { openWorkspaceVfs, targetStore } from "@/lib/vfs/workspace";
import {
  SANDBOX_DEFAULT_LIMITS,
  type SandboxBackend,
  type SandboxLimits,
  type SandboxOutcome,
} from "./backend";
import { BwrapBackend } from "./bwrap";
import { sandboxCgroupSupport, sweepCommandCgroups } from "./cgroup";
import { diffTree, materialiseTree } from "./tree";
import { mountTreeFs, type TreeMount, treeFsFull } from "./tree-fs";
import { writeBack } from "./write-back";

let defaultBackend: SandboxBackend | undefined;
const TREE_PREFIX = "strata-sandbox-tree-";
/** A tree directory older than this is a leftover of a worker ended mid-command (the wall limit is at most 300 s). */
const STALE_TREE_MS = 60 * 60_000;

/** The service's backend: bubblewrap (one instance, probed once). Sweeps stale tree directories when first made. */
export function sandboxBackend(): SandboxBackend {
  if (!defaultBackend) {
    defaultBackend = new BwrapBackend();
    void sweepStaleTrees();
    const cgroups = sandboxCgroupSupport();
    if (cgroups.ok) sweepCommandCgroups();
    else
      console.warn(`[strata-exec] sandbox commands run without CPU-share and I/O limits: ${cgroups.reason}`);
  }
  return defaultBackend;
}

/** Where trees are materialised: `STRATA_SANDBOX_DIR` (e.g. /dev/shm, 3× faster, but in memory), else the temp dir. */
function treeParent(): string {
  return process.env.STRATA_SANDBOX_DIR || tmpdir();
}

/** Remove tree directories a terminated worker left in the temp dir (older than an hour). Best effort. */
async function sweepStaleTrees(): Promise<void> {
  const parent = treeParent();
  const names = await readdir(parent).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(TREE_PREFIX)) continue;
    const dir = path.join(parent, name);
    const st = await stat(dir).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs > STALE_TREE_MS)
      await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

/** The sandbox cannot run here (no bubblewrap, no user namespaces, not Linux); the message says what to do. */
export class SandboxUnavailableError extends Error {
  override name = "SandboxUnavailableError";
}

/** Where a sandbox command spent its time (ms), for logs and the bench. */
export interface SandboxTimings {
  loadMs: number;
  materialiseMs: number;
  runMs: number;
  diffMs: number;
  writeBackMs: number;
  files: number;
}

/**
 * The cwd relative to the project root ("" = the root).
 * @throws Error when `cwd` is not `projectRoot` or below it.
 */
function relativeCwd(projectRoot: string, cwd: string): string {
  if (cwd === projectRoot) return "";
  if (!cwd.startsWith(`${projectRoot}/`) || cwd.split("/").includes(".."))
    throw new Error(`The working directory ${cwd} is not inside the project ${projectRoot}`);
  return cwd.slice(projectRoot.length + 1);
}

/** The project's VFS rows below `root` with their data, `.git` left out (one query). */
function loadProjectTree(scope: DbScope, request: ExecTarget, root: string): Promise<NodeRow[]> {
  return targetStore(scope, request).loadTree(root, { withData: true, except: [`${root}/.git`] });
}

/**
 * The `ExecResult` of the backend's `outcome`: its output followed by the `notes` (one a line, after a newline
 * when the output does not end with one), `changedPaths` the paths written back.
 */
function sandboxResult(outcome: SandboxOutcome, noted: string[], changedPaths: string[]): ExecResult {
  const notes = noted.length > 0 ? `${noted.join("\n")}\n` : "";
  const sep = notes && outcome.output && !outcome.output.endsWith("\n") ? "\n" : "";
  return {
    output: outcome.output + sep + notes,
    outputBytes: outcome.outputBytes,
    exitCode: outcome.exitCode,
    timedOut: outcome.timedOut,
    aborted: outcome.aborted,
    ...(outcome.killed ? { killed: outcome.killed } : {}),
    changedPaths,
    usage: outcome.usage,
  };
}

/**
 * Run `request.command` in the sandbox on a copy of the project's working tree and write its changes back.
 * The output gets `sandbox: <path> not written back: <reason>` lines for files not written back (over the VFS's
 * file limit, past its flush limit, unreadable, or refused by the VFS); the other changes are written back.
 * @returns the `ExecResult` (output in arrival order, exit code, kill, usage, changedPaths = absolute VFS
 *   paths written back, sorted); `timings` when asked.
 * @throws SandboxUnavailableError (e.g. "The sandbox needs bubblewrap, which is not installed: …"); the
 *   write-back's VfsConflictError / VfsError EFBIG; a database error.
 */
export async function runSandboxCommand(
  request: Omit<SandboxExecRequest, "limits"> & { limits?: Partial<SandboxLimits> },
  signal?: AbortSignal,
  options: {
    backend?: SandboxBackend;
    onTimings?: (t: SandboxTimings) => void;
    onSpawn?: (pid: number) => void;
    /** false: no tree file system even as root (the sampled limit, as without root). Default true. */
    treeFs?: boolean;
  } = {},
): Promise<ExecResult> {
  const backend = options.backend ?? sandboxBackend();
  const ready = await backend.available();
  if (!ready.ok) throw new SandboxUnavailableError(ready.reason);
  const limits: SandboxLimits = { ...SANDBOX_DEFAULT_LIMITS, ...request.limits };
  const root = request.projectRoot;
  const cwd = relativeCwd(root, request.cwd);
  const t0 = performance.now();
  const scope = new DbScope();
  const dir = await mkdtemp(path.join(treeParent(), TREE_PREFIX));
  // The tree's size limit, enforced by its file system when the service is root (tree-fs.ts).
  let mount: TreeMount | undefined;
  try {
    if (options.treeFs !== false) mount = mountTreeFs(dir, limits.treeBytes, backend.treeOwner());
    let rows = await loadProjectTree(scope, request, root);
    // The connection is not held while the command runs (it may run for minutes).
    await scope.release();
    const t1 = performance.now();
    const tree = await materialiseTree(rows, root, dir, backend.treeOwner());
    rows = [];
    const t2 = performance.now();
    const outcome = await backend.run(
      {
        command: request.command,
        treeDir: dir,
        cwd,
        env: request.env ?? {},
        // The wall-clock limit counts from the request (loading and materialising included), as the pool's does.
        limits: { ...limits, wallMs: Math.max(1, limits.wallMs - Math.round(t2 - t0)) },
        timeoutMs: request.timeoutMs,
        ...(options.onSpawn ? { onSpawn: options.onSpawn } : {}),
      },
      signal,
    );
    const t3 = performance.now();
    if (outcome.killed?.reason === "wall") outcome.killed = killReport("wall", limits);
    const diff = await diffTree(tree);
    const t4 = performance.now();
    const written = await writeBack(
      scope,
      { workspaceId: request.workspaceId, root, pending: request.pending },
      diff.changes,
    );
    const t5 = performance.now();
    options.onTimings?.({
      loadMs: t1 - t0,
      materialiseMs: t2 - t1,
      runMs: t3 - t2,
      diffMs: t4 - t3,
      writeBackMs: t5 - t4,
      files: tree.files,
    });
    const full = mount && treeFsFull(dir) ? [treeFullNote(limits.treeBytes)] : [];
    return sandboxResult(outcome, [...full, ...diff.notes, ...written.notes], written.changedPaths);
  } finally {
    await scope.release();
    mount?.unmount();
    await rm(dir, { recursive: true, force: true });
  }
}

/** What the output says when the tree's file system filled up (writes past it failed with ENOSPC). */
export function treeFullNote(treeBytes: number): string {
  return `sandbox: /workspace is full (limit ${formatBytes(treeBytes)}): writes past it failed with "No space left on device".`;
}

/**
 * Bench hook (issue 12, figure 5): sandbox start-to-exit of `node -e 0` on a project of `files` small files
 * (package.json and JS files, made once in workspace `workspaceId` under `root` when missing), materialisation included.
 * @returns the total ms and its parts.
 * @throws like `runSandboxCommand`, or Error when `node -e 0` does not exit 0 (with its output).
 */
export async function benchSandboxNodeStart(
  workspaceId: string,
  options: { root?: string; files?: number } = {},
): Promise<{ totalMs: number; timings: SandboxTimings }> {
  const root = options.root ?? "/sandbox-bench";
  const files = options.files ?? 2000;
  const scope = new DbScope();
  try {
    const { vfs } = openWorkspaceVfs(workspaceId, scope);
    if (!(await vfs.exists(`${root}/src/f${files - 1}.js`))) {
      await vfs.writeFile(`${root}/package.json`, '{"name":"bench","version":"1.0.0"}\n');
      for (let i = 0; i < files - 2; i++)
        await vfs.writeFile(`${root}/src/d${i % 40}/f${i}.js`, `module.exports = ${i};\n`);
      await vfs.writeFile(`${root}/src/f${files - 1}.js`, "module.exports = 0;\n");
      await vfs.flush();
    }
  } finally {
    await scope.release();
  }
  let timings: SandboxTimings | undefined;
  const started = performance.now();
  const result = await runSandboxCommand(
    { workspaceId, projectRoot: root, cwd: root, command: "node -e 0" },
    undefined,
    { onTimings: (t) => (timings = t) },
  );
  const totalMs = performance.now() - started;
  if (result.exitCode !== 0) throw new Error(`node -e 0 exited ${result.exitCode}: ${result.output}`);
  return { totalMs, timings: timings as SandboxTimings };
}
