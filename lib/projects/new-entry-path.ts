/**
 * Checking the path of a new file or folder the user names in the tree (pure: used by the browser's inline
 * form and by `createProjectEntry` on the server, so both answer with the same words). The names themselves follow
 * the one rule every writer does (lib/vfs/names.ts, which the VFS enforces); this adds the tree's own refusals.
 */
import { characterProblem, NAME_ERRORS, nameProblem } from "@/lib/vfs/names";

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
  nestedGit: NAME_ERRORS.nestedGit,
  control: NAME_ERRORS.control,
  bidi: NAME_ERRORS.bidi,
  backslash: NAME_ERRORS.backslash,
  dots: NAME_ERRORS.dots,
  gitAlias: NAME_ERRORS.gitAlias,
} as const;

/**
 * Check `input` (trimmed; relative to the project root, `/` separating folders, e.g. `src/new.ts`) for a new
 * entry. Refused, in this order: an empty name; control characters (C0, DEL, C1); bidirectional embedding,
 * override and isolate characters; a backslash (legal in POSIX names, refused so a clone works on Windows and
 * a name cannot pass for a path); `.`/`..`/empty parts or a leading `/`; `.git` (any case) as the first part,
 * then as any other part (a nested repository's data folder); then any other name the one rule refuses (lib/vfs/names.ts
 * `nameProblem`: dots and spaces only, what git reads as `.git`). With `existing` (the tree's entries), a taken path
 * or a file as a parent is refused too.
 * @returns `{ path }` (the trimmed path) or `{ error }` with one of {@link NEW_ENTRY_ERRORS}.
 */
export function checkNewEntryPath(
  input: string,
  existing: readonly ExistingEntry[] = [],
): { path: string } | { error: string } {
  const path = input.trim();
  if (path === "" || path.endsWith("/")) return { error: NEW_ENTRY_ERRORS.empty };
  const characters = characterProblem(path);
  if (characters) return { error: characters };
  const parts = path.split("/");
  if (parts.some((p) => p === "" || p === "." || p === "..")) return { error: NEW_ENTRY_ERRORS.traversal };
  if (parts[0].toLowerCase() === ".git") return { error: NEW_ENTRY_ERRORS.git };
  if (parts.some((p) => p.toLowerCase() === ".git")) return { error: NEW_ENTRY_ERRORS.nestedGit };
  for (const part of parts) {
    const problem = nameProblem(part);
    if (problem) return { error: problem };
  }
  const kinds = new Map(existing.map((e) => [e.path, e.kind]));
  if (kinds.has(path)) return { error: NEW_ENTRY_ERRORS.exists(path) };
  for (let i = 1; i < parts.length; i++) {
    const parent = parts.slice(0, i).join("/");
    if (kinds.get(parent) === "file") return { error: NEW_ENTRY_ERRORS.parentIsFile(parent) };
  }
  return { path };
}
