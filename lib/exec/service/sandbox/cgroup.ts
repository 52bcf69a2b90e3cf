/**
 * CPU and disk-I/O limits of sandbox commands through the kernel's control groups (docs/sandbox.md, "Limits"). All
 * sandbox commands share one group, `strata-sandbox`, whose CPU weight is a quarter of an ordinary process's and
 * whose CPU quota is every core but one (at least one): however many commands spin, the app keeps a core on a 2-core
 * machine and wins the others under contention. Each command gets a group of its own below it, capped at one core,
 * with its reads and writes to the disks the sandbox uses throttled. cgroup v2 (`/sys/fs/cgroup/cgroup.controllers`)
 * and v1 (`/sys/fs/cgroup/cpu`, `/sys/fs/cgroup/blkio`) are both handled; without a writable hierarchy (not root, no
 * delegation) commands run without them, and `sandboxCgroupSupport()` says why.
 *
 * Node-only (lib/exec/service/).
 */
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";

/** The cgroup file system's mount point. */
const CGROUP_ROOT = process.env.STRATA_CGROUP_ROOT ?? "/sys/fs/cgroup";
/** The shared group's name. */
export const SANDBOX_CGROUP = "strata-sandbox";
/** CPU period of the quotas (µs). */
const PERIOD_US = 100_000;
/** Disk throughput of one command, each way (bytes/s). */
export const SANDBOX_IO_BYTES_PER_S = 64 * 1024 * 1024;

/** What the limits look like on this machine (for tests, logs and `docs/sandbox.md`). */
export interface CgroupLimits {
  /** Cores all sandbox commands together may use (the shared group's quota). */
  sharedCores: number;
  /** Cores one command may use. */
  commandCores: number;
  /** v1 `cpu.shares` / v2 `cpu.weight` of the shared group (an ordinary process: 1024 / 100). */
  weight: number;
}

/** The limits for a machine of `cores` cores. */
export function cgroupLimits(cores = availableParallelism()): CgroupLimits {
  return { sharedCores: Math.max(1, cores - 1), commandCores: 1, weight: 25 };
}

type Version = { v: 2; dir: string } | { v: 1; cpu: string; blkio?: string };

let support: { ok: true; version: Version } | { ok: false; reason: string } | undefined;

const write = (file: string, value: string) => writeFileSync(file, value);

/** `major:minor` of the block device holding `dir`, or undefined for a virtual file system (tmpfs, overlay). */
export function blockDevice(dir: string): string | undefined {
  try {
    const dev = statSync(dir).dev;
    const major = Math.floor(dev / 256) & 0xfff;
    const minor = (dev & 0xff) | (Math.floor(dev / 4096) & ~0xff);
    return major === 0 ? undefined : `${major}:${minor}`;
  } catch {
    return undefined;
  }
}

/** The devices a command reads and writes: those of /usr (its programs) and `treeParent` (its files). */
function devices(treeParent: string): string[] {
  return [...new Set([blockDevice("/usr"), blockDevice(treeParent)].filter((d): d is string => !!d))];
}

function setUp(): { ok: true; version: Version } | { ok: false; reason: string } {
  const limits = cgroupLimits();
  try {
    if (existsSync(path.join(CGROUP_ROOT, "cgroup.controllers"))) {
      const controllers = readFileSync(path.join(CGROUP_ROOT, "cgroup.controllers"), "utf8");
      if (!/\bcpu\b/.test(controllers)) return { ok: false, reason: "cgroup v2 without the cpu controller" };
      const wanted = /\bio\b/.test(controllers) ? "+cpu +io" : "+cpu";
      write(path.join(CGROUP_ROOT, "cgroup.subtree_control"), wanted);
      const dir = path.join(CGROUP_ROOT, SANDBOX_CGROUP);
      mkdirSync(dir, { recursive: true });
      write(path.join(dir, "cpu.weight"), String(limits.weight));
      write(path.join(dir, "cpu.max"), `${limits.sharedCores * PERIOD_US} ${PERIOD_US}`);
      write(path.join(dir, "cgroup.subtree_control"), wanted);
      return { ok: true, version: { v: 2, dir } };
    }
    const cpuRoot = path.join(CGROUP_ROOT, "cpu");
    if (!existsSync(path.join(cpuRoot, "cpu.shares")))
      return { ok: false, reason: "no cgroup cpu controller" };
    const cpu = path.join(cpuRoot, SANDBOX_CGROUP);
    mkdirSync(cpu, { recursive: true });
    write(path.join(cpu, "cpu.shares"), String(Math.round((limits.weight / 100) * 1024)));
    write(path.join(cpu, "cpu.cfs_period_us"), String(PERIOD_US));
    write(path.join(cpu, "cpu.cfs_quota_us"), String(limits.sharedCores * PERIOD_US));
    const blkioRoot = path.join(CGROUP_ROOT, "blkio");
    let blkio: string | undefined;
    if (existsSync(path.join(blkioRoot, "blkio.throttle.read_bps_device"))) {
      blkio = path.join(blkioRoot, SANDBOX_CGROUP);
      mkdirSync(blkio, { recursive: true });
    }
    return { ok: true, version: { v: 1, cpu, blkio } };
  } catch (error) {
    return { ok: false, reason: `cannot set up cgroups (${(error as Error).message})` };
  }
}

