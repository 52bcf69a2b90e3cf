/**
 * What `Vfs.flush()` (lib/vfs/vfs.ts) hands the store and what it keeps after: the cache's pending changes as
 * `NodeChange`s, then the cached entries settled on the versions the store committed. Loose git objects are
 * content-addressed: written without a version check and not counted against the flush limit.
 */
import type { CommitResult, NodeChange } from "./store";
import type { Entry } from "./vfs-cache";

/** True for a git object file: a loose object (`.git/objects/xx/…`) or a pack and its index. */
export function isObjectPath(path: string): boolean {
  return /\/\.git\/objects\/(?:[0-9a-f]{2}\/[0-9a-f]{38}|pack\/pack-[0-9a-f]{40}\.(?:pack|idx))$/.test(path);
}

/**
 * The cache's pending changes in entry order (a put per changed node, a delete per removed node the store holds),
 * the entry each was taken from (`captured`), and the bytes of file and symlink content they write (`bytes`, git
 * objects not counted).
 */
export function pendingChanges(entries: Map<string, Entry>): {
  changes: NodeChange[];
  captured: Map<string, Entry>;
  bytes: number;
} {
  const changes: NodeChange[] = [];
  const captured = new Map<string, Entry>();
  let bytes = 0;
  for (const [path, e] of entries) {
    if (!e.dirty || path === "/") continue;
    if (!e.meta) {
      if (e.base !== null) {
        changes.push({ op: "delete", path, baseVersion: e.base });
        captured.set(path, e);
      }
      continue;
    }
    const data = e.meta.kind === "dir" ? null : (e.data ?? new Uint8Array());
    // Git objects (each at most `maxFlushBytes`) do not count: a checkpoint of a tool call's files must
    // not fail because their blobs join the same total; they are written in bounded statements anyway.
    if (!isObjectPath(path)) bytes += data?.byteLength ?? 0;
    changes.push({
      op: "put",
      path,
      kind: e.meta.kind,
      mode: e.meta.mode,
      data,
      mtimeMs: e.meta.mtimeMs,
      baseVersion: e.base,
      cas: !isObjectPath(path),
    });
    captured.set(path, e);
  }
  return { changes, captured, bytes };
}

/**
 * After the store committed `changes`: each entry is based on the version now stored, and is clean again unless a
 * write made during the commit replaced it (`captured` holds the entries the changes were taken from).
 */
export function settleCommitted(
  entries: Map<string, Entry>,
  changes: NodeChange[],
  captured: Map<string, Entry>,
  existingDirs: CommitResult["existingDirs"],
): void {
  for (const c of changes) {
    // A directory another writer created first is theirs: this VFS now reads it at their version.
    const stored = c.op === "delete" ? null : (existingDirs.get(c.path) ?? (c.baseVersion ?? 0) + 1);
    const current = entries.get(c.path);
    if (!current) continue;
    // A write made during the commit replaced the entry: it stays dirty, now based on what was stored.
    current.base = stored;
    if (current !== captured.get(c.path)) continue;
    current.dirty = false;
    if (current.meta) current.meta.version = stored;
  }
}
