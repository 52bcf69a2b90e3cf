import { describe, expect, it } from "vitest";
import { guideImageSrc } from "@/components/guide/guide-markdown";

describe("the guide's screenshots", () => {
  it("serves docs/guide.md's ../public/guide/*.png from /guide/, and leaves any other source as it is", () => {
    expect(guideImageSrc("../public/guide/home-import.png")).toBe("/guide/home-import.png");
    expect(guideImageSrc("public/guide/a_b-1.png")).toBe("/guide/a_b-1.png");
    for (const other of [
      "https://example.com/x.png",
      "../public/guide/../secret.png",
      "../public/other/x.png",
      "../public/guide/x.svg",
    ])
      expect(guideImageSrc(other)).toBe(other);
  });
});
