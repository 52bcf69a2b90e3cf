/**
 * Images attached to a prompt (pi's `prompt(text, { images })`, content `[{type:"text"}, ...images]`, in
 * `agent-session.ts`): which images Strata accepts and the exact refusal texts, shared by the composer (a `File` before it is
 * read) and the prompt route (the base64 it receives). Pure and edge-safe.
 *
 * Limits: pi's image types (png, jpeg, gif, webp: its `read` tool and clipboard paste) and pi's image size target
 * `DEFAULT_MAX_BYTES` (4.5 MiB, below Anthropic's 5 MB per image; `utils/image-resize.ts`). pi resizes larger
 * images to fit 2000x2000 and 4.5 MiB; Strata has no image codec on the edge runtime, so it refuses them instead
 * (docs/pi-differences.md). Per prompt: at most {@link MAX_PROMPT_IMAGES} images totalling
 * {@link MAX_PROMPT_IMAGES_TOTAL_BYTES}, so the JSON body (base64 is 4/3 of the bytes) fits the runtime's 10 MiB.
 */
import type { ImageContent } from "@/lib/llm/types";

const MiB = 1024 * 1024;

/** The image types a prompt may carry, as their MIME types. */
export const PROMPT_IMAGE_MIME_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export type PromptImageMimeType = (typeof PROMPT_IMAGE_MIME_TYPES)[number];
/** Largest image, bytes (pi's 4.5 MiB: 4,718,592). */
export const MAX_PROMPT_IMAGE_BYTES = 4.5 * MiB;
/** Most images on one prompt. */
export const MAX_PROMPT_IMAGES = 10;
/** Largest total of one prompt's images, bytes (6 MiB: 8 MiB of base64 in a 10 MiB body). */
export const MAX_PROMPT_IMAGES_TOTAL_BYTES = 6 * MiB;

