/**
 * A `DbScope` that runs every statement inside an enclosing transaction, so code written against a scope (the VFS
 * store, `insertProject`, `insertImportedSession`…) can be composed into one all-or-nothing transaction:
 *
 *     await scope.transaction((q) => work(new TransactionScope(q)));
 *
 * `query` runs on the transaction's `q`; `transaction(fn)` becomes a SAVEPOINT (released on success, rolled back to
 * and rethrown on failure), so a nested transaction keeps its own all-or-nothing meaning and the enclosing one stays
 * usable after a caught failure. Nothing is committed until the enclosing transaction commits; should it fail (or the
 * connection drop), nothing of it exists. Drizzle (`run`) is not available: it would bypass the transaction.
 *
 * The enclosing transaction may run its function again after a dropped connection (`lib/db/transaction.ts`): build
 * everything the work needs (a `Vfs`, caches) inside it, afresh on each run.
 */
import { type Db, DbScope } from "./client";
import type { Query } from "./transaction";

export class TransactionScope extends DbScope {
  private savepoints = 0;

  /** @param q the enclosing transaction's query function. */
  constructor(private readonly q: Query) {
    super();
  }

  /** Run `text` inside the enclosing transaction (never retried here: the enclosing transaction is). */
  override async query<R = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<R[]> {
    return this.q<R>(text, params);
  }

  /** Run `fn` in a SAVEPOINT of the enclosing transaction: released when it returns, rolled back to when it throws. */
  override async transaction<T>(fn: (q: Query) => Promise<T>): Promise<T> {
    const name = `strata_sp_${++this.savepoints}`;
    await this.q(`SAVEPOINT ${name}`);
    try {
      const result = await fn(this.q);
      await this.q(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await this.q(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
      throw error;
    }
  }

  /** Not available inside a transaction scope. @throws Error always. */
  override async run<T>(_fn: (db: Db) => Promise<T>): Promise<T> {
    throw new Error("TransactionScope: Drizzle is not available inside an enclosing raw-SQL transaction");
  }

  /** Nothing to release: the enclosing scope owns the connection. */
  override async release(): Promise<void> {}

  /** Nothing to detach: the enclosing scope owns the connection. */
  override detach(): void {}

  /** Never gives the connection up: the enclosing transaction is using it. */
  override yieldConnection(): void {}
}
