/**
 * The shape of a credential in plain text (pure functions, no dependency; the bottom of `lib/`): whether a literal
 * looks like a key or a password rather than a word, a path or a placeholder, and a prompt's text as a session title
 * with such literals taken out. Used by share redaction (`lib/share/value-shape.ts`) and by session titles
 * (`lib/agent-session/session-run.ts`), which show in lists where a pasted key must not.
 */

/**
 * Placeholders that name a secret without holding one: `<token>` (or a cut `<access`), `${TOKEN}`, `{{ key }}`, `%s`,
 * `xxxx`, `****`, `your-key-here`, `changeme`, an environment variable's name (`ANTHROPIC_API_KEY`).
 */
const PLACEHOLDER =
  /^(?:<.*|\$\{[^}]*\}|\{\{[^}]*\}\}|%[sd]|x{3,}|\*{3,}|\.{3,}|your[-_ ].*|changeme|example)$/i;
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
export const isPlaceholder = (v: string) => PLACEHOLDER.test(v) || ENV_NAME.test(v);

/** Shannon entropy of `s` in bits per character. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / s.length) * Math.log2(n / s.length);
  return bits;
}

/**
 * Whether a literal has the shape of a credential: at least 8 characters, no whitespace, not a placeholder, not
 * words (letters only, joined by `.`, `-`, `_`, `/` or `:`: `strata.deletedProject`, `application/json`) unless one
 * long random run of mixed case, and either three character classes (lower, upper, digit, symbol) or at least 3.5 bits
 * of entropy per character.
 */
export function looksLikeCredential(value: string): boolean {
  if (value.length < 8 || /\s/.test(value) || isPlaceholder(value)) return false;
  const words = /^[A-Za-z]+(?:[._\-/:][A-Za-z]+)*$/.test(value);
  if (
    words &&
    !(/^[A-Za-z]{20,}$/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value) && entropy(value) >= 4)
  )
    return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
  return classes >= 3 || entropy(value) >= 3.5;
}

/** Prefixes of well-known keys and tokens (Anthropic, OpenAI, GitHub, GitLab, Slack, AWS, Google, Stripe, PEM). */
const KEY_PREFIX =
  /^(?:sk-|sk_(?:live|test)_|rk_(?:live|test)_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[abpr]-|AKIA|ASIA|AIza|-----BEGIN)/;

/** Characters around a word that are not part of it (quotes, brackets, sentence punctuation). */
const EDGES = /^["'`([{<]+|["'`)\]}>.,;:!?]+$/g;

/**
 * Whether one word of a prompt is a credential: a `NAME=value` or `name:value` word is judged by its value, a URL by
 * whether it holds a password.
 */
function credentialWord(word: string): boolean {
  const bare = word.replace(EDGES, "");
  // A URL is a credential when it carries a password (`https://user:pass@host`), not because of its `scheme:`.
  if (/^[a-z][\w+.-]*:\/\//i.test(bare)) return /^[a-z][\w+.-]*:\/\/[^/@\s]*:[^/@\s]+@/i.test(bare);
  const value = /^[A-Za-z_][\w.-]*[=:](.+)$/.exec(bare)?.[1] ?? bare;
  if (KEY_PREFIX.test(value) && value.length >= 12) return true;
  return value.length >= 20 && looksLikeCredential(value);
}

/**
 * A session's title from its first prompt: whitespace collapsed, at most `max` characters, and every word with the
 * shape of a credential ({@link credentialWord}: a known key prefix, or 20+ characters that look like a key) replaced by
 * `[redacted]` (`NAME=value` keeps its name), so a pasted key never shows in the session list.
 * E.g. `use sk-ant-api03-… to call` → `use [redacted] to call`.
 */
export function titleFromPrompt(text: string, max = 80): string {
  const words = text.replace(/\s+/g, " ").trim().split(" ");
  const safe = words.map((word) => {
    if (!credentialWord(word)) return word;
    const bare = word.replace(EDGES, "");
    const name = /^[a-z][\w+.-]*:\/\//i.test(bare) ? undefined : /^([A-Za-z_][\w.-]*[=:])./.exec(bare)?.[1];
    return `${name ?? ""}[redacted]`;
  });
  return safe.join(" ").slice(0, max);
}
