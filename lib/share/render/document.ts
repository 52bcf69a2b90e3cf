/**
 * A share as one complete, self-contained HTML document: `renderShareDocument` for the share page (`mode: "page"`,
 * served at `/s/<token>`: download links and the "Fork to my workspace" form, file links to `/s/<token>/files/…`)
 * and for the offline export (`mode: "export"`: no link back to the app, no form, the files' text inline);
 * `renderShareFilePage` for one shared file; `renderUnavailablePage` for a link that is unknown, revoked or expired
 * (it never says which). No `<script>` anywhere — the pages are complete without JavaScript — one inline `<style>`,
 * `noindex, nofollow` and referrer-policy meta tags (`same-origin` on the share page, whose fork form must carry
 * its origin; `no-referrer` everywhere else). Pure and edge-safe.
 */
import type { SharedFileInfo, ShareSnapshot } from "../types";
import { renderEntries } from "./entries";
import { escapeHtml, escapeName, escapeText, hrefPath } from "./escape";
import { renderCode } from "./highlight";
import {
  filePageHref,
  formatBytes,
  formatDate,
  redactedBadge,
  renderFileLinks,
  renderInlineFiles,
  renderRedactionBanner,
  renderSystemBlock,
} from "./parts";
import { SHARE_CSS } from "./styles";
import { revealPlain } from "./unicode";

/** How a share is rendered: the public page, or the offline single-file export. */
export type ShareRenderOptions =
  | {
      mode: "page";
      /** The share's token (its URLs are built from it). */
      token: string;
      /** ISO time the share was published. */
      createdAt: string;
      /** ISO time it stops working, or null. */
      expiresAt: string | null;
    }
  | {
      mode: "export";
      /** ISO time shown as the export's date (default: the snapshot header's timestamp). */
      createdAt?: string;
      /** Redacted text of each shared file; each listed file with a text here is inlined. */
      fileTexts?: Readonly<Record<string, string>>;
    };

/**
 * Strata's icon (app/icon.svg) inline, so the share page asks for no /favicon.ico (a 404) and the HTML export, opened
 * from disk, shows it too. A `data:` image, which the pages' CSP allows (`img-src 'self' data:`).
 */
