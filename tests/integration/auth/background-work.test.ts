/**
 * Better Auth starts some database calls without awaiting them (the API-key plugin deletes expired keys after a
 * create, list or verify). `settleAuth` waits for every call an instance started, so the auth route and the caller
 * resolution release the request's connection only after them (they failed with "Connection terminated" before).
 */
import { describe, expect, it } from "vitest";
import { createAuth, settleAuth } from "@/lib/auth/server";
import { withDb } from "@/lib/db/client";
import { ORIGIN } from "../../helpers/auth";

describe("settleAuth", () => {
  it("waits for a database call Better Auth started and did not await", async () => {
    await withDb((scope) =>
      scope.run(async (db) => {
        const auth = createAuth(db, ORIGIN);
        const context = await auth.$context;
        // Work chained after a tracked call is not tracked: it waits for `release`, which only this test calls.
        let release!: () => void;
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        let settled = false;
        const untracked = context.adapter
          .count({ model: "user" })
          .then(() => gate)
          .then(() => {
            settled = true;
          });
        // the count itself is tracked; the gate after it is not: settle waits for the count (and would never
        // return, failing at the test timeout, if it waited for the gate)
        let countDone = false;
        const counting = context.adapter.count({ model: "user" }).then(() => {
          countDone = true;
        });
        await settleAuth(auth);
        expect(countDone).toBe(true);
        await counting;
        expect(settled).toBe(false);
        release();
        await untracked;
        expect(settled).toBe(true);
      }),
    );
  });
});
