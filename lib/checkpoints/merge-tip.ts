/**
 * A session's tip for a merge or a review: its working tree as a commit. Edits since its last checkpoint (editor
 * saves, file operations) are committed as the user's checkpoint on the leaf's commit, as before a prompt
 * (lib/agent-session/file-state.ts `commitWorkingTree`), and bound to the leaf by a `strata.checkpoint` entry: the
 * session then stands on that commit, so a later merge or pull starts from it (a merge base with main, no false
 * conflict) and the next prompt records no changes twice. For a preview the commit is made in memory only.
 */
import { commitWorkingTree, pointCommit, USER_CHANGES_MESSAGE } from "@/lib/agent-session/file-state";
import type { DbScope } from "@/lib/db/client";
import { appendEntry } from "@/lib/session/store";
import type { Vfs } from "@/lib/vfs/vfs";
import { CHECKPOINT_CUSTOM_TYPE } from "./restore";

/**
 * The commit of session `input.session`'s working tree on `own` (its VFS): the leaf's commit, or a new user
 * checkpoint on it when the tree differs; with `store` false the new commit's objects stay in `own` (unflushed, no
 * row), readable through it. null: no repository, or no commit at all.
 */
export async function sessionTip(
  own: Vfs,
  input: {
    scope: DbScope;
    session: { id: string; leafId: string | null };
    project: { rootPath: string };
    author: { name: string; email: string };
    userId: string | null;
  },
  store: boolean,
): Promise<string | null> {
  const target = { vfs: own, root: input.project.rootPath, session: { id: input.session.id } };
  const leaf = await pointCommit(input.scope, target, input.session.leafId);
  const made = await commitWorkingTree(target, {
    scope: input.scope,
    base: leaf,
    kind: "user",
    message: USER_CHANGES_MESSAGE,
    author: input.author,
    userId: input.userId,
    flush: store,
  });
  if (made && store)
    await appendEntry(
      input.scope,
      input.session.id,
      {
        type: "custom",
        customType: CHECKPOINT_CUSTOM_TYPE,
        data: { kind: "user", commit: made.oid, paths: made.paths },
      },
      { commit: made.oid },
    );
  return made?.oid ?? leaf;
}
