/**
 * The timers one module of the code under test starts: `setTimeout` is wrapped (the timers still run, with their
 * real delays) and each call made by code in `file` itself (the caller's frame, not a deeper one: a timer the
 * database driver starts under a query of that module is not its timer) is recorded with the delay it asked for.
 * What a test checks with it is the schedule the code computed (its backoff, its poll interval), not elapsed time.
 */
import { vi } from "vitest";

/** The delays (ms) of the timers `file` started while `fn` ran, in order. */
export async function timersStartedBy(file: string, fn: () => Promise<unknown>): Promise<number[]> {
  const delays: number[] = [];
  const real = globalThis.setTimeout;
  const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((
    callback: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 50;
    const stack = new Error().stack ?? "";
    Error.stackTraceLimit = limit;
    if (callerFrame(stack)?.includes(file)) delays.push(ms ?? 0);
    return real(callback, ms, ...args);
  }) as typeof setTimeout);
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return delays;
}

/** The frame of `stack` that called `setTimeout`: the first below this helper and the spy's own (node_modules). */
function callerFrame(stack: string): string | undefined {
  return stack
    .split("\n")
    .slice(1)
    .find((line) => !line.includes("/tests/helpers/timers.ts") && !line.includes("/node_modules/"));
}
