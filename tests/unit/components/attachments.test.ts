import { describe, expect, it } from "vitest";
import { dataUrlBase64, imageDataUrl } from "@/components/chat/attachments";
import { textBlocksOf } from "@/components/chat/attachments-message";
import { nonVisionNotice } from "@/components/chat/attachments-tray";

describe("attachments", () => {
  it("reads the base64 of a FileReader data URL, nothing else", () => {
    expect(dataUrlBase64("data:image/png;base64,iVBORw0K")).toBe("iVBORw0K");
    expect(dataUrlBase64("data:image/png,rawtext")).toBe("");
    expect(dataUrlBase64("blob:http://x/1")).toBe("");
    expect(imageDataUrl({ type: "image", data: "AAAA", mimeType: "image/gif" })).toBe(
      "data:image/gif;base64,AAAA",
    );
  });

  it("keeps a user message's text blocks for the text and leaves the images to the thumbnails", () => {
    expect(
      textBlocksOf([
        { type: "text", text: "look" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "text", text: "again" },
      ]),
    ).toEqual([
      { type: "text", text: "look" },
      { type: "text", text: "again" },
    ]);
    expect(textBlocksOf("plain")).toBe("plain");
    expect(textBlocksOf(null)).toEqual([]);
  });

  it("says what a model without image input does with the images (pi's placeholder)", () => {
    expect(nonVisionNotice("Devstral Medium")).toBe(
      'Devstral Medium has no image input: the images are kept in the session, but the model gets the text "(image omitted: model does not support images)" in their place. To let the model see them, switch to a model with image input.',
    );
  });
});
