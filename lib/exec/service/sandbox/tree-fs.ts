/**
 * The disk limit of a sandbox command, enforced by the file system rather than by sampling: when the service runs as
 * root, the directory the tree is materialised into is a tmpfs of exactly the tree's limit, so a write past it fails
 * at once with ENOSPC ("No space left on device") — `fallocate -l 4G` included — instead of being caught up to a
 * second later. Without root the tree is a plain directory and the sampler (bwrap.ts) is the limit.
 *
 * Node-only (lib/exec/service/).
 */
import { spawnSync } from "node:child_process";
import { statfsSync } from "node:fs";

/** A mounted tree file system: `unmount()` detaches it (lazily: a process still exiting keeps it until it goes). */
export interface TreeMount {
  unmount(): void;
}

/**
 * Mount a tmpfs of `bytes` on empty directory `dir`, its root owned by `owner` (the sandbox's user), mode 0755.
 * Undefined when not root (the caller falls back to sampling). @throws Error when mount itself fails as root.
 */
export function mountTreeFs(
  dir: string,
  bytes: number,
  owner?: { uid: number; gid: number },
): TreeMount | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const ids = owner ? `,uid=${owner.uid},gid=${owner.gid}` : "";
  const mounted = spawnSync(
    "mount",
    ["-t", "tmpfs", "-o", `size=${bytes},mode=0755${ids}`, "strata-tree", dir],
    {
      encoding: "utf8",
    },
  );
  if (mounted.status !== 0)
    throw new Error(
      `sandbox: cannot mount the tree's file system: ${(mounted.stderr || mounted.error?.message || "").trim()}`,
    );
  return {
    unmount: () => {
      spawnSync("umount", ["-l", dir]);
    },
  };
}

/**
 * Whether the tree file system at `dir` is (nearly) full: its free space is under 1% or under 64 KiB. False when it
 * cannot be read.
 */
export function treeFsFull(dir: string): boolean {
  try {
    const { bsize, blocks, bavail } = statfsSync(dir);
    const [size, avail] = [blocks * bsize, bavail * bsize];
    return size > 0 && avail < Math.max(64 * 1024, size / 100);
  } catch {
    return false;
  }
}