/** Whether commands get CPU and I/O limits here, and why not. Set up once, on the first call. */
export function sandboxCgroupSupport(): { ok: true } | { ok: false; reason: string } {
  support ??= setUp();
  return support.ok ? { ok: true } : support;
}

/** A command's group: the `cgroup.procs` files its first process joins, and its removal. */
export interface CommandCgroup {
  procs: string[];
  /** Remove the group once its last process is gone (the kernel refuses to remove a group that has one). */
  remove(): Promise<void>;
}

/** How long {@link CommandCgroup.remove} waits for the command's last processes to be reaped (ms). */
const REMOVE_WAIT_MS = 5_000;

/**
 * A group for one command, capped at one core, its disk I/O throttled on the devices of /usr and `treeParent`.
 * Undefined when {@link sandboxCgroupSupport} is not ok.
 */
export function commandCgroup(treeParent: string): CommandCgroup | undefined {
  support ??= setUp();
  if (!support.ok) return undefined;
  // The service's pid in the name: a sweep at another service's start leaves this one's groups alone.
  const name = `cmd-${process.pid}-${randomBytes(6).toString("hex")}`;
  const quota = `${cgroupLimits().commandCores * PERIOD_US}`;
  const rate = String(SANDBOX_IO_BYTES_PER_S);
  const dirs: string[] = [];
  const made = (dir: string) => {
    mkdirSync(dir);
    dirs.push(dir);
    return dir;
  };
  try {
    const { version } = support;
    if (version.v === 2) {
      const dir = made(path.join(version.dir, name));
      write(path.join(dir, "cpu.max"), `${quota} ${PERIOD_US}`);
      if (existsSync(path.join(dir, "io.max")))
        for (const d of devices(treeParent))
          write(path.join(dir, "io.max"), `${d} rbps=${rate} wbps=${rate}`);
    } else {
      const cpu = made(path.join(version.cpu, name));
      write(path.join(cpu, "cpu.cfs_period_us"), String(PERIOD_US));
      write(path.join(cpu, "cpu.cfs_quota_us"), quota);
      if (version.blkio) {
        const blkio = made(path.join(version.blkio, name));
        for (const d of devices(treeParent)) {
          write(path.join(blkio, "blkio.throttle.read_bps_device"), `${d} ${rate}`);
          write(path.join(blkio, "blkio.throttle.write_bps_device"), `${d} ${rate}`);
        }
      }
    }
  } catch (error) {
    removeDirs(dirs);
    throw new Error(`sandbox: cannot make the command's cgroup (${(error as Error).message})`);
  }
  return {
    procs: dirs.map((d) => path.join(d, "cgroup.procs")),
    remove: async () => {
      // The command's processes die with its pid namespace when bubblewrap exits; their reaping takes a moment.
      const deadline = Date.now() + REMOVE_WAIT_MS;
      while (removeDirs(dirs).length > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
    },
  };
}

/** Remove the groups that are empty; returns those still busy (a process still exiting; the next sweep removes them). */
function removeDirs(dirs: string[]): string[] {
  const busy: string[] = [];
  for (const dir of dirs)
    try {
      rmdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") busy.push(dir);
    }
  return busy;
}

/**
 * The command groups of services that are gone: `cmd-<pid>-<hex>` whose pid is not alive. The groups of a running
 * service (another test worker's, a second server's on this machine) are never chosen: a group is empty between
 * its creation and its command joining it, and removing it then made that command run without its limits.
 */
export function staleCommandGroups(names: readonly string[], alive: (pid: number) => boolean): string[] {
  return names.filter((name) => {
    const match = /^cmd-(\d+)-[0-9a-f]+$/.exec(name);
    return match !== null && !alive(Number(match[1]));
  });
}

/** Whether process `pid` exists (EPERM: it does, as another user's). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Remove the command groups stopped services left behind (best effort; at start). */
export function sweepCommandCgroups(): void {
  support ??= setUp();
  if (!support.ok) return;
  const { version } = support;
  const parents =
    version.v === 2 ? [version.dir] : [version.cpu, version.blkio].filter((p): p is string => !!p);
  for (const parent of parents)
    removeDirs(staleCommandGroups(safeList(parent), pidAlive).map((name) => path.join(parent, name)));
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The argv that runs `argv` inside `group`: a shell that moves itself into each of the group's `cgroup.procs` files and
 * then becomes `argv`, so every process of the command starts inside the group. A failed move is said on stderr.
 */
export function inCgroup(group: CommandCgroup | undefined, argv: string[]): string[] {
  if (!group) return argv;
  const script =
    'for f; do [ "$f" = -- ] && break; echo $$ > "$f" 2>/dev/null || echo "sandbox: CPU and I/O limits not applied ($f)" >&2; shift; done; shift; exec "$@"';
  return ["/bin/sh", "-c", script, "sh", ...group.procs, "--", ...argv];
}
