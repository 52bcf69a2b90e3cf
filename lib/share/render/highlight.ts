/**
 * Read-only code for shared files: highlight.js 11 (its core plus the languages below, registered once) picks the
 * language by the file's extension or name only — never `highlightAuto` — and falls back to plain escaped text;
 * the highlighted HTML (highlight.js escapes the text itself and adds only `<span class="hljs-…">`) is cut into
 * lines, each a `<span class="line" id="L<n>">` whose number CSS draws (so copying the code copies no numbers).
 * Pure and edge-safe.
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import dockerfile from "highlight.js/lib/languages/dockerfile";
import go from "highlight.js/lib/languages/go";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import makefile from "highlight.js/lib/languages/makefile";
import markdown from "highlight.js/lib/languages/markdown";
import php from "highlight.js/lib/languages/php";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import scss from "highlight.js/lib/languages/scss";
import sql from "highlight.js/lib/languages/sql";
import swift from "highlight.js/lib/languages/swift";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { escapeHtml, markRedactions } from "./escape";
import { bidiWarning, hasBidiControls, revealUnicode } from "./unicode";

const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  kotlin,
  makefile,
  markdown,
  php,
  python,
  ruby,
  rust,
  scss,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
for (const [name, fn] of Object.entries(LANGUAGES))
  if (!hljs.getLanguage(name)) hljs.registerLanguage(name, fn);

/** File extension (lower case, without the dot) → highlight.js language. */
const BY_EXTENSION: Record<string, keyof typeof LANGUAGES> = {
  sh: "bash",
  bash: "bash",
  zsh: "bash",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  cs: "csharp",
  css: "css",
  diff: "diff",
  patch: "diff",
  go: "go",
  ini: "ini",
  toml: "ini",
  cfg: "ini",
  java: "java",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  json: "json",
  jsonl: "json",
  kt: "kotlin",
  kts: "kotlin",
  mk: "makefile",
  md: "markdown",
  markdown: "markdown",
  php: "php",
  py: "python",
  rb: "ruby",
  rs: "rust",
  scss: "scss",
  sql: "sql",
  swift: "swift",
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  html: "xml",
  htm: "xml",
  xml: "xml",
  svg: "xml",
  yml: "yaml",
  yaml: "yaml",
};

/** Whole file names (lower case) with a language of their own. */
const BY_NAME: Record<string, keyof typeof LANGUAGES> = {
  dockerfile: "dockerfile",
  makefile: "makefile",
  gnumakefile: "makefile",
  ".bashrc": "bash",
  ".profile": "bash",
};

/** The highlight.js language of `path` by its name or extension, or `null` (plain text). */
export function languageOf(path: string): string | null {
  const name = (path.slice(path.lastIndexOf("/") + 1) || path).toLowerCase();
  if (BY_NAME[name]) return BY_NAME[name];
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  return BY_EXTENSION[name.slice(dot + 1)] ?? null;
}

/** Files larger than this are shown as plain text (highlighting is linear but not cheap). */
export const HIGHLIGHT_MAX_CHARS = 512 * 1024;

const TAG = /<span class="[^"]*">|<\/span>/g;

/**
 * Cut highlighted HTML (`<span class="…">`, `</span>` and escaped text only) into lines: a span open at a line end
 * is closed there and reopened on the next line, so every line is balanced on its own.
 */
export function splitHighlightedLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let current = "";
  let last = 0;
  const text = (chunk: string) => {
    const parts = chunk.split("\n");
    current += parts[0];
    for (let i = 1; i < parts.length; i++) {
      lines.push(current + "</span>".repeat(open.length));
      current = open.join("") + parts[i];
    }
  };
  for (const m of html.matchAll(TAG)) {
    text(html.slice(last, m.index));
    if (m[0] === "</span>") open.pop();
    else open.push(m[0]);
    current += m[0];
    last = (m.index ?? 0) + m[0].length;
  }
  text(html.slice(last));
  lines.push(current + "</span>".repeat(open.length));
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * `text` as `<pre class="code" data-language="…"><code>` (redaction markers marked) + one `<span class="line" id="L<n>">` per line (block elements, no newline between them) +
 * `</code></pre>`: highlighted when `languageOf(path)` knows the language and the text is at most
 * {@link HIGHLIGHT_MAX_CHARS}, plain escaped text otherwise (`data-language="plaintext"`). A trailing newline adds
 * no empty last line. Bidi controls and invisible characters show as `<U+…>` escapes (`unicode.ts`, profile
 * `strict`); a text holding a bidi control is preceded by the bidi warning (`<div class="bidi-warning">`).
 */
export function renderCode(path: string, text: string): string {
  const language = text.length <= HIGHLIGHT_MAX_CHARS ? languageOf(path) : null;
  let html: string;
  try {
    html = language ? hljs.highlight(text, { language, ignoreIllegals: true }).value : escapeHtml(text);
  } catch {
    html = escapeHtml(text);
  }
  // Redaction markers inside one text run of the highlighted HTML are marked (highlight.js never splits one: it has
  // no token boundary inside `[redacted:<rule>]` in a comment or string, and elsewhere the marker stays plain).
  // Bidi controls and invisible characters (never inside highlight.js's tags) become visible `<U+…>` escapes.
  const lines = splitHighlightedLines(markRedactions(html))
    .map((line, i) => `<span class="line" id="L${i + 1}">${revealUnicode(line, "strict")}</span>`)
    .join("");
  const warning = hasBidiControls(text) ? bidiWarning("file") : "";
  return `${warning}<pre class="code" data-language="${language ?? "plaintext"}"><code>${lines}</code></pre>`;
}
