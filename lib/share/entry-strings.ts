/**
 * Walking a share's entries for redaction (docs/sharing.md, "Keys, whole values and paths"): every string value (not
 * ids, not image data), whole values under secret-named keys, and the keys of tool-call arguments, tool result details
 * and custom entry data; renaming redacted keys in place. Also which names are secret (used by `redact.ts`'s
 * patterns too). Edge-safe.
 */

import { isEntryIdShape } from "@/lib/db/ids";

/**
 * A secret-named key (regex source, no anchors): the name ends in password, passwd, secret, token, api key, access
 * key, secret key, private key, credentials or authorization (any case; `_`/`-` between the words or none).
 */
export const SECRET_NAME =
  "(?:pass(?:word|wd)|secret|token|api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key|credentials?|authorization)";

const SECRET_NAME_AT_END = new RegExp(`${SECRET_NAME}$`, "i");

/** Whether an object key names a secret (ends in one of {@link SECRET_NAME}'s words, any case). */
export function isSecretName(key: string): boolean {
  return SECRET_NAME_AT_END.test(key);
}

/**
 * An entry's own fields that hold entry ids or fixed metadata, with the shape such a value has: passed over at an
 * entry's top level only, and only when the value has that shape (an 8-hex entry id, an ISO 8601 timestamp, a
 * lower-case type name). A nested object with the same keys (a tool call's arguments) or a value of another shape
 * (an imported entry's) is redacted like any string.
 */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const ID_FIELDS: ReadonlyMap<string, (value: string) => boolean> = new Map([
  ["id", isEntryIdShape],
  ["parentId", isEntryIdShape],
  ["targetId", isEntryIdShape],
  ["firstKeptEntryId", isEntryIdShape],
  ["fromId", isEntryIdShape],
  ["timestamp", (value: string) => ISO_TIME.test(value)],
  ["type", (value: string) => /^[a-z_]{1,40}$/.test(value)],
]);

/** Whether `value` under an entry's top-level `key` is entry metadata of its field's shape (never redacted). */
export function isEntryMetadata(key: string, value: string): boolean {
  return ID_FIELDS.get(key)?.(value) ?? false;
}

/** Fields whose objects' keys are redacted too (tool-call arguments, tool result details, custom entry data). */
const KEYED_FIELDS = new Set(["arguments", "details", "data"]);

/**
 * Field names a redaction's site may name as the part of an entry it is in (`Entry 3 (output), line 1`): pi's entry
 * and content fields only, a fixed list, so a site never repeats a name taken from the data (an argument's key may
 * itself be a secret).
 */
const PART_FIELDS = new Set([
  "text",
  "thinking",
  "command",
  "output",
  "summary",
  "name",
  "label",
  "arguments",
  "details",
  "data",
  "content",
  "errorMessage",
]);

/**
 * Visit every string value of a session entry except its own id and metadata fields ({@link isEntryMetadata}) and
 * image data (`image` instead). Under a secret-named key
 * (`isSecretName`) every string and number below is visited with `secretKey` (redacted whole); the keys of objects
 * below a {@link KEYED_FIELDS} field are visited with `key`. `part` is the nearest key on the way to the string (its
 * own included) that is one of {@link PART_FIELDS} (`command`, `output`, `text`…), `undefined` when none is; a key is
 * visited with the part of the object holding it.
 */
export function walkStrings(entry: Record<string, unknown>, visit: StringVisitor): void {
  walkValue(entry, visit, false, false, undefined, true);
}

/** What {@link walkStrings} calls for each string, each key of a keyed object, and each image. */
export interface StringVisitor {
  string: (holder: object, key: string | number, value: string, secretKey: boolean, part?: string) => void;
  key: (holder: Record<string, unknown>, key: string, part?: string) => void;
  image: () => void;
}

/** {@link walkStrings} below the entry: `top` only for the entry object itself. */
function walkValue(
  value: Record<string, unknown> | unknown[],
  visit: StringVisitor,
  secret: boolean,
  keyed: boolean,
  part: string | undefined,
  top: boolean,
): void {
  const isImage = !Array.isArray(value) && value.type === "image" && typeof value.data === "string";
  if (isImage) visit.image();
  const each = (key: string | number, v: unknown) => {
    const name = typeof key === "string" ? key : undefined;
    const under = secret || (name !== undefined && !top && isSecretName(name));
    const own = name !== undefined && PART_FIELDS.has(name) ? name : part;
    if (typeof v === "string" || (under && typeof v === "number")) {
      if (top && typeof v === "string" && isEntryMetadata(String(key), v)) return;
      if (isImage && key === "data") return;
      visit.string(value, key, String(v), under, own);
    } else if (v && typeof v === "object")
      walkValue(
        v as Record<string, unknown>,
        visit,
        under,
        keyed || (name !== undefined && KEYED_FIELDS.has(name)),
        own,
        false,
      );
  };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) each(i, value[i]);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (keyed) visit.key(value, k, part);
    each(k, v);
  }
}

/** Rename redacted keys in place (key order kept); keys that clash once redacted get `~2`, `~3`, …. */
export function renameKeys(
  renames: readonly { holder: Record<string, unknown>; from: string; to: () => string }[],
) {
  const byHolder = new Map<Record<string, unknown>, Map<string, string>>();
  for (const r of renames) {
    if (r.to() === r.from) continue;
    const map = byHolder.get(r.holder) ?? new Map<string, string>();
    map.set(r.from, r.to());
    byHolder.set(r.holder, map);
  }
  for (const [holder, map] of byHolder) {
    const pairs = Object.entries(holder);
    for (const [k] of pairs) delete holder[k];
    const taken = new Set(pairs.filter(([k]) => !map.has(k)).map(([k]) => k));
    for (const [k, v] of pairs) {
      let key = k;
      if (map.has(k)) {
        const to = map.get(k)!;
        key = to;
        for (let n = 2; taken.has(key); n++) key = `${to}~${n}`;
        taken.add(key);
      }
      setOwn(holder, key, v);
    }
  }
}

/**
 * Set `holder[key]` as an own data property: `holder.__proto__ = …` (a key JSON allows) would set the prototype
 * instead — a string is ignored, so a redacted value would keep its secret.
 */
export function setOwn(holder: object, key: string | number, value: unknown): void {
  Object.defineProperty(holder, key, { value, enumerable: true, writable: true, configurable: true });
}
