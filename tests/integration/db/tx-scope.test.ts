/**
 * `TransactionScope` on the real Postgres: its statements are part of the enclosing transaction (nothing visible to
 * another connection before COMMIT, nothing left after a ROLLBACK), and its own `transaction` is a savepoint: a failed
 * one is rolled back alone and the enclosing transaction goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbScope } from "@/lib/db/client";
import { TransactionScope } from "@/lib/db/tx-scope";

const table = `tx_scope_probe_${Math.random().toString(36).slice(2, 8)}`;
let scope: DbScope;
let other: DbScope;
beforeAll(async () => {
  scope = new DbScope();
  other = new DbScope();
  await scope.query(`CREATE TABLE ${table} (id text PRIMARY KEY)`);
});
afterAll(async () => {
  await scope.query(`DROP TABLE ${table}`);
  await scope.release();
  await other.release();
});

const ids = async (s: DbScope) =>
  (await s.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY id`)).map((r) => r.id);

describe("TransactionScope", () => {
  it("commits its writes with the enclosing transaction; a failed nested transaction is rolled back alone", async () => {
    let seenOutside: string[] | undefined;
    await scope.transaction(async (q) => {
      const tx = new TransactionScope(q);
      await tx.query(`INSERT INTO ${table} (id) VALUES ('a')`);
      await expect(
        tx.transaction(async (inner) => {
          await inner(`INSERT INTO ${table} (id) VALUES ('b')`);
          await inner(`INSERT INTO ${table} (id) VALUES ('a')`);
        }),
      ).rejects.toThrow(/duplicate key/);
      await tx.transaction((inner) => inner(`INSERT INTO ${table} (id) VALUES ('c')`));
      seenOutside = await ids(other);
      expect(await ids(tx)).toEqual(["a", "c"]);
    });
    expect(seenOutside).toEqual([]);
    expect(await ids(other)).toEqual(["a", "c"]);
  });

  it("leaves nothing when the enclosing transaction fails; Drizzle is refused inside", async () => {
    await expect(
      scope.transaction(async (q) => {
        const tx = new TransactionScope(q);
        await tx.transaction((inner) => inner(`INSERT INTO ${table} (id) VALUES ('d')`));
        await expect(tx.run(async () => 1)).rejects.toThrow(
          "TransactionScope: Drizzle is not available inside an enclosing raw-SQL transaction",
        );
        throw new Error("late failure");
      }),
    ).rejects.toThrow("late failure");
    expect(await ids(other)).toEqual(["a", "c"]);
  });
});
