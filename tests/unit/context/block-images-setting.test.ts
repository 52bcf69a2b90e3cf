/** pi's `getBlockImages()` on merged settings, and the wrapped convert with a per-request (async) setting read. */
import { describe, expect, it } from "vitest";
import { blockImagesSetting, createConvertToLlm, IMAGE_READING_DISABLED } from "@/lib/context/block-images";
import type { UserMessage } from "@/lib/llm/types";

describe("blockImagesSetting", () => {
  it("reads images.blockImages; truthy blocks as in pi, anything missing does not", () => {
    expect(blockImagesSetting({ images: { blockImages: true } })).toBe(true);
    expect(blockImagesSetting({ images: { blockImages: 1 } })).toBe(true);
    expect(blockImagesSetting({ images: { blockImages: false } })).toBe(false);
    expect(blockImagesSetting({ images: {} })).toBe(false);
    expect(blockImagesSetting({ images: null })).toBe(false);
    expect(blockImagesSetting({ images: "yes" })).toBe(false);
    expect(blockImagesSetting({})).toBe(false);
  });
});

describe("createConvertToLlm with an async setting", () => {
  const user: UserMessage = {
    role: "user",
    content: [
      { type: "text", text: "see" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ],
    timestamp: 1,
  };
  it("reads the setting on every call and answers a promise", async () => {
    let reads = 0;
    let blocked = true;
    const convert = createConvertToLlm(async () => {
      reads++;
      return blocked;
    });
    expect(await convert([user])).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "see" },
          { type: "text", text: IMAGE_READING_DISABLED },
        ],
        timestamp: 1,
      },
    ]);
    blocked = false;
    expect(await convert([user])).toEqual([user]);
    expect(reads).toBe(2);
  });
});
