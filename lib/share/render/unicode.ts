/**
 * Invisible and bidirectional Unicode on share pages and exports ("Trojan Source", CVE-2021-42574): a sharer must not
 * be able to make a title, a file name or a line of code read differently from what it is. Two sets:
 *
 * - {@link BIDI_CONTROLS}: the bidirectional formatting characters — embeddings and overrides U+202A–U+202E,
 *   isolates U+2066–U+2069, the marks U+200E (LRM), U+200F (RLM) and U+061C (ALM). They reorder what is shown.
 * - invisible characters: zero width space, non-joiner and joiner U+200B–U+200D, word joiner and invisible operators
 *   U+2060–U+2064, the deprecated format characters U+206A–U+206F, U+FEFF (BOM / zero width no-break space), the
 *   soft hyphen U+00AD, U+034F (combining grapheme joiner), U+180E (Mongolian vowel separator), U+115F, U+1160,
 *   U+3164, U+FFA0 (Hangul fillers), U+17B4, U+17B5 (Khmer inherent vowels), the interlinear annotation characters
 *   U+FFF9–U+FFFB, the shorthand format controls U+1BCA0–U+1BCA3, the musical format characters U+1D173–U+1D17A and
 *   the tag characters U+E0000–U+E007F (which can smuggle hidden ASCII text). These draw nothing. The format (Cf)
 *   characters that draw a glyph (Arabic number signs U+0600–U+0605 and the like) are not in the set.
 *
 * {@link revealUnicode} shows each such character as a small marked escape
 * (`<span class="uni uni-bidi" title="U+202E RIGHT-TO-LEFT OVERRIDE">&lt;U+202E&gt;</span>`) in already-escaped HTML
 * text; profile `strict` (titles, file names and paths, labels, code) reveals both sets, profile `text` (message text,
 * tool output) keeps the two joiners U+200C and U+200D, which shape visible letters in Persian, Indic scripts and
 * emoji. {@link revealPlain} does the same as plain text (`<U+202E>`, for `<title>` and file names), and
 * {@link bidiWarning} is the visible note above a file or message that holds a bidi control (like GitHub's). Pure and
 * edge-safe.
 */

/** The bidirectional control characters, one regex source range (no flags). */
const BIDI_RANGE = "\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069";
const JOINERS = "\\u200C\\u200D";
const INVISIBLE_RANGE =
  "\\u00AD\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180E\\u200B\\u2060-\\u2064\\u206A-\\u206F\\u3164\\uFEFF\\uFFA0\\uFFF9-\\uFFFB\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}\\u{E0000}-\\u{E007F}";

/** Any bidirectional control character (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C). */
export const BIDI_CONTROLS = new RegExp(`[${BIDI_RANGE}]`, "u");
/** {@link BIDI_CONTROLS}, global: every one of them (`text.replace(BIDI_CONTROLS_ALL, "")`). */
export const BIDI_CONTROLS_ALL = new RegExp(`[${BIDI_RANGE}]`, "gu");

const STRICT = new RegExp(`[${BIDI_RANGE}${JOINERS}${INVISIBLE_RANGE}]`, "gu");
const TEXT = new RegExp(`[${BIDI_RANGE}${INVISIBLE_RANGE}]`, "gu");
const IS_BIDI = new RegExp(`^[${BIDI_RANGE}]$`, "u");

/** Which characters to reveal: `strict` every bidi control and invisible character; `text` all but U+200C, U+200D. */
export type RevealProfile = "strict" | "text";

const NAMES: Record<number, string> = {
  1564: "ARABIC LETTER MARK",
  8206: "LEFT-TO-RIGHT MARK",
  8207: "RIGHT-TO-LEFT MARK",
  8234: "LEFT-TO-RIGHT EMBEDDING",
  8235: "RIGHT-TO-LEFT EMBEDDING",
  8236: "POP DIRECTIONAL FORMATTING",
  8237: "LEFT-TO-RIGHT OVERRIDE",
  8238: "RIGHT-TO-LEFT OVERRIDE",
  8294: "LEFT-TO-RIGHT ISOLATE",
  8295: "RIGHT-TO-LEFT ISOLATE",
  8296: "FIRST STRONG ISOLATE",
  8297: "POP DIRECTIONAL ISOLATE",
  8203: "ZERO WIDTH SPACE",
  8204: "ZERO WIDTH NON-JOINER",
  8205: "ZERO WIDTH JOINER",
  8288: "WORD JOINER",
  65279: "ZERO WIDTH NO-BREAK SPACE",
  173: "SOFT HYPHEN",
};

