/**
 * Responsiveness under hostile commands (issue 12, must-show 2): the built app (`next start`) runs with the
 * execution service (`STRATA_EXEC_URL`, both started by bench/hostile/app-server.ts as `npm start` does), and each hostile command is sent to it — a nested `awk` loop and a
 * 50 MB `printf` as the user's `!command` (the bash tool's shell), the import of a 20,000-file archive, and
 * a 9,800-file archive that is under the limits and imported in full — while a probe sends `GET /api/config`
 * back to back. Printed per command: what the command got back (stopped at its limit, with the message),
 * the probe's p50/p99/max latency (target p99 ≤ 50 ms) and the app process's own event-loop delay over the
 * same window (bench/hostile/loop-lag.mjs, measured inside it). An idle window, a benign `!echo` and a 10-file
 * import come first as the baselines.
 * Needs a build (`node scripts/build.mjs`); without one the section says so and measures nothing.
 */
import os from "node:os";
import { startMockProvider } from "../../tests/mock-provider";
import type { BenchSection } from "../context";
import {
  type Answer,
  type AppServer,
  hasBuild,
  type LoopLag,
  type ProbeResult,
  probeWhile,
  send,
  startAppServer,
} from "../hostile/app-server";
import { manyFilesZip } from "../hostile/payloads";

const TARGET_P99_MS = 50;

/** A multipart body for `POST /api/projects` (file field `file`). */
async function multipart(fileName: string, bytes: Uint8Array): Promise<{ body: Uint8Array; type: string }> {
  const form = new FormData();
  form.set("file", new File([Buffer.from(bytes)], fileName));
  const request = new Request("http://x/", { method: "POST", body: form });
  return {
    body: new Uint8Array(await request.arrayBuffer()),
    type: request.headers.get("content-type") ?? "",
  };
}

/** The q-th percentile (nearest rank) of `samples`, ms. */
export function percentile(samples: number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1))];
}

/** What a `!command`'s SSE answer carried: the `bashExecution` message's exit code and the end of its output. */
function bashOutcome(answer: Answer): string {
  if (answer.status !== 200) return `${answer.status} ${answer.text.slice(0, 160)}`;
  let outcome = "no bashExecution message in the answer";
  for (const block of answer.text.split("\n\n")) {
    const data = block.split("\n").find((line) => line.startsWith("data: "));
    if (!data) continue;
    try {
      const event = JSON.parse(data.slice(6)) as {
        type?: string;
        message?: { role?: string; output?: string; exitCode?: number; cancelled?: boolean };
      };
      const m = event.message;
      if (event.type !== "message_end" || m?.role !== "bashExecution") continue;
      const output = m.output ?? "";
      const stopped = output.match(/Command stopped:[^\n]*/)?.[0];
      const tail = output.trimEnd().slice(-120).trim().replace(/\s+/g, " ");
      outcome = `exit ${m.exitCode ?? "none"}${m.cancelled ? " (cancelled)" : ""}, ${output.length} chars: ${
        stopped ?? (tail || "(no output)")
      }`;
    } catch {
      /* a partial block (the kept tail starts mid-event) */
    }
  }
  return outcome;
}

/** What an import answer said: `201 <files> files, <n> skipped` or `<status> <code>: <message>`. */
function importOutcome(answer: Answer): string {
  try {
    const body = JSON.parse(answer.text) as {
      error?: { code: string; message: string };
      report?: { files: number; bytes: number; skipped: unknown[] };
    };
    if (body.error) return `${answer.status} ${body.error.code}: ${body.error.message}`;
    if (body.report)
      return `${answer.status} imported ${body.report.files} files (${body.report.bytes} bytes), ${body.report.skipped.length} skipped`;
  } catch {
    /* not JSON */
  }
  return `${answer.status} ${answer.text.slice(0, 160)}`;
}

const f = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

/** One line: the command's outcome, the probe's latencies against the target, the app's loop delay. */
function line(
  name: string,
  outcome: string,
  probe: ProbeResult<unknown>,
  lag: LoopLag | undefined,
  ms: number,
) {
  const p99 = percentile(probe.samples, 99);
  const met = p99 <= TARGET_P99_MS && !probe.failedProbes ? "met" : "MISSED";
  const loop = lag
    ? `app event-loop delay p50 ${f(lag.p50Ms)} / p99 ${f(lag.p99Ms)} / max ${f(lag.maxMs)} ms, app CPU ${lag.cpuMs} ms, app main thread waiting for a CPU ${lag.runQueueMs} ms`
    : "app event-loop delay not measured";
  return (
    `${name} (${(ms / 1000).toFixed(1)} s): ${outcome}\n` +
    `  GET /api/config p50 ${f(percentile(probe.samples, 50))} / p99 ${f(p99)} / max ${f(probe.worstMs)} ms over ${probe.probes} probes` +
    `${probe.failedProbes ? ` (${probe.failedProbes} failed)` : ""}, target p99 ≤ ${TARGET_P99_MS} ms ${met}; ${loop}`
  );
}

