/**
 * Session imports larger than one request: the file is sent as byte ranges ("parts", any boundaries, each at
 * most {@link UPLOAD_PART_BYTES}), staged in `session_uploads` / `session_upload_parts`, and imported by the
 * commit, which checks that every part is there (`parts` and `bytes` as the client counted them), parses the
 * parts one at a time (a streaming UTF-8 decode, lines split across parts joined), and stores the session in
 * one transaction — all entries or none. The commit first claims the upload atomically (`state` `open` →
 * `committing` in one UPDATE), so of concurrent commits exactly one imports and the others answer 409
 * `upload_committing` (or 404 once it is gone); a part PUT or a DELETE during the commit answers 409
 * `upload_committing` too, so the parts cannot change under the parse. The upload is deleted after a commit,
 * successful or failed (a failure that may pass — the database busy or away — or an incomplete upload reopens it
 * for a retry instead); uploads never committed are deleted after {@link UPLOAD_TTL_MS}.
 *
 * The commit reads the parts with `readSessionFile` (./session-file.ts), the reading every import and
 * `strata preview` share; `parseSessionParts` and `refuseCutFile` live there and are re-exported here.
 */

import type { DbScope } from "@/lib/db/client";
import { DbBusyError, DbUnavailableError } from "@/lib/db/errors";
import { TryAgainError } from "@/lib/db/retry";
import { StrataError } from "@/lib/errors/strata-error";
import type { ParsedSessionJsonl } from "./jsonl";
import { readSessionFile } from "./session-file";

export { parseSessionParts, refuseCutFile } from "./session-file";

const MiB = 1024 * 1024;

/** Largest part of an upload, bytes (4 MiB; well under the runtime's 10 MiB body cap). */
export const UPLOAD_PART_BYTES = 4 * MiB;
/** Largest session file imported (one request or an upload), bytes (64 MiB). */
export const SESSION_FILE_MAX_BYTES = 64 * MiB;
/** Most parts of one upload (64 MiB / 4 MiB). */
export const UPLOAD_MAX_PARTS = SESSION_FILE_MAX_BYTES / UPLOAD_PART_BYTES;
/** Uploads of one project staged at once (older ones expire after {@link UPLOAD_TTL_MS}). */
export const MAX_OPEN_UPLOADS = 4;
/** An upload not committed within this time is deleted (1 hour). */
export const UPLOAD_TTL_MS = 60 * 60 * 1000;
/** Bytes of a staged part read back per statement (256 KiB). */
const READ_SLICE_BYTES = 256 * 1024;

/** A refused upload request: HTTP status, error code and a message saying what to do. */
export class SessionUploadError extends StrataError {
  declare readonly status: number;
  constructor(status: number, code: string, message: string) {
    super(status, code, message);
    this.name = "SessionUploadError";
  }
}

/**
 * Start an upload for `projectId` (deleting the project's uploads older than {@link UPLOAD_TTL_MS} first).
 * @returns the upload id and the limits the client must respect.
 * @throws SessionUploadError 429 `too_many_uploads` when {@link MAX_OPEN_UPLOADS} are staged already.
 */
export async function createSessionUpload(
  scope: DbScope,
  projectId: string,
  name: string,
): Promise<{ id: string; partBytes: number; maxBytes: number; maxParts: number }> {
  return scope.transaction(async (q) => {
    await q("SELECT 1 FROM projects WHERE id = $1 FOR UPDATE", [projectId]);
    await q(
      "DELETE FROM session_uploads WHERE project_id = $1 AND created_at < now() - $2::int * interval '1 millisecond'",
      [projectId, UPLOAD_TTL_MS],
    );
    const [{ n }] = await q<{ n: number }>(
      "SELECT count(*)::int AS n FROM session_uploads WHERE project_id = $1",
      [projectId],
    );
    if (n >= MAX_OPEN_UPLOADS)
      throw new SessionUploadError(
        429,
        "too_many_uploads",
        `This project already has ${n} session imports in progress (the limit is ${MAX_OPEN_UPLOADS}); finish or cancel one, or wait an hour until they expire.`,
      );
    const [row] = await q<{ id: string }>(
      "INSERT INTO session_uploads (project_id, name) VALUES ($1, $2) RETURNING id",
      [projectId, name.slice(0, 200)],
    );
    return {
      id: row.id,
      partBytes: UPLOAD_PART_BYTES,
      maxBytes: SESSION_FILE_MAX_BYTES,
      maxParts: UPLOAD_MAX_PARTS,
    };
  });
}

const uploadNotFound = (uploadId: string) =>
  new SessionUploadError(
    404,
    "not_found",
    `Session upload ${uploadId} not found (it expired after an hour, was committed, or belongs to another project); start a new upload`,
  );

