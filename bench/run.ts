/**
 * `npm run bench`: runs each section of `SECTIONS` in order against a fresh, migrated test database on the
 * local Postgres (through Strata's WebSocket proxy), printing one line per measurement. No assertions.
 *
 * Add a section: create `bench/sections/<name>.ts` exporting a `BenchSection` and list it below.
 * `npm run bench -- <name>…` runs only the named sections.
 */
import { randomBytes } from "node:crypto";
import ws from "ws";
import { setNodeWebSocket } from "@/lib/db/client";
import { createTestDatabase } from "../tests/helpers/postgres";
import { createTestVfs } from "../tests/helpers/vfs";
import type { BenchContext, BenchSection } from "./context";
import { authSection } from "./sections/auth";
import { checkpointsSection } from "./sections/checkpoints";
import { execSection } from "./sections/exec";
import { hostileSection } from "./sections/hostile";
import { pipelineSection } from "./sections/pipeline";
import { resourcesSection } from "./sections/resources";
import { responsiveSection } from "./sections/responsive";
import { sessionSection } from "./sections/session";
import { shareSection } from "./sections/share";
import { shareRenderSection } from "./sections/share-render";
import { treeSection } from "./sections/tree";
import { vfsSection } from "./sections/vfs";
import { worktreesSection } from "./sections/worktrees";

const SECTIONS: BenchSection[] = [
  vfsSection,
  resourcesSection,
  sessionSection,
  checkpointsSection,
  pipelineSection,
  hostileSection,
  authSection,
  execSection,
  responsiveSection,
  treeSection,
  shareSection,
  shareRenderSection,
  worktreesSection,
];

function summary(name: string, samplesMs: number[], targetMs?: number): string {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const f = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
  const target =
    targetMs === undefined ? "" : ` target ≤ ${targetMs} ms ${median <= targetMs ? "met" : "MISSED"}`;
  return `${name}: ${f(median)} ms (${sorted.length} runs, ${f(sorted[0])}..${f(sorted[sorted.length - 1])})${target}`;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const sections = only.length > 0 ? SECTIONS.filter((s) => only.includes(s.name)) : SECTIONS;
  setNodeWebSocket(ws);
  const db = await createTestDatabase("strata_bench");
  process.env.DATABASE_URL = db.url;
  process.env.STRATA_DB_PROXY = db.proxy;
  // The sections sign users in (Better Auth): a throwaway secret for this run, unless one is set.
  process.env.BETTER_AUTH_SECRET ??= randomBytes(32).toString("base64");
  // The sections prompt and sign in far more often than a person: the limits (tested in tests/integration/security)
  // would refuse them halfway.
  process.env.STRATA_PROMPT_RATE_LIMIT ??= "1000000";
  process.env.STRATA_AUTH_RATE_LIMIT ??= "off";
  const ctx: BenchContext = {
    createVfs: createTestVfs,
    async time(fn) {
      const start = performance.now();
      await fn();
      return performance.now() - start;
    },
    report(name, samplesMs, targetMs) {
      console.log(summary(name, samplesMs, targetMs));
    },
  };
  try {
    for (const section of sections) {
      console.log(`## ${section.name}`);
      await section.run(ctx);
    }
  } finally {
    await db.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
