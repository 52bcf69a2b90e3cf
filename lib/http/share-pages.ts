/**
 * Responses of the share pages and downloads (`/s/<token>`, `/s/<token>/files/…`, `/api/s/<token>/export`, the
 * owner's `/api/sessions/:id/branch-export`; docs/sharing.md). Every one carries `Cache-Control: no-store`,
 * `X-Robots-Tag: noindex, nofollow`, `Referrer-Policy: no-referrer` and `X-Content-Type-Options: nosniff`. A page for
 * an unknown, revoked or expired token is one small HTML 404 ("This share link is not available"), the same for all
 * three; downloads answer the public share routes' JSON 404 (`shareNotFound`, lib/http/share.ts) with these headers.
 */

import { renderForkFailedPage, renderUnavailablePage } from "@/lib/share/render/document";
import type { ExportFile } from "@/lib/share/render/export";
import { errorResponse } from "./errors";

/** Headers of every share page and download. */
export const SHARE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "x-robots-tag": "noindex, nofollow",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

/** `response` with {@link SHARE_PAGE_HEADERS} set (replacing any of the same name). */
export function withSharePageHeaders(response: Response): Response {
  for (const [k, v] of Object.entries(SHARE_PAGE_HEADERS)) response.headers.set(k, v);
  return response;
}

/** An HTML page (`text/html; charset=utf-8`) with the share headers. */
export function htmlPage(html: string, status = 200): Response {
  return withSharePageHeaders(
    new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8" } }),
  );
}

/** The 404 page of a share link that is unknown, revoked or expired, and of a path a share does not hold. */
export function unavailablePage(): Response {
  return htmlPage(renderUnavailablePage(), 404);
}

/**
 * A fork from the share page's form (no script) that failed: `error` as the API would answer it (same status and
 * `Retry-After`), but as an HTML page with its message and a link back to `/s/<token>`, instead of raw JSON.
 */
export async function forkFailedPage(token: string, error: unknown): Promise<Response> {
  const failed = errorResponse(error);
  const body = (await failed.json()) as { error?: { message?: string } | string };
  const message = typeof body.error === "string" ? body.error : (body.error?.message ?? "Unexpected error.");
  const page = htmlPage(renderForkFailedPage(token, message), failed.status);
  const retryAfter = failed.headers.get("retry-after");
  if (retryAfter) page.headers.set("retry-after", retryAfter);
  return page;
}

/** `attachment` with an ASCII fallback name and the exact name as RFC 5987 `filename*`. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** A download: the file as an attachment with the share headers. */
export function attachment(file: ExportFile): Response {
  return withSharePageHeaders(
    new Response(file.body, {
      headers: { "content-type": file.contentType, "content-disposition": contentDisposition(file.fileName) },
    }),
  );
}

/**
 * 303 See Other to a path of this app, as a relative `Location` (RFC 9110 10.2.2): behind `next start` the request's
 * URL may name another host (`localhost` for `127.0.0.1`), and the page's CSP `form-action 'self'` would then block
 * the redirect.
 */
export function seeOther(path: string): Response {
  return new Response(null, { status: 303, headers: { location: path } });
}
