import { describe, expect, it } from "vitest";
import {
  type DraftStorage,
  draftKey,
  loadDraft,
  saveDraft,
  storedDraft,
  withoutSent,
} from "@/components/chat/draft-store";
import { memoryStorage } from "../../helpers/storage";

describe("draft storage", () => {
  it("keeps a draft per session under strata.draft.<id>", () => {
    const s = memoryStorage();
    expect(saveDraft(s, "a", "fix the tests")).toBe(true);
    expect(saveDraft(s, "b", "other")).toBe(true);
    expect([...s.map.entries()]).toEqual([
      ["strata.draft.a", "fix the tests"],
      ["strata.draft.b", "other"],
    ]);
    expect(loadDraft(s, "a")).toBe("fix the tests");
    expect(loadDraft(s, "c")).toBe("");
    expect(draftKey("x")).toBe("strata.draft.x");
  });

  it("an empty or white-space draft removes the entry", () => {
    const s = memoryStorage();
    saveDraft(s, "a", "text");
    saveDraft(s, "a", "  \n ");
    expect(s.map.has("strata.draft.a")).toBe(false);
  });

  it("reports an unavailable or refusing storage instead of throwing", () => {
    const full: DraftStorage = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => undefined,
    };
    expect(saveDraft(full, "a", "x")).toBe(false);
    expect(loadDraft(full, "a")).toBe("");
    expect(saveDraft(null, "a", "x")).toBe(false);
    expect(loadDraft(null, "a")).toBe("");
  });

  it("withoutSent drops the accepted text and keeps what was typed since", () => {
    expect(withoutSent("fix it", "fix it")).toBe("");
    expect(withoutSent("fix it\n\nand then this", "fix it")).toBe("and then this");
    expect(withoutSent("something else", "fix it")).toBe("something else");
    expect(withoutSent("fix it now", "fix it")).toBe("fix it now");
  });
});

describe("storedDraft", () => {
  it("stores texts on their way until the server took them, then only what the box shows", () => {
    expect(storedDraft([{ text: "!sandbox sleep 12" }], "")).toBe("!sandbox sleep 12");
    // The POST answered with the run's stream: a reload must not bring the command back.
    expect(storedDraft([{ text: "!sandbox sleep 12", released: true }], "")).toBe("");
    expect(storedDraft([{ text: "fix it", released: true }, { text: "then docs" }], "typed since")).toBe(
      "then docs\n\ntyped since",
    );
    expect(storedDraft([{ text: "  " }], "box")).toBe("box");
  });
});
