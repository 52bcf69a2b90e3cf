/**
 * Image detection and encoding for the read tool, mirroring pi's `detectSupportedImageMimeType`
 * (`utils/mime.ts`): magic-byte sniffing, never the file extension.
 */

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function ascii(bytes: Uint8Array, offset: number, text: string): boolean {
  if (bytes.length < offset + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[offset + i] !== text.charCodeAt(i)) return false;
  return true;
}

function uint32BE(bytes: Uint8Array, offset: number): number {
  return (
    ((bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) >>> 0
  );
}

/** True when a PNG contains an `acTL` chunk before its first `IDAT` (an animated PNG). */
function isAnimatedPng(bytes: Uint8Array): boolean {
  let offset = PNG_SIGNATURE.length;
  while (offset + 8 <= bytes.length) {
    const length = uint32BE(bytes, offset);
    if (ascii(bytes, offset + 4, "acTL")) return true;
    if (ascii(bytes, offset + 4, "IDAT")) return false;
    offset += 12 + length;
  }
  return false;
}

/**
 * The MIME type of a supported image from its leading bytes, or null.
 * Supported: `image/jpeg` (not JPEG-LS), `image/png` (not animated), `image/gif`, `image/webp`.
 */
export function detectImageMimeType(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return bytes[3] === 0xf7 ? null : "image/jpeg";
  }
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) {
    const valid = bytes.length >= 16 && uint32BE(bytes, 8) === 13 && ascii(bytes, 12, "IHDR");
    return valid && !isAnimatedPng(bytes) ? "image/png" : null;
  }
  if (ascii(bytes, 0, "GIF87a") || ascii(bytes, 0, "GIF89a")) return "image/gif";
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return "image/webp";
  return null;
}

/** Standard base64 (no `data:` prefix) of `bytes`; edge-safe (uses `btoa`, no `Buffer`). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}
