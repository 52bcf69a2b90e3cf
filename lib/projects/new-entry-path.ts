/**
 * Checking the path of a new file or folder the user names in the tree (pure: used by the browser's inline
 * form and by `createProjectEntry` on the server, so both answer with the same words).
 */

/** A tree entry as far as the check needs it (project-relative path). */
export interface ExistingEntry {
  path: string;
  kind: "file" | "dir" | "symlink";
}

export const NEW_ENTRY_ERRORS = {
  empty: "Enter a name.",
  traversal: 'Use a path inside the project: no leading "/", no "." or ".." parts and no empty parts ("//").',
  git: "The .git folder is managed by Strata. Choose another name.",
  exists: (path: string) => `"${path}" already exists. Choose another name.`,
  parentIsFile: (parent: string) => `"${parent}" is a file, so nothing can be created inside it.`,
  nestedGit:
    'No folder or file may be named ".git" (git would take it for a repository\'s own data). Choose another name.',
  control: "Names must not contain line breaks, tabs or other control characters.",
  bidi: "Names must not contain bidirectional text controls (U+202A–U+202E, U+2066–U+2069): they make a name read differently from what it is.",
  backslash:
    'Names must not contain "\\": use "/" between folders (a backslash in a name breaks the project on Windows).',
} as const;

/** C0 controls, DEL and C1 controls (U+0000–U+001F, U+007F–U+009F). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Bidirectional embedding/override (U+202A–U+202E) and isolate (U+2066–U+2069) characters. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;

/**
 * Check `input` (trimmed; relative to the project root, `/` separating folders, e.g. `src/new.ts`) for a new
 * entry. Refused, in this order: an empty name; control characters (C0, DEL, C1); bidirectional embedding,
 * override and isolate characters; a backslash (legal in POSIX names, refused so a clone works on Windows and
 * a name cannot pass for a path); `.`/`..`/empty parts or a leading `/`; `.git` (any case) as the first part,
 * then as any other part (a nested repository's data folder). With `existing` (the tree's entries), a taken path
 * or a file as a parent is refused too.
 * @returns `{ path }` (the trimmed path) or `{ error }` with one of {@link NEW_ENTRY_ERRORS}.
 */
export function checkNewEntryPath(
  input: string,
  existing: readonly ExistingEntry[] = [],
): { path: string } | { error: string } {
  const path = input.trim();
  if (path === "" || path.endsWith("/")) return { error: NEW_ENTRY_ERRORS.empty };
  if (CONTROL.test(path)) return { error: NEW_ENTRY_ERRORS.control };
  if (BIDI.test(path)) return { error: NEW_ENTRY_ERRORS.bidi };
  if (path.includes("\\")) return { error: NEW_ENTRY_ERRORS.backslash };
  const parts = path.split("/");
  if (parts.some((p) => p === "" || p === "." || p === "..")) return { error: NEW_ENTRY_ERRORS.traversal };
  if (parts[0].toLowerCase() === ".git") return { error: NEW_ENTRY_ERRORS.git };
  if (parts.some((p) => p.toLowerCase() === ".git")) return { error: NEW_ENTRY_ERRORS.nestedGit };
  const kinds = new Map(existing.map((e) => [e.path, e.kind]));
  if (kinds.has(path)) return { error: NEW_ENTRY_ERRORS.exists(path) };
  for (let i = 1; i < parts.length; i++) {
    const parent = parts.slice(0, i).join("/");
    if (kinds.get(parent) === "file") return { error: NEW_ENTRY_ERRORS.parentIsFile(parent) };
  }
  return { path };
}
