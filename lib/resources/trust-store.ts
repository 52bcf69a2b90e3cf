/**
 * Project trust decisions in Postgres (`project_trust`, db/schema.ts): a {@link TrustStore} for one user
 * and workspace on a `DbScope`, raw SQL. `get` is one query (nearest ancestor); `setMany` one transaction.
 */
import type { DbScope } from "@/lib/db/client";
import { normalizePosix } from "@/lib/vfs/paths";
import { ancestorsUp } from "./fs-util";
import type { TrustStore, TrustUpdate } from "./project-trust";

/** A Postgres-backed {@link TrustStore} for `userId` in `workspaceId`. */
export class PgTrustStore implements TrustStore {
  constructor(
    private readonly scope: DbScope,
    private readonly userId: string,
    private readonly workspaceId: string,
  ) {}

  /**
   * The decision stored for `dir` or its nearest ancestor, else `null` (pi `ProjectTrustStore.get`).
   * @throws the driver's error when the query fails.
   */
  async get(dir: string): Promise<boolean | null> {
    const ancestors = ancestorsUp(dir);
    const rows = await this.scope.query<{ dir: string; trusted: boolean }>(
      "SELECT dir, trusted FROM project_trust WHERE user_id = $1 AND workspace_id = $2 AND dir = ANY($3::text[])",
      [this.userId, this.workspaceId, ancestors],
    );
    const byDir = new Map(rows.map((r) => [r.dir, r.trusted]));
    for (const d of ancestors) {
      const v = byDir.get(d);
      if (v !== undefined) return v;
    }
    return null;
  }

  /** Store `trusted` for `dir` (insert or replace). @throws the driver's error. */
  async set(dir: string, trusted: boolean): Promise<void> {
    await this.setMany([{ path: dir, decision: trusted }]);
  }

  /** Apply updates in one transaction; `decision: null` deletes the key. @throws the driver's error (rolled back). */
  async setMany(updates: TrustUpdate[]): Promise<void> {
    await this.scope.transaction(async (q) => {
      for (const u of updates) {
        const dir = normalizePosix(u.path);
        if (u.decision === null) {
          await q("DELETE FROM project_trust WHERE user_id = $1 AND workspace_id = $2 AND dir = $3", [
            this.userId,
            this.workspaceId,
            dir,
          ]);
        } else {
          await q(
            `INSERT INTO project_trust (user_id, workspace_id, dir, trusted) VALUES ($1, $2, $3, $4)
             ON CONFLICT (user_id, workspace_id, dir) DO UPDATE SET trusted = EXCLUDED.trusted, created_at = now()`,
            [this.userId, this.workspaceId, dir, u.decision],
          );
        }
      }
    });
  }
}
