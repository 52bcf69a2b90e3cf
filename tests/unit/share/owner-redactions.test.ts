/** The owner's own redaction strings (lib/share/owner-redactions.ts): refused by position with a 400, never dropped. */
import { describe, expect, it } from "vitest";
import { ShareError } from "@/lib/share/errors";
import { checkOwnerRedactions, ownerRedactionProblem } from "@/lib/share/owner-redactions";

const SHORT = (n: number) =>
  `Redaction ${n} is shorter than 4 characters: a short string would redact ordinary text. Use a longer, exact string.`;

function refusal(strings: string[]) {
  try {
    checkOwnerRedactions(strings);
  } catch (err) {
    if (err instanceof ShareError) return { status: err.status, code: err.code, message: err.message };
    throw err;
  }
  return null;
}

describe("checkOwnerRedactions", () => {
  it("refuses a string under 4 characters by its 1-based position, with 400", () => {
    expect(refusal(["Nightingale", "abc"])).toEqual({
      status: 400,
      code: "redaction_too_short",
      message: SHORT(2),
    });
  });

  it("counts the position in the request, duplicates included, and names the first refused string", () => {
    expect(refusal(["abcd", "abcd", "xy", ""])).toEqual({
      status: 400,
      code: "redaction_too_short",
      message: SHORT(3),
    });
  });

  it("refuses an empty or whitespace-only string", () => {
    const blank =
      "Redaction 1 is empty or only whitespace: there is no text to redact. Remove it, or type the exact text to redact.";
    expect(refusal([""])).toEqual({ status: 400, code: "redaction_blank", message: blank });
    expect(refusal(["    "])).toEqual({ status: 400, code: "redaction_blank", message: blank });
    expect(refusal(["\t\n  \u00a0"])).toEqual({ status: 400, code: "redaction_blank", message: blank });
  });

  it("judges a string without the whitespace at its ends, and says so", () => {
    expect(ownerRedactionProblem(" ab ", 4)).toEqual({
      code: "redaction_too_short",
      message:
        "Redaction 4 is shorter than 4 characters once the whitespace at its ends is left out: a short string would redact ordinary text. Use a longer, exact string.",
    });
  });

  it("counts characters, not UTF-16 units", () => {
    expect(ownerRedactionProblem("a😀b", 1)?.message).toBe(SHORT(1));
    expect(ownerRedactionProblem("a😀bc", 1)).toBeNull();
  });

  it("keeps accepted strings as given, each once, in order", () => {
    expect(checkOwnerRedactions(["Nightingale", " spaced out ", "Nightingale", "abcd"])).toEqual([
      "Nightingale",
      " spaced out ",
      "abcd",
    ]);
    expect(checkOwnerRedactions([])).toEqual([]);
  });
});
