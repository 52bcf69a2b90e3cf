import { describe, expect, it } from "vitest";
import {
  base64Bytes,
  checkAttachment,
  checkPromptImages,
  formatBytes,
  MAX_PROMPT_IMAGE_BYTES,
  MAX_PROMPT_IMAGES_TOTAL_BYTES,
  sniffImageType,
} from "@/lib/agent-session/prompt-images";
import { PromptImagesSchema } from "@/lib/agent-session/prompt-images-schema";

/** A 1x1 PNG. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const JPEG = btoa(String.fromCharCode(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1));
const GIF = btoa("GIF89a\x01\x00\x01\x00\x00\x00");
const WEBP = btoa("RIFF\x1a\x00\x00\x00WEBPVP8 ");
const image = (data: string, mimeType: string) => ({ type: "image" as const, data, mimeType });

describe("limits", () => {
  it("are pi's 4.5 MiB per image, 6 MiB per prompt", () => {
    expect(MAX_PROMPT_IMAGE_BYTES).toBe(4_718_592);
    expect(MAX_PROMPT_IMAGES_TOTAL_BYTES).toBe(6_291_456);
    expect(formatBytes(MAX_PROMPT_IMAGE_BYTES)).toBe("4.5 MiB");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(12)).toBe("12 bytes");
    expect(formatBytes(5 * 1024 * 1024 + 1)).toBe("5 MiB");
  });
});

describe("checkAttachment (the composer, before reading a file)", () => {
  it("accepts png, jpeg, gif and webp within the limits", () => {
    for (const type of ["image/png", "image/jpeg", "image/gif", "image/webp"])
      expect(checkAttachment({ name: "a", type, size: 100 }, [])).toBeNull();
    expect(checkAttachment({ name: "a", type: "image/png", size: MAX_PROMPT_IMAGE_BYTES }, [])).toBeNull();
  });

  it("refuses another type, naming it", () => {
    expect(checkAttachment({ name: "logo.svg", type: "image/svg+xml", size: 10 }, [])).toBe(
      '"logo.svg" cannot be attached: image/svg+xml is not a PNG, JPEG, GIF or WebP image. Attach an image of one of these types.',
    );
    expect(checkAttachment({ name: "notes", type: "", size: 10 }, [])).toBe(
      '"notes" cannot be attached: its type is unknown, not a PNG, JPEG, GIF or WebP image. Attach an image of one of these types.',
    );
  });

  it("refuses an image over 4.5 MiB with its size", () => {
    expect(checkAttachment({ name: "big.png", type: "image/png", size: 5 * 1024 * 1024 }, [])).toBe(
      '"big.png" cannot be attached: it is 5 MiB, and an image can be at most 4.5 MiB. Shrink or crop it, then attach it again.',
    );
  });

  it("refuses an eleventh image and a total over 6 MiB", () => {
    expect(checkAttachment({ name: "k.png", type: "image/png", size: 1 }, Array(10).fill(1))).toBe(
      '"k.png" cannot be attached: a prompt can carry at most 10 images. Send these first, then attach the rest to the next prompt.',
    );
    expect(
      checkAttachment({ name: "c.png", type: "image/png", size: 2 * 1024 * 1024 }, [
        4 * 1024 * 1024,
        512 * 1024,
      ]),
    ).toBe(
      '"c.png" cannot be attached: the images of this prompt would total 6.5 MiB, more than 6 MiB. Send these first, then attach the rest to the next prompt.',
    );
  });
});

describe("checkPromptImages (the prompt route)", () => {
  it("accepts real png, jpeg, gif and webp content", () => {
    expect(sniffImageType(PNG)).toBe("image/png");
    expect(sniffImageType(JPEG)).toBe("image/jpeg");
    expect(sniffImageType(GIF)).toBe("image/gif");
    expect(sniffImageType(WEBP)).toBe("image/webp");
    expect(
      checkPromptImages([
        image(PNG, "image/png"),
        image(JPEG, "image/jpeg"),
        image(GIF, "image/gif"),
        image(WEBP, "image/webp"),
      ]),
    ).toEqual([]);
    expect(base64Bytes(PNG)).toBe(70);
  });

  it("names each problem with the image's position", () => {
    expect(
      checkPromptImages([
        image(PNG, "image/bmp"),
        image("data:image/png;base64,AAAA", "image/png"),
        image(PNG, "image/jpeg"),
        image(btoa("hello world!"), "image/png"),
      ]),
    ).toEqual([
      "Image 1: image/bmp is not one of image/png, image/jpeg, image/gif, image/webp.",
      "Image 2: data is not base64 (without a data: prefix).",
      "Image 3: its content is image/png, not image/jpeg.",
      "Image 4: its content is not a known image type, not image/png.",
    ]);
  });

  it("accepts an image at the 4.5 MiB limit (6.3M base64 characters) and refuses unpadded or mid-padded data", () => {
    // A regex over 4-character groups overflowed V8's stack at about 5M characters (a 500 for 3.5-4.5 MiB images).
    const limit = PNG.slice(0, 12) + "A".repeat((MAX_PROMPT_IMAGE_BYTES / 3) * 4 - 12);
    expect(limit.length).toBe(6_291_456);
    expect(checkPromptImages([image(limit, "image/png")])).toEqual([]);
    expect(
      checkPromptImages([image(`${PNG.slice(0, 12)}A`, "image/png"), image("iVBO=RwKGgo=", "image/png")]),
    ).toEqual([
      "Image 1: data is not base64 (without a data: prefix).",
      "Image 2: data is not base64 (without a data: prefix).",
    ]);
  });

  it("refuses more than 10 images and a total over 6 MiB", () => {
    expect(checkPromptImages(Array(11).fill(image(PNG, "image/png")))).toEqual([
      "A prompt can carry at most 10 images; this one has 11.",
    ]);
    const big = PNG.slice(0, 12) + "A".repeat(4 * 1024 * 1024 - 12); // 3 MiB of bytes, a PNG head
    expect(
      checkPromptImages([image(big, "image/png"), image(big, "image/png"), image(PNG, "image/png")]),
    ).toEqual(["The images total 6 MiB; a prompt's images can total at most 6 MiB."]);
  });

  it("is the zod schema's refinement", () => {
    expect(PromptImagesSchema.safeParse([image(PNG, "image/png")]).success).toBe(true);
    const bad = PromptImagesSchema.safeParse([image(PNG, "image/gif")]);
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.message)).toEqual([
      "Image 1: its content is image/png, not image/gif.",
    ]);
  });
});
