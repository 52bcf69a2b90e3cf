/**
 * Reverting what a turn or a tool call changed, or one file of it (docs/checkpoints.md): the inverse of the change
 * from commit `from` to commit `to` applied to the working tree — three-way where a file changed again since — and
 * committed as a new checkpoint (`kind: revert`) on the leaf, which a `custom` entry records. History is never
 * rewritten, and a file that cannot be reverted cleanly refuses the whole revert (nothing written).
 */
import { applyPatch, structuredPatch } from "diff";
import { commitWorkingTree, pointCommit, USER_CHANGES_MESSAGE } from "@/lib/agent-session/file-state";
import type { DbScope } from "@/lib/db/client";
import { recordCheckpoint } from "@/lib/session/checkpoint-rows";
import { appendEntry, getSession } from "@/lib/session/store";
import { checkpoint } from "@/lib/vfs/git";
import { sessionRef } from "@/lib/vfs/session-ref";
import type { Vfs } from "@/lib/vfs/vfs";
import {
  assertNoSymlinkParent,
  commitSnapshot,
  diffSnapshots,
  readBlob,
  type TreeChange,
  type TreeSnapshot,
  workingTreeSnapshot,
} from "@/lib/vfs/worktree";
import { DIFF_TIMEOUT_MS, openSessionFiles } from "./changes";
import { CheckpointError, orCommitNotFound } from "./errors";
import { CHECKPOINT_CUSTOM_TYPE } from "./restore";

/** A revert that cannot apply cleanly: the files (project-relative) changed again in a way that conflicts. */
export class RevertConflictError extends CheckpointError {
  constructor(readonly paths: string[]) {
    super(
      409,
      "revert_conflict",
      `Cannot revert ${paths.join(", ")}: changed again since, in the same lines. Nothing was reverted; edit ${paths.length === 1 ? "it" : "them"} by hand or restore an earlier point.`,
    );
    this.name = "RevertConflictError";
  }
}

/** Nothing to revert between the two commits (for the path asked): 409 `nothing_to_revert`. */
export class NothingToRevertError extends CheckpointError {
  constructor(path?: string) {
    super(
      409,
      "nothing_to_revert",
      path ? `${path} did not change there: nothing to revert.` : "No file changed there: nothing to revert.",
    );
    this.name = "NothingToRevertError";
  }
}

const decoder = new TextDecoder();
const isBinary = (bytes: Uint8Array) => bytes.subarray(0, 8000).includes(0);

/** Input of {@link revertChanges}. */
export interface RevertInput {
  scope: DbScope;
  sessionId: string;
  /** The change to undo: from commit `from` (null: the empty tree) to commit `to`. */
  from: string | null;
  to: string;
  /** Only this project-relative file. */
  path?: string;
  author: { name: string; email: string };
  userId: string | null;
  /** What the entry says was reverted (e.g. `turn <id>`, `tool call <id>`). */
  label: string;
}

/** One file of a revert: its project-relative path and what it becomes (null: deleted; `mode` a git mode). */
interface RevertStep {
  path: string;
  write: Uint8Array | null;
  mode?: string;
}

/**
 * Plan every file of the revert before anything is written: a file untouched since `to` goes back to what it was at
 * `from`, one already as it was is left out, and one changed again since gets the inverse patch applied three-way
 * to what is there now. @returns the steps and the files that cannot be reverted cleanly (`conflicts`).
 */
async function planRevert(
  vfs: Vfs,
  root: string,
  changes: TreeChange[],
  working: TreeSnapshot,
): Promise<{ plan: RevertStep[]; conflicts: string[] }> {
  const plan: RevertStep[] = [];
  const conflicts: string[] = [];
  for (const c of changes) {
    const now = working.get(c.path);
    const wantedOid = c.before?.oid;
    if (now?.oid === c.after?.oid || (!now && !c.after)) {
      // Untouched since: back to what it was.
      plan.push({
        path: c.path,
        write: c.before ? await readBlob(vfs, root, c.before.oid) : null,
        mode: c.before?.mode,
      });
      continue;
    }
    if (now?.oid === wantedOid) continue; // already as it was
    // Changed again since: three-way, the inverse patch applied to what is there now.
    if (!now || !c.before || !c.after) {
      conflicts.push(c.path);
      continue;
    }
    const [b, a, n] = await Promise.all([
      readBlob(vfs, root, c.before.oid),
      readBlob(vfs, root, c.after.oid),
      vfs.readFile(`${root}/${c.path}`),
    ]);
    if (isBinary(b) || isBinary(a) || isBinary(n)) {
      conflicts.push(c.path);
      continue;
    }
    // Bounded like the change counts (DIFF_TIMEOUT_MS): texts too different to diff in time are not merged.
    const inverse = structuredPatch(c.path, c.path, decoder.decode(a), decoder.decode(b), "", "", {
      context: 3,
      timeout: DIFF_TIMEOUT_MS,
    });
    const merged = inverse ? applyPatch(decoder.decode(n), inverse) : false;
    if (merged === false) conflicts.push(c.path);
    else plan.push({ path: c.path, write: new TextEncoder().encode(merged), mode: now.mode });
  }
  return { plan, conflicts };
}

