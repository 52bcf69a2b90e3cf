/** A team's URL name (Better Auth's organization slug, unique): the name in lowercase ASCII words, plus a suffix. */

/** `name` as lowercase ASCII words joined by `-` (accents dropped, at most 40 characters); "team" when none is left. */
export function slugBase(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/g, "");
  return base || "team";
}

/** A short random suffix (4 characters of `a-z0-9`) so two teams of one name get different URL names. */
export function slugSuffix(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => alphabet[b % alphabet.length]).join("");
}

/** Whether `slug` is a URL name the form accepts: 3–64 characters of `a-z0-9-`, not starting or ending with `-`. */
export function validSlug(slug: string): boolean {
  return /^[a-z0-9](?:[a-z0-9-]{1,62})[a-z0-9]$/.test(slug);
}
