/**
 * What the share layer refuses with (docs/sharing.md). Edge-safe: every share route, Node or edge, answers a
 * `ShareError` through `lib/http/errors.ts` as `{ error: { code, message } }` with its status. Codes:
 * `entry_not_found` 404 (the leaf is not an entry of the session), `not_found` 404 (a share the caller may not see),
 * `forbidden` 403 (a member who did not create the share), `empty_path` 422, `redaction_blank` 400 and
 * `redaction_too_short` 400 (an owner redaction string empty or only whitespace, or under 4 characters: its position
 * is named), `bad_expiry` 422, `preview_stale` 409 (the published preview differs from the one approved),
 * `publish_failed` 500 and `fork_failed` 500 (an unexpected failure midway; the step is all-or-nothing, so nothing was
 * stored: the message says so and to try again; the original error is kept as `cause` and logged by the route).
 */

import { StrataError } from "@/lib/errors/strata-error";

export type ShareErrorCode =
  | "entry_not_found"
  | "not_found"
  | "forbidden"
  | "empty_path"
  | "redaction_blank"
  | "redaction_too_short"
  | "bad_expiry"
  | "preview_stale"
  | "publish_failed"
  | "fork_failed";

export class ShareError extends StrataError {
  declare readonly status: 400 | 403 | 404 | 409 | 422 | 500;
  declare readonly code: ShareErrorCode;
  constructor(
    status: 400 | 403 | 404 | 409 | 422 | 500,
    code: ShareErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(status, code, message, options);
    this.name = "ShareError";
  }
}

/** The one answer of every public share URL for an unknown, malformed, revoked or expired token. */
export const SHARE_NOT_FOUND = "Share not found";
