/**
 * Exact-text replacement and diff rendering for the edit tool, reimplementing pi's
 * `core/tools/edit-diff.ts`: LF/BOM normalisation, exact-then-fuzzy matching, pi's error texts,
 * a numbered display diff and a unified patch.
 */

import { createTwoFilesPatch, diffLines, FILE_HEADERS_ONLY } from "diff";

export interface Edit {
  oldText: string;
  newText: string;
}

/** The file's dominant line ending: "\r\n" when the first newline is part of a CRLF. */
export function detectLineEnding(content: string): "\r\n" | "\n" {
  const lf = content.indexOf("\n");
  if (lf === -1) return "\n";
  const crlf = content.indexOf("\r\n");
  return crlf !== -1 && crlf < lf ? "\r\n" : "\n";
}

/** Converts CRLF and lone CR to LF. */
export function normalizeToLF(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
}

/** Converts LF back to `ending`. */
export function restoreLineEndings(text: string, ending: "\r\n" | "\n"): string {
  return ending === "\r\n" ? text.replace(/\n/g, "\r\n") : text;
}

/** Splits off a leading U+FEFF. */
export function stripBom(content: string): { bom: string; text: string } {
  return content.startsWith("\uFEFF")
    ? { bom: "\uFEFF", text: content.slice(1) }
    : { bom: "", text: content };
}

/**
 * pi's fuzzy normalisation (`normalizeForFuzzyMatch`): NFKC, trailing whitespace stripped per line,
 * smart quotes to ASCII quotes, Unicode dashes to "-", special spaces to " ".
 */
export function normalizeForFuzzyMatch(text: string): string {
  return text
    .normalize("NFKC")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, "-")
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}

interface Match {
  found: boolean;
  index: number;
  length: number;
  fuzzy: boolean;
}

/** Exact `indexOf` first, then the same search in fuzzy-normalised space (pi's `fuzzyFindText`). */
function findText(content: string, oldText: string): Match {
  const exact = content.indexOf(oldText);
  if (exact !== -1) return { found: true, index: exact, length: oldText.length, fuzzy: false };
  const fuzzyOld = normalizeForFuzzyMatch(oldText);
  const fuzzyIndex = normalizeForFuzzyMatch(content).indexOf(fuzzyOld);
  if (fuzzyIndex === -1) return { found: false, index: -1, length: 0, fuzzy: false };
  return { found: true, index: fuzzyIndex, length: fuzzyOld.length, fuzzy: true };
}

function countOccurrences(content: string, oldText: string): number {
  return normalizeForFuzzyMatch(content).split(normalizeForFuzzyMatch(oldText)).length - 1;
}

/** A window of numbered lines around the likeliest intended location (pi's `findClosestMatchContext`). */
function closestMatchContext(content: string, oldText: string): string | undefined {
  const lines = content.split("\n");
  const oldLines = oldText.split("\n");
  const first = oldLines[0]?.trim();
  if (!first) return undefined;
  const numbered = (from: number, slice: string[]) =>
    slice.map((l, i) => `  ${from + i + 1}: ${l}`).join("\n");
  for (let len = Math.min(first.length, 60); len >= 10; len -= 10) {
    const needle = first.slice(0, len).trim();
    if (!needle) continue;
    const idx = lines.findIndex((line) => line.includes(needle));
    if (idx !== -1) {
      const start = Math.max(0, idx - 2);
      const end = Math.min(lines.length, idx + oldLines.length + 3);
      return `Closest match is around line ${idx + 1}:\n${numbered(start, lines.slice(start, end))}`;
    }
  }
  return `File starts with:\n${numbered(0, lines.slice(0, Math.min(5, lines.length)))}`;
}

function notFoundError(path: string, i: number, total: number, content: string, oldText: string): Error {
  const header =
    total === 1 ? `Could not find the exact text in ${path}.` : `Could not find edits[${i}] in ${path}.`;
  const context = content && oldText ? `\n${closestMatchContext(content, oldText) ?? "File is empty."}` : "";
  return new Error(
    `${header} The old text must match exactly including all whitespace and newlines.${context}`,
  );
}

