/**
 * Checking a change set against the rules root's limits and applying it to a flat tree (blobs written), plus the
 * retried VFS operation every writer of the rules repository runs in.
 */
import type { DbScope } from "@/lib/db/client";
import { VfsConflictError } from "@/lib/vfs/errors";
import { checkPathLimits, MAX_FILE_BYTES, utf8Length } from "@/lib/vfs/limits";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { RulesConflictError, RulesInputError, RulesNotFoundError } from "./errors";
import type { FlatTree, RulesRepo } from "./git-tree";
import { RulesRepo as Repo } from "./git-tree";
import type { RulesChange } from "./types";

/** Most changes one call takes. */
export const MAX_CHANGES = 200;

/** How many times a writer retries after a concurrent writer won (VFS conflict). */
const ATTEMPTS = 12;

/**
 * `path` as a clean relative path of the rules root ("skills/x/SKILL.md"): a leading "/" or "./" is dropped;
 * empty, ".", ".." and ".git" components, backslashes and control characters are refused.
 * @throws RulesInputError; VfsError ENAMETOOLONG over the path limits.
 */
export function cleanRulesPath(raw: string): string {
  const path = raw.replace(/^\/+/, "").replace(/^(\.\/)+/, "");
  const hint = "Use a relative path inside the rules root such as AGENTS.md or skills/review/SKILL.md.";
  if (path === "") throw new RulesInputError(`The path is empty. ${hint}`);
  if (/[\u0000-\u001f\u007f\u0080-\u009f]/.test(path))
    throw new RulesInputError(`The path ${JSON.stringify(raw)} contains control characters. ${hint}`);
  if (path.includes("\\")) throw new RulesInputError(`The path "${raw}" contains a backslash. ${hint}`);
  for (const part of path.split("/")) {
    if (part === "" || part === "." || part === "..")
      throw new RulesInputError(`The path "${raw}" has an empty, "." or ".." component. ${hint}`);
    if (part.toLowerCase() === ".git")
      throw new RulesInputError(`The path "${raw}" is inside .git, which Strata manages. ${hint}`);
  }
  checkPathLimits(path);
  return path;
}

/**
 * Check a change set: 1..MAX_CHANGES changes, clean distinct paths, content within `MAX_FILE_BYTES`.
 * @returns the changes with clean paths, in the given order.
 * @throws RulesInputError (400, or 413 for content over the limit).
 */
export function checkChanges(changes: RulesChange[]): RulesChange[] {
  if (changes.length === 0) throw new RulesInputError("No change given: add at least one file change.");
  if (changes.length > MAX_CHANGES)
    throw new RulesInputError(
      `${changes.length} changes in one go; at most ${MAX_CHANGES} are taken. Split them.`,
    );
  const seen = new Set<string>();
  return changes.map((c) => {
    const path = cleanRulesPath(c.path);
    if (seen.has(path)) throw new RulesInputError(`The path ${path} is given twice; give each file once.`);
    seen.add(path);
    if (c.content !== null) {
      const bytes = utf8Length(c.content);
      if (bytes > MAX_FILE_BYTES)
        throw new RulesInputError(
          `${path} is ${bytes} bytes; the limit is ${MAX_FILE_BYTES} bytes (10 MiB). Write a smaller file.`,
          413,
        );
    }
    return { path, content: c.content };
  });
}

/**
 * `base` with `changes` applied (new blobs written into the repository); `base` itself is not changed.
 * @throws RulesNotFoundError deleting a file `base` does not have; RulesInputError when a file and a folder would
 *   share a path.
 */
export async function applyChanges(
  repo: RulesRepo,
  base: FlatTree,
  changes: RulesChange[],
): Promise<FlatTree> {
  const out: FlatTree = new Map(base);
  for (const c of changes) {
    if (c.content === null) {
      if (!out.delete(c.path))
        throw new RulesNotFoundError(`The team rules have no file ${c.path} to delete; check the path.`);
      continue;
    }
    out.set(c.path, { oid: await repo.writeBlob(c.content), mode: out.get(c.path)?.mode ?? "100644" });
  }
  for (const c of changes) {
    if (c.content === null) continue;
    const parts = c.path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (out.has(dir))
        throw new RulesInputError(
          `${c.path} cannot be written: ${dir} is a file. Delete or rename it first.`,
        );
    }
    const below = `${c.path}/`;
    for (const p of out.keys())
      if (p.startsWith(below))
        throw new RulesInputError(
          `${c.path} cannot be written: it is a folder (holding ${p}). Choose another name.`,
        );
  }
  return out;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Run `fn` on a fresh VFS of the workspace (`/.team` preloaded) and flush what it wrote, as one transaction.
 * When a concurrent writer changed something `fn` read and wrote (a ref, a work-tree file), the flush writes
 * nothing and `fn` runs again on fresh state, so no commit is lost.
 * @throws fn's errors; RulesConflictError after {@link ATTEMPTS} lost races.
 */
export async function withRulesVfs<T>(
  scope: DbScope,
  workspaceId: string,
  fn: (repo: RulesRepo) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const { vfs } = openWorkspaceVfs(workspaceId, scope);
    const repo = new Repo(vfs);
    await repo.preload();
    const result = await fn(repo);
    try {
      if (vfs.dirtyPaths().length > 0) await vfs.flush();
      return result;
    } catch (error) {
      if (!(error instanceof VfsConflictError)) throw error;
      if (attempt >= ATTEMPTS)
        throw new RulesConflictError(
          [],
          "The team rules kept changing while this change was saved; nothing was written. Try again.",
        );
      await sleep(5 + Math.random() * 20 * attempt);
    }
  }
}
