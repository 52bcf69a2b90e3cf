// Local WebSocket→TCP proxy for @neondatabase/serverless against a plain Postgres (or the embedded
// PGlite socket). Serves `/v1?address=host:port`; only addresses in the allow-list are reachable.
import http from "node:http";
import net from "node:net";
import { WebSocketServer } from "ws";

/**
 * Start the proxy. `allow` = allowed "host:port" strings. Returns { port, close }.
 * @param {{ port?: number, host?: string, allow: string[] }} options
 */
export async function startDbProxy({ port = 0, host = "127.0.0.1", allow }) {
  const allowed = new Set(allow);
  const server = http.createServer((_req, res) => {
    res.writeHead(404).end("strata db proxy: websocket only\n");
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url ?? "/", "http://x");
    const address = url.searchParams.get("address") ?? "";
    if (url.pathname !== "/v1" || !allowed.has(address)) {
      socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const i = address.lastIndexOf(":");
      const tcp = net.connect(Number(address.slice(i + 1)), address.slice(0, i));
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
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const actual = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  return {
    port: actual,
    address: `${host}:${actual}`,
    close: () =>
      new Promise((resolve) => {
        for (const c of wss.clients) c.terminate();
        server.close(() => resolve(undefined));
        server.closeAllConnections?.();
      }),
  };
}
