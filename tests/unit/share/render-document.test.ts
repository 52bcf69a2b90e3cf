import { describe, expect, it } from "vitest";
import { renderShareDocument, renderShareFilePage, renderUnavailablePage } from "@/lib/share/render/document";
import { renderCode, splitHighlightedLines } from "@/lib/share/render/highlight";
import { formatBytes, formatDate, redactionHeading } from "@/lib/share/render/parts";
import type { ShareSnapshot } from "@/lib/share/types";
import { basicEntries, longEntries, snapshotOf } from "./render-fixture";

const EVIL = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
const page = {
  mode: "page" as const,
  token: "tok_ABC-123",
  createdAt: "2026-01-02T10:00:00.000Z",
  expiresAt: null,
};

function fullSnapshot(): ShareSnapshot {
  return snapshotOf(basicEntries(), {
    title: `Title ${EVIL}`,
    system: {
      prompt: "You are pi. key=[redacted:aws]",
      sources: [{ label: `AGENTS.md ${EVIL}`, path: "/project/AGENTS.md" }],
    },
    files: [
      { path: "src/parse.ts", size: 20, mode: "100644" },
      { path: `dir/${EVIL}.py`, size: 2048, mode: "100755" },
      { path: "logo.png", size: 5000, mode: "100644", omitted: "binary" },
      { path: "big.log", size: 3 * 1024 * 1024, mode: "100644", omitted: "too-large" },
    ],
    redactions: [
      {
        site: { kind: "entry", entry: 2, line: 1 },
        rule: "@secretlint/secretlint-rule-preset-recommend",
        kind: "AWSSecretAccessKey",
        excerpt: "aws=[redacted:aws]",
      },
      {
        site: { kind: "file", path: "src/parse.ts", line: 3 },
        rule: "strata/dotenv",
        kind: "dotenv",
        excerpt: `X=[redacted:dotenv] ${EVIL}`,
      },
      { site: { kind: "title" }, rule: "owner", kind: "owner", excerpt: "Title [redacted:owner]" },
      {
        site: { kind: "system", line: 1 },
        rule: "@secretlint/secretlint-rule-pattern",
        kind: "pattern",
        excerpt: "key=[redacted:aws]",
      },
    ],
  });
}

/** Every output must be free of script elements, inline handlers and javascript: URLs. */
function expectInert(html: string) {
  expect(html).not.toMatch(/<script/i);
  // An event-handler attribute inside a real tag (escaped text such as `&lt;img onerror=` is harmless).
  expect(html).not.toMatch(/<[a-z][^<>]*\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/javascript:/i);
}

