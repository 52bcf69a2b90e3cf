/**
 * The embedded database of `npm start` (PGlite behind pglite-socket, scripts/local-db.mjs) under concurrent
 * connections: extended-query sequences of different connections must not interleave on PGlite's one session
 * (they did: "bind message supplies 1 parameters, but prepared statement "" requires 2", or a query run with
 * another connection's values), and a transaction of one connection sees none of another's statements (sent and
 * waiting at the server while the transaction runs: the test watches the server's queue for them).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openEmbeddedDatabase } from "@/scripts/local-db.mjs";
import { ProtocolSessionQueue } from "@/scripts/pglite-queue.mjs";

/** The embedded server's message queue (scripts/pglite-queue.mjs), caught at its first message. */
let queue: ProtocolSessionQueue | undefined;
const enqueue = ProtocolSessionQueue.prototype.enqueue;
vi.spyOn(ProtocolSessionQueue.prototype, "enqueue").mockImplementation(function (
  this: ProtocolSessionQueue,
  ...args: Parameters<ProtocolSessionQueue["enqueue"]>
) {
  queue ??= this;
  return enqueue.apply(this, args);
});
/** The types of the protocol messages waiting in the server's queue ("P" Parse, "B" Bind, … "S" Sync). */
const waiting = () => (queue?.queue ?? []).map((q) => String.fromCharCode(q.message[0]));

/**
 * Send each protocol message of `client` in its own TCP write, 1 ms apart and in order, as the Neon driver's
 * frames through Strata's WebSocket proxy can arrive: other connections' messages then fall between them.
 */
function splitWrites(client: pg.Client) {
  const stream = (client as unknown as { connection: { stream: { write: (...a: unknown[]) => boolean } } })
    .connection.stream;
  const write = stream.write.bind(stream);
  let chain = Promise.resolve();
  stream.write = (...args: unknown[]) => {
    chain = chain.then(
      () => new Promise<void>((resolve) => setTimeout(() => resolve(void write(...args)), 1)),
    );
    return true;
  };
}

let dir: string;
let db: Awaited<ReturnType<typeof openEmbeddedDatabase>>;
const clients: pg.Client[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "strata-pglite-socket-"));
  db = await openEmbeddedDatabase(dir);
  for (let i = 0; i < 4; i++) {
    const client = new pg.Client({ connectionString: db.url });
    client.on("error", () => undefined); // a broken protocol state shows as a failed query below
    await client.connect();
    splitWrites(client);
    clients.push(client);
  }
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.end().catch(() => undefined);
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("embedded PGlite behind pglite-socket", () => {
  it("keeps each connection's parameterised queries whole: 4 connections x 50 queries, every answer its own", async () => {
    // Different parameter counts per connection: an interleaved Parse/Bind fails or answers another's values.
    const work = clients.map(async (client, c) => {
      const answers: string[] = [];
      for (let q = 0; q < 50; q++) {
        const params = Array.from({ length: c + 1 }, (_, k) => `${c}:${q}:${k}`);
        const sql = `select concat_ws(',', ${params.map((_, k) => `$${k + 1}::text`).join(", ")}) as v`;
        const result = await client
          .query(sql, params)
          .catch((error: Error) => ({ rows: [{ v: error.message }] }));
        answers.push(result.rows[0].v);
      }
      return answers;
    });
    const results = await Promise.all(work);
    expect(results).toEqual(
      clients.map((_, c) =>
        Array.from({ length: 50 }, (_, q) =>
          Array.from({ length: c + 1 }, (_, k) => `${c}:${q}:${k}`).join(","),
        ),
      ),
    );
  }, 60_000);

  it("runs another connection's statements after a transaction, not inside it", async () => {
    const [a, b] = clients;
    await a.query("create table if not exists t_iso (v int)");
    await a.query("begin");
    await a.query("insert into t_iso values ($1)", [1]);
    // b's insert waits for a's transaction to end; a rolls back, so only b's row remains.
    const insertB = b.query("insert into t_iso values ($1)", [2]);
    // All of it has reached the server and waits there (the wait is only a hang detector).
    await vi.waitFor(() => expect(waiting()).toEqual(["P", "B", "D", "E", "S"]), { timeout: 20_000 });
    const insideA = await a.query("select v from t_iso order by v");
    await a.query("rollback");
    await insertB;
    expect(insideA.rows).toEqual([{ v: 1 }]);
    expect((await b.query("select v from t_iso order by v")).rows).toEqual([{ v: 2 }]);
  }, 60_000);
});