function duplicateError(path: string, i: number, total: number, occurrences: number): Error {
  return new Error(
    total === 1
      ? `Found ${occurrences} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`
      : `Found ${occurrences} occurrences of edits[${i}] in ${path}. Each oldText must be unique. Please provide more context to make it unique.`,
  );
}

interface Replacement {
  editIndex: number;
  index: number;
  length: number;
  newText: string;
}

/** Applies replacements (offsets relative to `offset`) from last to first. */
function applyReplacements(content: string, replacements: Replacement[], offset = 0): string {
  let out = content;
  for (let i = replacements.length - 1; i >= 0; i--) {
    const r = replacements[i];
    const at = r.index - offset;
    out = out.slice(0, at) + r.newText + out.slice(at + r.length);
  }
  return out;
}

/** Lines with their terminators: "a\nb" gives ["a\n", "b"]. */
function linesWithEndings(content: string): string[] {
  return content.match(/[^\n]*\n|[^\n]+/g) ?? [];
}

/**
 * After a fuzzy match, rewrites only the lines the replacements touch (from the normalised base)
 * and copies every other line byte-for-byte from the original
 * (pi's `applyReplacementsPreservingUnchangedLines`).
 */
function applyPreservingUnchangedLines(original: string, base: string, replacements: Replacement[]): string {
  const originalLines = linesWithEndings(original);
  const spans: { start: number; end: number }[] = [];
  let pos = 0;
  for (const line of linesWithEndings(base)) {
    spans.push({ start: pos, end: pos + line.length });
    pos += line.length;
  }
  if (originalLines.length !== spans.length) {
    throw new Error("Cannot preserve unchanged lines because the base content has a different line count.");
  }
  const groups: { startLine: number; endLine: number; items: Replacement[] }[] = [];
  for (const r of [...replacements].sort((a, b) => a.index - b.index)) {
    const startLine = spans.findIndex((s) => r.index >= s.start && r.index < s.end);
    if (startLine === -1) throw new Error("Replacement range is outside the base content.");
    let endLine = startLine;
    while (endLine < spans.length && spans[endLine].end < r.index + r.length) endLine++;
    if (endLine >= spans.length) throw new Error("Replacement range is outside the base content.");
    const last = groups[groups.length - 1];
    if (last && startLine < last.endLine) {
      last.endLine = Math.max(last.endLine, endLine + 1);
      last.items.push(r);
    } else {
      groups.push({ startLine, endLine: endLine + 1, items: [r] });
    }
  }
  let out = "";
  let line = 0;
  for (const g of groups) {
    out += originalLines.slice(line, g.startLine).join("");
    const from = spans[g.startLine].start;
    out += applyReplacements(base.slice(from, spans[g.endLine - 1].end), g.items, from);
    line = g.endLine;
  }
  return out + originalLines.slice(line).join("");
}

/**
 * Applies edits to LF-normalised content, all matched against the original (pi's
 * `applyEditsToNormalizedContent`). Returns `{ baseContent, newContent }`.
 * @throws Error with pi's texts: empty oldText, not found (with closest-match context),
 *   duplicate occurrences, overlapping edits, or no change.
 */
