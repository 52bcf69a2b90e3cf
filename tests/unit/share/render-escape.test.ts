import { describe, expect, it } from "vitest";
import { escapeHtml, escapeText, hrefPath, markRedactions } from "@/lib/share/render/escape";
import { renderMarkdown } from "@/lib/share/render/markdown";

describe("escapeHtml", () => {
  it("replaces the five special characters and nothing else", () => {
    expect(escapeHtml(`<script>alert("x" & 'y')</script>`)).toBe(
      "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;",
    );
    expect(escapeHtml('"><img src=x onerror=alert(1)>')).toBe("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(escapeHtml("plain ünïcode → ok")).toBe("plain ünïcode → ok");
  });
  it("escapes an already escaped string again (no double-decoding shortcut)", () => {
    expect(escapeHtml("&lt;")).toBe("&amp;lt;");
  });
  it("is total over non-strings", () => {
    expect(escapeHtml(null)).toBe("");
    expect(escapeHtml(undefined)).toBe("");
    expect(escapeHtml(42)).toBe("42");
  });
});

describe("redaction markers", () => {
  it("wraps each marker of escaped text in a mark", () => {
    expect(markRedactions("key=[redacted:aws] and [redacted:owner].")).toBe(
      'key=<mark class="redacted">[redacted:aws]</mark> and <mark class="redacted">[redacted:owner]</mark>.',
    );
  });
  it("escapes first: a hostile marker-lookalike stays text", () => {
    expect(escapeText("[redacted:<b>]")).toBe("[redacted:&lt;b&gt;]");
    expect(escapeText("<x>[redacted:pat]")).toBe('&lt;x&gt;<mark class="redacted">[redacted:pat]</mark>');
  });
});

describe("hrefPath", () => {
  it("percent-encodes each segment and keeps the slashes", () => {
    expect(hrefPath(["src", 'a b"<c>.ts'])).toBe("src/a%20b%22%3Cc%3E.ts");
    expect(hrefPath(["../x", "?q=1#f"])).toBe("..%2Fx/%3Fq%3D1%23f");
  });
});

describe("renderMarkdown", () => {
  it("renders GitHub-flavoured markdown", () => {
    expect(renderMarkdown("**b** ~~s~~\n\n| a |\n|---|\n| 1 |")).toBe(
      '<div class="markdown"><p><strong>b</strong> <del>s</del></p>\n<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n</tr>\n</tbody>\n</table></div>',
    );
  });
  it("drops raw HTML: script elements, event handlers, iframes", () => {
    const html = renderMarkdown(
      'a <script>alert(1)</script> b\n\n<img src=x onerror="alert(2)">\n\n<iframe src="https://e.x"></iframe>\n\n<div onclick="x()">d</div>',
    );
    expect(html).not.toContain("<script");
    expect(html).not.toContain("onerror");
    expect(html).not.toContain("onclick");
    expect(html).not.toContain("<iframe");
    expect(html).not.toContain("<img");
    // Block-level raw HTML (the img, iframe and div lines) is dropped whole.
    expect(html).toBe('<div class="markdown"><p>a alert(1) b</p></div>');
  });
  it("drops javascript:, vbscript: and data: link targets but keeps the text", () => {
    expect(renderMarkdown("[x](javascript:alert(1)) [y](vbscript:z) [z](data:text/html,<b>)")).toBe(
      '<div class="markdown"><p><a rel="noopener noreferrer nofollow" target="_blank">x</a> <a rel="noopener noreferrer nofollow" target="_blank">y</a> <a rel="noopener noreferrer nofollow" target="_blank">z</a></p></div>',
    );
  });
  it("gives every link rel noopener noreferrer nofollow and target _blank (autolinks too)", () => {
    expect(renderMarkdown("[a](https://a.example/p?q=1) and https://b.example")).toBe(
      '<div class="markdown"><p><a href="https://a.example/p?q=1" rel="noopener noreferrer nofollow" target="_blank">a</a> and <a href="https://b.example" rel="noopener noreferrer nofollow" target="_blank">https://b.example</a></p></div>',
    );
  });
  it("never loads a remote image: it becomes a link", () => {
    expect(renderMarkdown("![logo](https://evil.example/t.png) ![](https://evil.example/u.png)")).toBe(
      '<div class="markdown"><p><a href="https://evil.example/t.png" rel="noopener noreferrer nofollow" target="_blank">[image: logo]</a> <a href="https://evil.example/u.png" rel="noopener noreferrer nofollow" target="_blank">[image: https://evil.example/u.png]</a></p></div>',
    );
  });
  it("escapes code and marks redactions in text", () => {
    expect(renderMarkdown("`<b>` key [redacted:aws]\n\n```\nif (a < b) {}\n```")).toBe(
      '<div class="markdown"><p><code>&#x3C;b></code> key <mark class="redacted">[redacted:aws]</mark></p>\n<pre><code>if (a &#x3C; b) {}\n</code></pre></div>',
    );
  });
  it("is total over non-strings", () => {
    expect(renderMarkdown(undefined)).toBe('<div class="markdown"></div>');
  });
});
