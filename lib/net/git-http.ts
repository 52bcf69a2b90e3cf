/**
 * SERVER-ONLY (Node runtime): the HTTP client isomorphic-git uses for a git import, guarded against SSRF.
 *
 * `lib/net/` is the one folder of `lib/` allowed Node-only modules (`node:http`, `node:https`, `node:dns`;
 * see tests/unit/architecture): resolving a name and checking the address that is then connected to cannot
 * be done on the edge runtime. Only the `nodejs` route `app/api/projects/route.ts` imports it and hands the
 * client to `importProject` → `cloneRepository`, so `lib/vfs` and `lib/projects` stay edge-safe.
 *
 * Every request (the first one and every redirect hop, which this client follows itself):
 * 1. the URL must be http(s), and its host on `STRATA_GIT_IMPORT_HOSTS` when that list is set;
 * 2. unless `allowPrivate` (`STRATA_GIT_IMPORT_ALLOW_PRIVATE=1`): an IP-literal host must be public
 *    (`lib/net/addresses.ts`), a name must not be local (`localhost`, `*.internal`…), and every address the
 *    name resolves to must be public — checked inside the socket's `lookup`, so the connection goes to
 *    exactly the addresses that were checked (no DNS rebinding between check and connect);
 * 3. no connection reuse (`agent: false`), an idle timeout, one deadline for the whole import, credentials
 *    dropped on a cross-origin redirect, and each response body capped at `maxResponseBytes`.
 * Any failure before an HTTP answer (refused address or name, DNS failure, connection refused, timeout, TLS
 * error, reset) throws {@link GitImportUnreachableError} with one generic text, so an import cannot be used
 * to learn which internal hosts or ports exist.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import type { IncomingMessage, RequestOptions } from "node:http";
import http from "node:http";
import https from "node:https";
import type { GitHttpRequest, GitHttpResponse, HttpClient } from "isomorphic-git";
import { MAX_FLUSH_BYTES } from "@/lib/vfs/limits";
import { classifyAddress, isIpLiteral, isLocalHostName } from "./addresses";

/** The one text of every refused or unreachable git import destination (HTTP 422 from the import route). */
export const GIT_IMPORT_UNREACHABLE =
  "Git import failed: the repository could not be reached (its host name did not resolve, it did not answer, or it is not a public http(s) host; private addresses need STRATA_GIT_IMPORT_ALLOW_PRIVATE). Check the URL and that this server can reach it.";

/**
 * A git import destination was refused or could not be reached. `message` is always
 * {@link GIT_IMPORT_UNREACHABLE}; `detail` says what happened (for tests and server logs, never for clients).
 */
export class GitImportUnreachableError extends Error {
  readonly code = "GitImportUnreachable";
  constructor(
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(GIT_IMPORT_UNREACHABLE, options);
    this.name = "GitImportUnreachableError";
  }
}

/** A response body over `maxResponseBytes`: `the server sent more than N bytes in one response (the limit is N bytes)…`. */
export class GitResponseTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(
      `the server sent more than ${limit} bytes in one response (the limit is ${limit} bytes); import a smaller repository or an archive of it`,
    );
    this.name = "GitResponseTooLargeError";
  }
}

/** The whole import (every request and body of one client) outlived `deadlineMs`. */
export class GitImportDeadlineError extends Error {
  constructor(readonly limitMs: number) {
    super(
      `the transfer took longer than ${limitMs / 1000} s (the limit for one import); try again later, or import an archive of the repository`,
    );
    this.name = "GitImportDeadlineError";
  }
}

