/**
 * Session context loads from Postgres to the message list (`loadSessionContext`):
 * (a) sessions of 1,000 and 100,000 entries sharing the same 200-entry current branch (the rest on side
 *     branches) — the load must follow the branch, not the session size (target ≤ 5 ms each, 100k within
 *     1.3× of 1k);
 * (b) a 10,000-entry session whose 8,000-entry branch holds 5 compactions — only the entries after the
 *     latest compaction's first kept entry are read (target ≤ 15 ms).
 * Rows are generated with bulk SQL (generate_series), derived columns included.
 */
import { DbScope } from "@/lib/db/client";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { loadSessionContext } from "@/lib/session/context-load";
import { createSession } from "@/lib/session/store";
import type { BenchContext, BenchSection } from "../context";

const RUNS = 100;
const TEXT = "lorem ipsum dolor sit amet ".repeat(8);

/** SQL for the entry JSON of a plain message at index `i` (user when even), parent `p`, id `id`. */
const messageJson = (id: string, parent: string, i: string) => `json_build_object(
  'type', 'message', 'id', ${id}, 'parentId', ${parent},
  'timestamp', to_char(timestamp '2026-01-01' + (${i}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'message', CASE WHEN (${i}) % 2 = 0
    THEN json_build_object('role', 'user', 'content', json_build_array(json_build_object('type', 'text', 'text', '${TEXT}' || (${i}))), 'timestamp', 1767225600000 + (${i}))
    ELSE json_build_object('role', 'assistant', 'content', json_build_array(json_build_object('type', 'text', 'text', '${TEXT}' || (${i}))),
      'api', 'anthropic-messages', 'provider', 'anthropic', 'model', 'claude-a',
      'usage', json_build_object('input', 10, 'output', 10, 'cacheRead', 0, 'cacheWrite', 0, 'totalTokens', 20,
        'cost', json_build_object('input', 0, 'output', 0, 'cacheRead', 0, 'cacheWrite', 0, 'total', 0)),
      'stopReason', 'stop', 'timestamp', 1767225600000 + (${i})) END)`;

const bid = (i: string) => `'b' || lpad(to_hex(${i}), 7, '0')`;
const nid = (i: string) => `'n' || lpad(to_hex(${i}), 7, '0')`;

/** A session whose current branch is `branch` messages long, plus `noise` entries on side chains of 100. */
async function seedShared(scope: DbScope, projectId: string, branch: number, noise: number): Promise<string> {
  const s = await createSession(scope, { projectId, cwd: "/bench" });
  await scope.query(
    `INSERT INTO session_entries (session_id, id, parent_id, type, entry, model_provider, model_id)
     SELECT $1, ${bid("i")}, CASE WHEN i = 0 THEN NULL ELSE ${bid("i - 1")} END, 'message',
            ${messageJson(bid("i"), `CASE WHEN i = 0 THEN NULL ELSE ${bid("i - 1")} END`, "i")},
            CASE WHEN i > 0 THEN 'anthropic' END, CASE WHEN i > 0 THEN 'claude-a' END
       FROM generate_series(0, $2::int - 1) AS i`,
    [s.id, branch],
  );
  if (noise > 0) {
    const parent = `CASE WHEN i % 100 = 0 THEN ${bid(`(i / 100) % ${branch}`)} ELSE ${nid("i - 1")} END`;
    await scope.query(
      `INSERT INTO session_entries (session_id, id, parent_id, type, entry, model_provider, model_id)
       SELECT $1, ${nid("i")}, ${parent}, 'message', ${messageJson(nid("i"), parent, "i")}, 'anthropic', 'claude-a'
         FROM generate_series(0, $2::int - 1) AS i`,
      [s.id, noise],
    );
  }
  await scope.query(`UPDATE sessions SET leaf_id = ${bid("$2::int")} WHERE id = $1`, [s.id, branch - 1]);
  await scope.query("ANALYZE session_entries");
  return s.id;
}

const COMPACTION_EVERY = 1500;
const KEEP = 20;

