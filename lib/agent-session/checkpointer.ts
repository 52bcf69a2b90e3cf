/**
 * File changes of a run: tool writes are flushed to Postgres as each tool finishes, and after each tool
 * batch the changed project files are committed on the session's ref `refs/heads/strata/session-<id>`
 * (HEAD does not move), reported as a `files_changed` event.
 *
 * Nothing is left uncommitted by a run that dies: before a flush the project paths it writes are recorded in
 * `session_pending_paths` (with the run's id), and cleared once their checkpoint commit is stored. The next
 * prompt run commits what a dead run left as a recovery checkpoint ({@link recoverInterruptedRun}) and tells
 * the user with a displayed `custom_message`.
 */

import type { CustomMessage } from "@/lib/agent/messages";
import type { DbScope } from "@/lib/db/client";
import { type CheckpointKind, recordCheckpoint } from "@/lib/session/checkpoint-rows";
import {
  clearInterruptedPaths,
  clearPendingPaths,
  interruptedPaths,
  recordPendingPaths,
} from "@/lib/session/pending-paths";
import { appendEntry } from "@/lib/session/store";
import { VfsConflictError } from "@/lib/vfs/errors";
import { checkpoint } from "@/lib/vfs/git";
import { sessionRef } from "@/lib/vfs/session-ref";
import type { Vfs } from "@/lib/vfs/vfs";

const DEFAULT_AUTHOR = { name: "Strata", email: "agent@strata.local" };

/** Commit message of a recovery checkpoint. */
export const RECOVERY_COMMIT_MESSAGE = "Recovery checkpoint: files changed by an interrupted run";
/** `customType` of the chat notice stored with a recovery checkpoint. */
export const RECOVERY_CUSTOM_TYPE = "strata.recovery";

/** What a checkpoint reports: project-relative paths, sorted, and the commit id. */
export interface FilesChangedEvent {
  type: "files_changed";
  paths: string[];
  commit?: string;
}

export interface Checkpointer {
  /**
   * Record the project files among the VFS's dirty nodes and those written for it elsewhere (`Vfs.forget`: the
   * execution service's shell) as pending, then flush them to Postgres. `toolCallId`: the tool call that just
   * ended; `claimed`: the files it names (a `write`/`edit` path) — credited to it alone, also when another call's
   * flush stored them first. Without `claimed`, the call is credited the files no call claimed.
   */
  flush(toolCallId?: string, claimed?: string[]): Promise<void>;
  /** Flush, then commit the remembered files (no-op when none changed), clear them, emit `files_changed`. */
  checkpoint(): Promise<void>;
  /**
   * The commit the files are at (docs/checkpoints.md): the `base` given, then each checkpoint made; undefined when
   * no base was given and nothing was committed (entries then inherit their parent's).
   */
  head(): string | null | undefined;
}

const isProjectPath = (root: string, p: string) =>
  p.startsWith(`${root}/`) && !p.startsWith(`${root}/.git/`) && p !== `${root}/.git`;

/**
 * `vfs.flush()`; after a `VfsConflictError`, once more on top of what the other writer stored. Tool writes: another
 * writer changed these files since the run read them (a restore, which committed what it wrote, or an editor save);
 * the tool's write is what the agent just did (docs/checkpoints.md). The session ref: a `!command` beside the run
 * checkpointed on it meanwhile; both commits are stored, the ref names the newest, and entries bind commits by oid.
 */
async function flushOnTopOf(vfs: Vfs, sessionId: string): Promise<void> {
  try {
    await vfs.flush();
  } catch (error) {
    if (!(error instanceof VfsConflictError)) throw error;
    console.warn(`[strata] session ${sessionId}: ${error.message}; the run's writes go on top`);
    await vfs.rebase(error.paths);
    await vfs.flush();
  }
}

/**
 * Which tool call changed which file, until the next checkpoint: tool call id → the absolute paths credited to it;
 * path → the call that claimed it by name (an edit or write names its file; a shell command is credited with what
 * changed and nobody claimed).
 */
class ToolCallCredits {
  private readonly byCall = new Map<string, Set<string>>();
  private readonly claimedBy = new Map<string, string>();

  private credit(id: string, path: string): void {
    const mine = this.byCall.get(id) ?? new Set<string>();
    mine.add(path);
    this.byCall.set(id, mine);
  }

  /** Call `toolCallId` named `paths` (each changed): they are its alone, taken from any other call. */
  claim(toolCallId: string, paths: string[]): void {
    for (const p of paths) {
      for (const [id, set] of this.byCall) if (id !== toolCallId) set.delete(p);
      this.claimedBy.set(p, toolCallId);
      this.credit(toolCallId, p);
    }
  }

