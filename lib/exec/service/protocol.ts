/** Messages between the execution service's main thread (pool.ts) and its workers (worker.ts). Node-only. */
import type { ExecLimits } from "@/lib/exec/types";

/** Main thread → worker. */
export type ToWorker =
  | {
      type: "run";
      id: number;
      kind: string;
      request: unknown;
      bytes?: Uint8Array;
      limits: ExecLimits;
    }
  | { type: "abort"; id: number };

/** Worker → main thread. */
export type FromWorker =
  | { type: "ready" }
  | { type: "pid"; id: number; pid: number }
  | { type: "done"; id: number; ok: true; result: unknown }
  | { type: "done"; id: number; ok: false; status: number; error: string };
