/**
 * The one rule for the names of files and folders, and what git cannot hold.
 *
 * - {@link gitNameProblem}: the names git refuses as a tree entry. It mirrors isomorphic-git's
 *   `assertSafeEntryPath` (git's `verify_path`: `is_ntfs_dotgit`, `is_hfs_dotgit`, `is_valid_win32_path`), which
 *   refuses to read or write a tree holding one ("The filepath … contains unsafe character sequences").
 * - {@link nameProblem}: Strata's rule, every writer's (the VFS refuses to create such a name: `Vfs.writeFile`,
 *   `mkdir`, `rename`, `symlink`; the tree's New file form; archive import): git's, plus control characters and
 *   bidirectional text controls, which git could hold but which make a name unreadable or read as another.
 *
 * Pure: used by the browser (the tree's forms), the VFS and the git layer alike.
 */
import { VfsError } from "./errors";

/** The words of every refusal; the tree's form shows them as they are, the VFS after `Invalid name "…": `. */
export const NAME_ERRORS = {
  control: "Names must not contain line breaks, tabs or other control characters.",
  bidi: "Names must not contain bidirectional text controls (U+202A–U+202E, U+2066–U+2069): they make a name read differently from what it is.",
  backslash:
    'Names must not contain "\\": use "/" between folders (a backslash in a name breaks the project on Windows).',
  dots: 'Names made only of dots and spaces ("...", ". ") are not allowed: git cannot hold them. Choose another name.',
  gitAlias:
    'Names git reads as ".git" (".GIT", ".git.", ".git:x", "git~1") are not allowed: git would take them for a repository\'s own data. Choose another name.',
  nestedGit:
    'No folder or file may be named ".git" (git would take it for a repository\'s own data). Choose another name.',
} as const;

/** C0 controls, DEL and C1 controls (U+0000–U+001F, U+007F–U+009F). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Bidirectional embedding/override (U+202A–U+202E) and isolate (U+2066–U+2069) characters. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
/** What HFS+ ignores in a name (isomorphic-git's `assertSafeEntryPath`): stripped before comparing with `.git`. */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;
/** Characters shown as `<U+XXXX>` in a message (they would break or reorder it). */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200c-\u200f\u202a-\u202e\u2066-\u206f\ufeff]/g;

/** `name` with its trailing dots and spaces removed (what Win32 does to a path component). */
function stripTrailingDotsAndSpaces(name: string): string {
  let end = name.length;
  while (end > 0) {
    const c = name.charCodeAt(end - 1);
    if (c !== 46 && c !== 32) break;
    end--;
  }
  return name.slice(0, end);
}

/**
 * Why git cannot hold `name` (one path component, no "/") as a tree entry, or null when it can: a backslash or a NUL
 * (NUL: {@link NAME_ERRORS}.control), a name made only of dots and spaces (`.`, `..`, `...`, `. `: `dots`), `.git`
 * itself (`nestedGit`), and what NTFS or HFS+ read as `.git` (any case, trailing dots or spaces, an alternate data
 * stream `.git:x`, the short name `git~1`…`git~9`, ignorable characters such as U+200C inside it: `gitAlias`).
 * Exactly the names isomorphic-git's `assertSafeEntryPath` refuses (pi's `resource-loader.ts`), the NUL added (it ends a tree entry).
 * @returns one of {@link NAME_ERRORS}, or null.
 */
export function gitNameProblem(name: string): string | null {
  if (name.includes("\\")) return NAME_ERRORS.backslash;
  if (name.includes("\0")) return NAME_ERRORS.control;
  const ntfs = name.replace(HFS_IGNORED, "").split(":")[0];
  const normalized = stripTrailingDotsAndSpaces(ntfs.toLowerCase());
  if (normalized === "" && ntfs !== "") return NAME_ERRORS.dots;
  if (normalized === ".git") return name === ".git" ? NAME_ERRORS.nestedGit : NAME_ERRORS.gitAlias;
  if (/^\.?git~[1-9]$/.test(normalized)) return NAME_ERRORS.gitAlias;
  return null;
}