/** 409 for a request on an upload that a commit has claimed; `what` says what was refused. */
const uploadCommitting = (uploadId: string, what: string) =>
  new SessionUploadError(
    409,
    "upload_committing",
    `Session upload ${uploadId} is being committed; ${what}. Wait for the commit's answer (the upload is deleted when it ends).`,
  );

/** The state of an upload of `projectId` (`null`: no such upload). */
async function uploadState(scope: DbScope, projectId: string, uploadId: string): Promise<string | null> {
  const [row] = await scope.query<{ state: string }>(
    "SELECT state FROM session_uploads WHERE id = $1 AND project_id = $2",
    [uploadId, projectId],
  );
  return row?.state ?? null;
}

/**
 * Stage part `index` (0-based) of an upload; sending a part again replaces it. The upload's row is locked for the
 * write, so a part is either staged before a commit claims the upload or refused.
 * @throws SessionUploadError 404 (unknown upload), 409 `upload_committing` (a commit has claimed the upload:
 *   "Session upload <id> is being committed; its parts cannot change. …"), 400 `bad_request` (index out of
 *   range, empty part), 413
 *   `too_large` (the staged total would pass {@link SESSION_FILE_MAX_BYTES}).
 */
export async function putSessionUploadPart(
  scope: DbScope,
  projectId: string,
  uploadId: string,
  index: number,
  data: Uint8Array,
): Promise<{ part: number; bytes: number }> {
  if (!Number.isInteger(index) || index < 0 || index >= UPLOAD_MAX_PARTS)
    throw new SessionUploadError(
      400,
      "bad_request",
      `Part index must be an integer from 0 to ${UPLOAD_MAX_PARTS - 1} (parts are at most ${UPLOAD_PART_BYTES} bytes, a file at most ${SESSION_FILE_MAX_BYTES} bytes)`,
    );
  if (data.byteLength === 0) throw new SessionUploadError(400, "bad_request", "A part must not be empty");
  await scope.transaction(async (q) => {
    const [upload] = await q<{ state: string }>(
      "SELECT state FROM session_uploads WHERE id = $1 AND project_id = $2 FOR UPDATE",
      [uploadId, projectId],
    );
    if (!upload) throw uploadNotFound(uploadId);
    if (upload.state !== "open") throw uploadCommitting(uploadId, "its parts cannot change");
    const [{ staged }] = await q<{ staged: number }>(
      "SELECT coalesce(sum(octet_length(data)), 0)::bigint AS staged FROM session_upload_parts WHERE upload_id = $1 AND part <> $2",
      [uploadId, index],
    );
    if (Number(staged) + data.byteLength > SESSION_FILE_MAX_BYTES)
      throw new SessionUploadError(
        413,
        "too_large",
        `The session file is larger than ${SESSION_FILE_MAX_BYTES} bytes (64 MiB), the import limit; nothing was imported.`,
      );
    await q(
      `INSERT INTO session_upload_parts (upload_id, part, data) VALUES ($1, $2, $3::bytea)
       ON CONFLICT (upload_id, part) DO UPDATE SET data = EXCLUDED.data`,
      [uploadId, index, data],
    );
  });
  return { part: index, bytes: data.byteLength };
}

/**
 * Cancel an upload of project `projectId`: delete it and its parts.
 * @throws SessionUploadError 404 `not_found` when the project has no such upload (none was made, it ended, or it is
 *   another project's: the same answer for each); 409 `upload_committing` when a commit has claimed it ("Session upload <id> is being
 *   committed; it cannot be cancelled now. …"; the commit deletes it when it ends).
 */
export async function deleteSessionUpload(
  scope: DbScope,
  projectId: string,
  uploadId: string,
): Promise<void> {
  const deleted = await scope.query(
    "DELETE FROM session_uploads WHERE id = $1 AND project_id = $2 AND state = 'open' RETURNING id",
    [uploadId, projectId],
  );
  if (deleted.length > 0) return;
  if ((await uploadState(scope, projectId, uploadId)) !== null)
    throw uploadCommitting(uploadId, "it cannot be cancelled now");
  throw uploadNotFound(uploadId);
}

/** Delete an upload whatever its state (the end of a commit). */
async function dropUpload(scope: DbScope, uploadId: string): Promise<void> {
  await scope.query("DELETE FROM session_uploads WHERE id = $1", [uploadId]);
}

/** Give a claimed upload back (`committing` → `open`), so the commit can be retried. */
async function reopenUpload(scope: DbScope, uploadId: string): Promise<void> {
  await scope.query("UPDATE session_uploads SET state = 'open' WHERE id = $1", [uploadId]);
}

