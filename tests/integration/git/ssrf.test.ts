/**
 * Git import SSRF (issue 9): the guarded transport (lib/net/git-http.ts) end to end, through `cloneRepository`
 * into the Postgres-backed VFS, against real loopback servers: the git smart-HTTP server, a server that counts
 * what reaches it, one that never answers, a redirector and a closed port. Every refused or unreachable
 * destination answers the one generic text, nothing reaches the refused server, and nothing is left in the VFS.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createGitImportHttp,
  GIT_IMPORT_UNREACHABLE,
  type GitImportNetPolicy,
  GitImportUnreachableError,
  type ResolvedAddress,
} from "@/lib/net/git-http";
import { cloneRepository } from "@/lib/vfs/git";
import { type GitServer, makeBareClone, startGitServer } from "../../git-server";
import { createTestVfs } from "../../helpers/vfs";

const run = promisify(execFile);
let git: GitServer;
let gitPort: number;
let bare: string;
/** Answers 200 text/plain to anything and records what reached it. */
let counter: Server;
let counterPort: number;
const reached: { url: string; headers: IncomingHttpHeaders }[] = [];
/** Accepts connections and never answers. */
let silent: Server;
let silentPort: number;
/** Answers a ref advertisement whose first pkt-line announces 65,520 bytes, then sends one byte every 50 ms. */
let dribble: Server;
let dribblePort: number;
/** `/to/<port>/<rest>` → 302 to http://127.0.0.1:<port>/<rest>; `/name/<port>/<rest>` → git.example.test; `/loop/...` → itself. */
let redirector: Server;
let redirectorPort: number;
let closedPort: number;

async function listen(server: Server | HttpsServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location });
  res.end();
}

beforeAll(async () => {
  bare = await makeBareClone(process.cwd());
  git = await startGitServer({ repos: { strata: bare } });
  gitPort = Number(new URL(git.url).port);
  counter = createServer((req, res) => {
    reached.push({ url: req.url ?? "", headers: req.headers });
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("not git\n");
  });
  counterPort = await listen(counter);
  silent = createServer(() => {});
  silentPort = await listen(silent);
  dribble = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/x-git-upload-pack-advertisement" });
    res.write("fff0");
    const timer = setInterval(() => res.write("a"), 50);
    res.on("close", () => clearInterval(timer));
  });
  dribblePort = await listen(dribble);
  redirector = createServer((req, res) => {
    const url = req.url ?? "/";
    const to = /^\/to\/(\d+)(\/.*)$/.exec(url);
    if (to) return redirect(res, `http://127.0.0.1:${to[1]}${to[2]}`);
    const name = /^\/name\/(\d+)(\/.*)$/.exec(url);
    if (name) return redirect(res, `http://git.example.test:${name[1]}${name[2]}`);
    if (url.startsWith("/decimal/")) return redirect(res, `http://2130706433:${counterPort}/x.git`);
    if (url.startsWith("/metadata/")) return redirect(res, "http://169.254.169.254/latest/meta-data/");
    if (url.startsWith("/file/")) return redirect(res, "file:///etc/passwd");
    if (url.startsWith("/loop/")) return redirect(res, url);
    res.writeHead(404);
    res.end();
  });
  redirectorPort = await listen(redirector);
  const probe = createServer();
  closedPort = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
}, 120_000);

afterAll(async () => {
  await git?.close();
  for (const s of [counter, silent, dribble, redirector]) {
    s?.closeAllConnections();
    await new Promise((resolve) => s?.close(resolve));
  }
  if (bare) await rm(dirname(bare), { recursive: true, force: true });
});

type T = Awaited<ReturnType<typeof createTestVfs>>;
let t: T;
beforeEach(async () => {
  t = await createTestVfs();
  reached.length = 0;
});
afterEach(async () => {
  await t.cleanup();
});