/** 10,000 entries: an 8,000-entry branch with a compaction every 1,500 entries (5), plus 2,000 side entries. */
async function seedCompacted(scope: DbScope, projectId: string): Promise<string> {
  const s = await createSession(scope, { projectId, cwd: "/bench" });
  const isCompaction = `(i > 0 AND i % ${COMPACTION_EVERY} = 0)`;
  const parent = `CASE WHEN i = 0 THEN NULL ELSE ${bid("i - 1")} END`;
  const compactionJson = `json_build_object('type', 'compaction', 'id', ${bid("i")}, 'parentId', ${parent},
    'timestamp', to_char(timestamp '2026-01-01' + i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'summary', '## Goal\n' || repeat('summary text ', 200), 'firstKeptEntryId', ${bid(`i - ${KEEP}`)}, 'tokensBefore', 100000,
    'systemMessage', json_build_object('role', 'system', 'content', '', 'sections', json_build_object('preamble', repeat('p', 2000)), 'timestamp', 1))`;
  await scope.query(
    `INSERT INTO session_entries (session_id, id, parent_id, type, entry, compaction_id, model_provider, model_id)
     SELECT $1, ${bid("i")}, ${parent}, CASE WHEN ${isCompaction} THEN 'compaction' ELSE 'message' END,
            CASE WHEN ${isCompaction} THEN ${compactionJson} ELSE ${messageJson(bid("i"), parent, "i")} END,
            CASE WHEN i >= ${COMPACTION_EVERY} THEN ${bid(`LEAST(i / ${COMPACTION_EVERY}, 5) * ${COMPACTION_EVERY}`)} END,
            CASE WHEN i > 0 THEN 'anthropic' END, CASE WHEN i > 0 THEN 'claude-a' END
       FROM generate_series(0, 7999) AS i`,
    [s.id],
  );
  const nparent = `CASE WHEN i % 100 = 0 THEN ${bid("(i / 100) * 97 % 8000")} ELSE ${nid("i - 1")} END`;
  await scope.query(
    `INSERT INTO session_entries (session_id, id, parent_id, type, entry, model_provider, model_id)
     SELECT $1, ${nid("i")}, ${nparent}, 'message', ${messageJson(nid("i"), nparent, "i")}, 'anthropic', 'claude-a'
       FROM generate_series(0, 1999) AS i`,
    [s.id],
  );
  await scope.query(`UPDATE sessions SET leaf_id = ${bid("7999")} WHERE id = $1`, [s.id]);
  await scope.query("ANALYZE session_entries");
  return s.id;
}

/**
 * Time `loadSessionContext` on each session, interleaved (one run of each per round, after 20 warm-up
 * rounds) so JIT warm-up and background load hit every case alike.
 */
async function measureAll(
  ctx: BenchContext,
  scope: DbScope,
  sessionIds: string[],
): Promise<{ samples: number[]; messages: number }[]> {
  const out = sessionIds.map(() => ({ samples: [] as number[], messages: 0 }));
  for (let round = 0; round < 20; round++)
    for (const [i, id] of sessionIds.entries())
      out[i].messages = (await loadSessionContext(scope, id, undefined, { cache: false })).messages.length;
  for (let round = 0; round < RUNS; round++)
    // The walk in Postgres, as a fresh instance does it (no cached path prefix).
    for (const [i, id] of sessionIds.entries())
      out[i].samples.push(await ctx.time(() => loadSessionContext(scope, id, undefined, { cache: false })));
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export const sessionSection: BenchSection = {
  name: "session",
  async run(ctx) {
    const scope = new DbScope();
    try {
      const actor = await getLocalActor(scope);
      const project = await insertProject(scope, {
        workspaceId: actor.workspaceId,
        name: "bench-session",
        source: null,
      });
      const small = await seedShared(scope, project.id, 200, 800);
      const large = await seedShared(scope, project.id, 200, 99_800);
      const compacted = await seedCompacted(scope, project.id);
      const floor: number[] = [];
      for (let i = 0; i < RUNS; i++) floor.push(await ctx.time(() => scope.query("SELECT 1")));
      ctx.report("round trip floor (SELECT 1 through the driver)", floor);
      const [a, b, c] = await measureAll(ctx, scope, [small, large, compacted]);
      if (a.messages !== 200 || b.messages !== 200)
        throw new Error(`unexpected context sizes ${a.messages}/${b.messages}`);
      ctx.report("context of a 200-entry branch, 1,000-entry session", a.samples, 5);
      ctx.report("context of a 200-entry branch, 100,000-entry session", b.samples, 5);
      console.log(
        `100k / 1k median ratio: ${(median(b.samples) / median(a.samples)).toFixed(2)} (target ≤ 1.3)`,
      );
      ctx.report(
        `context of an 8,000-entry branch with 5 compactions (${c.messages} messages)`,
        c.samples,
        15,
      );
    } finally {
      await scope.release();
    }
  },
};