/** One resolved address, as `dns.lookup(..., { all: true })` answers. `family` is 4 or 6. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses; rejects (any error) when it cannot. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** What a git import may reach. */
export interface GitImportNetPolicy {
  /** Allow loopback, private, link-local… destinations and local names (self-hosting, tests). Default false. */
  allowPrivate?: boolean;
  /**
   * Destinations allowed although not public, by exact address and port (for a known internal git server, and
   * tests that let one hop through and check the next). Default: none.
   */
  allowAddress?: (address: string, port: number) => boolean;
  /** Host-name allow-list (`gitImportHostPolicy`), applied to the first URL and every redirect; undefined: any. */
  allowHost?: (host: string) => boolean;
  /** Name resolution (default `dns.lookup` with `all: true`); every address it returns is checked. */
  resolve?: Resolver;
  /** Socket idle timeout, connecting included, ms (default 20,000). */
  timeoutMs?: number;
  /** Redirects followed per request (default 5). */
  maxRedirects?: number;
  /**
   * Time for all requests of one client (one import), bodies included, ms (default 120,000): a server that
   * dribbles bytes under the idle timeout cannot hold the import (and its database connections) for longer.
   */
  deadlineMs?: number;
  /** Largest response body, bytes (default `MAX_FLUSH_BYTES`, 64 MiB: a clone is stored in one flush). */
  maxResponseBytes?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const defaultResolve: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The port a URL connects to (its explicit port, else 80 / 443). */
function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** Whether `policy` lets a connection go to `address`:`port`; the refusing range otherwise. */
function addressVerdict(address: string, port: number, policy: GitImportNetPolicy): string | undefined {
  if (policy.allowPrivate) return undefined;
  const range = classifyAddress(address);
  if (range === "public" || policy.allowAddress?.(address, port)) return undefined;
  return range;
}

/**
 * The checks of one hop before any connection: http(s) only, the host allow-list, then (unless
 * `allowPrivate`) an IP-literal host must be public or allowed by `allowAddress`, and a name must not be local.
 * Names are checked again after resolution ({@link resolveDestination}).
 * @param redirected true for a redirect's target (changes the allow-list message).
 * @throws GitImportUnreachableError (refused destination); Error "[redirected to ]host X is not allowed
 *   (STRATA_GIT_IMPORT_HOSTS)".
 */
export function checkDestinationUrl(url: URL, policy: GitImportNetPolicy, redirected = false): void {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new GitImportUnreachableError(`protocol ${url.protocol} is not http(s)`);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (policy.allowHost && !policy.allowHost(host))
    throw new Error(
      `${redirected ? "redirected to " : ""}host ${host} is not allowed (STRATA_GIT_IMPORT_HOSTS)`,
    );
  if (policy.allowPrivate) return;
  if (isIpLiteral(host)) {
    const range = addressVerdict(host, portOf(url), policy);
    if (range) throw new GitImportUnreachableError(`address ${host} is refused (${range})`);
  } else if (isLocalHostName(host)) {
    throw new GitImportUnreachableError(`host name ${host} is refused (local name)`);
  }
}

/**
 * Resolve a host name with `policy.resolve` and check every address (unless `allowPrivate`): one refused
 * address refuses the name, so a name cannot mix a public and an internal address.
 * @param family 4 or 6 to keep only that family (what the socket asked for), else both.
 * @returns the addresses the connection may use (at least one).
 * @throws GitImportUnreachableError when the name does not resolve, has no address, or any address is refused.
 */
export async function resolveDestination(
  hostname: string,
  port: number,
  policy: GitImportNetPolicy,
  family?: number,
): Promise<ResolvedAddress[]> {
  let found: ResolvedAddress[];
  try {
    found = await (policy.resolve ?? defaultResolve)(hostname);
  } catch (error) {
    throw new GitImportUnreachableError(`host name ${hostname} did not resolve`, { cause: error });
  }
  const addresses = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
  if (addresses.length === 0) throw new GitImportUnreachableError(`host name ${hostname} has no address`);
  for (const a of addresses) {
    const range = addressVerdict(a.address, port, policy);
    if (range)
      throw new GitImportUnreachableError(`host name ${hostname} resolves to ${a.address} (${range})`);
  }
  return addresses;
}

/** The socket's `lookup`: {@link resolveDestination}, so the connection goes only to addresses that were checked. */
function guardedLookup(port: number, policy: GitImportNetPolicy): NonNullable<RequestOptions["lookup"]> {
  return (hostname, options, callback) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
    resolveDestination(hostname, port, policy, family).then(
      (addresses) => {
        if (options.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, "", 4),
    );
  };
}

function asUnreachable(error: unknown, what: string): unknown {
  if (error instanceof GitImportUnreachableError) return error;
  if ((error as { name?: string })?.name === "AbortError") return error;
  const code = (error as { code?: string })?.code ?? (error as Error)?.message ?? String(error);
  return new GitImportUnreachableError(`${what}: ${code}`, { cause: error });
}

/** The deadline of one client: `expired` once it passed (then every open request is destroyed with its error). */
interface Deadline {
  at: number;
  ms: number;
  expired: boolean;
}

/** The response body as isomorphic-git reads it, counted against `limit`; stream errors become unreachable errors. */
async function* bodyOf(res: IncomingMessage, limit: number, deadline: Deadline): AsyncGenerator<Uint8Array> {
  let total = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limit) {
        res.destroy();
        throw new GitResponseTooLargeError(limit);
      }
      yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
    }
    if (deadline.expired) throw new GitImportDeadlineError(deadline.ms);
  } catch (error) {
    if (error instanceof GitResponseTooLargeError) throw error;
    if (deadline.expired) throw new GitImportDeadlineError(deadline.ms);
    throw asUnreachable(error, "reading the response");
  } finally {
    if (!res.complete) res.destroy();
  }
}

