/**
 * The share routes' shared parts (docs/sharing.md, docs/http-api.md): the owner's request body (zod), and the public
 * side's headers and its one 404. Every public share response carries `Cache-Control: no-store`,
 * `X-Robots-Tag: noindex` and `Referrer-Policy: no-referrer`; an unknown, malformed, revoked or expired token answers
 * exactly the same 404 JSON `{ "error": "Share not found" }` on every URL.
 */
import { z } from "zod";
import { SHARE_NOT_FOUND } from "@/lib/share/errors";
import { MAX_OWNER_REDACTIONS } from "@/lib/share/owner-redactions";
import { CONTROL_CHARS } from "@/lib/share/paths";
import { BIDI_CONTROLS } from "@/lib/share/render/unicode";
import type { ShareOptions } from "@/lib/share/types";
import { mediaType, readJson, readText, SMALL_JSON_LIMIT } from "./body";

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
    redact: z.array(z.string().max(1000)).max(MAX_OWNER_REDACTIONS).optional(),
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

/** `POST /api/s/:token/fork` body: `{ workspaceId?, name? }`; a name with a control or bidi control is refused. */
const ForkBody = z
  .object({
    workspaceId: z.string().max(100).optional(),
    name: z
      .string()
      .max(200)
      .refine(
        (n) => !CONTROL_CHARS.test(n),
        "The name must not contain control characters (a line break, a tab, NUL)",
      )
      .refine(
        (n) => !BIDI_CONTROLS.test(n),
        "The name must not contain bidirectional text controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C): they make a name read differently from what it is",
      )
      .optional(),
  })
  .strict();

/**
 * The fork request: JSON, or the share page's plain form (`application/x-www-form-urlencoded`, `form: true`; empty
 * fields are absent). Errors: ZodError (→ 400) for a bad field, the body layer's 413/415 for an oversize or odd body.
 */
export async function readForkBody(
  request: Request,
): Promise<{ form: boolean; body: z.infer<typeof ForkBody> }> {
  if (mediaType(request) !== "application/x-www-form-urlencoded")
    return {
      form: false,
      body: ForkBody.parse(await readJson(request, { limit: SMALL_JSON_LIMIT, empty: {} })),
    };
  const fields = new URLSearchParams(await readText(request, { limit: SMALL_JSON_LIMIT, types: [] }));
  const body = ForkBody.parse({
    ...(fields.get("workspaceId") ? { workspaceId: fields.get("workspaceId") } : {}),
    ...(fields.get("name") ? { name: fields.get("name") } : {}),
  });
  return { form: true, body };
}
