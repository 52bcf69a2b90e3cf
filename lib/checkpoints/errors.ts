/** Errors of `lib/checkpoints` with the HTTP status and code the route layer answers with. */

/** A checkpoint operation refused: `status` and `code` for the HTTP answer, `message` says what to do. */
export class CheckpointError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "CheckpointError";
  }
}

/** `Commit <oid> is not in this project's history`, answered 404. */
export const commitNotFound = (oid: string) =>
  new CheckpointError(404, "not_found", `Commit ${oid} is not in this project's history.`);

/** Turn isomorphic-git's `NotFoundError` for `oid` into {@link commitNotFound}; other errors pass through. */
export async function orCommitNotFound<T>(oid: string | null, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if ((error as { name?: string })?.name === "NotFoundError") throw commitNotFound(oid ?? "(none)");
    throw error;
  }
}