describe("renderShareDocument (page)", () => {
  const html = renderShareDocument(fullSnapshot(), page);

  it("is a complete document with the meta tags, one style and no script", () => {
    expect(html.startsWith('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">')).toBe(true);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    // same-origin, not no-referrer: a plain form post from a no-referrer document carries `Origin: null`, which the
    // cross-site guard refuses — the fork form would fail. Other sites still get no referrer.
    expect(html).toContain('<meta name="referrer" content="same-origin">');
    // The icon inline (no /favicon.ico request, which answered 404), as a data: image the CSP allows.
    expect(html).toContain(
      '<link rel="icon" href="data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%20viewBox%3D%220%200%2032%2032%22%3E%3Crect%20width%3D%2232%22%20height%3D%2232%22%20rx%3D%226%22%20fill%3D%22%231e2230%22%2F%3E%3Cpath%20d%3D%22M7%2010h18M7%2016h18M7%2022h18%22%20stroke%3D%22%237aa2f7%22%20stroke-width%3D%223%22%20stroke-linecap%3D%22round%22%2F%3E%3C%2Fsvg%3E">',
    );
    expect(html).toContain(
      "<title>Title &lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt; · Strata</title>",
    );
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(html).toContain("@media (prefers-color-scheme:dark)");
    expect(html.endsWith("</body></html>")).toBe(true);
    expectInert(html);
  });

  it("has the header: title, dates, downloads and the fork form", () => {
    expect(html).toContain(
      '<h1 class="share-title">Title &lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;</h1>',
    );
    expect(html).toContain(
      '<div class="share-meta"><span>Shared 2026-01-02 10:00 UTC</span><span>Does not expire</span><span>4 entries</span></div>',
    );
    expect(html).toContain(
      '<a class="btn" href="/api/s/tok_ABC-123/export?format=html" download>Download HTML</a>',
    );
    expect(html).toContain(
      '<a class="btn" href="/api/s/tok_ABC-123/export?format=jsonl" download>Download pi JSONL</a>',
    );
    expect(html).toContain(
      '<form method="post" action="/api/s/tok_ABC-123/fork"><button class="btn btn-primary" type="submit">Fork to my workspace</button></form>',
    );
    const expiring = renderShareDocument(fullSnapshot(), { ...page, expiresAt: "2026-02-01T00:00:00.000Z" });
    expect(expiring).toContain("<span>Expires 2026-02-01 00:00 UTC</span>");
  });

  it("names a redacted file path's site (line 0) as the file name, linked without a line", () => {
    const snapshot = fullSnapshot();
    snapshot.files = [{ path: "keys/[redacted:SecretKeySk].txt", size: 4, mode: "100644" }];
    snapshot.redactions = [
      {
        site: { kind: "file", path: "keys/[redacted:SecretKeySk].txt", line: 0 },
        rule: "@secretlint/secretlint-rule-pattern",
        kind: "SecretKeySk",
        excerpt: "keys/[redacted:SecretKeySk].txt",
      },
    ];
    expect(renderShareDocument(snapshot, page)).toContain(
      '<li><a href="/s/tok_ABC-123/files/keys/%5Bredacted%3ASecretKeySk%5D.txt"><code>keys/[redacted:SecretKeySk].txt</code></a>, file name — <code>@secretlint/secretlint-rule-pattern</code> (SecretKeySk)<br><code class="muted">keys/<mark class="redacted">[redacted:SecretKeySk]</mark>.txt</code></li>',
    );
  });

  it("names a redaction in the system prompt's sources (system line 0)", () => {
    const snapshot = fullSnapshot();
    snapshot.redactions = [
      { site: { kind: "system", line: 0 }, rule: "owner", kind: "owner", excerpt: "/p/[redacted:owner].md" },
    ];
    expect(renderShareDocument(snapshot, page)).toContain(
      '<li>System prompt sources — <code>owner</code><br><code class="muted">/p/<mark class="redacted">[redacted:owner]</mark>.md</code></li>',
    );
  });

  it("lists the redactions with site and rule", () => {
    expect(html).toContain("<details open><summary>4 secrets were redacted</summary>");
    expect(html).toContain(
      '<li><a href="#e2">Entry 3</a>, line 1 — <code>@secretlint/secretlint-rule-preset-recommend</code> (AWSSecretAccessKey)<br><code class="muted">aws=<mark class="redacted">[redacted:aws]</mark></code></li>',
    );
    expect(html).toContain(
      '<li><a href="/s/tok_ABC-123/files/src/parse.ts#L3"><code>src/parse.ts</code></a>, line 3 — <code>strata/dotenv</code> (dotenv)<br><code class="muted">X=<mark class="redacted">[redacted:dotenv]</mark> &lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;</code></li>',
    );
    expect(html).toContain("<li>Title — <code>owner</code><br>");
    expect(html).toContain(
      "<li>System prompt, line 1 — <code>@secretlint/secretlint-rule-pattern</code> (pattern)<br>",
    );
  });

  it("has the system prompt collapsed with its sources", () => {
    expect(html).toContain(
      '<details class="message message-meta system-prompt" id="system"><summary>System prompt</summary><pre class="system-text">You are pi. key=<mark class="redacted">[redacted:aws]</mark></pre><p class="muted">Built from:</p><ul><li>AGENTS.md &lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt; — <code>/project/AGENTS.md</code></li></ul></details>',
    );
  });

  it("links each shared file's page (paths encoded and escaped) and lists omitted ones with the reason", () => {
    expect(html).toContain(
      '<li><a href="/s/tok_ABC-123/files/src/parse.ts">src/parse.ts</a><span class="size">20 B</span></li>',
    );
    expect(html).toContain(
      '<li><a href="/s/tok_ABC-123/files/dir/%3Cscript%3Ealert(1)%3C/script%3E%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(2)%3E.py">dir/&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;.py</a><span class="size">2.0 KB</span></li>',
    );
    expect(html).toContain(
      '<li><span>logo.png</span> <span class="muted">(binary file, not shared)</span><span class="size">4.9 KB</span></li>',
    );
    expect(html).toContain(
      '<li><span>big.log</span> <span class="muted">(too large to share)</span><span class="size">3.0 MB</span></li>',
    );
    expect(html).toContain('<h2 class="section-title">Files (4)</h2>');
  });

  it("has no redaction banner, system block or files section when the snapshot has none", () => {
    const plain = renderShareDocument(snapshotOf(basicEntries()), page);
    expect(plain).not.toContain('class="banner"');
    expect(plain).not.toContain("system-prompt");
    expect(plain).not.toContain('class="files"');
    expect(
      renderShareDocument(snapshotOf([], { redactions: fullSnapshot().redactions.slice(0, 1) }), page),
    ).toContain("<details open><summary>1 secret was redacted</summary>");
  });
});

