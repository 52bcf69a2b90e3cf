/**
 * The "Strata is building…" placeholder (scripts/building-page.mjs) that `npm start` serves on the port
 * during `next build`: 503 + Retry-After 5 with the page (or JSON for /api/*), 421 for a Host the app does
 * not answer to, and close() frees the port for `next start`.
 */
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { allowedHostNames, startBuildingPage } from "../../../scripts/building-page.mjs";

const REASON = "the sources changed since the last build";
const TEXT =
  "Strata is building… (the sources changed since the last build) — this page reloads itself; the terminal shows the progress";
const API_MESSAGE =
  "Strata is building (the sources changed since the last build); retry in 5 seconds. The terminal running npm start shows the progress.";

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});

async function start(env: Record<string, string> = {}) {
  const page = await startBuildingPage({ port: 0, host: "127.0.0.1", reason: REASON, env });
  closers.push(page.close);
  return page;
}

/** A raw HTTP/1.1 GET with a chosen Host header (fetch does not let one set Host). */
function rawGet(port: number, pathname: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () =>
      socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    );
    let data = "";
    socket.on("data", (chunk) => {
      data += chunk;
    });
    socket.on("error", reject);
    socket.on("end", () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1]);
      resolve({ status, body: data.slice(data.indexOf("\r\n\r\n") + 4) });
    });
  });
}

describe("building page", () => {
  it("answers / with 503, Retry-After 5 and the self-reloading page", async () => {
    const { port } = await start();
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    expect(/<p>(.*)<\/p>/.exec(html)?.[1]).toBe(TEXT);
    expect(html).toContain('<meta http-equiv="refresh" content="5">');
    expect(html).not.toContain("<script");
    expect(html).not.toMatch(/(src|href)=/);
    const deep = await fetch(`http://localhost:${port}/projects/abc?x=1`);
    expect(deep.status).toBe(503);
    expect(await deep.text()).toBe(html);
  });

  it("answers /api/* with the building JSON", async () => {
    const { port } = await start();
    const response = await fetch(`http://127.0.0.1:${port}/api/config`);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.text()).toBe(JSON.stringify({ error: { code: "building", message: API_MESSAGE } }));
  });

  it("refuses a Host the app does not answer to with 421, and answers STRATA_ALLOWED_HOSTS names", async () => {
    const { port } = await start({ STRATA_ALLOWED_HOSTS: "devbox.lan, Strata.Example.com." });
    const bad = await rawGet(port, "/", "attacker.example");
    expect(bad.status).toBe(421);
    expect(JSON.parse(bad.body).error.code).toBe("host_not_allowed");
    expect(JSON.parse(bad.body).error.message).toMatch(
      /^Host "attacker.example" is not a name this Strata answers to/,
    );
    expect((await rawGet(port, "/", `devbox.lan:${port}`)).status).toBe(503);
    expect((await rawGet(port, "/", "strata.example.com")).status).toBe(503);
    expect((await rawGet(port, "/", `[::1]:${port}`)).status).toBe(503);
    expect((await rawGet(port, "/", "user@localhost")).status).toBe(421);
  });

  it("allows loopback, HOST (not a wildcard) and STRATA_ALLOWED_HOSTS", () => {
    expect([...allowedHostNames({ HOST: "0.0.0.0" })]).toEqual(["127.0.0.1", "localhost", "[::1]"]);
    expect([...allowedHostNames({ HOST: "192.168.1.20", STRATA_ALLOWED_HOSTS: "a.lan,,fe80::1" })]).toEqual([
      "127.0.0.1",
      "localhost",
      "[::1]",
      "192.168.1.20",
      "a.lan",
      "[fe80::1]",
    ]);
  });

  it("close() frees the port (also with a kept-alive connection) so another server can listen on it", async () => {
    const page = await start();
    const keptAlive = net.connect(page.port, "127.0.0.1");
    await new Promise((resolve) => keptAlive.once("connect", resolve));
    keptAlive.write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    await new Promise((resolve) => keptAlive.once("data", resolve));
    await page.close();
    const next = net.createServer();
    await new Promise<void>((resolve, reject) => {
      next.once("error", reject);
      next.listen(page.port, "127.0.0.1", () => resolve());
    });
    await new Promise((resolve) => next.close(resolve));
    keptAlive.destroy();
  });

  it("says the port is in use, with the fix, when something listens on it", async () => {
    const page = await start();
    await expect(
      startBuildingPage({ port: page.port, host: "127.0.0.1", reason: REASON, env: {} }),
    ).rejects.toThrow(
      `127.0.0.1:${page.port} is already in use. Start on another port: PORT=${page.port + 1} npm start`,
    );
  });
});
