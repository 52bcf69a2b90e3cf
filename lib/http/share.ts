/**
 * The share routes' shared parts (docs/sharing.md, docs/http-api.md): the owner's request body (zod), and the public
 * side's headers and its one 404. Every public share response carries `Cache-Control: no-store`,
 * `X-Robots-Tag: noindex` and `Referrer-Policy: no-referrer`; an unknown, malformed, revoked or expired token answers
 * exactly the same 404 JSON `{ "error": "Share not found" }` on every URL.
 */
import { z } from "zod";
import { SHARE_NOT_FOUND } from "@/lib/share/errors";
import type { ShareOptions } from "@/lib/share/types";

/** Headers of every public share response. */
export const SHARE_PUBLIC_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "x-robots-tag": "noindex",
  "referrer-policy": "no-referrer",
};

/** The public side's one "not found" (same status, body and headers for every kind of miss). */
export function shareNotFound(): Response {
  return Response.json({ error: SHARE_NOT_FOUND }, { status: 404, headers: SHARE_PUBLIC_HEADERS });
}

/** `body` with the public headers added. */
export function sharePublic(response: Response): Response {
  for (const [k, v] of Object.entries(SHARE_PUBLIC_HEADERS)) response.headers.set(k, v);
  return response;
}

/** `POST /api/sessions/:id/shares/preview` body: `{ leafId, includeFiles?, includeSystem?, redact? }`. */
export const SharePreviewBody = z
  .object({
    leafId: z.string().min(1).max(200),
    includeFiles: z.boolean().optional(),
    includeSystem: z.boolean().optional(),
    redact: z.array(z.string().max(1000)).max(100).optional(),
  })
  .strict();

/** `POST /api/sessions/:id/shares` body: the preview's plus `digest` and `expiresAt` (ISO, or null for none). */
export const SharePublishBody = SharePreviewBody.extend({
  digest: z.string().regex(/^[0-9a-f]{64}$/, "digest must be the preview's 64 hex characters"),
  expiresAt: z.string().datetime({ offset: true }).nullable().optional(),
}).strict();

/** The options of a parsed body (defaults: no files, no system prompt, no owner strings). */
export function shareOptions(body: z.infer<typeof SharePreviewBody>): ShareOptions {
  return {
    leafId: body.leafId,
    includeFiles: body.includeFiles ?? false,
    includeSystem: body.includeSystem ?? false,
    redact: body.redact ?? [],
  };
}