/**
 * The characters no name may hold, checked in this order over any text (a name or a whole path): control characters
 * (C0, DEL, C1), bidirectional embedding/override/isolate characters, a backslash.
 * @returns `NAME_ERRORS.control`, `.bidi` or `.backslash`, or null.
 */
export function characterProblem(text: string): string | null {
  if (CONTROL.test(text)) return NAME_ERRORS.control;
  if (BIDI.test(text)) return NAME_ERRORS.bidi;
  if (text.includes("\\")) return NAME_ERRORS.backslash;
  return null;
}

/**
 * Why Strata refuses `name` (one path component) for a file or folder it creates, or null when it is fine:
 * {@link characterProblem}, then everything {@link gitNameProblem} refuses (dots and spaces only, `.git` and its
 * aliases).
 * @returns one of {@link NAME_ERRORS}, or null.
 */
export function nameProblem(name: string): string | null {
  return characterProblem(name) ?? gitNameProblem(name);
}

/**
 * The first component of `rel` (relative, "/"-separated, e.g. `src/a.ts`) git cannot hold, with why; null when git
 * can hold the whole path. A `.git` component anywhere (a nested repository's own data) counts, as in git.
 */
export function gitPathProblem(rel: string): { name: string; reason: string } | null {
  for (const name of rel.split("/")) {
    const reason = gitNameProblem(name);
    if (reason) return { name, reason };
  }
  return null;
}

/**
 * The first component of `rel` (relative, "/"-separated) Strata's rule ({@link nameProblem}) refuses, with why; null
 * when every component is fine. `.git` counts (a project's writers refuse it as a name).
 */
export function pathNameProblem(rel: string): { name: string; reason: string } | null {
  for (const name of rel.split("/")) {
    const reason = nameProblem(name);
    if (reason) return { name, reason };
  }
  return null;
}

/**
 * `name` for a message: in double quotes, control, bidirectional and invisible formatting characters written
 * `<U+XXXX>` (`"a<U+000A>b"`), so the message reads as it is.
 */
export function quoteName(name: string): string {
  const shown = name.replace(
    UNPRINTABLE,
    (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}>`,
  );
  return `"${shown}"`;
}

/**
 * Refuse to create absolute VFS path `path` (normalised) when a component breaks {@link nameProblem}. Components are
 * checked from the top down to the first `.git`, which is allowed (a repository's own data: the project's, a nested
 * one made by `git init sub`); below it nothing is checked (git names its own files). A nested `.git` is refused by
 * the project's writers that face users (the tree's forms, the editor's save) and left out of commits by the git layer.
 * @throws UnsafeNameError (VfsError `EINVAL`) naming the component and the rule, e.g.
 *   `Invalid name "a\b.txt": Names must not contain "\": use "/" between folders (…).`
 */
export function checkCreatablePath(path: string): void {
  let start = 1;
  for (let i = 1; i <= path.length; i++) {
    if (i < path.length && path.charCodeAt(i) !== 47) continue;
    const name = path.slice(start, i);
    start = i + 1;
    if (name === ".git") return;
    if (name === "") continue;
    const reason = nameProblem(name);
    if (reason) throw new UnsafeNameError(path, name, reason);
  }
}

/**
 * A file or folder name Strata does not create (lib/vfs/names.ts `nameProblem`: control or bidi characters, a
 * backslash, a name git cannot hold). Code `EINVAL` (HTTP 400); the message names the component and the rule.
 */
export class UnsafeNameError extends VfsError {
  /** The refused component, e.g. `a\b.txt`. */
  readonly entryName: string;
  /** The rule it breaks (one of `NAME_ERRORS`). */
  readonly reason: string;
  /** @param path the absolute path being created; @param entryName its refused component; @param reason why. */
  constructor(path: string, entryName: string, reason: string) {
    super("EINVAL", `Invalid name ${quoteName(entryName)}: ${reason}`, path);
    this.name = "UnsafeNameError";
    this.entryName = entryName;
    this.reason = reason;
  }
}
