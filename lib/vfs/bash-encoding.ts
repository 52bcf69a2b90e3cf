/**
 * Encodings for the just-bash filesystem adapter (`ProjectBashFs`): string ⇄ bytes as Node's `fs` does.
 * Pure, edge-safe.
 */

/** Encodings just-bash passes to the filesystem. */
export type Encoding = "utf8" | "utf-8" | "ascii" | "binary" | "base64" | "hex" | "latin1";
/** just-bash's encoding argument: an options object, an encoding name or nothing (UTF-8). */
export type EncodingArg = { encoding?: Encoding | null } | Encoding | undefined;

/** The encoding named by `options` (UTF-8 when none). */
export function encodingOf(options: EncodingArg): Encoding {
  if (typeof options === "string") return options;
  return options?.encoding ?? "utf8";
}

/** Bytes to a string in `encoding` (base64/hex text, latin1/binary/ascii one char per byte, else UTF-8). */
export function decode(bytes: Uint8Array, encoding: Encoding): string {
  switch (encoding) {
    case "base64": {
      let binary = "";
      for (let i = 0; i < bytes.length; i += 0x8000)
        binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(binary);
    }
    case "hex":
      return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    case "latin1":
    case "binary":
    case "ascii": {
      let out = "";
      for (let i = 0; i < bytes.length; i += 0x8000)
        out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return encoding === "ascii"
        ? out.replace(/[\x80-\xff]/g, (c) => String.fromCharCode(c.charCodeAt(0) & 0x7f))
        : out;
    }
    default:
      return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  }
}

/** A string in `encoding` to bytes (the inverse of `decode`); bytes are returned as they are. */
export function encode(content: string | Uint8Array, encoding: Encoding): Uint8Array {
  if (typeof content !== "string") return content;
  switch (encoding) {
    case "base64":
      return Uint8Array.from(atob(content), (c) => c.charCodeAt(0));
    case "hex":
      return Uint8Array.from(content.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
    case "latin1":
    case "binary":
    case "ascii":
      return Uint8Array.from(content, (c) => c.charCodeAt(0) & 0xff);
    default:
      return new TextEncoder().encode(content);
  }
}