export function applyEditsToNormalizedContent(
  content: string,
  edits: Edit[],
  path: string,
): { baseContent: string; newContent: string } {
  const normalized = edits.map((e) => ({
    oldText: normalizeToLF(e.oldText),
    newText: normalizeToLF(e.newText),
  }));
  const total = normalized.length;
  normalized.forEach((e, i) => {
    if (e.oldText.length === 0) {
      throw new Error(
        total === 1
          ? `oldText must not be empty in ${path}.`
          : `edits[${i}].oldText must not be empty in ${path}.`,
      );
    }
  });
  const fuzzy = normalized.some((e) => findText(content, e.oldText).fuzzy);
  const base = fuzzy ? normalizeForFuzzyMatch(content) : content;
  const matched: Replacement[] = normalized.map((e, i) => {
    const m = findText(base, e.oldText);
    if (!m.found) throw notFoundError(path, i, total, content, e.oldText);
    const occurrences = countOccurrences(base, e.oldText);
    if (occurrences > 1) throw duplicateError(path, i, total, occurrences);
    return { editIndex: i, index: m.index, length: m.length, newText: e.newText };
  });
  matched.sort((a, b) => a.index - b.index);
  for (let i = 1; i < matched.length; i++) {
    const prev = matched[i - 1];
    const cur = matched[i];
    if (prev.index + prev.length > cur.index) {
      throw new Error(
        `edits[${prev.editIndex}] and edits[${cur.editIndex}] overlap in ${path}. Merge them into one edit or target disjoint regions.`,
      );
    }
  }
  const newContent = fuzzy
    ? applyPreservingUnchangedLines(content, base, matched)
    : applyReplacements(base, matched);
  if (newContent === content) {
    throw new Error(
      total === 1
        ? `No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`
        : `No changes made to ${path}. The replacements produced identical content.`,
    );
  }
  return { baseContent: content, newContent };
}

/** A standard unified patch with file headers only and 4 context lines (pi's `generateUnifiedPatch`). */
export function generateUnifiedPatch(
  path: string,
  oldContent: string,
  newContent: string,
  contextLines = 4,
): string {
  return createTwoFilesPatch(path, path, oldContent, newContent, undefined, undefined, {
    context: contextLines,
    headerOptions: FILE_HEADERS_ONLY,
  });
}

/**
 * pi's display diff (`generateDiffString`): "+N line" / "-N line" / " N line" rows with line numbers
 * padded to the widest number, up to `contextLines` context rows around changes, " ... " for gaps.
 * `firstChangedLine` is the first changed line number in the new file.
 */
export function generateDiffString(
  oldContent: string,
  newContent: string,
  contextLines = 4,
): { diff: string; firstChangedLine: number | undefined } {
  const parts = diffLines(oldContent, newContent);
  const width = String(Math.max(oldContent.split("\n").length, newContent.split("\n").length)).length;
  const out: string[] = [];
  const gap = ` ${"".padStart(width, " ")} ...`;
  let oldNum = 1;
  let newNum = 1;
  let lastWasChange = false;
  let firstChangedLine: number | undefined;
  const context = (lines: string[]) => {
    for (const line of lines) {
      out.push(` ${String(oldNum).padStart(width, " ")} ${line}`);
      oldNum++;
      newNum++;
    }
  };
  const skip = (n: number) => {
    out.push(gap);
    oldNum += n;
    newNum += n;
  };
  parts.forEach((part, i) => {
    const raw = part.value.split("\n");
    if (raw[raw.length - 1] === "") raw.pop();
    if (part.added || part.removed) {
      firstChangedLine ??= newNum;
      for (const line of raw) {
        if (part.added) out.push(`+${String(newNum++).padStart(width, " ")} ${line}`);
        else out.push(`-${String(oldNum++).padStart(width, " ")} ${line}`);
      }
      lastWasChange = true;
      return;
    }
    const next = parts[i + 1];
    const trailing = next !== undefined && (next.added || next.removed);
    if (lastWasChange && trailing) {
      if (raw.length <= contextLines * 2) context(raw);
      else {
        const lead = raw.slice(0, contextLines);
        const tail = raw.slice(raw.length - contextLines);
        context(lead);
        skip(raw.length - lead.length - tail.length);
        context(tail);
      }
    } else if (lastWasChange) {
      const shown = raw.slice(0, contextLines);
      context(shown);
      if (raw.length > shown.length) skip(raw.length - shown.length);
    } else if (trailing) {
      const skipped = Math.max(0, raw.length - contextLines);
      if (skipped > 0) skip(skipped);
      context(raw.slice(skipped));
    } else {
      oldNum += raw.length;
      newNum += raw.length;
    }
    lastWasChange = false;
  });
  return { diff: out.join("\n"), firstChangedLine };
}