export const ICON_DATA_URL = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1e2230"/><path d="M7 10h18M7 16h18M7 22h18" stroke="#7aa2f7" stroke-width="3" stroke-linecap="round"/></svg>',
)}`;

/**
 * `<!doctype html>` … with the meta tags, the icon, `title` and the stylesheet; `body` is trusted HTML. `referrer` is the
 * document's referrer policy: `no-referrer` (default), or `same-origin` for the share page — a browser sends
 * `Origin: null` on a plain form post from a `no-referrer` document, which the cross-site guard refuses
 * (lib/http-guard/cross-site.ts), so the fork form needs `same-origin`; other sites still get no referrer.
 */
export function htmlDocument(
  title: string,
  body: string,
  referrer: "no-referrer" | "same-origin" = "no-referrer",
): string {
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    `<meta name="referrer" content="${referrer}">`,
    '<meta name="color-scheme" content="light dark">',
    `<link rel="icon" href="${ICON_DATA_URL}">`,
    `<title>${escapeHtml(revealPlain(title))}</title>`,
    `<style>${SHARE_CSS}</style>`,
    `</head><body>${body}</body></html>`,
  ].join("\n");
}

const pageTitle = (snapshot: ShareSnapshot) => `${snapshot.title || "Untitled session"} · Strata`;

function header(snapshot: ShareSnapshot, options: ShareRenderOptions): string {
  const count = snapshot.entries.length;
  const meta: string[] = [];
  if (options.mode === "page") {
    meta.push(`Shared ${escapeHtml(formatDate(options.createdAt))}`);
    meta.push(options.expiresAt ? `Expires ${escapeHtml(formatDate(options.expiresAt))}` : "Does not expire");
  } else {
    const at = options.createdAt ?? snapshot.header.timestamp;
    meta.push(`Exported ${escapeHtml(formatDate(at))}`);
  }
  meta.push(count === 1 ? "1 entry" : `${count} entries`);
  let actions = "";
  if (options.mode === "page") {
    const t = hrefPath([options.token]);
    actions = [
      '<div class="share-actions">',
      `<a class="btn" href="/api/s/${t}/export?format=html" download>Download HTML</a>`,
      `<a class="btn" href="/api/s/${t}/export?format=jsonl" download>Download pi JSONL</a>`,
      `<form method="post" action="/api/s/${t}/fork"><button class="btn btn-primary" type="submit">Fork to my workspace</button></form>`,
      "</div>",
    ].join("");
  }
  return [
    '<header class="share-header">',
    `<div class="share-brand">Strata · ${options.mode === "page" ? "shared session" : "exported session"}</div>`,
    `<h1 class="share-title">${escapeName(snapshot.title || "Untitled session")}</h1>`,
    `<div class="share-meta">${meta.map((m) => `<span>${m}</span>`).join("")}</div>`,
    actions,
    "</header>",
  ].join("");
}

/**
 * The whole share as an HTML document: header (title, dates, entry count; page mode adds Download HTML / Download pi
 * JSONL links and the fork form), the redaction banner, the system prompt (when shared), the conversation, the files
 * (when shared) and a footer. Deterministic for the same input.
 */
export function renderShareDocument(snapshot: ShareSnapshot, options: ShareRenderOptions): string {
  const files = snapshot.files;
  const fileIndex = new Map((files ?? []).map((f, i) => [f.path, i]));
  const fileHref = (path: string): string | null => {
    const i = fileIndex.get(path);
    if (i === undefined || files?.[i]?.omitted) return null;
    if (options.mode === "page") return filePageHref(options.token, path);
    return options.fileTexts && Object.hasOwn(options.fileTexts, path) ? `#f${i}` : null;
  };
  let filesHtml = "";
  if (files)
    filesHtml =
      options.mode === "page"
        ? renderFileLinks(files, options.token)
        : renderInlineFiles(files, options.fileTexts ?? {});
  const body = [
    '<main class="page">',
    header(snapshot, options),
    renderRedactionBanner(snapshot.redactions, fileHref),
    snapshot.system ? renderSystemBlock(snapshot.system) : "",
    '<h2 class="section-title">Conversation</h2>',
    `<section class="conversation" aria-label="Conversation">${renderEntries(snapshot.entries)}</section>`,
    filesHtml,
    '<footer class="share-footer">A read-only snapshot of one branch of a Strata session, as it was when it was shared; later turns of the session do not change it.</footer>',
    "</main>",
  ].join("\n");
  return htmlDocument(pageTitle(snapshot), body, options.mode === "page" ? "same-origin" : "no-referrer");
}

/**
 * One shared file's page (`/s/<token>/files/<path>`): a link back to the share, the path, size and mode, then the
 * file read-only with highlighting and line numbers (each line `id="L<n>"`).
 */
export function renderShareFilePage(
  snapshot: Pick<ShareSnapshot, "title">,
  file: Pick<SharedFileInfo, "path" | "size" | "mode" | "redacted">,
  text: string,
  token: string,
): string {
  const title = snapshot.title || "Untitled session";
  const body = [
    '<main class="page">',
    '<header class="share-header">',
    `<div class="share-brand">Strata · shared file</div>`,
    `<div><a href="/s/${hrefPath([token])}">← ${escapeName(title)}</a></div>`,
    `<div class="file-view-head"><h1 class="file-view-path">${escapeName(file.path)}</h1>`,
    `<span class="muted">${formatBytes(file.size)}${file.mode === "100755" ? " · executable" : file.mode === "120000" ? " · symbolic link" : ""}</span>${redactedBadge(file)}</div>`,
    "</header>",
    renderCode(file.path, text),
    "</main>",
  ].join("\n");
  return htmlDocument(`${file.path} · ${title} · Strata`, body);
}

/** The page of a share link that is unknown, revoked or expired (the same page for all three). */
export function renderUnavailablePage(): string {
  return htmlDocument(
    "Share not available · Strata",
    '<main class="unavailable"><h1>This share link is not available</h1><p class="muted">It may have been mistyped, revoked by its owner, or it has expired.</p><p>Ask whoever sent it for a new link, or <a href="/">open Strata</a>.</p></main>',
  );
}

/**
 * The page a failed fork from the share page's plain form answers (no script there to show a JSON error): what went
 * wrong (the API's message, escaped) and a link back to the share at `/s/<token>` to try again.
 */
export function renderForkFailedPage(token: string, message: string): string {
  return htmlDocument(
    "Fork failed · Strata",
    [
      '<main class="unavailable"><h1>Could not fork this share</h1>',
      `<p>${escapeText(message)}</p>`,
      `<p><a href="/s/${encodeURIComponent(token)}">Back to the shared conversation</a></p></main>`,
    ].join("\n"),
  );
}
