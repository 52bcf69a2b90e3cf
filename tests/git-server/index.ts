/**
 * A loopback git smart-HTTP server for tests: serves clones (`git-upload-pack`) of bare repositories on host disk
 * by running `git http-backend` as a CGI program, and with `push: true` also accepts pushes (`git-receive-pack`,
 * `http.receivepack` turned on for the backend). With `auth` every request must carry that user name and password
 * as HTTP Basic credentials (else 401 with `WWW-Authenticate: Basic`), so a client's credential path is tested.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Options of {@link startGitServer}. */
export interface GitServerOptions {
  /** Repository name (served as `/<name>.git`) → path of a bare repository on disk. */
  repos: Record<string, string>;
  /** Port on 127.0.0.1; 0 or omitted picks a free one. */
  port?: number;
  /** Accept pushes (`git-receive-pack`). Default false: the receive-pack advertisement answers 403. */
  push?: boolean;
  /** HTTP Basic credentials every request must carry (401 otherwise). Default: none asked. */
  auth?: { username: string; password: string };
}

/** A running git server. */
export interface GitServer {
  /** Base URL, e.g. `http://127.0.0.1:PORT`; clone `${url}/<name>.git`. */
  url: string;
  /** The `Authorization` header values received so far, in order (to check what a client sent). */
  authorizations: string[];
  close(): Promise<void>;
}

const ROUTE = /^\/([A-Za-z0-9._-]+?)\.git(\/info\/refs|\/git-upload-pack|\/git-receive-pack)$/;

/** Whether `header` is HTTP Basic with exactly `auth`'s user name and password. */
function basicMatches(header: string | undefined, auth: { username: string; password: string }): boolean {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? "");
  if (!m) return false;
  return Buffer.from(m[1], "base64").toString("utf8") === `${auth.username}:${auth.password}`;
}

function fail(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
  res.end(`${message}\n`);
}

/** Split CGI output into its header block and body; headers end at the first empty line (CRLF or LF). */
function splitCgi(
  buffer: Buffer,
): { headers: [string, string][]; status: number; bodyStart: number } | undefined {
  const crlf = buffer.indexOf("\r\n\r\n");
  const lf = buffer.indexOf("\n\n");
  let end: number;
  let sep: number;
  if (crlf >= 0 && (lf < 0 || crlf < lf)) [end, sep] = [crlf, 4];
  else if (lf >= 0) [end, sep] = [lf, 2];
  else return undefined;
  let status = 200;
  const headers: [string, string][] = [];
  for (const line of buffer.subarray(0, end).toString("latin1").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === "status") status = Number.parseInt(value, 10) || 500;
    else headers.push([name, value]);
  }
  return { headers, status, bodyStart: end + sep };
}

function runBackend(
  req: IncomingMessage,
  res: ServerResponse,
  repoPath: string,
  suffix: string,
  query: string,
  push: boolean,
): void {
  const env: NodeJS.ProcessEnv = {
    // Next's types make NODE_ENV a required key of ProcessEnv.
    NODE_ENV: process.env.NODE_ENV,
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GIT_PROJECT_ROOT: dirname(repoPath),
    GIT_HTTP_EXPORT_ALL: "1",
    PATH_INFO: `/${basename(repoPath)}${suffix}`,
    QUERY_STRING: query,
    REQUEST_METHOD: req.method ?? "GET",
    CONTENT_TYPE: req.headers["content-type"] ?? "",
    REMOTE_ADDR: req.socket.remoteAddress ?? "127.0.0.1",
    GIT_CONFIG_NOSYSTEM: "1",
  };
  if (push) {
    // `git http-backend` refuses receive-pack to an unauthenticated client unless http.receivepack is true.
    env.GIT_CONFIG_COUNT = "1";
    env.GIT_CONFIG_KEY_0 = "http.receivepack";
    env.GIT_CONFIG_VALUE_0 = "true";
  }
  if (req.headers["content-length"]) env.CONTENT_LENGTH = req.headers["content-length"];
  if (req.headers["content-encoding"]) env.HTTP_CONTENT_ENCODING = req.headers["content-encoding"];
  if (req.headers["git-protocol"]) env.GIT_PROTOCOL = String(req.headers["git-protocol"]);

  const child = spawn("git", ["http-backend"], { env, stdio: ["pipe", "pipe", "pipe"] });
  let pending = Buffer.alloc(0);
  let headersDone = false;
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  child.stdout.on("data", (chunk: Buffer) => {
    if (headersDone) {
      res.write(chunk);
      return;
    }
    pending = Buffer.concat([pending, chunk]);
    const parsed = splitCgi(pending);
    if (!parsed) return;
    headersDone = true;
    res.statusCode = parsed.status;
    for (const [name, value] of parsed.headers) res.appendHeader(name, value);
    res.write(pending.subarray(parsed.bodyStart));
  });
  child.on("error", (error) => {
    if (!res.headersSent) fail(res, 500, `git http-backend failed: ${error.message}`);
    else res.destroy(error);
  });
  child.on("close", (code) => {
    if (!headersDone) {
      fail(res, 500, `git http-backend exited ${code} without headers: ${stderr}`);
      return;
    }
    res.end();
  });
  req.pipe(child.stdin);
  child.stdin.on("error", () => {});
  res.on("close", () => {
    if (child.exitCode === null) child.kill();
  });
}

