/**
 * What git can hold of a working tree (lib/vfs/names.ts `gitNameProblem`), for the commits Strata makes: names it
 * cannot hold are left out with a reason recorded in the commit's message instead of failing the commit (old data
 * may hold them: the VFS refuses to create them since), and trees written before that rule that hold such a name
 * are read without it instead of failing every later read (isomorphic-git's `readTree` refuses the whole tree).
 */
import * as git from "isomorphic-git";
import type { createGitFs } from "./git-fs";
import { gitNameProblem, gitPathProblem, quoteName } from "./names";
import type { Vfs } from "./vfs";

/** A path left out of a commit: project-relative, and the rule it breaks (one of `NAME_ERRORS`). */
export interface SkippedPath {
  path: string;
  reason: string;
}

/** How many skipped paths a commit message lists (the rest are counted). */
const LISTED = 20;

/**
 * Split project-relative paths into those git can hold and those it cannot. A path inside a nested repository's
 * `.git` is dropped without a reason, as git leaves a nested repository's data out; any other name
 * `gitPathProblem` refuses is `skipped` with its reason.
 */
export function holdablePaths(rels: Iterable<string>): { keep: string[]; skipped: SkippedPath[] } {
  const keep: string[] = [];
  const skipped: SkippedPath[] = [];
  for (const rel of rels) {
    if (rel.split("/").includes(".git")) continue;
    const problem = gitPathProblem(rel);
    if (problem) skipped.push({ path: rel, reason: problem.reason });
    else keep.push(rel);
  }
  return { keep, skipped };
}

/**
 * The files and folders of the working tree at `root` (absolute) whose name git cannot hold, project-relative, with
 * why, in path order; nothing below such a folder, nor in any `.git` (the project's or a nested repository's), is
 * looked at. Ignore rules are not applied. Cost: one metadata load of the tree (`.git` left out).
 */
export async function unholdablePaths(vfs: Vfs, root: string): Promise<SkippedPath[]> {
  await vfs.preload(root, { withData: false, except: [`${root}/.git`] });
  const out: SkippedPath[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    for (const name of await vfs.readdir(dir)) {
      if (name === ".git") continue;
      const abs = `${dir}/${name}`;
      const reason = gitNameProblem(name);
      if (reason) out.push({ path: abs.slice(root.length + 1), reason });
      else if ((await vfs.lstat(abs)).kind === "dir") stack.push(abs);
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * `message` with a paragraph recording `skipped` (none: `message` as it is), e.g.
 * `Strata checkpoint: 2 files changed\n\nNot recorded (git cannot hold these names):\n- "a\b.txt": Names must not …`;
 * the first 20 are listed, the rest counted (`- and 3 more`).
 */
export function withSkippedNote(message: string, skipped: readonly SkippedPath[]): string {
  if (skipped.length === 0) return message;
  const lines = skipped.slice(0, LISTED).map((s) => `- ${quoteName(s.path)}: ${s.reason}`);
  if (skipped.length > LISTED) lines.push(`- and ${skipped.length - LISTED} more`);
  const head = message.replace(/\n+$/, "");
  return `${head}\n\nNot recorded (git cannot hold these names):\n${lines.join("\n")}\n`;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const decoder = new TextDecoder();

/**
 * The entries of tree `oid`, like isomorphic-git's `readTree`, except that an entry whose name git cannot hold
 * (written by an older Strata's checkpoint, or fetched from a hostile remote) is left out and named in `dropped`
 * instead of failing the read (isomorphic-git's `UnsafeFilepathError`).
 * @param fs isomorphic-git's filesystem (`createGitFs(vfs)`); `gitdir` absolute; `cache` isomorphic-git's object cache.
 * @throws isomorphic-git `NotFoundError` for a missing object, `ObjectTypeError` when `oid` is not a tree; Error for
 *   a malformed tree.
 */
export async function readTreeLenient(
  fs: ReturnType<typeof createGitFs>,
  gitdir: string,
  oid: string,
  cache: object,
): Promise<{ entries: git.TreeEntry[]; dropped: string[] }> {
  const read = await git.readObject({ fs, gitdir, oid, format: "content", cache });
  if (read.type !== "tree")
    throw new git.Errors.ObjectTypeError(oid, read.type as "blob" | "commit" | "tag", "tree");
  const buf = read.object as Uint8Array;
  const entries: git.TreeEntry[] = [];
  const dropped: string[] = [];
  for (let at = 0; at < buf.length; ) {
    const space = buf.indexOf(32, at);
    const nul = space < 0 ? -1 : buf.indexOf(0, space);
    if (nul < 0 || nul + 21 > buf.length) throw new Error(`Tree ${oid} is malformed at byte ${at}`);
    let mode = decoder.decode(buf.subarray(at, space));
    if (mode === "40000") mode = "040000";
    const path = decoder.decode(buf.subarray(space + 1, nul));
    let hex = "";
    for (let i = nul + 1; i < nul + 21; i++) hex += HEX[buf[i]];
    at = nul + 21;
    if (gitPathProblem(path)) {
      dropped.push(path);
      continue;
    }
    const type = mode === "040000" ? "tree" : mode === "160000" ? "commit" : "blob";
    entries.push({ mode, path, oid: hex, type });
  }
  return { entries, dropped };
}
