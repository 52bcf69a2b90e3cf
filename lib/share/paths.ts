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