/**
 * Start a git smart-HTTP server on 127.0.0.1 serving `GET /<name>.git/info/refs?service=git-upload-pack` and
 * `POST /<name>.git/git-upload-pack` for each configured bare repository, and with `push` the same for
 * `git-receive-pack`. Without `push` pushes are refused: the `git-receive-pack` advertisement answers 403 and its
 * POST 404; every other path 404. With `auth`, a request without those Basic credentials answers 401.
 */
export async function startGitServer(options: GitServerOptions): Promise<GitServer> {
  const repos = new Map(Object.entries(options.repos).map(([name, path]) => [name, resolve(path)]));
  const push = options.push ?? false;
  const authorizations: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.headers.authorization) authorizations.push(req.headers.authorization);
    const match = ROUTE.exec(url.pathname);
    const repoPath = match ? repos.get(match[1]) : undefined;
    if (!match || !repoPath) return fail(res, 404, "Repository not found");
    const [, , suffix] = match;
    if (suffix === "/git-receive-pack" && !push) return fail(res, 404, "Repository not found");
    if (options.auth && !basicMatches(req.headers.authorization, options.auth)) {
      res.writeHead(401, { "content-type": "text/plain", "www-authenticate": 'Basic realm="git"' });
      res.end("Authentication required\n");
      return;
    }
    if (suffix === "/info/refs") {
      if (req.method !== "GET") return fail(res, 405, "Method not allowed");
      const service = url.searchParams.get("service");
      if (service !== "git-upload-pack" && !(push && service === "git-receive-pack"))
        return fail(res, 403, "Only git-upload-pack is served");
    } else if (req.method !== "POST") {
      return fail(res, 405, "Method not allowed");
    }
    runBackend(req, res, repoPath, suffix, url.search.slice(1), push);
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    authorizations,
    close: () =>
      new Promise<void>((resolveClose, reject) => {
        server.close((error) => (error ? reject(error) : resolveClose()));
        server.closeAllConnections();
      }),
  };
}

/**
 * `git clone --bare` a working repository (e.g. Strata's own checkout) into a fresh directory under the OS temp
 * dir and return the bare repository's path. The caller removes it when done.
 */
export async function makeBareClone(srcRepoDir: string): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), "strata-git-server-"));
  const target = join(parent, `${basename(resolve(srcRepoDir)) || "repo"}.git`);
  await run("git", ["clone", "--quiet", "--bare", "--no-local", resolve(srcRepoDir), target]);
  // A source checked out at a commit (detached HEAD, as in `git bisect` or a CI job on a SHA) gives a bare clone
  // whose HEAD names no branch, which a clone cannot check out: give that commit a branch and point HEAD at it.
  const symbolic = await run("git", ["-C", target, "symbolic-ref", "-q", "HEAD"]).catch(() => undefined);
  if (!symbolic) {
    await run("git", ["-C", target, "update-ref", "refs/heads/detached-head", "HEAD"]);
    await run("git", ["-C", target, "symbolic-ref", "HEAD", "refs/heads/detached-head"]);
  }
  return target;
}

/**
 * `git init --bare` a new, empty repository (HEAD on `main`) under the OS temp dir, for tests that push to it;
 * returns its path. The caller removes its parent directory when done.
 */
export async function makeEmptyBare(name = "remote"): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), "strata-git-server-"));
  const target = join(parent, `${name}.git`);
  await run("git", ["init", "--quiet", "--bare", "--initial-branch=main", target]);
  return target;
}
