/**
 * Filesystem helpers shared by the resource loaders: BOM stripping, UTF-8 decoding, symlink-aware
 * canonical paths confined to a workspace root, and optional VFS cache warm-up.
 */
import { basenamePosix, dirnamePosix, isInsideRoot, normalizePosix } from "@/lib/vfs/paths";
import type { FileSystem, VfsStat } from "@/lib/vfs/types";

/**
 * Strata's machine-readable kinds of rule-loading diagnostics (the message stays the human text):
 * `symlink_escape` a link leaving the workspace (`target` = what it points to), `symlink_broken` a link whose target
 * does not exist, `duplicate` a second path to a context file already loaded (`canonical`, `duplicateOf`),
 * `truncated` a context file cut to its cap (`sizeBytes`, `loadedBytes`, `marker`).
 */
export type ResourceDiagnosticCode = "symlink_escape" | "symlink_broken" | "duplicate" | "truncated";

/**
 * A problem found while loading resources (pi's `ResourceDiagnostic` shape, `diagnostics.ts`; Strata adds the
 * `info` type and the optional fields after `collision`).
 */
export interface ResourceDiagnostic {
  /** `info` (Strata): nothing is wrong, but the user should know (a duplicate loaded once). */
  type: "warning" | "error" | "collision" | "info";
  message: string;
  /** Absolute VFS path the diagnostic is about. */
  path?: string;
  collision?: {
    resourceType: "skill" | "prompt" | "context";
    name: string;
    winnerPath: string;
    loserPath: string;
  };
  code?: ResourceDiagnosticCode;
  /** `symlink_escape` / `symlink_broken`: the target string of the link, as stored. */
  target?: string;
  /** `symlink_escape`: the link that leaves (the path itself or a symlinked folder along it). */
  link?: string;
  /** `duplicate`: the canonical (symlink-free) path both paths resolve to. */
  canonical?: string;
  /** `duplicate`: the path under which the file was loaded. */
  duplicateOf?: string;
  /** `truncated`: UTF-8 bytes of the file's text (BOM removed). */
  sizeBytes?: number;
  /** `truncated`: UTF-8 bytes of it in the prompt (the marker line not counted). */
  loadedBytes?: number;
  /** `truncated`: the marker line appended in the prompt where the text was cut. */
  marker?: string;
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

const pathCaches = new WeakMap<FileSystem, Map<string, Canonical>>();

/**
 * Run `fn` with {@link canonicalize} results memoised per filesystem (one bulk resource load touches the
 * same ancestors thousands of times). The memo lives only for the duration of `fn`; nested calls share it.
 */
export async function withPathCache<T>(
  filesystems: (FileSystem | undefined)[],
  fn: () => Promise<T>,
): Promise<T> {
  const added = filesystems.filter((f): f is FileSystem => f !== undefined && !pathCaches.has(f));
  for (const f of added) pathCaches.set(f, new Map());
  try {
    return await fn();
  } finally {
    for (const f of added) pathCaches.delete(f);
  }
}

/**
 * Canonical (realpath-like) form of absolute `path` on `fs`, pi's `canonicalizePath`: every symlink
 * component is resolved (relative targets against the link's directory); components that do not exist
 * end the walk and the rest is appended unchanged (pi falls back to the input on a realpath error).
 * A link whose target leaves the workspace is not followed: `{ escape }` is returned. It leaves when the target
 * lies outside `root`, climbs above `/`, or names a top-level folder of `root` that does not exist — a host path
 * such as `/etc/passwd` or `/home/me/dotfiles/AGENTS.md`: the workspace is not the host's disk, and with the app's
 * `root` of `/` every absolute path is "inside" it (a link to a missing file in a folder the workspace holds is
 * broken, not leaving: `/p/gone.md`). Memoised inside {@link withPathCache}.
 *
 * @param root absolute workspace root the links must stay in (default `/`, the whole VFS).
 * @throws never; after 40 hops the path reached so far is returned.
 */
export async function canonicalize(fs: FileSystem, path: string, root = "/"): Promise<Canonical> {
  return resolveCanonical(fs, normalizePosix(path), normalizePosix(root), pathCaches.get(fs), 0);
}

async function resolveCanonical(
  fs: FileSystem,
  path: string,
  root: string,
  memo: Map<string, Canonical> | undefined,
  hops: number,
): Promise<Canonical> {
  if (path === "/") return { path };
  const key = `${root}\0${path}`;
  const known = memo?.get(key);
  if (known) return known;
  let result: Canonical;
  const parent = await resolveCanonical(fs, dirnamePosix(path), root, memo, hops);
  if (parent.escape) result = parent;
  else {
    const candidate = childPath(parent.path, basenamePosix(path));
    const st = await tryLstat(fs, candidate);
    if (st?.kind !== "symlink" || hops >= 40) result = { path: candidate };
    else {
      let target: string | undefined;
      try {
        target = await fs.readlink(candidate);
      } catch {}
      if (target === undefined) result = { path: candidate };
      else {
        const resolved = resolveTarget(parent.path, target);
        if (
          resolved === undefined ||
          !isInsideRoot(root, resolved) ||
          !(await holdsTopFolder(fs, root, resolved))
        )
          result = { escape: { link: candidate, target } };
        else result = await resolveCanonical(fs, resolved, root, memo, hops + 1);
      }
    }
  }
  memo?.set(key, result);
  return result;
}

/**
 * Whether the workspace holds the top-level folder (the first component below `root`) of absolute `path`, inside
 * `root`: true for `root` itself; false when that folder (or file) does not exist, i.e. `path` names a place the
 * workspace has nothing of (a host path). One `lstat`, cached by the VFS.
 */
async function holdsTopFolder(fs: FileSystem, root: string, path: string): Promise<boolean> {
  if (path === root) return true;
  const base = root === "/" ? "" : root;
  const first = path.slice(base.length + 1).split("/")[0];
  return (await tryLstat(fs, `${base}/${first}`)) !== undefined;
}

/** Diagnostic for a symlink that leaves the workspace (Strata addition; pi follows host links). */
export function escapeDiagnostic(path: string, link: { link: string; target: string }): ResourceDiagnostic {
  return {
    type: "warning",
    message: `symlink ${link.link} -> ${link.target} leaves the workspace; not followed`,
    path,
    code: "symlink_escape",
    link: link.link,
    target: link.target,
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
