/**
 * Where to go after signing in: the `?next=` parameter, kept only when it is a path on this origin.
 *
 * Accepted: a string starting with a single `/` (`/projects/abc?x=1#y`). Refused (→ `/`): empty or missing,
 * absolute or scheme URLs (`https://evil`, `javascript:`), protocol-relative `//host` and `/\host` (browsers read
 * a backslash as a slash), control characters or whitespace anywhere (a `\t` or `\n` inside `//` is dropped by
 * URL parsers), longer than 2000 characters, the sign-in / sign-up pages themselves (a loop) and `/api/…`
 * (JSON, not a page). The browser resolves the result against the current origin, so it can never leave it.
 */
export function safeNextPath(value: string | null | undefined): string {
  if (!value || value.length > 2000) return "/";
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(value)) return "/";
  const pathname = value.split(/[?#]/, 1)[0].toLowerCase();
  if (/^\/(sign-in|sign-up)(\/|$)/.test(pathname) || /^\/api(\/|$)/.test(pathname)) return "/";
  return value;
}

/** `/sign-in` (or `/sign-up`) carrying `next` when it is not the home page. */
export function withNext(page: "/sign-in" | "/sign-up", next: string): string {
  const safe = safeNextPath(next);
  return safe === "/" ? page : `${page}?next=${encodeURIComponent(safe)}`;
}
