/** Errors of `lib/checkpoints` with the HTTP status and code the route layer answers with. */

import { StrataError } from "@/lib/errors/strata-error";

/** A checkpoint operation refused: `status` and `code` for the HTTP answer, `message` says what to do. */
export class CheckpointError extends StrataError {
  declare readonly status: number;
  constructor(status: number, code: string, message: string) {
    super(status, code, message);
    this.name = "CheckpointError";
  }
}

/** `Commit <oid> is not in this project's history`, answered 404. */
export const commitNotFound = (oid: string) =>
  new CheckpointError(404, "not_found", `Commit ${oid} is not in this project's history.`);

/**
 * A commit whose tree names a path no checkout may write (`.git`, `..`, a `/` or `\` inside a name): isomorphic-git
 * refuses to read such a tree. Such commits reach the repository only from outside (a refused pull keeps what it
 * fetched); answered 422, nothing written.
 */
export const unsafeCommit = (oid: string) =>
  new CheckpointError(
    422,
    "unsafe_path",
    `Commit ${oid} has an unsafe path (.git, .. or a separator in a name); it cannot be compared, reverted or restored.`,
  );

/**
 * Turn isomorphic-git's `NotFoundError` (and `ObjectTypeError`: the id names a blob or a tree, not a commit) for `oid`
 * into {@link commitNotFound}, and `UnsafeFilepathError` into {@link unsafeCommit}; other errors pass through.
 */
export async function orCommitNotFound<T>(oid: string | null, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const name = (error as { name?: string })?.name;
    if (name === "NotFoundError" || name === "ObjectTypeError") throw commitNotFound(oid ?? "(none)");
    if (name === "UnsafeFilepathError") throw unsafeCommit(oid ?? "(none)");
    throw error;
  }
}