/** `U+202E`: the code point of `char`, upper-case hex, at least four digits. */
export function codePointLabel(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Whether `text` holds a bidirectional control character. */
export function hasBidiControls(text: string): boolean {
  return BIDI_CONTROLS.test(text);
}

const regexOf = (profile: RevealProfile) => (profile === "strict" ? STRICT : TEXT);
const STRICT_ONE = new RegExp(STRICT.source, "u");
const TEXT_ONE = new RegExp(TEXT.source, "u");

/** Whether `text` holds a character {@link revealUnicode} would reveal under `profile`. */
export function hasRevealable(text: string, profile: RevealProfile = "strict"): boolean {
  return (profile === "strict" ? STRICT_ONE : TEXT_ONE).test(text);
}

/**
 * `text` (plain text) with every character of `profile` replaced by `<U+XXXX>` (or by `as(label)`); for places that
 * hold no markup (the document's `<title>`, an attribute, a download's file name). Escape the result for HTML as usual.
 */
export function revealPlain(
  text: string,
  profile: RevealProfile = "strict",
  as: (label: string) => string = (label) => `<${label}>`,
): string {
  return text.replace(regexOf(profile), (c) => as(codePointLabel(c)));
}

/**
 * In already-escaped HTML text (or highlight.js / marked-up HTML whose tags hold none of these characters), each
 * character of `profile` becomes `<span class="uni" title="U+200B ZERO WIDTH SPACE">&lt;U+200B&gt;</span>`; a bidi
 * control's span also has the class `uni-bidi` (what {@link revealsBidi} looks for). Everything else is unchanged.
 */
export function revealUnicode(html: string, profile: RevealProfile = "strict"): string {
  return html.replace(regexOf(profile), (c) => revealSpan(c));
}

/** The escape of one revealed character as HTML (see {@link revealUnicode}). */
export function revealSpan(char: string): string {
  const label = codePointLabel(char);
  const name = NAMES[char.codePointAt(0) ?? 0];
  const cls = IS_BIDI.test(char) ? "uni uni-bidi" : "uni";
  return `<span class="${cls}" title="${label}${name ? ` ${name}` : ""}">&lt;${label}&gt;</span>`;
}

/**
 * Split plain `text` around the characters of `profile`: the text runs and, for each character, its label
 * (`U+202E`), its name (or null) and whether it is a bidi control — for renderers that build nodes (markdown).
 */
export function splitUnicode(
  text: string,
  profile: RevealProfile = "text",
): ({ text: string } | { label: string; name: string | null; bidi: boolean })[] {
  const out: ({ text: string } | { label: string; name: string | null; bidi: boolean })[] = [];
  let last = 0;
  for (const m of text.matchAll(regexOf(profile))) {
    const at = m.index ?? 0;
    if (at > last) out.push({ text: text.slice(last, at) });
    out.push({
      label: codePointLabel(m[0]),
      name: NAMES[m[0].codePointAt(0) ?? 0] ?? null,
      bidi: IS_BIDI.test(m[0]),
    });
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/** Whether rendered HTML shows a revealed bidi control (a `<span class="uni uni-bidi"` — escaped text never holds `<`). */
export function revealsBidi(html: string): boolean {
  return html.includes('<span class="uni uni-bidi"');
}

/** The warning's sentence for a `file` or a `message` that holds bidirectional control characters. */
export function bidiWarningText(what: "file" | "message"): string {
  return `This ${what} contains bidirectional Unicode text that may be interpreted differently than what appears below. The control characters are shown as <U+…> marks.`;
}

/** {@link bidiWarningText} as a note: `<div class="bidi-warning" role="note">…</div>`. */
export function bidiWarning(what: "file" | "message"): string {
  return `<div class="bidi-warning" role="note">${bidiWarningText(what).replace("<U+…>", "&lt;U+…&gt;")}</div>`;
}
