// The query queue between pglite-socket's connections and the one PGlite session behind them.
// pglite-socket 0.2.17 runs each protocol message of each connection in arrival order, keeping a connection
// together only while a transaction is open. Outside one, the extended-query messages of two connections
// (Parse / Bind / Describe / Execute … Sync) interleave on PGlite's single unnamed statement and portal: one
// request's Bind met another's Parse ("bind message supplies 1 parameters, but prepared statement "" requires
// 2"), and with matching counts a query could run with another request's values. This queue keeps a
// connection as the owner from its first message until it is idle again: its sequence ended (Sync, a simple
// Query, Terminate…) and no transaction is open. Other connections' messages wait in arrival order.

/** Message types that continue an extended-query sequence or a COPY (the owner keeps PGlite until Sync). */
const CONTINUES = new Set(["P", "B", "D", "E", "H", "C", "d", "c", "f"].map((c) => c.charCodeAt(0)));

/**
 * A drop-in for pglite-socket's QueryQueueManager (`server.queryQueue`, set before `start()`): the same
 * `enqueue(handlerId, message, onData) → Promise<bytes>`, `getQueueLength()`, `clearQueueForHandler(id)` and
 * `clearTransactionIfNeeded(id)`, with whole sequences and transactions of one connection kept together.
 */
export class ProtocolSessionQueue {
  /** @param {import("@electric-sql/pglite").PGlite} db */
  constructor(db) {
    this.db = db;
    /** @type {{ handlerId: number, message: Uint8Array, onData: (d: Uint8Array) => void, resolve: (n: number) => void, reject: (e: unknown) => void }[]} */
    this.queue = [];
    this.processing = false;
    /** The connection PGlite's session belongs to until it is idle, or null. */
    this.owner = null;
  }

  /** Queue one protocol message of connection `handlerId`; resolves with the bytes PGlite answered. */
  enqueue(handlerId, message, onData) {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  async process() {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const index = this.owner === null ? 0 : this.queue.findIndex((q) => q.handlerId === this.owner);
        // The owner is between two messages of its sequence or transaction: the others wait for it.
        if (index === -1) break;
        const [item] = this.queue.splice(index, 1);
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          // PGlite itself failed (not an SQL error, which is an ErrorResponse in the stream): that connection
          // is told, and the queue goes on (pglite-socket's own queue stopped for good here).
          this.owner = this.db.isInTransaction() ? item.handlerId : null;
          item.reject(error);
          continue;
        }
        const continues = CONTINUES.has(item.message[0]);
        this.owner = continues || this.db.isInTransaction() ? item.handlerId : null;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }

  getQueueLength() {
    return this.queue.length;
  }

  /** A connection went away: its queued messages are refused. */
  clearQueueForHandler(handlerId) {
    this.queue = this.queue.filter((q) => {
      if (q.handlerId !== handlerId) return true;
      q.reject(new Error("Handler disconnected"));
      return false;
    });
  }

  /** A connection went away: an open transaction of it is rolled back and the session is free again. */
  async clearTransactionIfNeeded(handlerId) {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
    this.owner = null;
    await this.process();
  }
}