/** One request to one checked URL; resolves at the response head. The deadline also covers its body. */
function requestOnce(
  url: URL,
  req: { method: string; headers: Record<string, string>; body?: Buffer },
  policy: GitImportNetPolicy,
  deadline: Deadline,
  signal?: AbortSignal,
): Promise<IncomingMessage> {
  const remaining = deadline.at - Date.now();
  if (remaining <= 0) {
    deadline.expired = true;
    return Promise.reject(new GitImportDeadlineError(deadline.ms));
  }
  const client = url.protocol === "https:" ? https : http;
  return new Promise<IncomingMessage>((resolve, reject) => {
    let answered = false;
    const request = client.request(
      url,
      {
        method: req.method,
        headers: req.headers,
        agent: false,
        lookup: guardedLookup(portOf(url), policy),
        timeout: policy.timeoutMs ?? 20_000,
        signal,
      },
      (res) => {
        answered = true;
        resolve(res);
      },
    );
    // Before an answer the deadline is one more way of not being reached (the generic text: a silent port must
    // not read differently from a closed one); while a body streams it is the import's own limit.
    const timer = setTimeout(() => {
      deadline.expired = answered;
      request.destroy(
        answered
          ? new GitImportDeadlineError(deadline.ms)
          : new GitImportUnreachableError("no answer in time"),
      );
    }, remaining);
    request.on("close", () => clearTimeout(timer));
    request.on("timeout", () => request.destroy(new GitImportUnreachableError("timed out")));
    request.on("error", (error) =>
      reject(error instanceof GitImportDeadlineError ? error : asUnreachable(error, "request failed")),
    );
    request.end(req.body);
  });
}

/**
 * An isomorphic-git `HttpClient` that reaches only what `policy` allows (see the module docs).
 * @returns `{ request }`; a request resolves with the final response (`url` = the last hop's URL) once its
 *   head arrived, and its body streams. The request body, if any, is read once and re-sent on redirects.
 * Create one client per import: its deadline (`deadlineMs`) starts here.
 * @throws (rejects) GitImportUnreachableError with {@link GIT_IMPORT_UNREACHABLE}; GitImportDeadlineError,
 *   GitResponseTooLargeError (also while a body streams); Error "host X is not allowed
 *   (STRATA_GIT_IMPORT_HOSTS)" / "redirected to host X is not allowed (STRATA_GIT_IMPORT_HOSTS)"; Error
 *   "more than N redirects"; an AbortError when `signal` aborts.
 */
export function createGitImportHttp(policy: GitImportNetPolicy = {}): HttpClient {
  const maxRedirects = policy.maxRedirects ?? 5;
  const maxResponseBytes = policy.maxResponseBytes ?? MAX_FLUSH_BYTES;
  const ms = policy.deadlineMs ?? 120_000;
  const deadline: Deadline = { at: Date.now() + ms, ms, expired: false };
  return {
    async request(req: GitHttpRequest): Promise<GitHttpResponse> {
      let body: Buffer | undefined;
      if (req.body) {
        const chunks: Uint8Array[] = [];
        for await (const chunk of req.body as AsyncIterable<Uint8Array>) chunks.push(chunk);
        body = Buffer.concat(chunks);
      }
      const method = req.method ?? "GET";
      let headers: Record<string, string> = { ...(req.headers ?? {}) };
      let current = new URL(req.url);
      checkDestinationUrl(current, policy);
      for (let hop = 0; ; hop++) {
        const res = await requestOnce(current, { method, headers, body }, policy, deadline, req.signal);
        const location = res.headers.location;
        if (!REDIRECTS.has(res.statusCode ?? 0) || !location) {
          const flat: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(", ") : v;
          return {
            url: current.href,
            method,
            statusCode: res.statusCode ?? 0,
            statusMessage: res.statusMessage ?? "",
            headers: flat,
            body: bodyOf(res, maxResponseBytes, deadline),
          };
        }
        res.destroy();
        if (hop >= maxRedirects) throw new Error(`more than ${maxRedirects} redirects`);
        let next: URL;
        try {
          next = new URL(location, current);
        } catch (error) {
          throw new GitImportUnreachableError(`invalid redirect location`, { cause: error });
        }
        checkDestinationUrl(next, policy, true);
        next.username = "";
        next.password = "";
        if (next.origin !== current.origin) {
          headers = Object.fromEntries(
            Object.entries(headers).filter(([k]) => k.toLowerCase() !== "authorization"),
          );
        }
        current = next;
      }
    },
  };
}
