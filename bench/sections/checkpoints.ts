/**
 * Files bound to the session tree (docs/checkpoints.md), on the 2,000-file bench repository imported into a fresh
 * workspace: (a) the run-start comparison of the working tree with the leaf's commit, cold (every file read and hashed)
 * and warm (sizes and mtimes unchanged: metadata only), with no change and with 10 changed files committed as the
 * user's checkpoint; (b) a restore between two commits 10 files apart (keep + checkout + one flush); (c) the diff of a
 * turn of 10 files with line counts.
 */
import { gzipSync } from "fflate";
import { packTar, type TarEntry } from "modern-tar";
import { commitWorkingTree } from "@/lib/agent-session/file-state";
import { diffCommits } from "@/lib/checkpoints/changes";
import { insertProject } from "@/lib/projects/projects";
import { createSession } from "@/lib/session/store";
import { resolveRef } from "@/lib/vfs/git";
import { importArchive } from "@/lib/vfs/import";
import { checkoutSnapshot, commitSnapshot, workingTreeSnapshot } from "@/lib/vfs/worktree";
import type { BenchSection } from "../context";
import { generateRepo } from "./vfs";

const DIR = "/bench";
const author = { name: "Bench", email: "bench@strata.local" };

export const checkpointsSection: BenchSection = {
  name: "checkpoints",
  async run(ctx) {
    const repo = generateRepo(7);
    const encoder = new TextEncoder();
    const tar = await packTar(
      repo.map(({ path, text }): TarEntry => {
        const body = encoder.encode(text);
        return { header: { name: `b/${path}`, size: body.length, type: "file", mode: 0o644 }, body };
      }),
    );
    const w = await ctx.createVfs();
    await importArchive(w.fs, DIR, gzipSync(tar), "b.tar.gz");
    await w.fs.flush();
    const project = await insertProject(w.scope, { workspaceId: w.workspaceId, name: "bench", source: null });
    if (project.rootPath !== DIR) throw new Error(`project root ${project.rootPath}`);
    const session = await createSession(w.scope, { projectId: project.id, cwd: DIR });
    const head = (await resolveRef(w.reopen(), DIR, "HEAD"))!;
    const files = (fs: ReturnType<typeof w.reopen>) => ({ vfs: fs, root: DIR, session });

    // (a) cold: a fresh module cache cannot be had in one process; the first snapshot is cold, the next ones warm.
    const cold = await ctx.time(() => workingTreeSnapshot(w.reopen(), DIR));
    ctx.report("working tree snapshot of 2,000 files, cold (read + hash every file)", [cold]);
    const warm: number[] = [];
    for (let i = 0; i < 7; i++) warm.push(await ctx.time(() => workingTreeSnapshot(w.reopen(), DIR)));
    ctx.report("working tree snapshot, warm (metadata only)", warm, 300);
    const none: number[] = [];
    for (let i = 0; i < 5; i++)
      none.push(
        await ctx.time(async () => {
          const r = await commitWorkingTree(files(w.reopen()), {
            scope: w.scope,
            base: head,
            kind: "user",
            message: "bench",
            author,
          });
          if (r) throw new Error("unexpected change");
        }),
      );
    ctx.report("run-start check, nothing changed (snapshot + commit's tree)", none, 500);
    const targets = repo.filter((f) => f.path.endsWith(".ts"));
    const commits: string[] = [head];
    const ten: number[] = [];
    for (let i = 0; i < 5; i++) {
      const fs = w.reopen();
      for (let k = 0; k < 10; k++)
        await fs.writeFile(
          `${DIR}/${targets[(i * 97 + k * 191) % targets.length].path}`,
          `// edit ${i}.${k}\n`,
        );
      await fs.flush();
      ten.push(
        await ctx.time(async () => {
          const r = await commitWorkingTree(files(w.reopen()), {
            scope: w.scope,
            base: commits[commits.length - 1],
            kind: "user",
            message: "bench",
            author,
          });
          if (r?.paths.length !== 10) throw new Error(`expected 10 paths, got ${r?.paths.length}`);
          commits.push(r.oid);
        }),
      );
    }
    ctx.report("run-start check with 10 changed files, committed as the user's checkpoint", ten, 1000);

    // (b) restore: working tree at commits[i+1] → commits[i] (10 files), keep (nothing) + checkout + flush.
    const restores: number[] = [];
    for (let i = commits.length - 1; i > 0; i--) {
      restores.push(
        await ctx.time(async () => {
          const fs = w.reopen();
          const [current, wanted] = [
            await commitSnapshot(fs, DIR, commits[i]),
            await commitSnapshot(fs, DIR, commits[i - 1]),
          ];
          const changes = await checkoutSnapshot(fs, DIR, current, wanted);
          await fs.flush();
          if (changes.length !== 10) throw new Error(`expected 10 changes, got ${changes.length}`);
        }),
      );
    }
    ctx.report("restore of 10 files between two commits (both trees, checkout, flush)", restores, 1000);

    // (c) a turn's diff with line counts.
    const diffs: number[] = [];
    for (let i = 1; i < commits.length; i++)
      diffs.push(await ctx.time(() => diffCommits(w.reopen(), DIR, commits[i - 1], commits[i])));
    ctx.report("diff of a 10-file turn with +/- line counts", diffs, 500);
    await w.cleanup();
  },
};