/** A resolver for names only these tests know; records every name it was asked for. */
function fakeDns(table: Record<string, string[] | ((call: number) => string[])>) {
  const asked: string[] = [];
  const resolve = async (host: string): Promise<ResolvedAddress[]> => {
    asked.push(host);
    const entry = table[host];
    const found = typeof entry === "function" ? entry(asked.filter((h) => h === host).length) : entry;
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { asked, resolve };
}

/** A resolver that must not be asked (refusals of IP literals and local names happen before any lookup). */
const noDns = fakeDns({});

/** Clone `url` into /p; resolves with the error message, or "cloned" with the README's first line. */
async function clone(url: string, policy: GitImportNetPolicy): Promise<string> {
  try {
    await cloneRepository(t.fs, "/p", url, { http: createGitImportHttp(policy) });
    return `cloned: ${(await t.fs.readText("/p/AGENTS.md")).split("\n")[0]}`;
  } catch (error) {
    return (error as Error).message;
  }
}

const allowOnly =
  (...ports: number[]) =>
  (address: string, port: number) =>
    address === "127.0.0.1" && ports.includes(port);

describe("git import: loopback and local destinations refused by default", () => {
  it("refuses every loopback form of the counting server with the generic text; nothing reaches it, nothing is kept", async () => {
    const urls = [
      `http://127.0.0.1:${counterPort}/x.git`,
      `http://127.9.9.9:${counterPort}/x.git`,
      `http://2130706433:${counterPort}/x.git`,
      `http://0x7f.1:${counterPort}/x.git`,
      `http://0177.0.0.1:${counterPort}/x.git`,
      `http://[::1]:${counterPort}/x.git`,
      `http://[::ffff:127.0.0.1]:${counterPort}/x.git`,
      `http://localhost:${counterPort}/x.git`,
      `http://git.localhost:${counterPort}/x.git`,
      `http://0.0.0.0:${counterPort}/x.git`,
    ];
    const results: string[] = [];
    for (const url of urls) results.push(await clone(url, { resolve: noDns.resolve }));
    expect(results).toEqual(urls.map(() => GIT_IMPORT_UNREACHABLE));
    expect(reached).toEqual([]);
    expect(noDns.asked).toEqual([]);
    expect(await t.fs.exists("/p")).toBe(false);
  });

  it("answers the same text for a closed port, with or without the setting (no port scan)", async () => {
    const url = `http://127.0.0.1:${closedPort}/x.git`;
    expect(await clone(url, {})).toBe(GIT_IMPORT_UNREACHABLE);
    expect(await clone(url, { allowPrivate: true })).toBe(GIT_IMPORT_UNREACHABLE);
    // The same server answering as a non-git server keeps its specific message: it was reached.
    expect(await clone(`http://127.0.0.1:${counterPort}/x.git`, { allowPrivate: true })).toBe(
      `Cannot clone http://127.0.0.1:${counterPort}/x.git: the server did not answer as a git smart-HTTP server`,
    );
    expect(await t.fs.exists("/p")).toBe(false);
  });

  it("answers the same text for a server that never answers (timeout)", async () => {
    expect(await clone(`http://127.0.0.1:${silentPort}/x.git`, { allowPrivate: true, timeoutMs: 300 })).toBe(
      GIT_IMPORT_UNREACHABLE,
    );
    expect(await t.fs.exists("/p")).toBe(false);
  });

  it("bounds the whole import: a server dribbling under the idle timeout hits the deadline", async () => {
    // The deadline leaves the local server ample time to answer (before an answer it reads as unreachable, below);
    // the dribble never ends, so only the deadline stops the transfer.
    expect(
      await clone(`http://127.0.0.1:${dribblePort}/x.git`, {
        allowPrivate: true,
        deadlineMs: 2000,
        timeoutMs: 10_000,
      }),
    ).toBe(
      `Cannot clone http://127.0.0.1:${dribblePort}/x.git: the transfer took longer than 2 s (the limit for one import); try again later, or import an archive of the repository`,
    );
    // Before any answer the deadline is the generic text, like a closed port.
    expect(
      await clone(`http://127.0.0.1:${silentPort}/x.git`, {
        allowPrivate: true,
        deadlineMs: 300,
        timeoutMs: 10_000,
      }),
    ).toBe(GIT_IMPORT_UNREACHABLE);
    expect(await t.fs.exists("/p")).toBe(false);
  });

  it("answers the same text for a name that does not resolve", async () => {
    const dns = fakeDns({});
    expect(await clone(`http://nowhere.example.test:${gitPort}/strata.git`, { resolve: dns.resolve })).toBe(
      GIT_IMPORT_UNREACHABLE,
    );
    expect(
      await clone(`http://nowhere.example.test:${gitPort}/strata.git`, {
        resolve: dns.resolve,
        allowPrivate: true,
      }),
    ).toBe(GIT_IMPORT_UNREACHABLE);
    expect(dns.asked).toEqual(["nowhere.example.test", "nowhere.example.test"]);
  });

  it("refuses a public-looking name that resolves to loopback, checked after resolution", async () => {
    const dns = fakeDns({ "git.example.test": ["127.0.0.1"], "dual.example.test": ["::1", "127.0.0.1"] });
    expect(await clone(`http://git.example.test:${counterPort}/x.git`, { resolve: dns.resolve })).toBe(
      GIT_IMPORT_UNREACHABLE,
    );
    expect(await clone(`http://dual.example.test:${counterPort}/x.git`, { resolve: dns.resolve })).toBe(
      GIT_IMPORT_UNREACHABLE,
    );
    expect(dns.asked).toEqual(["git.example.test", "dual.example.test"]);
    expect(reached).toEqual([]);
  });

  it("connects to the address that was checked (pinned), and re-checks every connection (rebinding mid-clone)", async () => {
    // git.example.test is known only to this resolver: the clone works only if the socket used its answer.
    const pinned = fakeDns({ "git.example.test": ["127.0.0.1"] });
    expect(
      await clone(`http://git.example.test:${gitPort}/strata.git`, {
        resolve: pinned.resolve,
        allowAddress: allowOnly(gitPort),
      }),
    ).toBe("cloned: # Working on Strata");
    // One lookup per request (info/refs, then git-upload-pack): no connection is reused without a check.
    expect(pinned.asked).toEqual(["git.example.test", "git.example.test"]);

    const t2 = await createTestVfs();
    try {
      // The second lookup answers another loopback address, which is not allowed: the clone stops there.
      const rebind = fakeDns({ "git.example.test": (n) => (n === 1 ? ["127.0.0.1"] : ["127.0.0.2"]) });
      await expect(
        cloneRepository(t2.fs, "/p", `http://git.example.test:${gitPort}/strata.git`, {
          http: createGitImportHttp({ resolve: rebind.resolve, allowAddress: allowOnly(gitPort) }),
        }),
      ).rejects.toThrow(GIT_IMPORT_UNREACHABLE);
      expect(rebind.asked).toEqual(["git.example.test", "git.example.test"]);
      expect(await t2.fs.exists("/p")).toBe(false);
    } finally {
      await t2.cleanup();
    }
  });

  it("imports from the loopback git server with the setting on (STRATA_GIT_IMPORT_ALLOW_PRIVATE)", async () => {
    expect(await clone(`${git.url}/strata.git`, { allowPrivate: true })).toBe("cloned: # Working on Strata");
  });
});

describe("git import: every redirect hop is checked", () => {
  // The redirector (first hop) is allowed by its exact address and port; where it sends the clone is not.
  const first = () => allowOnly(redirectorPort);

  it("refuses a redirect to a loopback address, a decimal loopback form, the metadata address and file:", async () => {
    const urls = [
      `http://127.0.0.1:${redirectorPort}/to/${counterPort}/x.git`,
      `http://127.0.0.1:${redirectorPort}/decimal/x.git`,
      `http://127.0.0.1:${redirectorPort}/metadata/x.git`,
      `http://127.0.0.1:${redirectorPort}/file/x.git`,
    ];
    const results: string[] = [];
    for (const url of urls) results.push(await clone(url, { allowAddress: first(), resolve: noDns.resolve }));
    expect(results).toEqual(urls.map(() => GIT_IMPORT_UNREACHABLE));
    expect(reached).toEqual([]);
    expect(await t.fs.exists("/p")).toBe(false);
  });

  it("refuses a redirect to a name that resolves to loopback", async () => {
    const dns = fakeDns({ "git.example.test": ["127.0.0.1"] });
    expect(
      await clone(`http://127.0.0.1:${redirectorPort}/name/${counterPort}/x.git`, {
        allowAddress: first(),
        resolve: dns.resolve,
      }),
    ).toBe(GIT_IMPORT_UNREACHABLE);
    expect(dns.asked).toEqual(["git.example.test"]);
    expect(reached).toEqual([]);
  });

  it("follows a redirect to an allowed destination, without the credentials when the origin changes", async () => {
    expect(
      await clone(`http://127.0.0.1:${redirectorPort}/to/${gitPort}/strata.git`, {
        allowAddress: allowOnly(redirectorPort, gitPort),
      }),
    ).toBe("cloned: # Working on Strata");

    const t2 = await createTestVfs();
    try {
      await expect(
        cloneRepository(
          t2.fs,
          "/p",
          `http://alice:s3cret@127.0.0.1:${redirectorPort}/to/${counterPort}/private.git`,
          { http: createGitImportHttp({ allowAddress: allowOnly(redirectorPort, counterPort) }) },
        ),
      ).rejects.toThrow(
        `Cannot clone http://127.0.0.1:${redirectorPort}/to/${counterPort}/private.git: the server did not answer as a git smart-HTTP server`,
      );
      expect(reached.map((r) => [r.url, r.headers.authorization])).toEqual([
        ["/private.git/info/refs?service=git-upload-pack", undefined],
      ]);
    } finally {
      await t2.cleanup();
    }
  });

  it("stops after 5 redirects", async () => {
    expect(await clone(`http://127.0.0.1:${redirectorPort}/loop/x.git`, { allowAddress: first() })).toBe(
      `Cannot clone http://127.0.0.1:${redirectorPort}/loop/x.git: more than 5 redirects`,
    );
  });
});

describe("git import over https", () => {
  let tls: HttpsServer;
  let tlsPort: number;
  let dir: string;
  const connections: string[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "strata-ssrf-tls-"));
    await run("openssl", [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=git.example.test"],
      ...["-addext", "subjectAltName=DNS:git.example.test"],
      ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
    ]);
    tls = createHttpsServer(
      { key: await readFile(join(dir, "key.pem")), cert: await readFile(join(dir, "cert.pem")) },
      (_req, res) => res.end("unexpected"),
    );
    tls.on("connection", (socket: Socket) => connections.push(socket.remoteAddress ?? ""));
    tlsPort = await listen(tls);
  });
  afterAll(async () => {
    tls?.closeAllConnections();
    await new Promise((resolve) => tls?.close(resolve));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("resolves through the checked lookup too, and a TLS failure (untrusted certificate) is the generic text", async () => {
    const dns = fakeDns({ "git.example.test": ["127.0.0.1"] });
    const url = `https://git.example.test:${tlsPort}/strata.git`;
    expect(await clone(url, { resolve: dns.resolve })).toBe(GIT_IMPORT_UNREACHABLE);
    expect(connections).toEqual([]);
    expect(await clone(url, { resolve: dns.resolve, allowAddress: allowOnly(tlsPort) })).toBe(
      GIT_IMPORT_UNREACHABLE,
    );
    // The second attempt connected to the TLS server at the resolver's address (pinned) and failed its handshake.
    expect(dns.asked).toEqual(["git.example.test", "git.example.test"]);
    expect(connections).toEqual(["127.0.0.1"]);
    expect(await t.fs.exists("/p")).toBe(false);
    // What the generic text stands for here (kept on the error for the server, never sent to the client).
    const direct = createGitImportHttp({ resolve: dns.resolve, allowAddress: allowOnly(tlsPort) });
    const failure = await direct.request({ url: `${url}/info/refs?service=git-upload-pack` }).catch((e) => e);
    expect([failure instanceof GitImportUnreachableError, failure.message, failure.detail]).toEqual([
      true,
      GIT_IMPORT_UNREACHABLE,
      "request failed: DEPTH_ZERO_SELF_SIGNED_CERT",
    ]);
  });
});