/** Errors after which the same commit may succeed: the database was busy or away. */
const mayPass = (error: unknown) =>
  error instanceof DbBusyError || error instanceof DbUnavailableError || error instanceof TryAgainError;

/**
 * Claim the upload (`open` → `committing`, one atomic UPDATE), check that the staged parts are exactly
 * `0 … parts-1` holding `bytes` bytes in all, then parse them in order (one part in memory at a time) and hand the
 * parse to `store` (which imports it in one transaction). The upload is deleted when the commit ends — imported,
 * refused or failed — except after an incomplete upload or a database that was busy or away, which reopen it so
 * the commit can be retried.
 * @returns what `store` returns.
 * @throws SessionUploadError 404 (unknown upload, or committed already), 409 `upload_committing` (another commit
 *   has claimed it: "Session upload <id> is being committed; it cannot be committed twice. …"), 400
 *   `incomplete_upload` (a part missing, extra parts, or a byte count that differs from `bytes`; names what is
 *   missing); InvalidSessionFileError and its subclasses for a refused file (a cut last line included, see
 *   {@link refuseCutFile}).
 */
export async function commitSessionUpload<T>(
  scope: DbScope,
  projectId: string,
  uploadId: string,
  expected: { parts: number; bytes: number },
  store: (parsed: ParsedSessionJsonl, name: string) => Promise<T>,
): Promise<T> {
  const [claimed] = await scope.query<{ name: string }>(
    "UPDATE session_uploads SET state = 'committing' WHERE id = $1 AND project_id = $2 AND state = 'open' RETURNING name",
    [uploadId, projectId],
  );
  if (!claimed) {
    if ((await uploadState(scope, projectId, uploadId)) === null) throw uploadNotFound(uploadId);
    throw uploadCommitting(uploadId, "it cannot be committed twice");
  }
  const { name } = claimed;
  try {
    return await commitClaimed(scope, uploadId, name, expected, store);
  } catch (error) {
    if (error instanceof SessionUploadError || mayPass(error))
      await reopenUpload(scope, uploadId).catch(() => undefined);
    else await dropUpload(scope, uploadId).catch(() => undefined);
    throw error;
  }
}

/** {@link commitSessionUpload} after the claim; the caller deletes or reopens the upload on failure. */
async function commitClaimed<T>(
  scope: DbScope,
  uploadId: string,
  name: string,
  expected: { parts: number; bytes: number },
  store: (parsed: ParsedSessionJsonl, name: string) => Promise<T>,
): Promise<T> {
  const staged = await scope.query<{ part: number; bytes: string }>(
    "SELECT part, octet_length(data)::bigint AS bytes FROM session_upload_parts WHERE upload_id = $1 ORDER BY part",
    [uploadId],
  );
  const missing: number[] = [];
  const have = new Set(staged.map((s) => s.part));
  for (let i = 0; i < expected.parts; i++) if (!have.has(i)) missing.push(i);
  const extra = staged.filter((s) => s.part >= expected.parts).map((s) => s.part);
  const total = staged.reduce((sum, s) => sum + Number(s.bytes), 0);
  if (missing.length > 0 || extra.length > 0 || total !== expected.bytes)
    throw new SessionUploadError(
      400,
      "incomplete_upload",
      `The upload does not match the file: ${[
        missing.length > 0 ? `part(s) ${missing.join(", ")} missing` : "",
        extra.length > 0 ? `unexpected part(s) ${extra.join(", ")}` : "",
        total !== expected.bytes ? `${total} bytes staged, ${expected.bytes} expected` : "",
      ]
        .filter(Boolean)
        .join("; ")}. Nothing was imported; send the missing parts and commit again.`,
    );
  // Read back in slices: the driver decodes each result on the event loop, so no single result is large.
  async function* parts(): AsyncGenerator<Uint8Array> {
    for (const { part, bytes } of staged) {
      for (let offset = 0; offset < Number(bytes); offset += READ_SLICE_BYTES) {
        const [row] = await scope.query<{ data: Uint8Array }>(
          "SELECT substring(data FROM $3 FOR $4) AS data FROM session_upload_parts WHERE upload_id = $1 AND part = $2",
          [uploadId, part, offset + 1, READ_SLICE_BYTES],
        );
        yield row.data;
      }
    }
  }
  // The reading every import and `strata preview` share (./session-file.ts); the cwd is checked when stored.
  const parsed = await readSessionFile(parts(), name, { refuseTorn: true });
  const result = await store(parsed, name);
  await dropUpload(scope, uploadId);
  return result;
}
