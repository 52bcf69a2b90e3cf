/** What a bench section receives from `bench/run.ts`. */
import type { createTestVfs } from "../tests/helpers/vfs";

export interface BenchContext {
  /** A fresh workspace on the bench database: `{ fs, reopen() (cold VFS), cleanup() }`. */
  createVfs: typeof createTestVfs;
  /** Wall time of `fn`, ms. */
  time(fn: () => Promise<unknown>): Promise<number>;
  /** Print `name: <median> ms (n runs, min..max) target ≤ X ms met|MISSED` (the median against the target). */
  report(name: string, samplesMs: number[], targetMs?: number): void;
}

/** A bench section: `run` measures and prints through `ctx.report`. */
export interface BenchSection {
  name: string;
  run(ctx: BenchContext): Promise<void>;
}
