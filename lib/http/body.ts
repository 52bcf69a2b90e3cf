/**
 * Reading request bodies with limits and content-type checks, the one way every route reads a body.
 *
 * - JSON routes accept only `Content-Type: application/json` (415 `unsupported_media_type` otherwise). A page on
 *   another origin can send a "simple" cross-site request (`text/plain`, form types) without a CORS preflight,
 *   but never `application/json`, so this check is what keeps such a request from changing anything.
 * - A body over the route's limit answers 413 `too_large` with the limit: refused from `Content-Length` before
 *   reading, and counted while reading, so a missing or lying `Content-Length` is caught too; the stream is
 *   cancelled at the limit (never buffered whole).
 * - A body shorter than its `Content-Length` (the client went away, or something cut it) answers 400
 *   `incomplete_body`, never "not valid JSON" and never a partial import.
 *
 * The runtime's own cap: `next start` hands an edge route only the first {@link RUNTIME_BODY_CAP} bytes of a body
 * (`experimental.proxyClientMaxBodySize`, 10 MiB by default; Next's `getCloneableBody` logs "Request body
 * exceeded 10MB" and ends the stream early without an error). A route therefore sees a cut body, not an error —
 * which is why a 20 MB JSON body used to answer 400 "not valid JSON" and a 15.7 MB session file lost its tail.
 * Every limit here is at most that cap, and a body without a `Content-Length` is held to
 * {@link UNSIZED_BODY_LIMIT} (9 MiB), below the point where the runtime cuts it.
 *
 * Edge-safe (Web streams only).
 */
import type { z } from "zod";
import { jsonDepthOverflow, MAX_JSON_DEPTH } from "@/lib/text/json-depth";
import { ApiError } from "./errors";

const KiB = 1024;
const MiB = 1024 * KiB;

/** Bytes of a request body the edge runtime of `next start` passes to a route (10 MiB, Next's default). */
export const RUNTIME_BODY_CAP = 10 * MiB;

/**
 * Largest body accepted without a `Content-Length` (9 MiB): the runtime cuts such a body at the last chunk under
 * its cap (measured with `next start`: a 20 MiB chunked body arrived as 10,483,840 bytes, one with a Content-Length
 * as 10,466,304), so a cut body cannot be told from a whole one near the cap; 1 MiB of margin makes every cut
 * body count past this limit.
 */
export const UNSIZED_BODY_LIMIT = RUNTIME_BODY_CAP - MiB;

/** Body limit of small JSON requests (settings, ids, options): 64 KiB. */
export const SMALL_JSON_LIMIT = 64 * KiB;

/** Body limit of a prompt (`{ text }` with up to 200,000 characters, JSON-escaped): 1 MiB. */
export const PROMPT_JSON_LIMIT = 1 * MiB;

/**
 * Body limit of a prompt with images (`{ text, images }`: the text plus up to 6 MiB of images as 8 MiB of base64,
 * `lib/agent-session/prompt-images.ts`): the runtime's cap, 10 MiB. The prompt route reads every body with it.
 */
export const PROMPT_WITH_IMAGES_JSON_LIMIT = RUNTIME_BODY_CAP;

/**
 * Body limit of a file write from the editor (`{ path, content }`): the runtime's cap, 10 MiB. The content itself
 * is further limited by the VFS (`MAX_FILE_BYTES`).
 */
export const FILE_JSON_LIMIT = RUNTIME_BODY_CAP;

/** `1048576` → `"1048576 bytes (1 MiB)"`; used in every limit message. */
export function formatLimit(bytes: number): string {
  const unit =
    bytes >= MiB && bytes % MiB === 0
      ? `${bytes / MiB} MiB`
      : bytes >= KiB && bytes % KiB === 0
        ? `${bytes / KiB} KiB`
        : `${bytes} bytes`;
  return unit.endsWith(" bytes") ? unit : `${bytes} bytes (${unit})`;
}

