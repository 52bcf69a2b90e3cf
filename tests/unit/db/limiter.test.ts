/** The per-process connection limiter: FIFO slots, a bounded wait, exactly-once release, idle holders yield. */
import { describe, expect, it } from "vitest";
import { acquireSlot, IDLE_GRACE_MS, type IdleHolder, limiterStats, setIdle } from "@/lib/db/limiter";

const timeout = () => new Error("no slot");

describe("acquireSlot", () => {
  it("grants up to max at once, queues the rest in order, and a release hands the slot on exactly once", async () => {
    const a = await acquireSlot({ max: 2, waitMs: 1000, onTimeout: timeout });
    const b = await acquireSlot({ max: 2, waitMs: 1000, onTimeout: timeout });
    const order: string[] = [];
    const c = acquireSlot({ max: 2, waitMs: 1000, onTimeout: timeout }).then((l) => {
      order.push("c");
      return l;
    });
    const d = acquireSlot({ max: 2, waitMs: 1000, onTimeout: timeout }).then((l) => {
      order.push("d");
      return l;
    });
    expect(limiterStats()).toEqual({ max: 2, active: 2, waiting: 2, idle: 0 });
    a.release();
    a.release(); // a second release of the same lease frees nothing more
    const lc = await c;
    expect(order).toEqual(["c"]);
    expect(limiterStats()).toEqual({ max: 2, active: 2, waiting: 1, idle: 0 });
    b.release();
    const ld = await d;
    expect(order).toEqual(["c", "d"]);
    lc.release();
    ld.release();
    expect(limiterStats()).toEqual({ max: 2, active: 0, waiting: 0, idle: 0 });
  });

  it("a wait longer than waitMs fails with the caller's error and holds nothing", async () => {
    const held = await acquireSlot({ max: 1, waitMs: 1000, onTimeout: timeout });
    const error = await acquireSlot({ max: 1, waitMs: 50, onTimeout: timeout }).catch(
      (e: Error) => e.message,
    );
    expect(error).toBe("no slot");
    expect(limiterStats()).toEqual({ max: 1, active: 1, waiting: 0, idle: 0 });
    held.release();
    expect(limiterStats().active).toBe(0);
  });

  it("an idle holder gives its slot to a waiter after the grace; a busy one is left alone", async () => {
    const lease = await acquireSlot({ max: 1, waitMs: 2000, onTimeout: timeout });
    let yielded = 0;
    const holder: IdleHolder = {
      yieldConnection() {
        yielded++;
        setIdle(holder, false);
        lease.release();
      },
    };
    setIdle(holder, true);
    expect(limiterStats()).toEqual({ max: 1, active: 1, waiting: 0, idle: 1 });
    const waiter = acquireSlot({ max: 1, waitMs: 2000, onTimeout: timeout });
    const next = await waiter;
    expect(yielded).toBe(1);
    expect(IDLE_GRACE_MS).toBe(50);

    // Busy again before the grace ends: not asked to yield.
    let asked = 0;
    const busy: IdleHolder = {
      yieldConnection() {
        asked++;
      },
    };
    setIdle(busy, true);
    const third = acquireSlot({ max: 1, waitMs: 200, onTimeout: timeout }).catch((e: Error) => e.message);
    setIdle(busy, false);
    expect(await third).toBe("no slot");
    expect(asked).toBe(0);
    next.release();
    expect(limiterStats()).toEqual({ max: 1, active: 0, waiting: 0, idle: 0 });
  });
});
