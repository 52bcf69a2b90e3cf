/** The share dialog's and Shared links' words (components/share/view-model.ts), as exact strings. */
import { describe, expect, it } from "vitest";
import { ApiError } from "@/components/api-client";
import { attachmentName } from "@/components/share/share-api";
import {
  absoluteShareUrl,
  expiresAtFor,
  expiryText,
  previewCounts,
  redactionInputProblem,
  redactionWhere,
  ruleLabel,
  sharedFileLine,
  shareErrorMessage,
} from "@/components/share/view-model";

describe("redactionWhere", () => {
  it("names each kind of site (entries 1-based, a file's line 0 is its name)", () => {
    expect(redactionWhere({ kind: "title" })).toBe("Title");
    expect(redactionWhere({ kind: "entry", entry: 0, line: 1 })).toBe("Entry 1, line 1");
    expect(redactionWhere({ kind: "entry", entry: 11, line: 3 })).toBe("Entry 12, line 3");
    expect(redactionWhere({ kind: "entry", entry: 2, part: "output", line: 1 })).toBe(
      "Entry 3 (output), line 1",
    );
    expect(redactionWhere({ kind: "file", path: ".env", line: 2 })).toBe(".env, line 2");
    expect(redactionWhere({ kind: "file", path: "keys/sk-[redacted].txt", line: 0 })).toBe(
      "keys/sk-[redacted].txt (file name)",
    );
    expect(redactionWhere({ kind: "system", line: 4 })).toBe("System prompt, line 4");
    expect(redactionWhere({ kind: "system", line: 0 })).toBe("System prompt sources");
  });
});

describe("ruleLabel", () => {
  it("drops secretlint's prefix; owner strings read as yours", () => {
    expect(ruleLabel("@secretlint/secretlint-rule-aws")).toBe("aws");
    expect(ruleLabel("@secretlint/secretlint-rule-pattern")).toBe("pattern");
    expect(ruleLabel("owner")).toBe("your string");
    expect(ruleLabel("strata/dotenv")).toBe("strata/dotenv");
  });
});

describe("previewCounts", () => {
  const redaction = { site: { kind: "title" as const }, rule: "owner", kind: "owner", excerpt: "" };
  it("entries, files (with the ones not shared) and redactions", () => {
    expect(previewCounts({ entries: [{}, {}, {}] as never[], files: null, redactions: [] })).toBe(
      "3 entries · 0 redactions",
    );
    expect(
      previewCounts({
        entries: [{}] as never[],
        files: [
          { path: "a", size: 1, mode: "100644" },
          { path: "b.png", size: 9, mode: "100644", omitted: "binary" },
        ],
        redactions: [redaction],
      }),
    ).toBe("1 entry · 2 files (1 not shared) · 1 redaction");
    expect(
      previewCounts({
        entries: [] as never[],
        files: [{ path: "a", size: 1, mode: "100644" }],
        redactions: [redaction, redaction],
      }),
    ).toBe("0 entries · 1 file · 2 redactions");
  });
});

describe("expiry", () => {
  const now = new Date("2026-12-04T12:00:00.000Z");
  it("never is null; days are added to now", () => {
    expect(expiresAtFor("never", now)).toBeNull();
    expect(expiresAtFor("1d", now)).toBe("2026-12-05T12:00:00.000Z");
    expect(expiresAtFor("7d", now)).toBe("2026-12-11T12:00:00.000Z");
    expect(expiresAtFor("30d", now)).toBe("2027-01-03T12:00:00.000Z");
  });
  it("reads as never or the formatted time", () => {
    expect(expiryText(null, (s) => s)).toBe("Never expires");
    expect(expiryText("2026-12-05T12:00:00.000Z", () => "5 Dec 2026")).toBe("Expires 5 Dec 2026");
  });
});

describe("redactionInputProblem", () => {
  it("at least 4 characters, not twice", () => {
    expect(redactionInputProblem("", [])).toBe("Type the text to redact.");
    expect(redactionInputProblem("abc", [])).toBe(
      "Type at least 4 characters (spaces at the ends do not count): shorter strings would redact too much.",
    );
    expect(redactionInputProblem("abcd", ["abcd"])).toBe("That text is already redacted.");
    expect(redactionInputProblem("abcd", ["abcde"])).toBeNull();
  });

  it("judges the text trimmed: only spaces, or too short without its end spaces, is refused", () => {
    expect(redactionInputProblem("    ", [])).toBe("Type the text to redact.");
    expect(redactionInputProblem(" ab ", [])).toBe(
      "Type at least 4 characters (spaces at the ends do not count): shorter strings would redact too much.",
    );
    expect(redactionInputProblem(" abcd ", ["abcd"])).toBe("That text is already redacted.");
    expect(redactionInputProblem("Project Nightingale", [])).toBeNull();
  });

  it("counts characters, not UTF-16 units, as the server does", () => {
    expect(redactionInputProblem("ab😀", [])).toBe(
      "Type at least 4 characters (spaces at the ends do not count): shorter strings would redact too much.",
    );
    expect(redactionInputProblem("ab😀x", [])).toBeNull();
  });
});