/** The media type of a `Content-Type` header, lower case, without parameters (`""` when absent). */
export function mediaType(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

/** Options of {@link readBody}. */
export interface ReadBodyOptions {
  /** Largest accepted body, bytes (at most {@link RUNTIME_BODY_CAP}). */
  limit: number;
  /** Accepted media types (lower case, no parameters); an empty list accepts any, a missing header included. */
  types: readonly string[];
  /** Extra sentence for the 413 message (what to do instead), e.g. how to send a larger file. */
  tooLargeHint?: string;
}

/**
 * 413 with the limit: `size` is the declared size ("20971520 bytes") or null when it was counted while reading;
 * `unsized` is the lower limit applied to a body without a Content-Length, when it applied.
 */
function tooLarge(size: string | null, limit: number, hint?: string, unsized?: number): ApiError {
  const what = size ? `The request body is ${size}` : "The request body is larger than the limit";
  const max =
    unsized === undefined
      ? formatLimit(limit)
      : `${formatLimit(unsized)} when sent without a Content-Length (${formatLimit(limit)} with one)`;
  return new ApiError(
    413,
    "too_large",
    `${what}; this endpoint accepts at most ${max}. ${hint ?? "Send a smaller body."}`,
  );
}

/**
 * Read a whole request body as bytes, within `options.limit`.
 * @returns the body (empty when there is none).
 * @throws ApiError 415 `unsupported_media_type` (type not in `options.types`), 413 `too_large` (declared or
 *   counted size over the limit, or cut at the runtime's cap), 400 `incomplete_body` (fewer bytes than the
 *   `Content-Length` announced). Without a Content-Length the limit is at most {@link UNSIZED_BODY_LIMIT}.
 */
export async function readBody(request: Request, options: ReadBodyOptions): Promise<Uint8Array<ArrayBuffer>> {
  const limit = Math.min(options.limit, RUNTIME_BODY_CAP);
  if (options.types.length > 0) {
    const type = mediaType(request);
    if (!options.types.includes(type)) {
      const wanted = options.types.join(" or ");
      throw new ApiError(
        415,
        "unsupported_media_type",
        `This endpoint accepts ${wanted} only (got ${type ? `Content-Type: ${type}` : "no Content-Type"}). Send the body with Content-Type: ${options.types[0]}.`,
      );
    }
  }
  const header = request.headers.get("content-length");
  const declared = header !== null && /^\d+$/.test(header.trim()) ? Number(header.trim()) : null;
  if (declared !== null && declared > limit) throw tooLarge(`${declared} bytes`, limit, options.tooLargeHint);
  if (!request.body) return new Uint8Array(0);
  // Without a Content-Length a body cut by the runtime looks whole: such bodies get the lower limit.
  const counted = declared === null ? Math.min(limit, UNSIZED_BODY_LIMIT) : limit;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > counted) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(null, limit, options.tooLargeHint, counted < limit ? counted : undefined);
    }
    chunks.push(value);
  }
  if (declared !== null && received > declared)
    throw new ApiError(
      400,
      "bad_request",
      `The request body is longer than its Content-Length (${declared} bytes); nothing was changed.`,
    );
  if (declared !== null && received < declared)
    throw new ApiError(
      400,
      "incomplete_body",
      `The request body ended after ${received} of the ${declared} bytes its Content-Length announced; nothing was changed. Send the request again.`,
    );
  const out = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Read a body as UTF-8 text (invalid sequences become U+FFFD, as pi's file reader does).
 * @throws ApiError as {@link readBody}.
 */
export async function readText(request: Request, options: ReadBodyOptions): Promise<string> {
  return new TextDecoder().decode(await readBody(request, options));
}

/** Options of {@link readJson}. */
export interface ReadJsonOptions {
  /** Largest accepted body, bytes. */
  limit: number;
  /** The value an empty body stands for (routes whose fields are all optional); without it an empty body is a 400. */
  empty?: unknown;
  /** See {@link ReadBodyOptions.tooLargeHint}. */
  tooLargeHint?: string;
}

/**
 * Read an `application/json` body and parse it (validate the result with zod).
 * @returns the parsed value (`options.empty` for an empty body when given).
 * @throws ApiError 415 `unsupported_media_type` ("This endpoint accepts application/json only (got
 *   Content-Type: text/plain). Send the body with Content-Type: application/json."), 413 `too_large` ("The
 *   request body is <n> bytes; this endpoint accepts at most <limit>. …"), 400 `incomplete_body`, 400
 *   `bad_request` "The request body is empty; send a JSON object" or "The request body is not valid JSON";
 *   400 `too_deep` "The request body nests JSON more than 64 levels deep (at character <n>, from 1); the limit is 64. …",
 *   checked by a linear scan before `JSON.parse` (see `./json-depth.ts`).
 */
export async function readJson(request: Request, options: ReadJsonOptions): Promise<unknown> {
  return jsonValue(await readJsonBytes(request, options), options);
}

/** A JSON body read whole (its size and media type checked) and not yet parsed: see {@link readJsonInput}. */
export interface JsonInput {
  /**
   * Parse the body and validate it with `schema`: what {@link readJson} followed by `schema.parse` does.
   * @returns the schema's output (for an empty body, `schema.parse(options.empty)` when `empty` was given).
   * @throws ApiError 400 `bad_request` "The request body is empty; send a JSON object" (no `empty` option) or
   *   "The request body is not valid JSON", 400 `too_deep` (as {@link readJson}); ZodError from `schema.parse`.
   */
  parse<T>(schema: z.ZodType<T>): T;
}

/**
 * Read an `application/json` body now and parse it later, once the caller is authorised: a route reads its body
 * before it authorises (no database connection is held while a client sends it) but validates it after, so a
 * signed-in caller outside the resource's workspace gets the same 404 whatever the body (never a 400 that tells a
 * bad body from a missing resource).
 * `const input = await readJsonInput(request, { limit })` → authorise → `const body = input.parse(Body)`.
 * @param options as {@link readJson}: `limit`, `empty` (the value an empty body stands for), `tooLargeHint`.
 * @returns a {@link JsonInput} holding the body's bytes.
 * @throws ApiError at once for the request itself, as {@link readBody}: 415 `unsupported_media_type`, 413
 *   `too_large`, 400 `incomplete_body` (and 400 `bad_request` for a body longer than its Content-Length). What
 *   the body says (empty, not JSON, too deep, refused by the schema) is thrown by {@link JsonInput.parse}.
 */
export async function readJsonInput(request: Request, options: ReadJsonOptions): Promise<JsonInput> {
  const bytes = await readJsonBytes(request, options);
  return { parse: (schema) => schema.parse(jsonValue(bytes, options)) };
}

/** The bytes of an `application/json` body within `options.limit`. @throws ApiError as {@link readBody}. */
function readJsonBytes(request: Request, options: ReadJsonOptions): Promise<Uint8Array<ArrayBuffer>> {
  return readBody(request, { ...options, types: ["application/json"] });
}

/**
 * The JSON value of a body's bytes (`options.empty` for an empty body when given).
 * @throws ApiError 400 `bad_request` (empty, not valid JSON), 400 `too_deep`, as {@link readJson}.
 */
function jsonValue(bytes: Uint8Array, options: ReadJsonOptions): unknown {
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") {
    if ("empty" in options) return options.empty;
    throw new ApiError(400, "bad_request", "The request body is empty; send a JSON object");
  }
  const over = jsonDepthOverflow(text);
  if (over >= 0)
    throw new ApiError(
      400,
      "too_deep",
      `The request body nests JSON more than ${MAX_JSON_DEPTH} levels deep (at character ${over + 1}); the limit is ${MAX_JSON_DEPTH}. Send a flatter value; nothing was changed.`,
    );
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "bad_request", "The request body is not valid JSON");
  }
}

/**
 * Read a `multipart/form-data` body within `limit` (counted like {@link readBody}) and parse it.
 * @throws ApiError 415 / 413 / 400 as {@link readBody}; 400 `bad_request` "The multipart body could not be
 *   parsed (<detail>)" for a malformed body.
 */
export async function readForm(
  request: Request,
  options: { limit: number; tooLargeHint?: string },
): Promise<FormData> {
  const bytes = await readBody(request, { ...options, types: ["multipart/form-data"] });
  const type = request.headers.get("content-type") ?? "";
  try {
    return await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ApiError(400, "bad_request", `The multipart body could not be parsed (${detail})`);
  }
}
