/**
 * `git clone` on the VFS (re-exported by lib/vfs/git.ts): a smart-HTTP clone through isomorphic-git over
 * `createGitFs(vfs)`, with its failures told in one clear message that never shows the URL's credentials.
 * Nothing here flushes: the clone stays in the `Vfs` cache and the caller commits it with `vfs.flush()`.
 */

import * as git from "isomorphic-git";
import webHttp from "isomorphic-git/http/web";
import { createGitFs } from "./git-fs";
import { normalizePosix } from "./paths";
import type { Vfs } from "./vfs";

/** isomorphic-git's progress event (`phase` such as "Receiving objects", `loaded`/`total` counts). */
export type GitProgress = git.GitProgressEvent;

/** A URL without user info (credentials are used for the clone only, never stored or shown). Unparsable input is returned as is. */
export function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return url;
  }
}

/** A clear `Error` for a failed clone; the original is kept as `cause`. */
function cloneError(url: string, error: unknown, signal?: AbortSignal): Error {
  const shown = withoutCredentials(url);
  const e = error as {
    code?: string;
    message?: string;
    data?: { statusCode?: number; statusMessage?: string };
  };
  let reason: string;
  if (signal?.aborted) {
    const err = new Error(`Clone of ${shown} was aborted`, { cause: error });
    err.name = "AbortError";
    return err;
  }
  // The guarded transport's one generic text for a refused or unreachable destination (lib/net/git-http.ts):
  // kept as it is, so it says nothing about the URL's host or port.
  if (e?.code === "GitImportUnreachable" && error instanceof Error) return error;
  if (e?.code === "HttpError" && e.data?.statusCode) {
    const status = `HTTP ${e.data.statusCode}${e.data.statusMessage ? ` ${e.data.statusMessage}` : ""}`;
    if (e.data.statusCode === 401 || e.data.statusCode === 403)
      reason = `authentication required or access denied (${status})`;
    else if (e.data.statusCode === 404) reason = `repository not found (${status})`;
    else reason = `the server answered ${status}`;
  } else if (e?.code === "SmartHttpError") {
    reason = "the server did not answer as a git smart-HTTP server";
  } else if (e?.code === "NotFoundError") {
    reason = e.message ?? "not found";
  } else if (error instanceof TypeError && /fetch failed|network/i.test(error.message)) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    reason = `could not connect (${cause?.code ?? cause?.message ?? error.message})`;
  } else {
    reason = e?.message ?? String(error);
  }
  return new Error(`Cannot clone ${shown}: ${reason}`, { cause: error });
}

/**
 * Clone `url` (http(s) smart protocol) into `dir`: a normal repository with `origin` configured, the
 * branch `ref` (default: the remote's default branch) checked out in the working tree, only that branch
 * fetched, `depth` commits of history when given.
 *
 * Contract: on success the clone is in the VFS cache and the caller flushes it. On failure nothing is
 * left behind: every unflushed change below `dir` made by this call is discarded (`Vfs.discard`), so a
 * later flush writes nothing there. Call it on a VFS with no other unflushed changes below `dir`.
 *
 * @param options.onProgress isomorphic-git progress events (fetch and checkout phases).
 * @param options.signal aborts the HTTP transfer and the checkout.
 * @param options.http the transport (default: isomorphic-git's `fetch` client, which reaches any address and
 *   follows redirects itself — for trusted URLs only). A URL from a user goes through the guarded client of
 *   `lib/net/git-http.ts` (public addresses only, every redirect hop checked); its refusals keep their one
 *   generic message (`GIT_IMPORT_UNREACHABLE`) instead of "Cannot clone …".
 * @throws Error "Cannot clone <url>: <reason>" (bad URL, HTTP 404/401/403, connection refused, unknown
 *   ref, non-git server), "Cannot clone <url> into <dir>: directory is not empty", or an `AbortError`
 *   "Clone of <url> was aborted", or the guarded transport's `GitImportUnreachableError` as it is. Credentials
 *   in the URL are never shown.
 */
export async function cloneRepository(
  fs: Vfs,
  dir: string,
  url: string,
  options: {
    ref?: string;
    depth?: number;
    onProgress?: (p: GitProgress) => void;
    signal?: AbortSignal;
    http?: git.HttpClient;
  } = {},
): Promise<void> {
  const root = normalizePosix(dir);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`Cannot clone ${url}: not a valid URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new Error(`Cannot clone ${withoutCredentials(url)}: only http(s) URLs are supported`);
  const existed = await fs.exists(root);
  if (existed && (await fs.readdir(root)).length > 0)
    throw new Error(`Cannot clone ${withoutCredentials(url)} into ${root}: directory is not empty`);
  const { signal, onProgress } = options;
  const transport = options.http ?? webHttp;
  // isomorphic-git's pkt-line reader swallows an error thrown while a response body streams (it sees a short
  // body): keep the first one, so the clone fails with it (a size limit, a reset) and never succeeds on a cut body.
  let bodyError: unknown;
  async function* watched(body: AsyncIterableIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
    try {
      yield* body;
    } catch (error) {
      bodyError ??= error;
      throw error;
    }
  }
  const http: git.HttpClient = {
    request: async (req) => {
      const res = await transport.request({ ...req, signal: signal ?? undefined });
      return res.body ? { ...res, body: watched(res.body) } : res;
    },
  };
  try {
    signal?.throwIfAborted();
    await fs.mkdir(root, { recursive: true });
    await git.clone({
      fs: createGitFs(fs),
      http,
      dir: root,
      url,
      ref: options.ref,
      depth: options.depth,
      singleBranch: true,
      cache: {},
      onProgress: (p) => {
        signal?.throwIfAborted();
        onProgress?.(p);
      },
    });
    signal?.throwIfAborted();
    if (bodyError) throw bodyError;
  } catch (error) {
    fs.discard(root);
    if (existed) await fs.mkdir(root, { recursive: true });
    throw cloneError(url, bodyError ?? error, signal);
  }
}
