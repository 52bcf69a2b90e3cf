/**
 * Invisible and bidirectional Unicode on share pages (lib/share/render/unicode.ts and its callers): names show every
 * such character as a `<U+…>` escape, text keeps the joiners, code is revealed and warned about, markdown too, and a
 * download's file name never holds one.
 */
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "@/lib/session/entries";
import { renderEntries } from "@/lib/share/render/entries";
import { escapeName, escapeText } from "@/lib/share/render/escape";
import { exportFileName } from "@/lib/share/render/export";
import { renderCode } from "@/lib/share/render/highlight";
import { renderMarkdown } from "@/lib/share/render/markdown";
import {
  bidiWarning,
  bidiWarningText,
  hasBidiControls,
  revealPlain,
  revealSpan,
  revealsBidi,
} from "@/lib/share/render/unicode";

const RLO = '<span class="uni uni-bidi" title="U+202E RIGHT-TO-LEFT OVERRIDE">&lt;U+202E&gt;</span>';
const LRI = '<span class="uni uni-bidi" title="U+2066 LEFT-TO-RIGHT ISOLATE">&lt;U+2066&gt;</span>';
const PDI = '<span class="uni uni-bidi" title="U+2069 POP DIRECTIONAL ISOLATE">&lt;U+2069&gt;</span>';
const ZWSP = '<span class="uni" title="U+200B ZERO WIDTH SPACE">&lt;U+200B&gt;</span>';
const ZWJ = '<span class="uni" title="U+200D ZERO WIDTH JOINER">&lt;U+200D&gt;</span>';
const FILE_WARNING =
  '<div class="bidi-warning" role="note">This file contains bidirectional Unicode text that may be interpreted differently than what appears below. The control characters are shown as &lt;U+…&gt; marks.</div>';
const MESSAGE_WARNING =
  '<div class="bidi-warning" role="note">This message contains bidirectional Unicode text that may be interpreted differently than what appears below. The control characters are shown as &lt;U+…&gt; marks.</div>';

describe("the bidi and invisible sets", () => {
  it("finds each bidi control, and only those", () => {
    for (const c of [
      "\u061c",
      "\u200e",
      "\u200f",
      "\u202a",
      "\u202b",
      "\u202c",
      "\u202d",
      "\u202e",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
    ])
      expect(hasBidiControls(`a${c}b`)).toBe(true);
    expect(hasBidiControls("a\u200bb\ufeff\u2060 שלום مرحبا")).toBe(false);
  });

  it("writes each revealed character as its code point, a bidi control marked as such", () => {
    expect(revealSpan("\u202e")).toBe(RLO);
    expect(revealSpan("\u{e0041}")).toBe('<span class="uni" title="U+E0041">&lt;U+E0041&gt;</span>');
    expect(revealPlain("a\u202eb\u200bc\ufeffd\u00ade")).toBe("a<U+202E>b<U+200B>c<U+FEFF>d<U+00AD>e");
    expect(revealPlain("a\u202eb", "strict", () => "_")).toBe("a_b");
    expect(revealsBidi(`x${RLO}`)).toBe(true);
    expect(revealsBidi(`x${ZWSP}`)).toBe(false);
  });

  it("leaves ordinary text, right-to-left scripts and emoji variation selectors alone", () => {
    const text = "Hello שלום مرحبا ❤️ café";
    expect(revealPlain(text)).toBe(text);
    expect(escapeText(text)).toBe(text);
  });

  it("has the warning's exact words", () => {
    expect(bidiWarningText("file")).toBe(
      "This file contains bidirectional Unicode text that may be interpreted differently than what appears below. The control characters are shown as <U+…> marks.",
    );
    expect(bidiWarning("file")).toBe(FILE_WARNING);
  });
});

describe("names and text", () => {
  it("a name shows every bidi control and invisible character, the joiners too", () => {
    expect(escapeName("invoice\u202Efdp.exe <b>")).toBe(`invoice${RLO}fdp.exe &lt;b&gt;`);
    expect(escapeName("a\u200Bb\u200Dc")).toBe(`a${ZWSP}b${ZWJ}c`);
  });

  it("text keeps the joiners (emoji, Persian, Indic) and reveals the rest", () => {
    expect(escapeText("👨\u200D👩 a\u200Bb \u202E[redacted:x]")).toBe(
      `👨\u200D👩 a${ZWSP}b ${RLO}<mark class="redacted">[redacted:x]</mark>`,
    );
  });

  it("a download's file name turns them into _", () => {
    expect(exportFileName("report\u202Elmth.exe", "html")).toBe("report_lmth.exe.html");
    expect(exportFileName("\u202E\u200B", "jsonl")).toBe("session.jsonl");
  });
});

describe("code", () => {
  it("reveals the controls in highlighted code and warns above it (Trojan Source)", () => {
    const text = "/*\u202E } \u2066if (isAdmin)\u2069 \u2066 begin admins only */\nx\u200By;\n";
    expect(renderCode("a.js", text)).toBe(
      `${FILE_WARNING}<pre class="code" data-language="javascript"><code><span class="line" id="L1"><span class="hljs-comment">/*${RLO} } ${LRI}if (isAdmin)${PDI} ${LRI} begin admins only */</span></span><span class="line" id="L2">x${ZWSP}y;</span></code></pre>`,
    );
  });

  it("reveals an invisible character without the warning when no bidi control is there", () => {
    expect(renderCode("notes.txt", "a\u200Bb\n")).toBe(
      `<pre class="code" data-language="plaintext"><code><span class="line" id="L1">a${ZWSP}b</span></code></pre>`,
    );
  });
});

describe("messages", () => {
  it("markdown shows the controls as escapes, in code spans too", () => {
    expect(renderMarkdown("hello \u202Eabc `co\u2066de`")).toBe(
      '<div class="markdown"><p>hello <span class="uni uni-bidi" title="U+202E RIGHT-TO-LEFT OVERRIDE">&#x3C;U+202E></span>abc <code>co<span class="uni uni-bidi" title="U+2066 LEFT-TO-RIGHT ISOLATE">&#x3C;U+2066></span>de</code></p></div>',
    );
  });

  it("an entry showing a bidi control starts with the warning; one without does not", () => {
    const user = (id: string, content: string) =>
      ({
        type: "message",
        id,
        parentId: null,
        timestamp: "2026-01-01T00:00:00.000Z",
        message: { role: "user", content, timestamp: 1 },
      }) as unknown as SessionEntry;
    expect(renderEntries([user("aaaaaaaa", "say \u202Eolleh"), user("bbbbbbbb", "plain")])).toBe(
      [
        `<div class="entry" id="e0">${MESSAGE_WARNING}<article class="message message-user" aria-label="You"><div class="markdown"><p>say <span class="uni uni-bidi" title="U+202E RIGHT-TO-LEFT OVERRIDE">&#x3C;U+202E></span>olleh</p></div></article></div>`,
        '<div class="entry" id="e1"><article class="message message-user" aria-label="You"><div class="markdown"><p>plain</p></div></article></div>',
      ].join("\n"),
    );
  });
});