export const responsiveSection: BenchSection = {
  name: "responsive",
  async run() {
    if (!hasBuild()) {
      console.log(
        "no build in .next: run `node scripts/build.mjs` first (this section needs the real server)",
      );
      return;
    }
    const mock = await startMockProvider();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ANTHROPIC_API_KEY: "bench-key",
      ANTHROPIC_BASE_URL: `${mock.url}/v1`,
      STRATA_DEFAULT_MODEL: "anthropic/claude-sonnet-4-5",
    };
    const load = os.loadavg().map((n) => n.toFixed(1));
    console.log(
      `machine: ${os.availableParallelism()} cores, load average ${load.join(" ")} (other work shares the cores)`,
    );
    let app: AppServer | undefined;
    try {
      app = await startAppServer(env, { measureLag: true });
      const url = app.url;
      const same = { Origin: url, "Sec-Fetch-Site": "same-origin", Cookie: app.cookie };
      const upload = (archive: { body: Uint8Array; type: string }) =>
        send(`${url}/api/projects`, {
          method: "POST",
          headers: { ...same, "content-type": archive.type },
          body: archive.body,
          timeoutMs: 300_000,
        });
      const bang = (sessionId: string, command: string) =>
        send(`${url}/api/sessions/${sessionId}/prompt`, {
          method: "POST",
          headers: { ...same, "content-type": "application/json" },
          body: JSON.stringify({ text: `!${command}` }),
          timeoutMs: 300_000,
          keepTail: 256 * 1024,
        });
      // Every payload is built before the probe starts: the probe shares this process's event loop.
      const archives = {
        seed: await multipart("seed.zip", manyFilesZip(10)),
        warm: await multipart("warm.zip", manyFilesZip(50)),
        over: await multipart("twenty-thousand.zip", manyFilesZip(20_000)),
        under: await multipart("nine-thousand-eight-hundred.zip", manyFilesZip(9_800)),
      };
      const seed = await upload(archives.seed);
      if (seed.status !== 201)
        throw new Error(`seed import failed: ${seed.status} ${seed.text.slice(0, 300)}`);
      const projectId = (JSON.parse(seed.text) as { project: { id: string } }).project.id;
      const created = await send(`${url}/api/projects/${projectId}/sessions`, {
        method: "POST",
        headers: { ...same, "content-type": "application/json" },
        body: "{}",
      });
      const sessionId = (JSON.parse(created.text) as { session: { id: string } }).session.id;
      // Warm the routes (`next start` loads a route's bundle on its first request) and the service's workers.
      for (const warm of [await upload(archives.warm), await bang(sessionId, "echo warm")])
        if (warm.status >= 300) throw new Error(`warm-up failed: ${warm.status} ${warm.text.slice(0, 300)}`);

      const commands: [string, () => Promise<string>][] = [
        [
          "idle (baseline, 3 s)",
          async () => {
            await new Promise((resolve) => setTimeout(resolve, 3000));
            return "nothing sent";
          },
        ],
        // Benign counterparts first: what any command and any import cost the app, to compare the hostile ones with.
        [
          "20 × !echo hi, one after another (benign, for comparison)",
          async () => {
            let last = "";
            for (let i = 0; i < 20; i++) last = bashOutcome(await bang(sessionId, "echo hi"));
            return `last: ${last}`;
          },
        ],
        [
          "5 × import of a 10-file zip, one after another (benign, for comparison)",
          async () => {
            let last = "";
            for (let i = 0; i < 5; i++) last = importOutcome(await upload(archives.seed));
            return `last: ${last}`;
          },
        ],
        [
          "!awk nested loop (10^12 iterations)",
          async () =>
            bashOutcome(
              await bang(
                sessionId,
                "awk 'BEGIN { for (i = 0; i < 1000000; i++) for (j = 0; j < 1000000; j++) n++; print n }'",
              ),
            ),
        ],
        [
          "!printf of 50 MB to stdout",
          async () => bashOutcome(await bang(sessionId, "printf '%52428800s' x")),
        ],
        ["import of a 20,000-file zip", async () => importOutcome(await upload(archives.over))],
        [
          "import of a 9,800-file zip (under the limits)",
          async () => importOutcome(await upload(archives.under)),
        ],
      ];
      for (const [name, command] of commands) {
        await app.loopLag();
        const started = performance.now();
        const probe = await probeWhile(url, command, { Cookie: app.cookie });
        const ms = performance.now() - started;
        const lag = await app.loopLag();
        const outcome = probe.result instanceof Error ? `failed: ${probe.result.message}` : probe.result;
        console.log(line(name, outcome, probe, lag, ms));
        if (!(await app.alive())) {
          console.log("  server DOWN after it: the remaining commands are not measured");
          break;
        }
      }
    } finally {
      await app?.close();
      await mock.close();
    }
  },
};