describe("renderShareDocument (export)", () => {
  const texts = { "src/parse.ts": "export const x = 1;\n", [`dir/${EVIL}.py`]: `print("${EVIL}")\n` };
  const html = renderShareDocument(fullSnapshot(), { mode: "export", fileTexts: texts });

  it("has no link back to the app, no form, no script", () => {
    expect(html).not.toContain("/api/");
    expect(html).not.toContain("/s/");
    expect(html).not.toContain("<form");
    expect(html).not.toContain("Fork to my workspace");
    expect(html).toContain('<div class="share-brand">Strata · exported session</div>');
    expect(html).toContain('<meta name="referrer" content="no-referrer">');
    expect(html).toContain("<span>Exported 2026-01-02 10:00 UTC</span>");
    expectInert(html);
  });

  it("inlines each shared file's highlighted text in a details block; file redactions link there", () => {
    expect(html).toContain(
      '<details class="file-block" id="f0"><summary>src/parse.ts <span class="muted">· 20 B</span></summary><pre class="code" data-language="typescript"><code><span class="line" id="L1"><span class="hljs-keyword">export</span> <span class="hljs-keyword">const</span> x = <span class="hljs-number">1</span>;</span></code></pre></details>',
    );
    expect(html).toContain(
      '<span class="hljs-built_in">print</span>(<span class="hljs-string">&quot;&lt;script&gt;alert(1)',
    );
    expect(html).toContain('<li><a href="#f0">src/parse.ts</a><span class="size">20 B</span></li>');
    expect(html).toContain('<a href="#f0"><code>src/parse.ts</code></a>, line 3');
    expect(html).toContain('<li><span>logo.png</span> <span class="muted">(binary file, not shared)</span>');
  });

  it("lists files without inlining when no texts are given", () => {
    const bare = renderShareDocument(fullSnapshot(), { mode: "export" });
    expect(bare).not.toContain('<details class="file-block"');
    expect(bare).toContain("<li><span>src/parse.ts</span>");
  });
});

