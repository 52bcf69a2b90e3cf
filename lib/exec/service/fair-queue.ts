/**
 * The execution pool's waiting line, fair between tenants (docs/exec.md "Sharing the workers"). A command
 * belongs to a workspace and a user (the run's caller; "" when the request names none). Waiting commands are
 * served in turns: round-robin over workspaces, within a workspace round-robin over its users, first come first
 * served within one user. It also counts what each tenant runs, for the caps:
 * - a workspace at its cap (`perWorkspace` commands running) or a user at theirs (`perUser`, across workspaces;
 *   not applied to "") is passed over while a command of a tenant under its caps waits;
 * - when only capped tenants wait, they take what is free (no worker idles while work waits).
 * Pure bookkeeping: no processes, no timers.
 */

/** Whose command it is. `userId` "" is an unknown user: the workspace's commands then count as one user's. */
export interface Tenant {
  workspaceId: string;
  userId: string;
}

/** Concurrency caps: commands running at once per workspace, and per (known) user. Both ≥ 1. */
export interface FairCaps {
  perWorkspace: number;
  perUser: number;
}

/** What a waiting command sees: commands running in all, and how many of them are its own tenant's. */
export interface TenantLoad {
  /** Commands running (taken from the queue and not finished). */
  running: number;
  /** Of them, the user's (for an unknown user: the workspace's). */
  yours: number;
}

/** A waiting line of items of tenants; see the module comment. */
export class FairQueue<T extends { tenant: Tenant }> {
  /** workspace → user → items (FIFO); both maps in turn order (the next to serve first). */
  private readonly lines = new Map<string, Map<string, T[]>>();
  private readonly byWorkspace = new Map<string, number>();
  private readonly byUser = new Map<string, number>();
  private waiting = 0;
  private runningCount = 0;

  constructor(private readonly caps: FairCaps) {}

  /** Commands waiting. */
  get size(): number {
    return this.waiting;
  }

  /** Commands taken and not yet `finished`. */
  get running(): number {
    return this.runningCount;
  }

  /** Add `item` at the end of its user's line (a new workspace or user takes its turn after the others). */
  push(item: T): void {
    const { workspaceId, userId } = item.tenant;
    const users = this.lines.get(workspaceId) ?? new Map<string, T[]>();
    this.lines.set(workspaceId, users);
    const line = users.get(userId) ?? [];
    users.set(userId, line);
    line.push(item);
    this.waiting++;
  }

  /** Drop a waiting `item` (an aborted command). @returns whether it was waiting. */
  remove(item: T): boolean {
    const { workspaceId, userId } = item.tenant;
    const users = this.lines.get(workspaceId);
    const line = users?.get(userId);
    const i = line?.indexOf(item) ?? -1;
    if (!users || !line || i < 0) return false;
    line.splice(i, 1);
    if (line.length === 0) users.delete(userId);
    if (users.size === 0) this.lines.delete(workspaceId);
    this.waiting--;
    return true;
  }

  /** Whether `item` is waiting. */
  has(item: T): boolean {
    return this.lines.get(item.tenant.workspaceId)?.get(item.tenant.userId)?.includes(item) ?? false;
  }

  /**
   * Take the next item whose turn it is and that `canStart` (e.g. "a worker is free for it"), counting it as
   * running: first among tenants under their caps, else (work conserving) among the capped ones. Only the head of
   * each user's line is considered (FIFO within a user). The tenant served goes to the end of the turns.
   * @returns undefined when nothing waiting can start.
   */
  take(canStart: (item: T) => boolean = () => true): T | undefined {
    return (
      this.takeWhere((item) => this.underCaps(item.tenant) && canStart(item)) ?? this.takeWhere(canStart)
    );
  }

  /**
   * Take the next item (in turn order) of a tenant that runs nothing (its user runs nothing anywhere; an unknown
   * user: its workspace runs nothing) and whose workspace is under its cap: the command that gets a worker of its
   * own when every worker is busy. Counted as running. @returns undefined when there is none.
   */
  takeStarved(): T | undefined {
    return this.takeWhere(({ tenant }) => this.load(tenant).yours === 0 && this.underCaps(tenant));
  }

  /** The running command of `tenant` ended (each `take`/`takeStarved` is finished once). */
  finished(tenant: Tenant): void {
    this.runningCount--;
    decrement(this.byWorkspace, tenant.workspaceId);
    if (tenant.userId) decrement(this.byUser, tenant.userId);
  }

  /** Commands running in all and of `tenant`'s user (an unknown user: of its workspace). */
  load(tenant: Tenant): TenantLoad {
    const yours = tenant.userId
      ? (this.byUser.get(tenant.userId) ?? 0)
      : (this.byWorkspace.get(tenant.workspaceId) ?? 0);
    return { running: this.runningCount, yours };
  }

  private underCaps({ workspaceId, userId }: Tenant): boolean {
    if ((this.byWorkspace.get(workspaceId) ?? 0) >= this.caps.perWorkspace) return false;
    return !userId || (this.byUser.get(userId) ?? 0) < this.caps.perUser;
  }

  private takeWhere(accept: (item: T) => boolean): T | undefined {
    for (const [workspaceId, users] of this.lines) {
      for (const [userId, line] of users) {
        const item = line[0];
        if (!accept(item)) continue;
        line.shift();
        this.waiting--;
        // Served: the user goes to the end of the workspace's turns, the workspace to the end of all.
        users.delete(userId);
        if (line.length > 0) users.set(userId, line);
        this.lines.delete(workspaceId);
        if (users.size > 0) this.lines.set(workspaceId, users);
        this.runningCount++;
        increment(this.byWorkspace, workspaceId);
        if (userId) increment(this.byUser, userId);
        return item;
      }
    }
    return undefined;
  }
}

const increment = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

function decrement(map: Map<string, number>, key: string): void {
  const n = (map.get(key) ?? 0) - 1;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}
