/**
 * HTML escaping for the share renderer: every string a share page interpolates (titles, tool names, paths,
 * arguments, results, excerpts) goes through {@link escapeHtml}, which makes it safe both as element text and
 * inside a double- or single-quoted attribute value. {@link markRedactions} then styles the redaction markers the
 * share's redaction left (`[redacted:<rule>]`) in text that is already escaped. {@link escapeText} (text) and
 * {@link escapeName} (titles, file names, labels) also show bidirectional and invisible characters as visible
 * `<U+…>` escapes (`unicode.ts`). Pure and edge-safe.
 */
import { revealUnicode } from "./unicode";

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * `text` with `& < > " '` replaced by entities (`&amp; &lt; &gt; &quot; &#39;`); anything else unchanged.
 * Non-strings are stringified first (`null`/`undefined` → `""`), so a malformed stored field never throws.
 */
export function escapeHtml(text: unknown): string {
  const s = text === null || text === undefined ? "" : String(text);
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** A redaction marker as the share's redaction writes it: `[redacted:` + a rule label without `]` or newlines + `]`. */
export const REDACTION_MARKER = /\[redacted:[^\]\n<>&"']{0,120}\]/g;

/**
 * In already-escaped HTML text, wrap every redaction marker in `<mark class="redacted">…</mark>` (the marker's
 * characters are escape-neutral, so matching after escaping finds the same markers).
 */
export function markRedactions(escaped: string): string {
  if (!escaped.includes("[redacted:")) return escaped;
  return escaped.replace(REDACTION_MARKER, (m) => `<mark class="redacted">${m}</mark>`);
}

/**
 * `escapeHtml`, `markRedactions`, then bidi controls and invisible characters shown as `<U+…>` escapes (profile
 * `text`: the joiners U+200C and U+200D stay): how plain text (tool output, arguments, thinking) is put on the page.
 */
export function escapeText(text: unknown): string {
  return revealUnicode(markRedactions(escapeHtml(text)), "text");
}

/**
 * A name — a title, a file name or path, a label, a tool or model name — as HTML: `escapeHtml`, then every bidi control and invisible character (the joiners too) shown as a `<U+…>` escape, so a name
 * never reads differently from what it is.
 */
export function escapeName(text: unknown): string {
  return revealUnicode(escapeHtml(text), "strict");
}

/** A URL path segment list as an href: each segment percent-encoded (`/` kept between them), then escaped. */
export function hrefPath(segments: readonly string[]): string {
  return escapeHtml(segments.map((s) => encodeURIComponent(s)).join("/"));
}
