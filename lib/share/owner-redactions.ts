/**
 * The owner's own redaction strings (docs/sharing.md, "Preview, digest, publish"), checked before any preview is
 * built so that none is ever dropped silently: each must hold at least {@link MIN_OWNER_REDACTION} characters (code
 * points) once the whitespace at its ends is left out — a shorter one would redact ordinary text, and spaces alone
 * would redact every run of spaces. A string is then used exactly as given (literal, case-sensitive); a repeated
 * string counts once. Edge-safe.
 */
import { ShareError } from "./errors";

/** Shortest owner redaction string accepted (code points, whitespace at the ends not counted). */
export const MIN_OWNER_REDACTION = 4;
/** Most owner redaction strings per share (the preview and publish bodies refuse more). */
export const MAX_OWNER_REDACTIONS = 100;

/**
 * Check the owner's strings in request order; the first refused one is named by its 1-based position.
 * @returns the strings to redact, each once (first occurrence kept, order kept).
 * @throws ShareError 400 `redaction_blank` ("Redaction 2 is empty or only whitespace: …") or 400
 *   `redaction_too_short` ("Redaction 2 is shorter than 4 characters: …").
 */
export function checkOwnerRedactions(strings: readonly string[]): string[] {
  strings.forEach((s, i) => {
    const problem = ownerRedactionProblem(s, i + 1);
    if (problem) throw new ShareError(400, problem.code, problem.message);
  });
  return [...new Set(strings)];
}

/** Why the owner string `s` at 1-based `position` is refused, or null when it is accepted. */
export function ownerRedactionProblem(
  s: string,
  position: number,
): { code: "redaction_blank" | "redaction_too_short"; message: string } | null {
  const trimmed = s.trim();
  if (trimmed === "")
    return {
      code: "redaction_blank",
      message: `Redaction ${position} is empty or only whitespace: there is no text to redact. Remove it, or type the exact text to redact.`,
    };
  if ([...trimmed].length >= MIN_OWNER_REDACTION) return null;
  const ends = trimmed !== s ? " once the whitespace at its ends is left out" : "";
  return {
    code: "redaction_too_short",
    message: `Redaction ${position} is shorter than ${MIN_OWNER_REDACTION} characters${ends}: a short string would redact ordinary text. Use a longer, exact string.`,
  };
}
