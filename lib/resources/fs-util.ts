/**
 * Filesystem helpers shared by the resource loaders: BOM stripping, UTF-8 decoding, symlink-aware
 * canonical paths confined to a workspace root, and optional VFS cache warm-up.
 */
import { basenamePosix, dirnamePosix, isInsideRoot, normalizePosix } from "@/lib/vfs/paths";
import type { FileSystem, VfsStat } from "@/lib/vfs/types";

/** A problem found while loading resources (pi's `ResourceDiagnostic` shape, `diagnostics.ts`). */
export interface ResourceDiagnostic {
  type: "warning" | "error" | "collision";
  message: string;
  /** Absolute VFS path the diagnostic is about. */
  path?: string;
  collision?: {
    resourceType: "skill" | "prompt" | "context";
    name: string;
    winnerPath: string;
    loserPath: string;
  };
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Removes one leading U+FEFF (pi `utils/text.ts` `stripBom`). */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Reads `path` as UTF-8 with the BOM kept (callers strip where pi strips). */
export async function readUtf8(fs: FileSystem, path: string): Promise<string> {
  return decoder.decode(await fs.readFile(path));
}

/** `dir/name` for absolute POSIX `dir` (no normalisation beyond the root case). */
export function childPath(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

/** `lstat`/`stat` that return `undefined` instead of throwing. */
export async function tryLstat(fs: FileSystem, path: string): Promise<VfsStat | undefined> {
  try {
    return await fs.lstat(path);
  } catch {
    return undefined;
  }
}

/** @see tryLstat */
export async function tryStat(fs: FileSystem, path: string): Promise<VfsStat | undefined> {
  try {
    return await fs.stat(path);
  } catch {
    return undefined;
  }
}

/** Outcome of {@link canonicalize}: the symlink-free path, or the link that leaves the workspace. */
export type Canonical =
  | { path: string; escape?: undefined }
  | { path?: undefined; escape: { link: string; target: string } };

/**
 * Joins a symlink target to the link's directory. Returns `undefined` when `..` climbs above `/`
 * (the target leaves the filesystem, so it certainly leaves the workspace).
 */
function resolveTarget(linkDir: string, target: string): string | undefined {
  const out = target.startsWith("/") ? [] : linkDir.split("/").filter(Boolean);
  for (const part of target.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return `/${out.join("/")}`;
}

/**
 * Canonical (realpath-like) form of absolute `path` on `fs`, pi's `canonicalizePath`: every symlink
 * component is resolved (relative targets against the link's directory); components that do not exist
 * end the walk and the rest is appended unchanged (pi falls back to the input on a realpath error).
 * A link whose target leaves `root` (or climbs above `/`) is not followed: `{ escape }` is returned.
 *
 * @param root absolute workspace root the links must stay in (default `/`, the whole VFS).
 * @throws never; after 40 hops the path reached so far is returned.
 */
export async function canonicalize(fs: FileSystem, path: string, root = "/"): Promise<Canonical> {
  let pending = normalizePosix(path).split("/").filter(Boolean);
  let current = "/";
  let hops = 0;
  while (pending.length > 0) {
    const next = childPath(current, pending[0]);
    pending = pending.slice(1);
    const st = await tryLstat(fs, next);
    if (!st) return { path: normalizePosix([next, ...pending].join("/")) };
    if (st.kind !== "symlink") {
      current = next;
      continue;
    }
    if (++hops > 40) return { path: normalizePosix([next, ...pending].join("/")) };
    let target: string;
    try {
      target = await fs.readlink(next);
    } catch {
      return { path: normalizePosix([next, ...pending].join("/")) };
    }
    const resolved = resolveTarget(dirnamePosix(next), target);
    if (resolved === undefined || !isInsideRoot(root, resolved)) return { escape: { link: next, target } };
    pending = [...resolved.split("/").filter(Boolean), ...pending];
    current = "/";
  }
  return { path: current };
}

/** Diagnostic for a symlink that leaves the workspace (Strata addition; pi follows host links). */
export function escapeDiagnostic(path: string, link: { link: string; target: string }): ResourceDiagnostic {
  return {
    type: "warning",
    message: `symlink ${link.link} -> ${link.target} leaves the workspace; not followed`,
    path,
  };
}

/**
 * Stat `path` following symlinks only inside `root`: `{ stat, real }` for a reachable node,
 * `{ escape }` for a link out of the workspace, `undefined` when absent (or a broken link).
 */
export async function statInWorkspace(
  fs: FileSystem,
  path: string,
  root = "/",
): Promise<{ stat: VfsStat; real: string } | { escape: { link: string; target: string } } | undefined> {
  const canon = await canonicalize(fs, path, root);
  if (canon.escape) return { escape: canon.escape };
  const st = await tryLstat(fs, canon.path);
  if (!st || st.kind === "symlink") return undefined;
  return { stat: st, real: canon.path };
}

/** The optional bulk loaders of `Vfs` (lib/vfs/vfs.ts); other `FileSystem`s simply lack them. */
interface Warmable {
  prefetch?(paths: string[], options?: { withData?: boolean }): Promise<void>;
  preload?(prefix: string, options: { withData: boolean; except?: string[] }): Promise<void>;
}

/** Warm the cache of a `Vfs` with the metadata (and data) of `paths`; a no-op on other filesystems. */
export async function prefetchPaths(fs: FileSystem, paths: string[], withData = true): Promise<void> {
  const w = fs as FileSystem & Warmable;
  if (typeof w.prefetch === "function" && paths.length > 0) await w.prefetch(paths, { withData });
}

/** Load a whole subtree of a `Vfs` (with data) in one query; a no-op on other filesystems. */
export async function preloadTree(fs: FileSystem, prefix: string): Promise<void> {
  const w = fs as FileSystem & Warmable;
  if (typeof w.preload === "function") await w.preload(prefix, { withData: true });
}

/** Every ancestor of `dir` from `dir` up to `/` (`/a/b` → `["/a/b", "/a", "/"]`). */
export function ancestorsUp(dir: string): string[] {
  const out: string[] = [];
  for (let d = normalizePosix(dir); ; d = dirnamePosix(d)) {
    out.push(d);
    if (d === "/") return out;
  }
}

export { basenamePosix };
