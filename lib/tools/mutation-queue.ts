/**
 * Per-file serialisation of mutations, reimplementing pi's `withFileMutationQueue`
 * (`core/tools/file-mutation-queue.ts`): concurrent edit/write calls on one path run one at a time.
 */

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` after every earlier queued mutation of `path` settled; different paths run in parallel.
 * Returns (or rejects with) `fn`'s result. Queue entries are keyed by the absolute workspace path.
 */
export async function withFileMutationQueue<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const previous = queues.get(path) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(path, settled);
  try {
    return await run;
  } finally {
    if (queues.get(path) === settled) queues.delete(path);
  }
}
