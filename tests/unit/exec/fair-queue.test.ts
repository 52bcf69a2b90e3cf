/**
 * The execution pool's waiting line (lib/exec/service/fair-queue.ts): round-robin over workspaces, then over a
 * workspace's users, FIFO within one user; the per-workspace and per-user caps pass a capped tenant over while an
 * uncapped one waits (and only then); `takeStarved` finds tenants that run nothing; the wait notice's numbers.
 */
import { describe, expect, it } from "vitest";
import { waitNotice } from "@/lib/exec/limits";
import { FairQueue, type Tenant } from "@/lib/exec/service/fair-queue";

interface Item {
  name: string;
  tenant: Tenant;
}

const item = (name: string, workspaceId: string, userId = `${workspaceId}-user`): Item => ({
  name,
  tenant: { workspaceId, userId },
});

/** Take until nothing can start; the names in order. */
function drain(queue: FairQueue<Item>): string[] {
  const names: string[] = [];
  for (let next = queue.take(); next; next = queue.take()) names.push(next.name);
  return names;
}

const NO_CAPS = { perWorkspace: 100, perUser: 100 };

describe("FairQueue", () => {
  it("serves workspaces in turn, first come first served within one", () => {
    const queue = new FairQueue<Item>(NO_CAPS);
    for (const name of ["a1", "a2", "a3"]) queue.push(item(name, "A"));
    for (const name of ["b1", "b2"]) queue.push(item(name, "B"));
    queue.push(item("c1", "C"));
    expect(queue.size).toBe(6);
    expect(drain(queue)).toEqual(["a1", "b1", "c1", "a2", "b2", "a3"]);
    expect({ size: queue.size, running: queue.running }).toEqual({ size: 0, running: 6 });
  });

  it("a workspace that comes back after its line emptied takes its turn after the waiting ones", () => {
    const queue = new FairQueue<Item>(NO_CAPS);
    queue.push(item("a1", "A"));
    queue.push(item("b1", "B"));
    queue.push(item("b2", "B"));
    expect(queue.take()?.name).toBe("a1");
    queue.push(item("a2", "A"));
    expect(drain(queue)).toEqual(["b1", "a2", "b2"]);
  });

  it("within a workspace its users take turns, each user's commands in order", () => {
    const queue = new FairQueue<Item>(NO_CAPS);
    for (const name of ["x1", "x2", "x3"]) queue.push(item(name, "T", "x"));
    queue.push(item("y1", "T", "y"));
    queue.push(item("o1", "O"));
    expect(drain(queue)).toEqual(["x1", "o1", "y1", "x2", "x3"]);
  });

  it("a workspace at its cap is passed over while another waits, and takes what is free when only it waits", () => {
    const queue = new FairQueue<Item>({ perWorkspace: 1, perUser: 100 });
    queue.push(item("a1", "A"));
    queue.push(item("a2", "A"));
    expect(queue.take()?.name).toBe("a1");
    // A's turn comes first (B is new), but A runs its 1 command: B's goes before it.
    queue.push(item("b1", "B"));
    expect(queue.take()?.name).toBe("b1");
    // Both at their cap: nobody under it waits, so the free worker is not left idle.
    expect(queue.take()?.name).toBe("a2");
    expect(queue.load(item("", "A").tenant)).toEqual({ running: 3, yours: 2 });
    queue.finished(item("", "A").tenant);
    queue.finished(item("", "A").tenant);
    queue.finished(item("", "B").tenant);
    expect(queue.running).toBe(0);
  });

  it("a user at their cap is passed over in any workspace; an unknown user has no user cap", () => {
    const queue = new FairQueue<Item>({ perWorkspace: 100, perUser: 1 });
    queue.push(item("u-in-A", "A", "u"));
    expect(queue.take()?.name).toBe("u-in-A");
    queue.push(item("u-in-B", "B", "u"));
    queue.push(item("v-in-C", "C", "v"));
    queue.push(item("anon-1", "D", ""));
    queue.push(item("anon-2", "D", ""));
    // u runs one (in A): their B command waits behind v's and the unknown user's, which has no user cap.
    expect(drain(queue)).toEqual(["v-in-C", "anon-1", "anon-2", "u-in-B"]);
  });

  it("`canStart` decides among heads; a user's later command never overtakes their first", () => {
    const queue = new FairQueue<Item>(NO_CAPS);
    queue.push(item("big", "A"));
    queue.push(item("small", "A"));
    queue.push(item("b1", "B"));
    const notBig = (i: Item) => i.name !== "big";
    expect(queue.take(notBig)?.name).toBe("b1");
    expect(queue.take(notBig)).toBeUndefined();
    expect(drain(queue)).toEqual(["big", "small"]);
  });

  it("takeStarved: only a tenant that runs nothing (and whose workspace is under its cap)", () => {
    const queue = new FairQueue<Item>({ perWorkspace: 1, perUser: 5 });
    queue.push(item("a1", "A", "a"));
    queue.push(item("a2", "A", "a"));
    queue.push(item("t1", "T", "t1"));
    queue.push(item("t2", "T", "t2"));
    expect(queue.take()?.name).toBe("a1");
    expect(queue.take()?.name).toBe("t1");
    // a runs a1; T runs t1 (its cap): t2's user runs nothing, but the workspace is at its cap.
    expect(queue.takeStarved()).toBeUndefined();
    queue.push(item("c1", "C", "c"));
    expect(queue.takeStarved()?.name).toBe("c1");
    expect(queue.takeStarved()).toBeUndefined();
    expect(queue.load(item("", "A", "a").tenant)).toEqual({ running: 3, yours: 1 });
  });

  it("remove drops a waiting item (an abort); has tells whether it waits", () => {
    const queue = new FairQueue<Item>(NO_CAPS);
    const a1 = item("a1", "A");
    const a2 = item("a2", "A");
    queue.push(a1);
    queue.push(a2);
    expect(queue.remove(a1)).toBe(true);
    expect(queue.remove(a1)).toBe(false);
    expect([queue.has(a1), queue.has(a2), queue.size]).toEqual([false, true, 1]);
    expect(drain(queue)).toEqual(["a2"]);
  });

  it("the wait notice names others' and the user's own running commands", () => {
    expect(waitNotice({ running: 2, yours: 0 })).toBe(
      "Waiting for a free execution worker: 2 commands of other users are running. This command starts when one of them ends.",
    );
    expect(waitNotice({ running: 2, yours: 1 })).toBe(
      "Waiting for a free execution worker: 1 command of other users and 1 of yours are running. This command starts when one of them ends.",
    );
    expect(waitNotice({ running: 1, yours: 1 })).toBe(
      "Waiting for a free execution worker: 1 command of yours is running. This command starts when it ends.",
    );
    expect(waitNotice({ running: 0, yours: 0 })).toBe(
      "Waiting for a free execution worker (the workers are starting).",
    );
  });
});
