/**
 * The shell's `git` in a session's working tree (docs/checkpoints.md, "Sessions and the main line"). The session's
 * files are its own (its VFS store is `wt:<session>`) while the repository is the project's, shared with main and
 * every other session: its `HEAD` is main's, so `git status`, `diff` and `log` show the session's work against main.
 * - The **index** is the session's own, as a linked worktree's (`.git/worktrees/strata-session-<id>/index`), copied
 *   on its first write: `git add` in one session stages nothing in main or in another session.
 * - What would **move `HEAD` or its branch** — `commit`, `merge`, `switch`, `reset` to another commit, `checkout` of
 *   a branch or commit, `branch -f/-d/-m` of main's branch — would move main under every session without a review, so it is
 *   refused (exit 128) with what to do instead: Strata commits the session's work on its branch after every turn and
 *   `!command`, and main changes by merging the session. Restoring and unstaging files runs.
 */

import type { FileSystem } from "@/lib/vfs/types";
import { fatal } from "./format";

/** The session whose working tree `fs` is (a VFS over a `wt:<session>` store), or null. */
export function sessionOfFs(fs: FileSystem): string | null {
  const identity = (fs as { store?: { identity?: unknown } }).store?.identity;
  return typeof identity === "string" && identity.startsWith("wt:") ? identity.slice(3) : null;
}

/** Where session `sessionId` keeps its index in the repository at `gitdir`. */
export const worktreeGitdir = (gitdir: string, sessionId: string) =>
  `${gitdir}/worktrees/strata-session-${sessionId}`;

/** What refused writes in the shared repository say (see {@link sessionGitFs}). */
export const SHARED_REPOSITORY_REFUSAL =
  "this session shares the project's repository with main and every other session: git here reads it, stages in the session's own index and stores objects, but does not move HEAD, branches or tags or change the config. Strata commits this session's work on its branch after every turn and !command; merge it from the session menu (\"Review and merge into main…\").";

/** The filesystem calls that write, and which of their arguments are paths. */
const WRITES: Record<string, number[]> = {
  writeFile: [0],
  mkdir: [0],
  unlink: [0],
  rmdir: [0],
  rename: [0, 1],
  symlink: [1],
};

/**
 * `fs` for the shell's git in session `sessionId`: `<gitdir>/index` (and its lock) at the session's own — read from
 * there once it exists (main's until then), always written there — and every other write inside `<gitdir>` refused
 * except objects: whatever a command's arguments say, it cannot move main's `HEAD`, a branch (main's or another
 * session's), a tag or the config. `prepare` makes the session's directory: call it before the command.
 * @throws Error {@link SHARED_REPOSITORY_REFUSAL} from a refused write (git answers it as `fatal:`, exit 128).
 */
export function sessionGitFs(
  fs: FileSystem,
  gitdir: string,
  sessionId: string,
): { fs: FileSystem; prepare: () => Promise<void> } {
  const dir = worktreeGitdir(gitdir, sessionId);
  const own = new Map([
    [`${gitdir}/index`, `${dir}/index`],
    [`${gitdir}/index.lock`, `${dir}/index.lock`],
  ]);
  let ownIndex = false;
  const allowed = (path: string) =>
    !path.startsWith(`${gitdir}/`) || path.startsWith(`${gitdir}/objects/`) || path.startsWith(`${dir}/`);
  const mapped = new Proxy(fs, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      const writes = WRITES[String(prop)];
      return async (...args: unknown[]) => {
        const mappedArgs = args.map((a) =>
          typeof a === "string" && own.has(a) && (writes || ownIndex) ? own.get(a) : a,
        );
        if (writes?.some((i) => typeof mappedArgs[i] === "string" && !allowed(mappedArgs[i] as string)))
          throw new Error(SHARED_REPOSITORY_REFUSAL);
        const result = await value.apply(target, mappedArgs);
        if (writes && mappedArgs.includes(`${dir}/index`)) ownIndex = prop !== "unlink";
        return result;
      };
    },
  });
  const prepare = async () => {
    ownIndex = Boolean(await fs.lstat(`${dir}/index`).catch(() => null));
    if (!ownIndex) await fs.mkdir(dir, { recursive: true });
  };
  return { fs: mapped, prepare };
}

/** `branch` options that move, delete or rename an existing branch. */
const BRANCH_CHANGES = new Set(["--force", "--delete", "--move"]);

/**
 * Refuse, in session `sessionId`, a subcommand that would move the shared `HEAD` or its branch (see the module
 * docstring). `resolve(arg)`: the commit `arg` names, or null (a `reset <rev>` moves HEAD, `reset <path>` does not);
 * `mainBranch`: the branch main's HEAD names (forcing, deleting or renaming it with `branch` is refused too).
 * @throws GitExit 128 with what to do instead.
 */
export async function refuseMovingMain(
  sessionId: string,
  sub: string,
  args: string[],
  resolve: (arg: string) => Promise<string | null>,
  mainBranch: string | null,
): Promise<void> {
  const end = args.indexOf("--");
  const before = end < 0 ? args : args.slice(0, end);
  const operands = before.filter((a) => !a.startsWith("-"));
  // One operand and no paths: `reset <rev>` and `checkout <branch>` move HEAD (to another commit than its own).
  const target = end < 0 && operands.length === 1 ? await resolve(operands[0]) : null;
  let moves = sub === "commit" || sub === "merge" || sub === "switch";
  if (sub === "reset") moves = target !== null && target !== (await resolve("HEAD"));
  if (sub === "checkout")
    moves = before.some((a) => a === "-b" || a === "-B" || a === "--detach") || target !== null;
  // `branch -f/-d/-m main …`: forcing, deleting or renaming main's branch moves main too.
  if (sub === "branch")
    moves =
      before.some((a) => BRANCH_CHANGES.has(a) || /^-[a-zA-Z]*[dDmMf]/.test(a)) &&
      mainBranch !== null &&
      operands.some((a) => a === mainBranch || a === `refs/heads/${mainBranch}`);
  if (!moves) return;
  throw fatal(
    `'git ${sub}' would move the project's main line, which this session shares: the session works on its own copy of the files, and main changes only when the session is merged. Strata commits this session's work on its branch strata/session-${sessionId} after every turn and !command; merge it from the session menu ("Review and merge into main…"). Restoring files ('git restore <path>', 'git checkout -- <path>') and staging work here.`,
  );
}