/** `4718592` → `"4.5 MiB"`, `1536` → `"1.5 KiB"`, `12` → `"12 bytes"` (one decimal, trailing `.0` dropped). */
export function formatBytes(bytes: number): string {
  const one = (n: number) => (Math.round(n * 10) / 10).toString();
  if (bytes >= MiB) return `${one(bytes / MiB)} MiB`;
  if (bytes >= 1024) return `${one(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

/** True for the MIME types of {@link PROMPT_IMAGE_MIME_TYPES} (exact, lower case). */
export function isPromptImageType(type: string): type is PromptImageMimeType {
  return (PROMPT_IMAGE_MIME_TYPES as readonly string[]).includes(type);
}

/** What the composer knows of a file before reading it. */
export interface AttachmentCandidate {
  name: string;
  /** The browser's MIME type (`""` when unknown). */
  type: string;
  size: number;
}

/** Refusal: a type other than png/jpeg/gif/webp. */
export const unsupportedImageMessage = (name: string, type: string) =>
  `"${name}" cannot be attached: ${type ? `${type} is not` : "its type is unknown, not"} a PNG, JPEG, GIF or WebP image. Attach an image of one of these types.`;
/** Refusal: one image over {@link MAX_PROMPT_IMAGE_BYTES}. */
export const imageTooLargeMessage = (name: string, size: number) =>
  `"${name}" cannot be attached: it is ${formatBytes(size)}, and an image can be at most ${formatBytes(MAX_PROMPT_IMAGE_BYTES)}. Shrink or crop it, then attach it again.`;
/** Refusal: more than {@link MAX_PROMPT_IMAGES} images. */
export const tooManyImagesMessage = (name: string) =>
  `"${name}" cannot be attached: a prompt can carry at most ${MAX_PROMPT_IMAGES} images. Send these first, then attach the rest to the next prompt.`;
/** Refusal: the prompt's images would total more than {@link MAX_PROMPT_IMAGES_TOTAL_BYTES}. */
export const imagesTotalTooLargeMessage = (name: string, total: number) =>
  `"${name}" cannot be attached: the images of this prompt would total ${formatBytes(total)}, more than ${formatBytes(MAX_PROMPT_IMAGES_TOTAL_BYTES)}. Send these first, then attach the rest to the next prompt.`;

/**
 * Check `candidate` against the attachments already on the prompt (`attached`: their sizes, bytes), in this order:
 * type, size, count, total.
 * @returns the refusal text, or null when it can be attached.
 */
export function checkAttachment(candidate: AttachmentCandidate, attached: readonly number[]): string | null {
  if (!isPromptImageType(candidate.type)) return unsupportedImageMessage(candidate.name, candidate.type);
  if (candidate.size > MAX_PROMPT_IMAGE_BYTES) return imageTooLargeMessage(candidate.name, candidate.size);
  if (attached.length >= MAX_PROMPT_IMAGES) return tooManyImagesMessage(candidate.name);
  const total = attached.reduce((sum, size) => sum + size, candidate.size);
  if (total > MAX_PROMPT_IMAGES_TOTAL_BYTES) return imagesTotalTooLargeMessage(candidate.name, total);
  return null;
}

/** Base64 alphabet with at most two `=` at the end; no group repetition, so no backtracking over megabytes. */
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;
/** Standard padded base64 (a length that is a multiple of 4). A regex over the groups overflowed V8's stack at ~5M characters. */
const isBase64 = (data: string) => data.length % 4 === 0 && BASE64_CHARS.test(data);

/** Bytes encoded by canonical base64 `data` (length × 3/4 minus the padding). */
export function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

const SIGNATURES: { type: PromptImageMimeType; test: (b: Uint8Array) => boolean }[] = [
  { type: "image/png", test: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 },
  { type: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: "image/gif", test: (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38 },
  {
    type: "image/webp",
    test: (b) =>
      b[0] === 0x52 &&
      b[1] === 0x49 &&
      b[2] === 0x46 &&
      b[3] === 0x46 &&
      String.fromCharCode(...b.slice(8, 12)) === "WEBP",
  },
];

/** The image type of the bytes that canonical base64 `data` starts with (its magic number), or null. */
export function sniffImageType(data: string): PromptImageMimeType | null {
  const head = atob(data.slice(0, 16));
  const bytes = Uint8Array.from(head, (c) => c.charCodeAt(0));
  return SIGNATURES.find((s) => s.test(bytes))?.type ?? null;
}

/**
 * Check images as the prompt route receives them: each `mimeType` one of {@link PROMPT_IMAGE_MIME_TYPES}, `data`
 * canonical base64 of at most {@link MAX_PROMPT_IMAGE_BYTES} whose content is that type; at most
 * {@link MAX_PROMPT_IMAGES} images totalling at most {@link MAX_PROMPT_IMAGES_TOTAL_BYTES}.
 * @returns the problems, one text each with the image's 1-based position (empty when all are fine).
 */
export function checkPromptImages(images: readonly ImageContent[]): string[] {
  const problems: string[] = [];
  if (images.length > MAX_PROMPT_IMAGES)
    problems.push(`A prompt can carry at most ${MAX_PROMPT_IMAGES} images; this one has ${images.length}.`);
  let total = 0;
  images.forEach((image, i) => {
    const at = `Image ${i + 1}`;
    if (!isPromptImageType(image.mimeType)) {
      problems.push(`${at}: ${image.mimeType} is not one of ${PROMPT_IMAGE_MIME_TYPES.join(", ")}.`);
      return;
    }
    if (image.data === "" || !isBase64(image.data)) {
      problems.push(`${at}: data is not base64 (without a data: prefix).`);
      return;
    }
    const bytes = base64Bytes(image.data);
    total += bytes;
    if (bytes > MAX_PROMPT_IMAGE_BYTES)
      problems.push(
        `${at} is ${formatBytes(bytes)}; an image can be at most ${formatBytes(MAX_PROMPT_IMAGE_BYTES)}.`,
      );
    const sniffed = sniffImageType(image.data);
    if (sniffed !== image.mimeType)
      problems.push(`${at}: its content is ${sniffed ?? "not a known image type"}, not ${image.mimeType}.`);
  });
  if (total > MAX_PROMPT_IMAGES_TOTAL_BYTES)
    problems.push(
      `The images total ${formatBytes(total)}; a prompt's images can total at most ${formatBytes(MAX_PROMPT_IMAGES_TOTAL_BYTES)}.`,
    );
  return problems;
}

/** The placeholder a model without image input gets instead of each run of images (pi's `transform-messages.ts`), for the composer. */
export { NON_VISION_USER_IMAGE_PLACEHOLDER } from "@/lib/llm/transform-messages";
