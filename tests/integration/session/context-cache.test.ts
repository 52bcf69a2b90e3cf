/**
 * The context-path cache (`lib/session/context-cache.ts`) against the real Postgres: after any sequence of
 * appends, branch moves and compactions, a cached load equals an uncached one and pi's projection of all
 * entries, for the current leaf and for random other leaves.
 *
 * Property runs and seed: tests/helpers/property.ts (25 operation sequences, each against the database;
 * × STRATA_PROPERTY_RUNS / 1,000 in `npm run test:property:deep`); a failure prints the seed and the command that
 * replays it (`STRATA_PROPERTY_SEED=<seed>`).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentMessage } from "@/lib/agent/messages";
import { DbScope } from "@/lib/db/client";
import { emptyUsage } from "@/lib/llm/types";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { ContextPathCache, joinCachedPath } from "@/lib/session/context-cache";
import { contextPathCache, loadAllEntries, loadSessionContext } from "@/lib/session/context-load";
import type { SessionEntry } from "@/lib/session/entries";
import { buildSessionContext } from "@/lib/session/projection";
import { appendCompaction, appendEntry, branch, createSession, getSession } from "@/lib/session/store";
import { propertyParameters } from "../../helpers/property";

let scope: DbScope;
let projectId: string;

beforeAll(async () => {
  scope = new DbScope();
  const actor = await getLocalActor(scope);
  projectId = (await insertProject(scope, { workspaceId: actor.workspaceId, name: "cache", source: null }))
    .id;
});
afterAll(async () => {
  await scope.release();
});

const message = (i: number): AgentMessage =>
  i % 2 === 0
    ? { role: "user", content: [{ type: "text", text: `u${i}` }], timestamp: i }
    : {
        role: "assistant",
        content: [{ type: "text", text: `a${i}` }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-a",
        usage: emptyUsage(),
        stopReason: "stop",
        timestamp: i,
      };

type Op =
  | { kind: "append"; count: number }
  | { kind: "branch"; pick: number }
  | { kind: "compact"; pick: number }
  | { kind: "load"; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant("append" as const), count: fc.integer({ min: 1, max: 4 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("branch" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("compact" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("load" as const), pick: fc.nat() }) },
);

describe("context path cache", () => {
  it("cached loads equal uncached loads and pi's projection after random appends, branches, compactions", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 25 }), async (ops) => {
        const s = await createSession(scope, { projectId, cwd: "/cache" });
        let n = 0;
        const check = async (leafId?: string) => {
          const cached = await loadSessionContext(scope, s.id, leafId);
          const all = await loadAllEntries(scope, s.id);
          const leaf = leafId ?? (await getSession(scope, s.id))?.leafId ?? null;
          expect(cached).toEqual(buildSessionContext(all, leaf));
          contextPathCache.clear();
          expect(await loadSessionContext(scope, s.id, leafId)).toEqual(cached);
        };
        for (const o of ops) {
          const all: SessionEntry[] = await loadAllEntries(scope, s.id);
          if (o.kind === "append") {
            for (let i = 0; i < o.count; i++)
              await appendEntry(scope, s.id, { type: "message", message: message(n++) });
          } else if (o.kind === "branch" && all.length > 0) {
            await branch(scope, s.id, all[o.pick % all.length].id);
          } else if (o.kind === "compact" && all.length > 0) {
            const leafId = (await getSession(scope, s.id))?.leafId;
            const byId = new Map(all.map((e) => [e.id, e]));
            const path: SessionEntry[] = [];
            for (
              let e = leafId ? byId.get(leafId) : undefined;
              e;
              e = e.parentId ? byId.get(e.parentId) : undefined
            )
              path.unshift(e);
            const kept = path.filter((e) => e.type === "message");
            if (kept.length > 0)
              await appendCompaction(scope, s.id, {
                summary: `S${n++}`,
                firstKeptEntryId: kept[o.pick % kept.length].id,
                tokensBefore: 1,
              });
          } else if (o.kind === "load" && all.length > 0) {
            await check(all[o.pick % all.length].id);
          }
          await check();
        }
      }),
      propertyParameters({ numRuns: 25 }),
    );
  });
});

describe("joinCachedPath", () => {
  const e = (id: string, parentId: string | null): SessionEntry =>
    ({ type: "message", id, parentId, timestamp: "t", message: message(0) }) as SessionEntry;
  const cached = { leafId: "c", path: [e("a", null), e("b", "a"), e("c", "b")] };

  it("appends the walk after the cached leaf, trims to firstKept, refuses what does not join", () => {
    expect(joinCachedPath(cached, [e("c", "b"), e("d", "c")], null)?.map((x) => x.id)).toEqual([
      "a",
      "b",
      "c",
      "d",
    ]);
    expect(joinCachedPath(cached, [e("c", "b"), e("d", "c")], "b")?.map((x) => x.id)).toEqual([
      "b",
      "c",
      "d",
    ]);
    expect(joinCachedPath(cached, [e("c", "b"), e("d", "c")], "zz")).toBeUndefined();
    expect(joinCachedPath(cached, [e("x", null)], null)).toBeUndefined();
  });

  it("the LRU keeps the newest sessions and drops empty paths", () => {
    const lru = new ContextPathCache(2);
    lru.set("s1", cached.path);
    lru.set("s2", cached.path);
    lru.get("s1");
    lru.set("s3", cached.path);
    expect([lru.get("s1")?.leafId, lru.get("s2"), lru.get("s3")?.leafId]).toEqual(["c", undefined, "c"]);
    lru.set("s1", []);
    expect(lru.get("s1")).toBeUndefined();
  });
});

describe("appendEntry under a known leaf (one statement)", () => {
  it("concurrent appends from several instances' scopes form one chain; a branch move is respected", async () => {
    const s = await createSession(scope, { projectId, cwd: "/cache" });
    await appendEntry(scope, s.id, { type: "message", message: message(0) });
    const scopes = [new DbScope(), new DbScope(), new DbScope()];
    await Promise.all(
      scopes.map(async (sc, k) => {
        for (let i = 0; i < 10; i++)
          await appendEntry(sc, s.id, { type: "message", message: message(k * 100 + i) });
      }),
    );
    await Promise.all(scopes.map((sc) => sc.release()));
    const all = await loadAllEntries(scope, s.id);
    expect(all).toHaveLength(31);
    // Every entry's parent is the entry appended just before it: a single chain, no fork.
    expect(all.map((e) => e.parentId)).toEqual([null, ...all.slice(0, -1).map((e) => e.id)]);
    expect((await getSession(scope, s.id))?.leafId).toBe(all[30].id);

    await branch(scope, s.id, all[5].id);
    const next = await appendEntry(scope, s.id, { type: "message", message: message(999) });
    expect(next.parentId).toBe(all[5].id);
    expect((await getSession(scope, s.id))?.leafId).toBe(next.id);
  });
});