  /** Credit `toolCallId` with each of `paths` no call claimed by name. */
  creditUnclaimed(toolCallId: string, paths: string[]): void {
    for (const p of paths) if (!this.claimedBy.has(p)) this.credit(toolCallId, p);
  }

  /** The credits as `{ toolCallId: sorted paths mapped by rel }` (calls without paths left out), then forget them. */
  take(rel: (path: string) => string): Record<string, string[]> {
    const calls = Object.fromEntries(
      [...this.byCall].filter(([, set]) => set.size > 0).map(([id, set]) => [id, [...set].sort().map(rel)]),
    );
    this.byCall.clear();
    this.claimedBy.clear();
    return calls;
  }
}

/**
 * @param target the session's VFS, project root and id.
 * @param options.author commit author (default `Strata <agent@strata.local>`); `emit` receives `files_changed`;
 *   `scope` (the VFS's database scope) records pending paths, for run `runId` (none: a lock-less writer);
 *   without `scope` nothing is recorded (a VFS not in Postgres). `base`: the commit the run starts from (the leaf's,
 *   docs/checkpoints.md), the parent of the first checkpoint, each next one on the previous; omitted, checkpoints
 *   go on the session ref's commit. `kind` (default `agent`) and `userId` describe the checkpoint rows.
 */
export function createCheckpointer(
  target: { vfs: Vfs; root: string; session: { id: string } },
  options: {
    author?: { name: string; email: string };
    emit: (event: FilesChangedEvent) => Promise<void>;
    scope?: DbScope;
    runId?: string;
    base?: string | null;
    kind?: CheckpointKind;
    userId?: string | null;
  },
): Checkpointer {
  const { vfs, root, session } = target;
  const runId = options.runId ?? null;
  const changed = new Set<string>();
  const credits = new ToolCallCredits();
  let head = options.base;
  let flushing: Promise<unknown> = Promise.resolve();
  const flushOnTop = () => flushOnTopOf(vfs, session.id);
  const flushOnce = async (toolCallId?: string, claimed?: string[]): Promise<void> => {
    // Paths the execution service wrote (`Vfs.forget`) are already in Postgres: recorded again under this run
    // (moving them from the service's writer to it) and committed with the VFS's own changes.
    const touched = [...vfs.dirtyPaths(), ...vfs.takeChangedElsewhere()];
    const project = [...new Set(touched)].filter((p) => isProjectPath(root, p));
    const fresh = project.filter((p) => !changed.has(p));
    if (toolCallId && claimed)
      credits.claim(
        toolCallId,
        claimed.filter((p) => changed.has(p) || project.includes(p)),
      );
    else if (toolCallId) credits.creditUnclaimed(toolCallId, project);
    if (options.scope) await recordPendingPaths(options.scope, session.id, runId, fresh);
    for (const p of fresh) changed.add(p);
    await flushOnTop();
  };
  const flush = async (toolCallId?: string, claimed?: string[]): Promise<void> => {
    // A failed flush does not block the next one.
    const run = () => flushOnce(toolCallId, claimed);
    const next = flushing.then(run, run);
    flushing = next.catch(() => undefined);
    await next;
  };
  const rel = (p: string) => p.slice(root.length + 1);
  return {
    flush,
    head: () => head,
    async checkpoint(): Promise<void> {
      await flush();
      if (changed.size === 0) return;
      const paths = [...changed].sort();
      const result = await checkpoint(vfs, root, {
        changedPaths: paths,
        ref: sessionRef(session.id),
        message: `Strata checkpoint: ${paths.length} file${paths.length === 1 ? "" : "s"} changed`,
        author: options.author ?? DEFAULT_AUTHOR,
        ...(head !== undefined ? { parent: head } : {}),
      });
      await flushOnTop();
      for (const p of paths) changed.delete(p);
      const calls = credits.take(rel);
      if (result && options.scope) {
        await recordCheckpoint(options.scope, session.id, {
          commitOid: result.oid,
          parentOid: head ?? null,
          kind: options.kind ?? "agent",
          paths: recorded(paths.map(rel), result.skipped),
          toolCalls: Object.keys(calls).length > 0 ? calls : null,
          authorUserId: options.userId ?? null,
        });
      }
      if (result) head = result.oid;
      if (options.scope) await clearPendingPaths(options.scope, session.id, runId, paths);
      await options.emit({
        type: "files_changed",
        paths: paths.map(rel),
        commit: result?.oid,
      });
    },
  };
}

