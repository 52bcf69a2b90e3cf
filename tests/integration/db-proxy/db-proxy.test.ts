/**
 * The database proxy is not an open relay (issue 9): a web page's WebSocket (it always carries Origin) is
 * refused, so is a client without the per-start secret, and it connects only to the one database it was
 * started for whatever `address` a request names. The app's own driver (no Origin, right secret) works, and
 * the two WebSockets the driver uses (the `ws` package in Node, undici in Next's edge runtime) send no Origin.
 */
import http from "node:http";
import { createRequire } from "node:module";
import net from "node:net";
import { neonConfig } from "@neondatabase/serverless";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { type DbProxy, driverProxyAddress, startDbProxy } from "../../../scripts/db-proxy.mjs";
import { nodeClientClass } from "../../../scripts/migrate.mjs";
import { setEnv } from "../../helpers/env";
import { PG_HOST, PG_PORT } from "../../helpers/postgres";

const TARGET = `${PG_HOST}:${PG_PORT}`;
const ADMIN_URL = `postgres://postgres@${TARGET}/postgres`;

interface Answer {
  status: number;
  body: string;
}

/** Open a WebSocket to `url`; resolves with the refusal (status + body), or status 101 when it opened. */
function tryUpgrade(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on("open", () => {
      ws.close();
      resolve({ status: 101, body: "" });
    });
    ws.on("unexpected-response", (_req, res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on("error", (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

/** Run one query through the Neon driver over the proxy at `endpoint`. */
async function queryThrough(endpoint: string, sql: string): Promise<unknown[]> {
  const NodeClient = nodeClientClass(endpoint);
  const client = new NodeClient({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

let proxy: DbProxy;
let decoy: net.Server;
let decoyConnections = 0;

beforeAll(async () => {
  proxy = await startDbProxy({ target: TARGET });
  decoy = net.createServer((socket) => {
    decoyConnections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => decoy.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => decoy.close(resolve));
});

describe("db proxy refusals", () => {
  it("refuses a WebSocket carrying Origin (a web page), even with the right secret: 403", async () => {
    const answer = await tryUpgrade(`ws://${proxy.address}/v1/${proxy.secret}`, {
      Origin: "http://evil.example",
    });
    expect(answer).toEqual({
      status: 403,
      body: "strata db proxy: requests from web pages (with an Origin header) are refused; only the Strata server may connect\n",
    });
  });

  it("refuses no secret, a wrong secret and the old open-relay path: 401", async () => {
    const body =
      "strata db proxy: missing or wrong secret; connect to /v1/<secret> as given in STRATA_DB_PROXY (host:port/secret)\n";
    const wrong = `${proxy.secret.slice(0, -1)}${proxy.secret.endsWith("A") ? "B" : "A"}`;
    for (const path of [
      "/v1",
      "/v1/",
      `/v1/${wrong}`,
      `/v1/${proxy.secret}x`,
      `/v1?address=${TARGET}`,
      `/${proxy.secret}/v1`,
    ]) {
      expect(await tryUpgrade(`ws://${proxy.address}${path}`)).toEqual({ status: 401, body });
    }
  });

  it("never connects to an address taken from the request: another port is refused 403, nothing reaches it", async () => {
    const other = `127.0.0.1:${(decoy.address() as net.AddressInfo).port}`;
    const answer = await tryUpgrade(`ws://${proxy.address}/v1/${proxy.secret}?address=${other}`);
    expect(answer).toEqual({
      status: 403,
      body: `strata db proxy: this proxy connects only to the database it was started for; address=${other} is not it\n`,
    });
    expect(decoyConnections).toBe(0);
  });

  it("answers plain HTTP with 404 and stays up after every refusal", async () => {
    const res = await fetch(`http://${proxy.address}/v1/${proxy.secret}`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("strata db proxy: websocket only\n");
    expect(await queryThrough(proxy.endpoint, "SELECT 41 + 1 AS n")).toEqual([{ n: 42 }]);
  });
});

describe("db proxy for the app", () => {
  it("relays the driver (right secret, no Origin) to its target, also when address names the target", async () => {
    expect(await queryThrough(proxy.endpoint, "SELECT current_database() AS db")).toEqual([
      { db: "postgres" },
    ]);
    const answer = await tryUpgrade(`ws://${proxy.address}/v1/${proxy.secret}?address=${TARGET}`);
    expect(answer.status).toBe(101);
  });

  it("has a fresh 256-bit secret per start, in an endpoint the driver config understands", async () => {
    const second = await startDbProxy({ target: TARGET });
    try {
      expect(proxy.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(second.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(second.secret).not.toBe(proxy.secret);
      expect(proxy.address).toBe(`127.0.0.1:${proxy.port}`);
      expect(proxy.endpoint).toBe(`127.0.0.1:${proxy.port}/${proxy.secret}`);
      expect(driverProxyAddress(proxy.endpoint)).toBe(`127.0.0.1:${proxy.port}/v1/${proxy.secret}`);
      // One proxy's secret does not open another.
      const crossed = await tryUpgrade(`ws://${second.address}/v1/${proxy.secret}`);
      expect(crossed.status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it("listens on loopback only and needs a host:port target", async () => {
    await expect(startDbProxy({ target: TARGET, host: "0.0.0.0" })).rejects.toThrow(
      'startDbProxy: host must be a loopback address (127.0.0.1 or ::1), got "0.0.0.0"; the proxy must never be reachable from another machine',
    );
    await expect(startDbProxy({ target: TARGET, host: "192.168.1.10" })).rejects.toThrow(
      "startDbProxy: host must be a loopback address",
    );
    await expect(startDbProxy({ target: "127.0.0.1" })).rejects.toThrow(
      'startDbProxy: target must be "host:port" of the one database the proxy serves (got "127.0.0.1")',
    );
  });

  it("the app's driver config refuses a STRATA_DB_PROXY without a secret, naming the fix", async () => {
    const expected =
      "STRATA_DB_PROXY must be host:port/secret as handed over by the process that started the database proxy (npm start, the test helpers, the CLI); a bare host:port is not accepted.";
    const { DbScope } = await import("@/lib/db/client");
    const restore = setEnv({ STRATA_DB_PROXY: proxy.address });
    try {
      await expect(new DbScope(ADMIN_URL).query("SELECT 1")).rejects.toThrow(expected);
    } finally {
      restore();
    }
    const scope = new DbScope(ADMIN_URL);
    expect(await scope.query("SELECT 7 AS n")).toEqual([{ n: 7 }]);
    await scope.release();
    // One reading of the value for the app and the scripts: the same message from both.
    expect(() => driverProxyAddress(proxy.address)).toThrow(expected);
  });
});

describe("the driver's WebSockets send no Origin (so the proxy's Origin refusal never hits the app)", () => {
  let server: http.Server;
  let seen: http.IncomingHttpHeaders[] = [];
  let url = "";
  beforeAll(async () => {
    server = http.createServer();
    server.on("upgrade", (req, socket) => {
      seen.push(req.headers);
      socket.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `ws://127.0.0.1:${(server.address() as net.AddressInfo).port}/v1/probe`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** Until the server has seen the upgrade request (the wait is only a hang detector). */
  const waitForHandshake = () =>
    vi.waitFor(() => expect(seen.length).toBeGreaterThan(0), { timeout: 20_000, interval: 10 });

  it("Node: the ws package", async () => {
    seen = [];
    expect(neonConfig.webSocketConstructor).toBe(WebSocket);
    const ws = new WebSocket(url);
    ws.on("error", () => undefined);
    await waitForHandshake();
    expect(seen).toHaveLength(1);
    expect(seen[0].origin).toBeUndefined();
  });

  it("Next's edge runtime: its global WebSocket", async () => {
    seen = [];
    const require = createRequire(import.meta.url);
    const { EdgeRuntime } = require("next/dist/compiled/edge-runtime") as {
      EdgeRuntime: new () => { evaluate(code: string): unknown };
    };
    new EdgeRuntime().evaluate(`new WebSocket(${JSON.stringify(url)}).onerror = () => {};`);
    await waitForHandshake();
    expect(seen).toHaveLength(1);
    expect(seen[0]["user-agent"]).toBe("undici");
    expect(seen[0].origin).toBeUndefined();
  });
});
