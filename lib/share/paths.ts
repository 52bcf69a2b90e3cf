/**
 * What a share's paths and ids may hold (docs/sharing.md). Edge-safe. A control character (NUL included: Postgres
 * `text` refuses it) is never part of a shared path, an entry id or a fork's name; a shared file path is relative,
 * without `..`, `.` or empty segments and without a `.git` segment ({@link isShareablePath}, used by the preview when
 * it lists the checkpoint's files and by the fork when it writes them).
 */

/** Any C0 control character or DEL. */
export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** Whether `path` may be a shared file's path: relative, no `..` / `.` / empty / `.git` segment, no control character. */
export function isShareablePath(path: string): boolean {
  if (typeof path !== "string" || path === "" || CONTROL_CHARS.test(path) || path.startsWith("/"))
    return false;
  return path.split("/").every((s) => s !== "" && s !== "." && s !== ".." && s.toLowerCase() !== ".git");
}

/**
 * Place a (redacted) path among those already placed (`taken`, updated): a path that equals a placed file or directory
 * gets `~2`, `~3`, … appended; a path whose directory is a placed file gets that segment suffixed the same way
 * (`x/[redacted:K]` a file, then `x/[redacted:K]/y.txt` → `x/[redacted:K]~2/y.txt`), so every placed path can be
 * written as a tree (the fork does).
 * @returns the placed path.
 */
export function placePath(path: string, taken: { files: Set<string>; dirs: Set<string> }): string {
  const segs = path.split("/");
  for (let i = 0; i < segs.length; i++) {
    const last = i === segs.length - 1;
    const base = segs[i];
    for (let n = 2; ; n++) {
      const prefix = segs.slice(0, i + 1).join("/");
      if (!(taken.files.has(prefix) || (last && taken.dirs.has(prefix)))) break;
      segs[i] = `${base}~${n}`;
    }
  }
  for (let i = 1; i < segs.length; i++) taken.dirs.add(segs.slice(0, i).join("/"));
  const placed = segs.join("/");
  taken.files.add(placed);
  return placed;
}
