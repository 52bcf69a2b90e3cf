/**
 * The per-process bound on open database connections: a counting semaphore with a FIFO queue and a bounded
 * wait. Every `DbScope` connection holds one slot from just before it opens until its close has finished (so
 * the server has let the backend go before the slot is handed on).
 *
 * No deadlock from scopes that keep a connection while they wait on something else (a prompt run keeps its
 * route's connection between statements; an import opens a second scope): a scope that holds a connection but
 * runs no statement registers as idle, and while anyone waits, idle holders give their connection up (their
 * next statement reopens one, queueing like everyone else). A slot is only ever held by a scope that is
 * running a statement, or by a close in progress.
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
  idle: Set<IdleHolder>;
}

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
    s = { max: 1, active: 0, waiters: [], idle: new Set() };
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

/** Ask one idle holder to give its connection up (its close frees the slot for the first waiter). */
function reclaimIdle(s: LimiterState): void {
  const holder = s.idle.values().next().value;
  if (!holder) return;
  s.idle.delete(holder);
  holder.yieldConnection();
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
 * Say whether `holder` (which holds a slot) is idle. Becoming idle while someone waits makes it give its
 * connection up at once.
 */
export function setIdle(holder: IdleHolder, idle: boolean): void {
  const s = state();
  if (!idle) {
    s.idle.delete(holder);
    return;
  }
  if (s.waiters.length > 0) holder.yieldConnection();
  else s.idle.add(holder);
}

/** The limiter's numbers now (for tests and diagnostics): slots held, requests waiting, idle holders. */
export function limiterStats(): { max: number; active: number; waiting: number; idle: number } {
  const s = state();
  return { max: s.max, active: s.active, waiting: s.waiters.length, idle: s.idle.size };
}
