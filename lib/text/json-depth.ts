/**
 * A linear pre-scan of JSON text for its nesting depth, run before `JSON.parse`: V8 parses any depth, but the
 * recursive code that later touches the value (`JSON.stringify`, entry repair, the agent's message walk) overflows
 * the stack at a few thousand levels, and parsing millions of levels stalls the event loop for seconds. The scan
 * stops at the first bracket past the limit, so a 9.8 MB body of 4.9 million nested arrays costs a few hundred
 * bytes of scanning, and a legitimate 9.8 MB string one pass over its characters.
 *
 * Pure, edge-safe, no allocation.
 */

/**
 * Deepest JSON nesting accepted in a request body or one session entry, in levels of `[`/`{` (64). Real pi
 * entries nest fewer than 10 levels (entry → message → content part → tool arguments → a few levels of the
 * tool's own JSON); 64 leaves room for deeply structured tool arguments while staying far below the few thousand
 * levels where recursive code overflows the stack.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The 0-based index of the first `[` or `{` (outside strings) that opens level `limit + 1`, or -1 when `text`
 * nests at most `limit` levels. Strings are skipped with their escapes (`"\\"`, `"\""`); the text need not be
 * valid JSON (the parser reports that). Linear in the characters scanned; stops at the first bracket over.
 * @param text JSON text (a body, one line of a JSONL file).
 * @param limit deepest accepted nesting (default {@link MAX_JSON_DEPTH}).
 */
export function jsonDepthOverflow(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // Skip the string: jump to each next quote and count the backslashes before it.
      for (;;) {
        const q = text.indexOf('"', i + 1);
        if (q < 0) return -1; // unterminated: not JSON, the parser says so
        let k = q - 1;
        while (text.charCodeAt(k) === 92 /* \ */) k--;
        i = q;
        if ((q - 1 - k) % 2 === 0) break;
      }
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return i;
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth--;
    }
  }
  return -1;
}

/**
 * Whether a parsed JSON value nests more than `limit` levels (each array or object is a level; a scalar is 0),
 * walked with an explicit stack (no recursion, so any depth is safe to check) and stopped at the first value
 * past the limit. For values read back from storage, where no text is at hand to pre-scan.
 * @param value a JSON value (objects and arrays of scalars, objects and arrays).
 * @param limit deepest accepted nesting (default {@link MAX_JSON_DEPTH}).
 */
export function jsonValueTooDeep(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop() ?? 1;
    if (typeof v !== "object" || v === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === "object" && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
  }
  return false;
}
