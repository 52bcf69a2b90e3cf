/**
 * Base64 and hex runs that decode to text (docs/sharing.md, "Redaction"): a known key encoded (`echo -n sk-ant-… |
 * base64`, a hex dump) has no shape a pattern sees, yet anyone can decode it. `redact.ts` lints each run's decoded
 * text and redacts the whole run when a shape-based rule finds a secret in it. Runs that decode to binary (hashes,
 * integrity digests, images) are skipped: only printable ASCII counts as text. Edge-safe (no Buffer).
 */

/** One run of `text`: its range, the encoding's kind (the redaction's name) and the decoded text. */
export interface EncodedRun {
  start: number;
  end: number;
  kind: "Base64Encoded" | "HexEncoded";
  decoded: string;
}

/** Base64 (standard or URL-safe alphabet) of at least 24 characters, padding included; not inside a longer word. */
const BASE64 = /(?<![A-Za-z0-9+/_-])(?:[A-Za-z0-9+/]{24,}={0,2}|[A-Za-z0-9_-]{24,})(?![A-Za-z0-9+/=_-])/g;
/** Hex of at least 32 digits (16 bytes), an even count. */
const HEX = /(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){16,}(?![0-9A-Fa-f])/g;
/** Longer runs are data (an embedded file), not an encoded key. */
const MAX_RUN = 64 * 1024;

/** Every base64 or hex run of `text` whose bytes are printable ASCII (tab and line breaks allowed), in order. */
export function encodedRuns(text: string): EncodedRun[] {
  const runs: EncodedRun[] = [];
  for (const m of text.matchAll(HEX)) {
    if (m[0].length > MAX_RUN) continue;
    const decoded = asText(hexBytes(m[0]));
    if (decoded) runs.push({ start: m.index, end: m.index + m[0].length, kind: "HexEncoded", decoded });
  }
  for (const m of text.matchAll(BASE64)) {
    if (m[0].length > MAX_RUN || /^[0-9A-Fa-f]+$/.test(m[0])) continue;
    const bytes = base64Bytes(m[0]);
    const decoded = bytes && asText(bytes);
    if (decoded) runs.push({ start: m.index, end: m.index + m[0].length, kind: "Base64Encoded", decoded });
  }
  return runs.sort((a, b) => a.start - b.start);
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The bytes of a base64 run (either alphabet), or null when it is not valid base64. */
function base64Bytes(run: string): Uint8Array | null {
  const standard = run.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (standard.length % 4 === 1) return null;
  try {
    const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, "="));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The bytes as a string when every byte is printable ASCII, a tab or a line break; else null. */
function asText(bytes: Uint8Array): string | null {
  let out = "";
  for (const b of bytes) {
    if (b !== 9 && b !== 10 && b !== 13 && (b < 32 || b > 126)) return null;
    out += String.fromCharCode(b);
  }
  return out;
}
