/**
 * A working tree per session (docs/checkpoints.md, "Sessions and the main line") on a 2,000-file project:
 * - a new session (the row; its working tree is main's, no file row copied), target ≤ 200 ms;
 * - a fork's file switch: a new session's tree (main's `HEAD`) becoming a commit one file apart from main
 *   (`switchFiles` with `treeAt`, as `forkWithFiles` does), target ≤ 200 ms;
 * - switching session in the IDE, server side: the session's whole tree listed (`listProjectTree`, what `GET /tree`
 *   answers) and one open file read, for a session with 20 changed files, target ≤ 300 ms;
 * - a change reaching a second tab: the tab polls every `SESSION_WATCH_MS`; the version read must leave the rest of
 *   the 1 s target;
 * - the storage of 100 idle sessions that each changed 2 files: their rows and bytes, against main's.
 */

import { SESSION_WATCH_MS } from "@/components/chat/use-session-watch";
import { switchFiles } from "@/lib/checkpoints/restore";
import { DbScope } from "@/lib/db/client";
import { listProjectTree, readProjectFile } from "@/lib/projects/files";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { sessionVersion } from "@/lib/session/session-version";
import { createSession } from "@/lib/session/store";
import { commitAll, initRepository } from "@/lib/vfs/git";
import { openMainVfs, openSessionVfs } from "@/lib/vfs/workspace";
import type { BenchSection } from "../context";

const FILES = 2000;
const RUNS = 15;
const AUTHOR = { name: "Bench", email: "bench@example.com" };

export const worktreesSection: BenchSection = {
  name: "worktrees",
  async run(ctx) {
    const scope = new DbScope();
    try {
      const actor = await getLocalActor(scope);
      const project = await insertProject(scope, {
        workspaceId: actor.workspaceId,
        name: "wt-bench",
        source: null,
      });
      const root = project.rootPath;
      const main = openMainVfs(actor.workspaceId, { projectId: project.id, root }, scope).vfs;
      await initRepository(main, root);
      for (let i = 0; i < FILES; i++)
        await main.writeFile(`${root}/src/d${i % 50}/f${i}.ts`, `export const v${i} = ${i};\n`);
      // Main one file apart from `base`, as a session's checkpoint would be from main.
      const base = await commitAll(main, root, { message: "init", author: AUTHOR });
      await main.writeFile(`${root}/src/d0/f0.ts`, "export const v0 = 'changed';\n");
      const head = await commitAll(main, root, { message: "one file", author: AUTHOR });
      await main.flush();

      const news: number[] = [];
      for (let i = 0; i < RUNS; i++)
        news.push(await ctx.time(() => createSession(scope, { projectId: project.id, cwd: root })));
      ctx.report(`new session on a ${FILES}-file project (no file row copied)`, news, 200);

      const forks: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const s = await createSession(scope, { projectId: project.id, cwd: root });
        forks.push(
          await ctx.time(() =>
            switchFiles(
              { scope, sessionId: s.id, author: AUTHOR, userId: null, treeAt: head },
              project,
              null,
              base,
            ),
          ),
        );
      }
      ctx.report(`fork's file switch to a commit 1 file from main (${FILES} files)`, forks, 200);

      const busy = await createSession(scope, { projectId: project.id, cwd: root });
      const bfs = openSessionVfs(project, busy.id, scope).vfs;
      for (let i = 0; i < 20; i++)
        await bfs.writeFile(`${root}/src/d${i}/f${i}.ts`, `export const own${i} = 1;\n`);
      await bfs.flush();
      const switches: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        switches.push(
          await ctx.time(async () => {
            const vfs = openSessionVfs(project, busy.id, scope).vfs;
            const tree = await listProjectTree(vfs, root);
            if (tree.length < FILES) throw new Error(`listed ${tree.length} entries`);
            await readProjectFile(vfs, root, "src/d3/f3.ts");
          }),
        );
      }
      ctx.report(`switch session, server side: tree of ${FILES} files + one file`, switches, 300);

      // Live across tabs: a tab polls the session's version every SESSION_WATCH_MS; a change shows within that
      // interval plus one version read (and the re-read of the session).
      const versions: number[] = [];
      for (let i = 0; i < RUNS; i++) versions.push(await ctx.time(() => sessionVersion(scope, busy.id)));
      ctx.report(
        `session version read (a change reaches another tab within ${SESSION_WATCH_MS} ms + this)`,
        versions,
        1000 - SESSION_WATCH_MS,
      );

      const idle: string[] = [];
      for (let i = 0; i < 100; i++) {
        const s = await createSession(scope, { projectId: project.id, cwd: root });
        const vfs = openSessionVfs(project, s.id, scope).vfs;
        await vfs.writeFile(`${root}/src/d1/f${i + 100}.ts`, `export const idle${i} = ${i};\n`);
        await vfs.writeFile(`${root}/notes-${i}.md`, `session ${i}\n`);
        await vfs.flush();
        idle.push(s.id);
      }
      const [rows] = await scope.query<{ n: string; bytes: string }>(
        "SELECT count(*)::text AS n, coalesce(sum(pg_column_size(w.*)), 0)::text AS bytes FROM worktree_nodes w WHERE session_id = ANY($1::uuid[])",
        [idle],
      );
      const [mainRows] = await scope.query<{ n: string; bytes: string }>(
        `SELECT count(*)::text AS n, coalesce(sum(pg_column_size(v.*)), 0)::text AS bytes FROM vfs_nodes v
         WHERE workspace_id = $1 AND path LIKE $2 AND path NOT LIKE $3`,
        [actor.workspaceId, `${root}/%`, `${root}/.git%`],
      );
      console.log(
        `storage of 100 idle sessions that each changed 2 files: ${rows.n} rows, ${rows.bytes} bytes (main's working tree: ${mainRows.n} rows, ${mainRows.bytes} bytes)`,
      );
    } finally {
      await scope.release();
    }
  },
};
