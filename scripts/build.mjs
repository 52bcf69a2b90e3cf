#!/usr/bin/env node
// `next build` that records the build stamp (scripts/build-stamp.mjs) of the sources it built, so that
// `npm start` knows the build matches them. Used by `npm start` (when the build is missing or stale),
// `npm run build` and `npm test`. Run directly: `node scripts/build.mjs` (exit code = next build's).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { computeBuildStamp, removeBuildStamp, writeBuildStamp } from "./build-stamp.mjs";

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** How often a build in progress says so (ms): `next build` prints nothing for minutes while it compiles. */
export const PROGRESS_EVERY_MS = 15_000;

/**
 * The machine as the build sees it: the build's own CPU time so far (seconds) and the 1-minute load average over
 * the core count. Linux reads the build process's /proc stat (its threads included); elsewhere CPU is unknown.
 * @param {number | undefined} pid
 * @returns {{ cpuSeconds?: number, load: number, cores: number }}
 */
export function machineNow(pid) {
  let cpuSeconds;
  try {
    if (pid) {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime and stime are fields 14 and 15 of stat(5), 12 and 13 after the name; in clock ticks (100 per second).
      cpuSeconds = (Number(fields[11]) + Number(fields[12])) / 100;
    }
  } catch {
    cpuSeconds = undefined;
  }
  return { cpuSeconds, load: os.loadavg()[0], cores: os.availableParallelism() };
}

/**
 * Print `[strata] still building… <elapsed> so far (…)` through `log` every `everyMs` until the returned function is
 * called: with the build's CPU time and the machine's load (from `sample`), so a slow build on a busy machine says why.
 * @param {(line: string) => void} log
 * @param {number} [everyMs]
 * @param {() => { cpuSeconds?: number, load: number, cores: number }} [sample]
 * @returns {() => void} stop
 */
export function reportBuildProgress(log, everyMs = PROGRESS_EVERY_MS, sample = () => machineNow(undefined)) {
  const started = Date.now();
  const timer = setInterval(() => {
    const s = Math.round((Date.now() - started) / 1000);
    const elapsed = s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
    const { cpuSeconds, load, cores } = sample();
    const cpu = cpuSeconds === undefined ? "" : `; ${Math.round(cpuSeconds)} CPU-seconds used`;
    const busy = load > cores ? ", busy: the build shares the CPU with other work" : "";
    log(
      `[strata] still building… ${elapsed} so far (next build prints nothing while it compiles${cpu}; load ${load.toFixed(1)} on ${cores} cores${busy})`,
    );
  }, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}

/**
 * Build the app under `root` with `next build` (output inherited) and, when it succeeds, write the stamp of
 * the sources as they were when the build started.
 * @param {string} [root] the repo root (default: this checkout)
 * Asynchronous, so a caller serving the database (npm start) keeps serving it during the build.
 * @param {string} [root] the repo root (default: this checkout)
 * @param {{ onSpawn?: (child: import('node:child_process').ChildProcess) => void, progress?: (line: string) => void }} [options]
 *   `onSpawn` receives the build's process (to stop it when the caller is stopped); `progress` gets a line every 15 s
 *   while it builds (default: printed to stderr; `null` for none)
 * @returns {Promise<{ ok: boolean, status: number | null, ms: number, stamp: string }>}
 */
export async function buildApp(root = here, { onSpawn, progress = (line) => console.error(line) } = {}) {
  const { stamp } = computeBuildStamp(root);
  removeBuildStamp(root);
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  onSpawn?.(child);
  const stopProgress = progress
    ? reportBuildProgress(progress, PROGRESS_EVERY_MS, () => machineNow(child.pid))
    : () => undefined;
  const status = await new Promise((resolve) => {
    child.once("error", () => resolve(null));
    child.once("exit", (code) => resolve(code));
  }).finally(stopProgress);
  const ms = Math.round(performance.now() - started);
  const ok = status === 0;
  if (ok) writeBuildStamp(root, stamp, { buildMs: ms });
  return { ok, status, ms, stamp };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await buildApp();
  if (!result.ok) console.error(`[strata] next build failed (exit ${result.status}); its errors are above`);
  else
    console.log(
      `[strata] built in ${Math.round(result.ms / 1000)} s; build stamp ${result.stamp.slice(0, 12)}`,
    );
  process.exit(result.ok ? 0 : (result.status ?? 1));
}
