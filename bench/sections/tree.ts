/**
 * The session tree panel (components/session-tree) on a 2,000-entry session with 30 branches: the server's
 * `GET /api/sessions/:id/tree` work (`loadSessionTreeView`: every entry read, the tree built, previews; plus the
 * JSON encoding) and the browser's view model (`buildTreeIndex` + `visibleRows` in the default mode), a filter
 * switch, a search and a move of the leaf. The panel must open in ≤ 300 ms: the target is on their sum.
 */
import type { SessionTreeResponse } from "@/components/chat/session-tree-client";
import { buildTreeIndex, visibleRows } from "@/components/session-tree/view-model";
import { loadSessionTreeView } from "@/lib/agent-session/session-tree";
import { DbScope } from "@/lib/db/client";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import type { SessionEntry } from "@/lib/session/entries";
import { createSession } from "@/lib/session/store";
import type { BenchContext, BenchSection } from "../context";

const RUNS = 30;
const ENTRIES = 2000;
const BRANCHES = 30;
const TEXT = "lorem ipsum dolor sit amet, consectetur adipiscing elit ".repeat(4);

const ts = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

/** A turn's three entries: user prompt, assistant with a read call, its result (ids `<p>-<i>`). */
function turn(prefix: string, i: number, parentId: string | null, at: number): SessionEntry[] {
  const u = `${prefix}u${i}`;
  const a = `${prefix}a${i}`;
  const r = `${prefix}r${i}`;
  const call = `call_${prefix}${i}`;
  return [
    {
      type: "message",
      id: u,
      parentId,
      timestamp: ts(at),
      message: { role: "user", content: [{ type: "text", text: `${TEXT} ${i}` }], timestamp: at },
    },
    {
      type: "message",
      id: a,
      parentId: u,
      timestamp: ts(at + 1),
      message: {
        role: "assistant",
        content: [
          { type: "text", text: `${TEXT} answer ${i}` },
          { type: "toolCall", id: call, name: "read", arguments: { path: `src/file-${i}.ts` } },
        ],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-a",
        usage: {
          input: 1,
          output: 1,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 2,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: "toolUse",
        timestamp: at + 1,
      },
    },
    {
      type: "message",
      id: r,
      parentId: a,
      timestamp: ts(at + 2),
      message: {
        role: "toolResult",
        toolCallId: call,
        toolName: "read",
        content: [{ type: "text", text: TEXT }],
        isError: false,
        timestamp: at + 2,
      },
    },
  ] as SessionEntry[];
}

/** At least 2,000 entries: a main chain, and 29 side branches forking from points spread along it. */
export function treeBenchEntries(): { entries: SessionEntry[]; leafId: string } {
  const entries: SessionEntry[] = [];
  const mainTurns = Math.floor(ENTRIES / 2 / 3);
  let parent: string | null = null;
  let at = 0;
  const main: string[] = [];
  for (let i = 0; i < mainTurns; i++) {
    at += 3;
    const t = turn("m", i, parent, at);
    entries.push(...t);
    parent = t[2].id;
    main.push(parent);
  }
  const leafId = parent!;
  const sideTurns = Math.ceil((ENTRIES - entries.length) / (BRANCHES - 1) / 3);
  for (let b = 1; b < BRANCHES; b++) {
    let p: string | null = main[Math.floor((b * main.length) / BRANCHES)];
    for (let i = 0; i < sideTurns; i++) {
      at += 3;
      const t = turn(`b${b}-`, i, p, at);
      entries.push(...t);
      p = t[2].id;
    }
  }
  return { entries, leafId };
}

async function seed(scope: DbScope, projectId: string): Promise<{ id: string; count: number }> {
  const s = await createSession(scope, { projectId, cwd: "/bench" });
  const { entries, leafId } = treeBenchEntries();
  await scope.query(
    `INSERT INTO session_entries (session_id, id, parent_id, type, entry)
     SELECT $1, t.id, t.parent_id, t.type, t.entry::json
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS t(id, parent_id, type, entry, n)
      ORDER BY t.n`,
    [
      s.id,
      entries.map((e) => e.id),
      entries.map((e) => e.parentId),
      entries.map((e) => e.type),
      entries.map((e) => JSON.stringify(e)),
    ],
  );
  await scope.query("UPDATE sessions SET leaf_id = $2 WHERE id = $1", [s.id, leafId]);
  await scope.query("ANALYZE session_entries");
  return { id: s.id, count: entries.length };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function measure(ctx: BenchContext, scope: DbScope, sessionId: string, count: number): Promise<void> {
  const server: number[] = [];
  const client: number[] = [];
  const filter: number[] = [];
  const search: number[] = [];
  const move: number[] = [];
  let body = "";
  for (let i = 0; i < RUNS; i++) {
    server.push(
      await ctx.time(async () => {
        body = JSON.stringify(await loadSessionTreeView(scope, sessionId));
      }),
    );
    const tree = JSON.parse(body) as SessionTreeResponse;
    let index = buildTreeIndex(tree.nodes, tree.leafId);
    client.push(
      await ctx.time(async () => {
        index = buildTreeIndex(tree.nodes, tree.leafId);
        visibleRows(index, { mode: "default", query: "", folded: new Set() });
      }),
    );
    filter.push(
      await ctx.time(async () => visibleRows(index, { mode: "user-only", query: "", folded: new Set() })),
    );
    search.push(
      await ctx.time(async () =>
        visibleRows(index, { mode: "default", query: "answer 3", folded: new Set() }),
      ),
    );
    // Moving the leaf elsewhere: the panel re-reads the tree and rebuilds its view (no page reload).
    const other = tree.nodes[Math.floor(tree.nodes.length * 0.9)].id;
    move.push(
      await ctx.time(async () => {
        const moved = buildTreeIndex(tree.nodes, other);
        visibleRows(moved, { mode: "default", query: "", folded: new Set() });
      }),
    );
  }
  console.log(
    `session: ${count} entries, ${BRANCHES} branches; /tree answer ${(body.length / 1024).toFixed(0)} KiB`,
  );
  ctx.report("GET /tree server work (read, build, previews, JSON)", server);
  ctx.report("view model build (index + default rows)", client);
  ctx.report("filter switch to user-only", filter);
  ctx.report('search "answer 3"', search);
  ctx.report("leaf moved: index + rows rebuilt", move);
  const open = median(server) + median(client);
  console.log(
    `open = server + view model: ${open.toFixed(1)} ms (target ≤ 300 ms ${open <= 300 ? "met" : "MISSED"})`,
  );
}

export const treeSection: BenchSection = {
  name: "tree",
  async run(ctx) {
    const scope = new DbScope();
    try {
      const actor = await getLocalActor(scope);
      const project = await insertProject(scope, {
        workspaceId: actor.workspaceId,
        name: "bench-tree",
        source: null,
      });
      const { id, count } = await seed(scope, project.id);
      await measure(ctx, scope, id, count);
    } finally {
      await scope.release();
    }
  },
};