describe("file page and unavailable page", () => {
  it("renders one file with a link back, size, mode and numbered highlighted lines", () => {
    const html = renderShareFilePage(
      { title: EVIL },
      { path: `a/${EVIL}.sh`, size: 10, mode: "100755" },
      "echo hi\n",
      "tok",
    );
    expect(html).toContain(
      `<a href="/s/tok">← &lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;</a>`,
    );
    expect(html).toContain('<span class="muted">10 B · executable</span>');
    expect(html).toContain(
      '<pre class="code" data-language="bash"><code><span class="line" id="L1"><span class="hljs-built_in">echo</span> hi</span></code></pre>',
    );
    expectInert(html);
  });
  it("says only that the link is not available", () => {
    const html = renderUnavailablePage();
    expect(html).toContain("<h1>This share link is not available</h1>");
    expect(html).toContain('<meta name="referrer" content="no-referrer">');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expectInert(html);
  });
});

describe("renderCode", () => {
  it("highlights by extension only, plain text otherwise, escaped either way", () => {
    expect(renderCode("notes.unknownext", "<b>x</b>")).toBe(
      '<pre class="code" data-language="plaintext"><code><span class="line" id="L1">&lt;b&gt;x&lt;/b&gt;</span></code></pre>',
    );
    expect(renderCode("README", "function f() {}")).toContain('data-language="plaintext"');
    expect(renderCode("Dockerfile", "FROM node")).toContain('data-language="dockerfile"');
    expect(renderCode("x.json", '{"a": "<b>"}')).toBe(
      '<pre class="code" data-language="json"><code><span class="line" id="L1"><span class="hljs-punctuation">{</span><span class="hljs-attr">&quot;a&quot;</span><span class="hljs-punctuation">:</span> <span class="hljs-string">&quot;&lt;b&gt;&quot;</span><span class="hljs-punctuation">}</span></span></code></pre>',
    );
  });
  it("marks redaction markers in code, highlighted or not", () => {
    expect(renderCode("a.py", "k = '[redacted:aws]'  # [redacted:owner]")).toBe(
      '<pre class="code" data-language="python"><code><span class="line" id="L1">k = <span class="hljs-string">&#x27;<mark class="redacted">[redacted:aws]</mark>&#x27;</span>  <span class="hljs-comment"># <mark class="redacted">[redacted:owner]</mark></span></span></code></pre>',
    );
    expect(renderCode("x.env", "A=[redacted:dotenv]")).toBe(
      '<pre class="code" data-language="plaintext"><code><span class="line" id="L1">A=<mark class="redacted">[redacted:dotenv]</mark></span></code></pre>',
    );
  });
  it("keeps each line balanced when a token spans lines", () => {
    expect(splitHighlightedLines('<span class="c">/* a\nb */</span> x\ny')).toEqual([
      '<span class="c">/* a</span>',
      '<span class="c">b */</span> x',
      "y",
    ]);
    expect(splitHighlightedLines("a\n\nb\n")).toEqual(["a", "", "b"]);
    expect(renderCode("e.txt", "")).toBe(
      '<pre class="code" data-language="plaintext"><code><span class="line" id="L1"></span></code></pre>',
    );
  });
});

describe("formatting", () => {
  it("dates, sizes, the banner heading", () => {
    expect(formatDate("2026-03-04T05:06:07.890Z")).toBe("2026-03-04 05:06 UTC");
    expect(formatDate("not a date")).toBe("not a date");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(5 * 1024 * 1024)).toBe("5.0 MB");
    expect(redactionHeading(1)).toBe("1 secret was redacted");
    expect(redactionHeading(3)).toBe("3 secrets were redacted");
  });
});

describe("a long session", () => {
  it("renders 2,000 entries, every one with its anchor, and stays inert", () => {
    const html = renderShareDocument(snapshotOf(longEntries(2000)), page);
    expect(html).toContain('id="e1999"');
    expect(html).toContain("<span>2000 entries</span>");
    expect(html.match(/<details class="tool-call status-done"/g)).toHaveLength(500);
    expectInert(html);
  });
});