describe("git import: abort", () => {
  it("stops a transfer in progress when the caller aborts", async () => {
    const controller = new AbortController();
    const url = `http://127.0.0.1:${dribblePort}/x.git`;
    const cloning = cloneRepository(t.fs, "/p", url, {
      http: createGitImportHttp({ allowPrivate: true }),
      signal: controller.signal,
    });
    // Aborted while the transfer is in progress: once the dribbling server is answering this request.
    dribble.once("request", () => setImmediate(() => controller.abort()));
    await expect(cloning).rejects.toThrow(`Clone of ${url} was aborted`);
    expect(await t.fs.exists("/p")).toBe(false);
  });
});

describe("git import: response size", () => {
  it("refuses a response over maxResponseBytes with the limit, keeping nothing", async () => {
    expect(await clone(`${git.url}/strata.git`, { allowPrivate: true, maxResponseBytes: 100 })).toBe(
      `Cannot clone ${git.url}/strata.git: the server sent more than 100 bytes in one response (the limit is 100 bytes); import a smaller repository or an archive of it`,
    );
    expect(await t.fs.exists("/p")).toBe(false);
    // The ref advertisement fits in 64 KiB, the pack (over 1 MiB) does not: the clone fails, nothing is kept.
    expect(await clone(`${git.url}/strata.git`, { allowPrivate: true, maxResponseBytes: 65536 })).toBe(
      `Cannot clone ${git.url}/strata.git: the server sent more than 65536 bytes in one response (the limit is 65536 bytes); import a smaller repository or an archive of it`,
    );
    expect(await t.fs.exists("/p")).toBe(false);
  });
});
