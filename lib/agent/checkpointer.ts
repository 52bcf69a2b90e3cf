/**
 * File changes of a run: tool writes are flushed to Postgres as each tool finishes, and after each tool
 * batch the changed project files are committed on the session's ref `refs/heads/strata/session-<id>`
 * (HEAD does not move), reported as a `files_changed` event.
 */
import { checkpoint } from "@/lib/vfs/git";
import type { Vfs } from "@/lib/vfs/vfs";

const DEFAULT_AUTHOR = { name: "Strata", email: "agent@strata.local" };

/** What a checkpoint reports: project-relative paths, sorted, and the commit id. */
export interface FilesChangedEvent {
  type: "files_changed";
  paths: string[];
  commit?: string;
}

export interface Checkpointer {
  /** Flush dirty VFS nodes to Postgres, remembering the project files among them. */
  flush(): Promise<void>;
  /** Flush, then commit the remembered files (no-op when none changed) and emit `files_changed`. */
  checkpoint(): Promise<void>;
}

/**
 * @param target the session's VFS, project root and id.
 * @param options.author commit author (default `Strata <agent@strata.local>`); `emit` receives `files_changed`.
 */
export function createCheckpointer(
  target: { vfs: Vfs; root: string; session: { id: string } },
  options: {
    author?: { name: string; email: string };
    emit: (event: FilesChangedEvent) => Promise<void>;
  },
): Checkpointer {
  const { vfs, root, session } = target;
  const changed = new Set<string>();
  let flushing: Promise<unknown> = Promise.resolve();
  const flush = async (): Promise<void> => {
    flushing = flushing.then(async () => {
      for (const p of vfs.dirtyPaths())
        if (p.startsWith(`${root}/`) && !p.startsWith(`${root}/.git/`) && p !== `${root}/.git`)
          changed.add(p);
      await vfs.flush();
    });
    await flushing;
  };
  return {
    flush,
    async checkpoint(): Promise<void> {
      await flush();
      if (changed.size === 0) return;
      const paths = [...changed].sort();
      changed.clear();
      const result = await checkpoint(vfs, root, {
        changedPaths: paths,
        ref: `refs/heads/strata/session-${session.id}`,
        message: `Strata checkpoint: ${paths.length} file${paths.length === 1 ? "" : "s"} changed`,
        author: options.author ?? DEFAULT_AUTHOR,
      });
      await vfs.flush();
      await options.emit({
        type: "files_changed",
        paths: paths.map((p) => p.slice(root.length + 1)),
        commit: result?.oid,
      });
    },
  };
}
