// Local WebSocket→TCP proxy for @neondatabase/serverless against a plain Postgres (or the embedded
// PGlite socket). It is not an open relay:
// - it connects only to the one `target` it was started for (an `address` query parameter, which the Neon
//   driver may send, must equal it or the upgrade is refused);
// - every upgrade must carry the per-start random secret in its path (`/v1/<secret>`), compared in constant
//   time; only the process that started the proxy knows it (it hands it to the app in STRATA_DB_PROXY);
// - an upgrade carrying an `Origin` header is refused: browsers always send one on a WebSocket handshake,
//   while the Neon driver's WebSocket in Node (`ws`) and in Next's edge runtime (undici) send none;
// - it listens on a loopback address only.
import crypto from "node:crypto";
import http from "node:http";
import net from "node:net";
import { WebSocketServer } from "ws";

/** Bytes of the per-start secret (256 bits), sent base64url-encoded (43 characters). */
const SECRET_BYTES = 32;

/** True for 127.0.0.0/8 and ::1 literals (the only addresses the proxy may listen on). */
function isLoopbackHost(host) {
  if (host === "::1" || host === "[::1]") return true;
  return net.isIPv4(host) && host.split(".")[0] === "127";
}

/** "host:port" → { host, port }; throws with the expected shape when it is not one. */
function parseTarget(target) {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:/\s]+):(\d{1,5})$/.exec(String(target ?? ""));
  const port = match ? Number(match[2]) : 0;
  if (!match || port < 1 || port > 65535) {
    throw new Error(
      `startDbProxy: target must be "host:port" of the one database the proxy serves (got ${JSON.stringify(target)})`,
    );
  }
  return { host: match[1].replace(/^\[|\]$/g, ""), port };
}

/** Refuse an upgrade with an HTTP status and a one-line text body, then close the socket. */
function refuse(socket, status, reason, text) {
  const body = `strata db proxy: ${text}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Constant-time comparison of two strings (false when their lengths differ; the length is not secret). */
function sameSecret(given, expected) {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/**
 * Why an upgrade request is refused, or undefined when it may be relayed to the target.
 * @param {import('node:http').IncomingMessage} req
 * @param {{ secret: string, target: string }} expected
 * @returns {{ status: number, reason: string, text: string } | undefined}
 */
export function checkUpgrade(req, { secret, target }) {
  if (req.headers.origin !== undefined) {
    return {
      status: 403,
      reason: "Forbidden",
      text: "requests from web pages (with an Origin header) are refused; only the Strata server may connect",
    };
  }
  const url = new URL(req.url ?? "/", "http://proxy.invalid");
  const match = /^\/v1\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
  if (!match || !sameSecret(match[1], secret)) {
    return {
      status: 401,
      reason: "Unauthorized",
      text: "missing or wrong secret; connect to /v1/<secret> as given in STRATA_DB_PROXY (host:port/secret)",
    };
  }
  const address = url.searchParams.get("address");
  if (address !== null && address !== target) {
    return {
      status: 403,
      reason: "Forbidden",
      text: `this proxy connects only to the database it was started for; address=${address} is not it`,
    };
  }
  return undefined;
}

/**
 * Start the proxy in front of one database.
 * @param {{ target: string, port?: number, host?: string }} options `target` = "host:port" of the database
 *   (the only address ever connected to); `port` to listen on (default 0 = any free port); `host` = a
 *   loopback address to listen on (default 127.0.0.1).
 * @returns {Promise<{ port: number, address: string, secret: string, endpoint: string, close(): Promise<void> }>}
 *   `address` = "host:port" it listens on (safe to log); `secret` = 43 base64url characters (256 random bits);
 *   `endpoint` = "host:port/secret", the value for STRATA_DB_PROXY (keep it out of logs).
 * @throws Error when `target` is not "host:port" or `host` is not a loopback address.
 */
export async function startDbProxy({ target, port = 0, host = "127.0.0.1" }) {
  const to = parseTarget(target);
  if (!isLoopbackHost(host)) {
    throw new Error(
      `startDbProxy: host must be a loopback address (127.0.0.1 or ::1), got ${JSON.stringify(host)}; the proxy must never be reachable from another machine`,
    );
  }
  const secret = crypto.randomBytes(SECRET_BYTES).toString("base64url");
  const server = http.createServer((_req, res) => {
    res
      .writeHead(404, { "Content-Type": "text/plain; charset=utf-8" })
      .end("strata db proxy: websocket only\n");
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    socket.on("error", () => socket.destroy());
    const refusal = checkUpgrade(req, { secret, target });
    if (refusal) {
      refuse(socket, refusal.status, refusal.reason, refusal.text);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => relay(ws, to));
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const actual = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  const address = `${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${actual}`;
  return {
    port: actual,
    address,
    secret,
    endpoint: `${address}/${secret}`,
    close: () =>
      new Promise((resolve) => {
        for (const c of wss.clients) c.terminate();
        server.close(() => resolve(undefined));
        server.closeAllConnections?.();
      }),
  };
}

/** Pipe one WebSocket to a new TCP connection to the target and back. */
function relay(ws, to) {
  const tcp = net.connect(to.port, to.host);
  tcp.setNoDelay(true);
  const pending = [];
  let open = false;
  tcp.on("connect", () => {
    open = true;
    for (const chunk of pending) tcp.write(chunk);
    pending.length = 0;
  });
  ws.on("message", (data) => {
    const buf = Buffer.isBuffer(data) ? data : Buffer.from(/** @type {ArrayBuffer} */ (data));
    // A Terminate message ('X', length 4): pass it on and close our side, since some servers
    // (pglite-socket) keep the socket open, and the client waits for the close.
    const terminate = buf.length === 5 && buf[0] === 0x58 && buf.readInt32BE(1) === 4;
    if (!open) pending.push(buf);
    else if (terminate) tcp.end(buf);
    else tcp.write(buf);
  });
  tcp.on("data", (data) => ws.readyState === ws.OPEN && ws.send(data));
  const done = () => {
    tcp.destroy();
    if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close();
  };
  tcp.on("error", done);
  tcp.on("close", done);
  ws.on("close", done);
  ws.on("error", done);
}

export { driverProxyAddress } from "../lib/db/proxy-address.mjs";
