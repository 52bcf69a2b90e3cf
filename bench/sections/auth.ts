/**
 * Better Auth's password hashing (scrypt N=16384, r=16, p=1, 64-byte key; docs/auth.md): the `node:crypto` path the
 * `nodejs` auth route uses and the pure-JS `@noble/hashes` path the edge runtime would use — the same
 * `@better-auth/utils` code, loaded once per export condition. For each: wall time per hash and verify, CPU time, the longest
 * event-loop stall while hashing (sampled every 5 ms), and the peak growth of RSS and ArrayBuffer memory. Then the
 * cost of building one Better Auth instance (Strata builds one per request).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createAuth } from "@/lib/auth/server";
import { DbScope } from "@/lib/db/client";
import type { BenchContext, BenchSection } from "../context";

const RUNS = 7;
const PASSWORD = "correct horse battery staple";

interface PasswordModule {
  hashPassword(password: string): Promise<string>;
  verifyPassword(hash: string, password: string): Promise<boolean>;
}

/** `@better-auth/utils`' implementation for the `node` condition (node:crypto) or the default one (pure JS). */
async function passwordModule(which: "node" | "pure-js"): Promise<PasswordModule> {
  const file = which === "node" ? "password.node.mjs" : "password.mjs";
  const url = pathToFileURL(path.join(process.cwd(), "node_modules/@better-auth/utils/dist", file)).href;
  return (await import(url)) as PasswordModule;
}

/** Run `fn` while sampling the event loop's stalls and memory growth. */
async function observed(
  fn: () => Promise<void>,
): Promise<{ lagMs: number; rssMiB: number; buffersMiB: number }> {
  const base = process.memoryUsage();
  let rss = base.rss;
  let buffers = base.arrayBuffers;
  let lag = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    lag = Math.max(lag, now - last - 5);
    last = now;
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    buffers = Math.max(buffers, m.arrayBuffers);
  }, 5);
  try {
    await fn();
  } finally {
    clearInterval(timer);
  }
  const mib = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
  return {
    lagMs: Math.round(lag),
    rssMiB: mib(rss - base.rss),
    buffersMiB: mib(buffers - base.arrayBuffers),
  };
}

async function hashing(ctx: BenchContext, which: "node" | "pure-js"): Promise<void> {
  const mod = await passwordModule(which);
  await mod.hashPassword("warm-up password");
  const hashes: number[] = [];
  const verifies: number[] = [];
  const cpu = process.cpuUsage();
  const seen = await observed(async () => {
    for (let i = 0; i < RUNS; i++) {
      let hash = "";
      hashes.push(await ctx.time(async () => (hash = await mod.hashPassword(PASSWORD))));
      verifies.push(await ctx.time(() => mod.verifyPassword(hash, PASSWORD)));
    }
  });
  const used = process.cpuUsage(cpu);
  const cpuMs = Math.round((used.user + used.system) / 1000 / (2 * RUNS));
  ctx.report(
    `hashPassword (${which === "node" ? "node:crypto scrypt" : "pure-JS @noble/hashes scrypt"})`,
    hashes,
  );
  ctx.report(`verifyPassword (${which === "node" ? "node:crypto" : "pure-JS"})`, verifies);
  console.log(
    `  CPU time per hash or verify ${cpuMs} ms (all threads); while hashing: longest event-loop stall ${seen.lagMs} ms, peak RSS +${seen.rssMiB} MiB, peak ArrayBuffers +${seen.buffersMiB} MiB`,
  );
}

export const authSection: BenchSection = {
  name: "auth",
  async run(ctx) {
    await hashing(ctx, "node");
    await hashing(ctx, "pure-js");
    process.env.BETTER_AUTH_SECRET ??= "strata-bench-only-secret-0123456789abcdef";
    const scope = new DbScope();
    try {
      await scope.run(async (db) => {
        const samples: number[] = [];
        for (let i = 0; i < 50; i++)
          samples.push(await ctx.time(async () => createAuth(db, "http://127.0.0.1:3000")));
        ctx.report("createAuth (one Better Auth instance, built per request)", samples);
      });
    } finally {
      await scope.release();
    }
  },
};
