/**
 * The pieces around a share's conversation: dates and sizes as text, the redaction banner (how many secrets were
 * redacted, where and by which rule), the system prompt block with its sources, and the files' list (page mode:
 * links to each file's page; export mode: each file's code inline in a `<details>`). Every interpolated string is
 * escaped. Pure and edge-safe.
 */
import type { Redaction, RedactionSite, SharedFileInfo, SharedSystem } from "../types";
import { escapeName, escapeText, hrefPath } from "./escape";
import { renderCode } from "./highlight";
import { bidiWarning, hasBidiControls, revealsBidi } from "./unicode";

/** An ISO time as `2026-01-02 13:04 UTC` (the same for every reader; no locale); an unparsable one as given. */
export function formatDate(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** `512 B`, `1.5 KB`, `2.0 MB` (1 KB = 1,024 bytes). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.trunc(bytes || 0))} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The page of one shared file: `/s/<token>/files/<path>` with each segment percent-encoded, escaped for an href. */
export function filePageHref(token: string, path: string): string {
  return `/s/${hrefPath([token])}/files/${hrefPath(path.split("/"))}`;
}

/** How a file's omission reads in a list. */
export const OMITTED_TEXT: Record<NonNullable<SharedFileInfo["omitted"]>, string> = {
  binary: "binary file, not shared",
  "too-large": "too large to share",
  "over-total": "not shared: the share's total size was reached",
};

/**
 * Where a redaction was, as HTML: `Title`, `Entry 12, line 3` or `Entry 12 (output), line 3` (a link to the entry; its
 * part escaped), a file line, the system prompt.
 */
function siteHtml(site: RedactionSite, fileHref: (path: string) => string | null): string {
  switch (site.kind) {
    case "title":
      return "Title";
    case "entry":
      return `<a href="#e${Math.trunc(site.entry)}">Entry ${Math.trunc(site.entry) + 1}</a>${site.part ? ` (${escapeName(site.part)})` : ""}, line ${Math.trunc(site.line)}`;
    case "file": {
      // Line 0 is the file's name (its path was redacted). An in-document link (`#f<n>`, the export) takes no
      // second fragment: `#f0#L3` names no element.
      const line = Math.trunc(site.line);
      const href = fileHref(site.path);
      const name = `<code>${escapeName(site.path)}</code>`;
      const target = href && line > 0 && !href.startsWith("#") ? `${href}#L${line}` : href;
      return `${target ? `<a href="${target}">${name}</a>` : name}, ${line > 0 ? `line ${line}` : "file name"}`;
    }
    case "system":
      // Line 0: the prompt's sources (their labels and paths).
      return Math.trunc(site.line) > 0
        ? `System prompt, line ${Math.trunc(site.line)}`
        : "System prompt sources";
    default:
      return "Elsewhere";
  }
}

/** The banner's heading: `1 secret was redacted` / `N secrets were redacted`. */
export function redactionHeading(count: number): string {
  return count === 1 ? "1 secret was redacted" : `${count} secrets were redacted`;
}

/**
 * The redaction banner (`""` without redactions): its heading, then one item per redaction — site, rule id and kind,
 * and the redacted excerpt. `fileHref` links a file site (null: no link).
 */
export function renderRedactionBanner(
  redactions: readonly Redaction[],
  fileHref: (path: string) => string | null,
): string {
  if (redactions.length === 0) return "";
  const items = redactions.map(
    (r) =>
      `<li>${siteHtml(r.site, fileHref)} — <code>${escapeName(r.rule)}</code>${r.kind && r.kind !== r.rule ? ` (${escapeName(r.kind)})` : ""}${r.excerpt ? `<br><code class="muted">${escapeText(r.excerpt)}</code>` : ""}</li>`,
  );
  return [
    '<section class="banner" role="note" aria-label="Redactions">',
    `<details${redactions.length <= 5 ? " open" : ""}><summary>${redactionHeading(redactions.length)}</summary>`,
    '<p class="muted">Before this session was shared, secrets found in it were replaced by <mark class="redacted">[redacted:…]</mark> markers:</p>',
    `<ul>${items.join("")}</ul></details></section>`,
  ].join("");
}

/** The system prompt, collapsed, with the context files and rules it was built from. */
export function renderSystemBlock(system: SharedSystem): string {
  const sources = system.sources.map(
    (s) => `<li>${escapeName(s.label)} — <code>${escapeName(s.path)}</code></li>`,
  );
  const prompt = escapeText(system.prompt);
  return [
    revealsBidi(prompt) ? bidiWarning("message") : "",
    '<details class="message message-meta system-prompt" id="system"><summary>System prompt</summary>',
    `<pre class="system-text">${prompt}</pre>`,
    sources.length > 0 ? `<p class="muted">Built from:</p><ul>${sources.join("")}</ul>` : "",
    "</details>",
  ].join("");
}

/** The badge of a file whose shared text was redacted (`""` for one shared as it is). */
export function redactedBadge(f: Pick<SharedFileInfo, "redacted">): string {
  const n = Math.trunc(Number(f.redacted) || 0);
  if (n <= 0) return "";
  return ` <span class="badge badge-warn" title="The shared text is not the file as written: each secret was replaced by [redacted:&lt;kind&gt;]">${redactedCount(n)}</span>`;
}

/** `1 secret redacted` / `N secrets redacted`. */
export function redactedCount(n: number): string {
  return n === 1 ? "1 secret redacted" : `${n} secrets redacted`;
}

const fileLine = (f: SharedFileInfo, name: string) =>
  `<li>${name}${f.omitted ? ` <span class="muted">(${OMITTED_TEXT[f.omitted] ?? "not shared"})</span>` : ""}${redactedBadge(f)}<span class="size">${formatBytes(f.size)}</span></li>`;

/** Page mode: the files' list, each shared file a link to its page, omitted ones with the reason. */
export function renderFileLinks(files: readonly SharedFileInfo[], token: string): string {
  const items = files.map((f) =>
    fileLine(
      f,
      f.omitted
        ? `<span>${escapeName(f.path)}</span>`
        : `<a href="${filePageHref(token, f.path)}">${escapeName(f.path)}</a>`,
    ),
  );
  return `<section class="files" aria-label="Files"><h2 class="section-title">Files (${files.length})</h2><ul class="file-list">${items.join("")}</ul></section>`;
}

/**
 * Export mode: the files' list (each shared file's name links to its block below), then each file whose text is in
 * `fileTexts` as a collapsed `<details id="f<i>">` with its highlighted code.
 */
export function renderInlineFiles(
  files: readonly SharedFileInfo[],
  fileTexts: Readonly<Record<string, string>>,
): string {
  const has = (f: SharedFileInfo) => !f.omitted && Object.hasOwn(fileTexts, f.path);
  const items = files.map((f, i) =>
    fileLine(f, has(f) ? `<a href="#f${i}">${escapeName(f.path)}</a>` : `<span>${escapeName(f.path)}</span>`),
  );
  const blocks = files.map((f, i) =>
    has(f)
      ? `<details class="file-block" id="f${i}"><summary>${escapeName(f.path)} <span class="muted">· ${formatBytes(f.size)}</span>${hasBidiControls(fileTexts[f.path]) ? ' <span class="badge badge-warn">bidirectional Unicode</span>' : ""}</summary>${renderCode(f.path, fileTexts[f.path])}</details>`
      : "",
  );
  return `<section class="files" aria-label="Files"><h2 class="section-title">Files (${files.length})</h2><ul class="file-list">${items.join("")}</ul>${blocks.join("")}</section>`;
}
