// Preloaded into the app's processes by the bench (`NODE_OPTIONS=--import <this file>`, set by
// bench/hostile/app-server.ts with STRATA_BENCH_LAG_DIR): measures the process's own event-loop delay with
// `perf_hooks.monitorEventLoopDelay` (10 ms resolution) and, on SIGUSR2, writes what it saw since the last
// SIGUSR2 to `<STRATA_BENCH_LAG_DIR>/<pid>.json` as `{ pid, samples, p50Ms, p99Ms, maxMs, cpuMs, title }`
// (cpuMs: the process's CPU time over the window, all its threads; runQueueMs: how long its main thread waited
// for a CPU while runnable, from Linux's /proc/self/task/<pid>/schedstat — a delay that is the machine's, not the
// app's own work), then resets. The bench reads it before and after each hostile command: the lag the app itself suffered,
// measured inside it, not inferred from a probe's latency.
import fs from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";

const dir = process.env.STRATA_BENCH_LAG_DIR;
if (dir) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  let cpu = process.cpuUsage();
  const waitedNs = () => {
    try {
      return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[1]);
    } catch {
      return Number.NaN;
    }
  };
  let waited = waitedNs();
  process.on("SIGUSR2", () => {
    const report = {
      pid: process.pid,
      title: process.title,
      argv: process.argv.slice(1, 3).join(" "),
      samples: histogram.count,
      p50Ms: ms(histogram.percentile(50)),
      p99Ms: ms(histogram.percentile(99)),
      maxMs: ms(histogram.max),
      cpuMs: ((used) => Math.round((used.user + used.system) / 1000))(process.cpuUsage(cpu)),
    };
    report.runQueueMs = Math.round((waitedNs() - waited) / 1e6);
    waited = waitedNs();
    cpu = process.cpuUsage();
    histogram.reset();
    fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(report));
  });
}
