/**
 * Strata fix d of `transformMessages` (docs/pi-differences.md, "Replay to providers"): unpaired UTF-16 surrogates
 * in every string of a request are replaced by U+FFFD (pi's `sanitizeSurrogates` deletes them, and only in some
 * serializers). Re-exported by transform-messages.ts.
 */

/** The replacement of an unpaired UTF-16 surrogate (Strata fix d). */
export const REPLACEMENT_CHARACTER = "\uFFFD";

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Any surrogate: a cheap first scan (no lookaround), so text without one is returned as is. */
const ANY_SURROGATE = /[\uD800-\uDFFF]/;

/** Replace every unpaired UTF-16 surrogate of `text` by U+FFFD (Strata fix d; pi's `sanitizeSurrogates` deletes). */
export function replaceUnpairedSurrogates(text: string): string {
  return ANY_SURROGATE.test(text) ? text.replace(UNPAIRED_SURROGATE, REPLACEMENT_CHARACTER) : text;
}

/** How many unpaired UTF-16 surrogates `value` holds in all its strings, object keys included (0 for none). */
export function countUnpairedSurrogates(value: unknown): number {
  if (typeof value === "string")
    return ANY_SURROGATE.test(value) ? (value.match(UNPAIRED_SURROGATE)?.length ?? 0) : 0;
  let count = 0;
  if (Array.isArray(value)) for (const item of value) count += countUnpairedSurrogates(item);
  else if (value !== null && typeof value === "object")
    for (const [key, item] of Object.entries(value))
      count += countUnpairedSurrogates(key) + countUnpairedSurrogates(item);
  return count;
}

/**
 * Set `key` as an own enumerable property, as JSON.parse does: a plain assignment of `__proto__` would set the
 * object's prototype instead (the key lost, and a value's fields inherited).
 */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Deep copy of a JSON-like value with every string (keys included) passed through {@link replaceUnpairedSurrogates}. */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === "string") return replaceUnpairedSurrogates(value) as T;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = sanitizeDeep(value[i]);
    return out as T;
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record))
      setOwn(out, replaceUnpairedSurrogates(key), sanitizeDeep(record[key]));
    return out as T;
  }
  return value;
}

/**
 * {@link sanitizeDeep} with structural sharing: a value without an unpaired surrogate anywhere is returned as is
 * (same reference), and only the objects on the way to a changed string are copied. For values nobody mutates:
 * the transform passes build new messages and blocks instead of changing them.
 */
export function sanitizeShared<T>(value: T): T {
  if (typeof value === "string") return replaceUnpairedSurrogates(value) as T;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = sanitizeShared(value[i]);
      if (item !== value[i]) {
        out ??= value.slice();
        out[i] = item;
      }
    }
    return (out ?? value) as T;
  }
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(record)) {
      const item = sanitizeShared(record[key]);
      const safeKey = replaceUnpairedSurrogates(key);
      if (item !== record[key] || safeKey !== key) {
        if (!out) {
          // Rebuild in key order so a renamed key keeps its place.
          out = {};
          for (const k of Object.keys(record)) setOwn(out, replaceUnpairedSurrogates(k), record[k]);
        }
        if (safeKey !== key) delete out[key];
        setOwn(out, safeKey, item);
      }
    }
    return (out ?? value) as T;
  }
  return value;
}