describe("sharedFileLine", () => {
  it("names the size, or why a file is not shared", () => {
    expect(sharedFileLine({ path: "src/app.ts", size: 1234, mode: "100644" })).toBe("src/app.ts · 1.2 KB");
    expect(sharedFileLine({ path: "a.txt", size: 12, mode: "100644" })).toBe("a.txt · 12 B");
    expect(sharedFileLine({ path: "logo.png", size: 5000, mode: "100644", omitted: "binary" })).toBe(
      "logo.png · not shared (binary)",
    );
    expect(sharedFileLine({ path: "big.bin", size: 2e6, mode: "100644", omitted: "too-large" })).toBe(
      "big.bin · not shared (over 1 MiB)",
    );
    expect(sharedFileLine({ path: "settings.py", size: 72, mode: "100644", redacted: 2 })).toBe(
      "settings.py · 72 B · 2 secrets redacted",
    );
    expect(sharedFileLine({ path: "db.yml", size: 40, mode: "100644", redacted: 1 })).toBe(
      "db.yml · 40 B · 1 secret redacted",
    );
  });
});

describe("absoluteShareUrl", () => {
  it("puts the app's origin before the share's path", () => {
    expect(absoluteShareUrl("/s/abc_DEF-123", "http://127.0.0.1:3000")).toBe(
      "http://127.0.0.1:3000/s/abc_DEF-123",
    );
  });
});

describe("shareErrorMessage", () => {
  it("says what happened and what to do next", () => {
    expect(shareErrorMessage("publish", new ApiError(409, "preview_stale", "x"))).toBe(
      "Could not publish the link: the session, its files or the rules changed since this preview. Review the new preview, then publish again.",
    );
    expect(shareErrorMessage("preview", new ApiError(0, "network_error", "Failed to fetch"))).toBe(
      "Could not build the preview: the Strata server could not be reached. Check that it is running and your connection, then try again.",
    );
    expect(shareErrorMessage("revoke", new ApiError(404, "not_found", "Share not found"))).toBe(
      "Could not revoke the link: it no longer exists (already revoked or expired). Reload the list.",
    );
    expect(shareErrorMessage("revoke", new ApiError(403, "forbidden", "Only its creator or an admin"))).toBe(
      "Could not revoke the link: you are not allowed to (Only its creator or an admin). Ask an owner or admin of the workspace.",
    );
    expect(shareErrorMessage("load", new ApiError(401, "unauthorized", "Sign in"))).toBe(
      "Could not load the shared links: you are signed out. Sign in again, then retry.",
    );
    const short =
      "Redaction 2 is shorter than 4 characters: a short string would redact ordinary text. Use a longer, exact string.";
    expect(shareErrorMessage("publish", new ApiError(400, "redaction_too_short", short))).toBe(
      `Could not publish the link: ${short}`,
    );
    const blank =
      "Redaction 1 is empty or only whitespace: there is no text to redact. Remove it, or type the exact text to redact.";
    expect(shareErrorMessage("preview", new ApiError(400, "redaction_blank", blank))).toBe(
      `Could not build the preview: ${blank}`,
    );
    const failed =
      "The share could not be stored, so nothing was published (no link exists). Publish again; if it keeps failing, report it.";
    expect(shareErrorMessage("publish", new ApiError(500, "publish_failed", failed))).toBe(
      `Could not publish the link: ${failed}`,
    );
    expect(shareErrorMessage("preview", new ApiError(500, "internal", "Boom"))).toBe(
      "Could not build the preview: Boom (HTTP 500). Try again in a moment.",
    );
    expect(shareErrorMessage("preview", new Error("odd"))).toBe(
      "Could not build the preview: odd. Try again.",
    );
  });
});

describe("attachmentName", () => {
  it("prefers the UTF-8 name, then the ASCII one, then the fallback", () => {
    expect(
      attachmentName(
        `attachment; filename="Caf_ notes.html"; filename*=UTF-8''Caf%C3%A9%20notes.html`,
        "x.html",
      ),
    ).toBe("Café notes.html");
    expect(attachmentName('attachment; filename="notes.jsonl"', "x.jsonl")).toBe("notes.jsonl");
    expect(attachmentName(null, "session.html")).toBe("session.html");
  });
  it("words a failed download", () => {
    expect(shareErrorMessage("download", new ApiError(404, "entry_not_found", "Entry not found"))).toBe(
      "Could not download the conversation: that point of the session no longer exists. Reopen the session tree and pick another point.",
    );
  });
});