/** Write the planned files to the working tree (unflushed): deleted, replaced by a symlink, or written with their mode. */
async function writeRevert(vfs: Vfs, root: string, plan: RevertStep[]): Promise<void> {
  for (const p of plan) {
    const abs = `${root}/${p.path}`;
    if (p.write === null) await vfs.unlink(abs).catch(() => undefined);
    else if (p.mode === "120000") {
      await vfs.unlink(abs).catch(() => undefined);
      await vfs.symlink(decoder.decode(p.write), abs);
    } else await vfs.writeFile(abs, p.write, { mode: p.mode === "100755" ? 0o100755 : 0o100644 });
  }
}

/**
 * Record revert commit `commit` (on `base`): its checkpoint row (`kind: revert`), then the `custom` entry on the
 * leaf that says what was reverted. @returns the entry's id.
 */
async function recordRevert(
  input: RevertInput,
  commit: string,
  base: string | null,
  paths: string[],
): Promise<string> {
  const { scope, sessionId } = input;
  await recordCheckpoint(scope, sessionId, {
    commitOid: commit,
    parentOid: base,
    kind: "revert",
    paths,
    authorUserId: input.userId,
  });
  const entry = await appendEntry(
    scope,
    sessionId,
    {
      type: "custom",
      customType: CHECKPOINT_CUSTOM_TYPE,
      data: { kind: "revert", commit, from: input.from, to: input.to, paths, of: input.label },
    },
    { commit },
  );
  return entry.id;
}

/**
 * Undo the changes `from` → `to` (or of `path` only) in the working tree, as a new checkpoint on the leaf. The
 * working tree's other uncommitted changes are committed first as the user's, so the revert commit holds exactly
 * the reverted files. Call it holding the session's run lock.
 * @returns the revert commit, the files it changed and the recording entry's id.
 * @throws RevertConflictError (nothing written), NothingToRevertError, SessionNotFoundError.
 */
export async function revertChanges(
  input: RevertInput,
): Promise<{ commit: string; paths: string[]; entryId: string }> {
  const { scope, sessionId } = input;
  const target = await openSessionFiles(scope, sessionId);
  const { vfs, root } = target;
  const files = { vfs, root, session: { id: sessionId } };
  const session = await getSession(scope, sessionId);
  const leafCommit = await pointCommit(scope, files, session?.leafId ?? null);
  // A commit of another project (or no commit) answers 404; one whose tree names `.git` or `..` 422.
  const [before, after] = await orCommitNotFound(`${input.from}..${input.to}`, () =>
    Promise.all([commitSnapshot(vfs, root, input.from), commitSnapshot(vfs, root, input.to)]),
  );
  const working = await workingTreeSnapshot(vfs, root);
  const changes = diffSnapshots(before, after).filter((c) => !input.path || c.path === input.path);
  if (changes.length === 0) throw new NothingToRevertError(input.path);

  // Plan every file first: a conflict anywhere writes nothing.
  const { plan, conflicts } = await planRevert(vfs, root, changes, working);
  if (conflicts.length > 0) throw new RevertConflictError(conflicts);
  if (plan.length === 0) throw new NothingToRevertError(input.path);
  // Never through a symlinked folder (an ignored link into `.git` or out of the project), before anything is written.
  for (const p of plan) await assertNoSymlinkParent(vfs, root, p.path);

  // The user's other uncommitted changes first, as their own checkpoint.
  const user = await commitWorkingTree(files, {
    scope,
    base: leafCommit,
    kind: "user",
    message: USER_CHANGES_MESSAGE,
    author: input.author,
    userId: input.userId,
  });
  const base = user?.oid ?? leafCommit;
  await writeRevert(vfs, root, plan);
  const paths = plan.map((p) => p.path).sort();
  const result = await checkpoint(vfs, root, {
    changedPaths: paths.map((p) => `${root}/${p}`),
    ref: sessionRef(sessionId),
    message: `Strata: revert ${input.path ?? `${paths.length} file${paths.length === 1 ? "" : "s"}`} of ${input.label}`,
    author: input.author,
    parent: base,
  });
  await vfs.flush();
  if (!result) throw new NothingToRevertError(input.path);
  const entryId = await recordRevert(input, result.oid, base, paths);
  return { commit: result.oid, paths, entryId };
}
