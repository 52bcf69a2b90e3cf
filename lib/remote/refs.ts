/**
 * Ref names for getting work out: git's `check-ref-format` rules, the branch name a session's title becomes
 * (`strata/<slug>`), and what a user may name as the source of an archive or a push. Zod-free and without I/O, so
 * the IDE's dialogs (components/git-remote) show the same names and checks the server applies.
 */

const OID = /^[0-9a-f]{40}$/;

/** True for a full 40-hex commit id (lower case). */
export const isOid = (value: string) => OID.test(value);

/**
 * Why `ref` is not a valid ref name under `git check-ref-format` (full name such as `refs/heads/main`), or null:
 * no component starting with `.` or ending with `.lock`, no `..`, `@{`, `//`, backslash, control character, space,
 * `~ ^ : ? * [`; not starting or ending with `/`, not ending with `.`, not `@`.
 */
export function refFormatProblem(ref: string): string | null {
  if (ref === "" || ref === "@") return "a ref name must not be empty or @";
  if (ref.length > 255) return "a ref name is at most 255 characters";
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(ref))
    return "a ref name must not contain spaces, control characters or any of ~ ^ : ? * [ \\";
  if (ref.includes("..")) return 'a ref name must not contain ".."';
  if (ref.includes("@{")) return 'a ref name must not contain "@{"';
  if (ref.startsWith("/") || ref.endsWith("/") || ref.includes("//"))
    return "a ref name must not start or end with / or contain //";
  if (ref.endsWith(".")) return "a ref name must not end with .";
  for (const part of ref.split("/"))
    if (part.startsWith(".") || part.endsWith(".lock"))
      return "no part of a ref name may start with . or end with .lock";
  return null;
}

/** Why `branch` (a short name such as `strata/fix-login`) cannot be a branch, or null. */
export function branchNameProblem(branch: string): string | null {
  if (branch.startsWith("-")) return `Branch name ${branch.slice(0, 100)} must not start with -.`;
  if (branch.startsWith("refs/"))
    return `Give the branch name without refs/heads/ (e.g. ${branch.replace(/^refs\/(heads\/)?/, "").slice(0, 100)}).`;
  const problem = refFormatProblem(`refs/heads/${branch}`);
  return problem ? `Branch name ${branch.slice(0, 100)} is not valid: ${problem}.` : null;
}

/** Longest slug of a session title in a branch name. */
const MAX_SLUG = 48;

/**
 * The slug of a session title for a branch name: lower-case ASCII letters and digits joined by single `-` (accents
 * dropped, everything else a separator), at most 48 characters, `session` when nothing is left.
 */
export function slugify(title: string): string {
  const ascii = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ß/g, "ss");
  const slug = ascii
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG)
    .replace(/-+$/, "");
  return slug || "session";
}

/**
 * The branch a session is pushed to: `strata/<slug of its title>`, or when that name is in `taken`,
 * `strata/<slug>-2`, `-3`, … (the first free one). Always a valid branch name ({@link branchNameProblem}).
 */
export function sessionBranchName(title: string | null, taken: ReadonlySet<string> = new Set()): string {
  const base = `strata/${slugify(title ?? "")}`;
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * Why `source` cannot name a commit to download or push, or null. Accepted: `HEAD`, a 40-hex commit id, or a full
 * ref under `refs/heads/` or `refs/tags/` (e.g. `refs/heads/strata/session-<id>`) that passes check-ref-format.
 */
export function sourceProblem(source: string): string | null {
  if (source === "HEAD" || isOid(source)) return null;
  if (!/^refs\/(heads|tags)\//.test(source))
    return `${source.slice(0, 100)} is not a commit: give HEAD, a 40-hex commit id or a ref such as refs/heads/strata/session-<id>.`;
  const problem = refFormatProblem(source);
  return problem ? `${source.slice(0, 100)} is not a valid ref: ${problem}.` : null;
}