/** The project-relative `paths` a checkpoint row lists: those its commit holds (not the names git cannot hold). */
function recorded(paths: string[], skipped: readonly { path: string }[]): string[] {
  if (skipped.length === 0) return paths;
  const left = new Set(skipped.map((s) => s.path));
  return paths.filter((p) => !left.has(p));
}

/** The notice text of a recovery checkpoint of `paths` (project-relative) as `commit`. */
export function recoveryNotice(paths: string[], commit: string): string {
  const list =
    paths.length <= 20 ? paths.join(", ") : `${paths.slice(0, 20).join(", ")} and ${paths.length - 20} more`;
  return `An interrupted run left ${paths.length} changed file${paths.length === 1 ? "" : "s"} without a checkpoint; they were committed as recovery checkpoint ${commit.slice(0, 7)}: ${list}.`;
}

/**
 * When writers that are gone left files uncommitted in the session (a run that died, or ended on a database
 * error, between its flush and its checkpoint), commit them as one recovery checkpoint on the session's ref,
 * then forget them. Call it while holding the session's run lock `runId`, before anything else writes.
 * @returns the notice to store and show (a displayed `custom_message`, `details` = `{ commit, paths }`) and the
 *   `files_changed` event; undefined when nothing was left, or what was left did not differ from the checkpoint.
 */
export async function recoverInterruptedRun(
  target: { vfs: Vfs; root: string; session: { id: string } },
  options: {
    scope: DbScope;
    runId: string;
    author?: { name: string; email: string };
    /** The commit to build on (the leaf's); omitted, the session ref's. */
    base?: string | null;
    userId?: string | null;
  },
): Promise<
  { message: CustomMessage<{ commit: string; paths: string[] }>; event: FilesChangedEvent } | undefined
> {
  const { vfs, root, session } = target;
  const all = await interruptedPaths(options.scope, session.id, options.runId);
  const paths = all.filter((p) => isProjectPath(root, p));
  if (all.length === 0) return undefined;
  const result = await checkpoint(vfs, root, {
    changedPaths: paths,
    ref: sessionRef(session.id),
    message: RECOVERY_COMMIT_MESSAGE,
    author: options.author ?? DEFAULT_AUTHOR,
    ...(options.base !== undefined ? { parent: options.base } : {}),
  });
  await vfs.flush();
  await clearInterruptedPaths(options.scope, session.id, options.runId, all);
  if (!result) return undefined;
  await recordCheckpoint(options.scope, session.id, {
    commitOid: result.oid,
    parentOid: options.base ?? null,
    kind: "recovery",
    paths: recorded(
      paths.map((p) => p.slice(root.length + 1)),
      result.skipped,
    ),
    authorUserId: options.userId ?? null,
  });
  // What to tell: the files (a directory that still exists is not news of its own).
  const rel: string[] = [];
  for (const p of paths) {
    const st = await vfs.lstat(p).catch(() => null);
    if (st?.kind !== "dir") rel.push(p.slice(root.length + 1));
  }
  return {
    message: {
      role: "custom",
      customType: RECOVERY_CUSTOM_TYPE,
      content: recoveryNotice(rel, result.oid),
      display: true,
      details: { commit: result.oid, paths: rel },
      timestamp: Date.now(),
    },
    event: { type: "files_changed", paths: rel, commit: result.oid },
  };
}

/**
 * {@link recoverInterruptedRun}, then store its notice (a `custom_message` entry on the current leaf) and
 * stream it (`message_start`/`message_end`, then `files_changed`).
 * @returns the id of the stored notice entry (the session's new leaf) and the recovery commit it records, or
 *   undefined when nothing was recovered.
 */
export async function recoverAndNotify(
  target: { vfs: Vfs; root: string; session: { id: string } },
  options: {
    scope: DbScope;
    runId: string;
    author?: { name: string; email: string };
    base?: string | null;
    userId?: string | null;
    emit: (
      event: FilesChangedEvent | { type: "message_start" | "message_end"; message: CustomMessage },
    ) => Promise<void>;
  },
): Promise<{ entryId: string; commit: string } | undefined> {
  const recovered = await recoverInterruptedRun(target, options);
  if (!recovered) return undefined;
  const { message } = recovered;
  const entry = await appendEntry(
    options.scope,
    target.session.id,
    {
      type: "custom_message",
      customType: message.customType,
      content: message.content,
      display: message.display,
      details: message.details,
    },
    { commit: recovered.event.commit },
  );
  await options.emit({ type: "message_start", message });
  await options.emit({ type: "message_end", message });
  await options.emit(recovered.event);
  return { entryId: entry.id, commit: recovered.event.commit as string };
}
