import type { PGlite } from "@electric-sql/pglite";

/** One protocol message of a connection, waiting for PGlite's session. */
export interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

/** The query queue between pglite-socket's connections and the one PGlite session behind them (pglite-queue.mjs). */
export class ProtocolSessionQueue {
  constructor(db: PGlite);
  db: PGlite;
  /** Messages waiting, in arrival order. */
  queue: QueuedMessage[];
  processing: boolean;
  /** The connection PGlite's session belongs to until it is idle, or null. */
  owner: number | null;
  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number>;
  process(): Promise<void>;
  getQueueLength(): number;
  clearQueueForHandler(handlerId: number): void;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
}
