/**
 * The per-process bound on open database connections: a counting semaphore with a FIFO queue and a bounded
 * wait. Every `DbScope` connection holds one slot from just before it opens until its close has finished (so
 * the server has let the backend go before the slot is handed on).
 *
 * No deadlock from scopes that keep a connection while they wait on something else (a prompt run keeps its
 * route's connection between statements; an import opens a second scope): a scope that holds a connection but
 * runs no statement registers as idle, and while anyone waits, a holder idle for {@link IDLE_GRACE_MS} gives
 * its connection up (its next statement reopens one, queueing like everyone else). The grace keeps the
 * statements of one request on one connection (they follow each other within a millisecond or so).
 *
 * One state per process: in Next's edge runtime each route bundle runs in its own V8 context with its own
 * copy of this module, so the state (plain data and callbacks, no classes) is kept on the one object Next
 * shares between those contexts (`globalThis[Symbol.for("@next/request-context")]`, Next 16), else on
 * `globalThis`. Errors are created by the caller's own copy.
 */

/** A held slot. `release()` frees it; calling it again does nothing. */
export interface Lease {
  release(): void;
}

/** A scope that holds a slot while running no statement; `yieldConnection` must close it and free the slot. */
export interface IdleHolder {
  yieldConnection(): void;
}

interface Waiter {
  grant(): void;
}

interface LimiterState {
  max: number;
  active: number;
  waiters: Waiter[];
  /** Idle holders, oldest first, with the timer that makes them yield (set only while someone waits). */
  idle: Map<IdleHolder, ReturnType<typeof setTimeout> | undefined>;
}

/** How long a holder may stay idle while others wait before it must give its connection up (ms). */
export const IDLE_GRACE_MS = 50;

const STATE_KEY = Symbol.for("strata.db.connection-limiter.v1");

function anchor(): Record<symbol, unknown> {
  const g = globalThis as unknown as Record<symbol, unknown>;
  const shared = g[Symbol.for("@next/request-context")];
  return typeof shared === "object" && shared !== null && Object.isExtensible(shared)
    ? (shared as Record<symbol, unknown>)
    : g;
}

function state(): LimiterState {
  const holder = anchor();
  let s = holder[STATE_KEY] as LimiterState | undefined;
  if (!s) {
    s = { max: 1, active: 0, waiters: [], idle: new Map() };
    holder[STATE_KEY] = s;
  }
  return s;
}

function lease(s: LimiterState): Lease {
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      s.active--;
      pump(s);
    },
  };
}

function pump(s: LimiterState): void {
  while (s.active < s.max && s.waiters.length > 0) {
    const next = s.waiters.shift() as Waiter;
    s.active++;
    next.grant();
  }
}

/** Make `holder` give its connection up after the grace, unless it is busy again by then. */
function scheduleYield(s: LimiterState, holder: IdleHolder): void {
  if (s.idle.get(holder) !== undefined) return;
  const timer = setTimeout(() => {
    if (!s.idle.has(holder)) return;
    s.idle.delete(holder);
    if (s.waiters.length > 0) holder.yieldConnection();
  }, IDLE_GRACE_MS);
  (timer as unknown as { unref?: () => void }).unref?.();
  s.idle.set(holder, timer);
}

/** Someone waits: every idle holder yields after the grace (one close frees one slot for the first waiter). */
function reclaimIdle(s: LimiterState): void {
  for (const holder of s.idle.keys()) scheduleYield(s, holder);
}

/**
 * Take a slot of `max`, waiting in FIFO order at most `waitMs`.
 * @returns the lease (release it once the connection is closed).
 * @throws whatever `onTimeout()` returns, when no slot came free within `waitMs` (nothing is held then).
 */
export function acquireSlot(options: {
  max: number;
  waitMs: number;
  onTimeout: () => Error;
}): Promise<Lease> {
  const s = state();
  s.max = options.max;
  if (s.active < s.max && s.waiters.length === 0) {
    s.active++;
    return Promise.resolve(lease(s));
  }
  return new Promise<Lease>((resolve, reject) => {
    const waiter: Waiter = {
      grant() {
        clearTimeout(timer);
        resolve(lease(s));
      },
    };
    const timer = setTimeout(() => {
      const i = s.waiters.indexOf(waiter);
      if (i < 0) return; // granted meanwhile
      s.waiters.splice(i, 1);
      reject(options.onTimeout());
    }, options.waitMs);
    s.waiters.push(waiter);
    // The limit may have been raised since the last release.
    pump(s);
    if (s.waiters.includes(waiter)) reclaimIdle(s);
  });
}

/**
 * Say whether `holder` (which holds a slot) is idle. Idle while someone waits (or starting to wait) for
 * {@link IDLE_GRACE_MS}, it is asked to give its connection up.
 */
export function setIdle(holder: IdleHolder, idle: boolean): void {
  const s = state();
  if (!idle) {
    const timer = s.idle.get(holder);
    if (timer !== undefined) clearTimeout(timer);
    s.idle.delete(holder);
    return;
  }
  if (s.idle.has(holder)) return;
  s.idle.set(holder, undefined);
  if (s.waiters.length > 0) scheduleYield(s, holder);
}

/** The limiter's numbers now (for tests and diagnostics): slots held, requests waiting, idle holders. */
export function limiterStats(): { max: number; active: number; waiting: number; idle: number } {
  const s = state();
  return { max: s.max, active: s.active, waiting: s.waiters.length, idle: s.idle.size };
}
