/**
 * The web boundary against the built app (issue 9): a page on another origin cannot drive Strata (a
 * cross-origin text/plain POST of a !command is refused 403 and writes nothing), a foreign Host (DNS
 * rebinding) is refused 421, every page and API answer carries the security headers, and the IDE — Monaco
 * and its TypeScript worker included — runs under the CSP without a single violation or console error.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { uniqueName } from "./helpers";
import { E2E_APP_PORT, E2E_APP_URL, E2E_STORAGE_STATE } from "./ports";

const WHO =
  "State-changing requests (POST, PUT, PATCH, DELETE) are accepted only from Strata's own pages, or from clients that send neither Origin nor Sec-Fetch-Site (curl, scripts, the strata CLI).";
const CROSS_SITE = {
  code: "cross_origin",
  message: `Cross-site request refused: Sec-Fetch-Site is "cross-site", not "same-origin". ${WHO}`,
};
const EVIL = "http://evil.example";

/** The signed-in local owner's `Cookie` header (the storage state tests/e2e/global-setup.ts saved). */
function ownerCookie(): string {
  const state = JSON.parse(fs.readFileSync(E2E_STORAGE_STATE, "utf8")) as {
    cookies: { name: string; value: string }[];
  };
  return state.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

/** One request with node:http, so that `Host` can be set freely (as the signed-in local owner with `cookie`). */
function rawGet(path: string, host: string, cookie?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: E2E_APP_PORT,
        path,
        method: "GET",
        headers: cookie ? { host, cookie } : { host },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Another site on this machine: a page served from `http://localhost:<free port>`. */
async function evilPage(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>evil</title><p>hello</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One exchange as it crossed the wire: the browser's own request headers and the server's answer. */
interface WireExchange {
  requestHeaders: Record<string, string>;
  status: number;
  responseHeaders: Record<string, string>;
}

/**
 * Record what really crosses the wire, through the DevTools protocol (also for answers the page may not
 * read); `exchange(url)` waits for the exchange of a request to `url`.
 */
async function watchWire(page: Page): Promise<{ exchange(url: string): Promise<WireExchange> }> {
  const cdp = await page.context().newCDPSession(page);
  const urls = new Map<string, string>();
  const sent = new Map<string, Record<string, string>>();
  const answered = new Map<string, { status: number; headers: Record<string, string> }>();
  cdp.on("Network.requestWillBeSent", (e) => urls.set(e.requestId, e.request.url));
  cdp.on("Network.requestWillBeSentExtraInfo", (e) =>
    sent.set(e.requestId, e.headers as Record<string, string>),
  );
  cdp.on("Network.responseReceivedExtraInfo", (e) =>
    answered.set(e.requestId, {
      status: e.statusCode,
      headers: Object.fromEntries(Object.entries(e.headers).map(([k, v]) => [k.toLowerCase(), String(v)])),
    }),
  );
  await cdp.send("Network.enable");
  return {
    async exchange(url) {
      for (let i = 0; i < 100; i++) {
        for (const [id, u] of urls) {
          const answer = answered.get(id);
          if (u === url && answer && sent.has(id)) {
            return {
              requestHeaders: sent.get(id) ?? {},
              status: answer.status,
              responseHeaders: answer.headers,
            };
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no exchange with ${url} was seen (requests: ${[...urls.values()].join(", ")})`);
    },
  };
}

/** A project (zip upload through the API) and a session in it. */
async function projectWithSession(request: import("@playwright/test").APIRequestContext) {
  const name = uniqueName("boundary");
  const { zipSync, strToU8 } = await import("fflate");
  const zip = zipSync({ [`${name}/README.md`]: strToU8("# boundary\n") });
  const created = await request.post("/api/projects", {
    multipart: { file: { name: `${name}.zip`, mimeType: "application/zip", buffer: Buffer.from(zip) } },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { project: { id: string } }).project.id;
  const session = await request.post(`/api/projects/${projectId}/sessions`, { data: {} });
  expect(session.status()).toBe(201);
  const sessionId = ((await session.json()) as { session: { id: string } }).session.id;
  return { projectId, sessionId };
}

const expectSecurityHeaders = (headers: Record<string, string>) => {
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("no-referrer");
};

test("a cross-origin text/plain POST of a !command is refused 403 and writes nothing", async ({
  request,
  page,
}) => {
  const { projectId, sessionId } = await projectWithSession(request);
  const prompt = `/api/sessions/${sessionId}/prompt`;
  const body = JSON.stringify({ text: "!echo pwned > pwned.txt" });

  // As the browser sends it from another site (no preflight: text/plain is a "simple" request).
  const refused = await request.post(prompt, {
    headers: { Origin: EVIL, "Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain" },
    data: body,
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ error: CROSS_SITE });
  expectSecurityHeaders(refused.headers());

  // The same from a real page on another origin. Chromium itself blocks a public page's requests to
  // loopback (Local Network Access), so the attacker is another local origin, which it lets through. The
  // browser sends the request; Strata refuses it, and its Cross-Origin-Resource-Policy keeps even the
  // refusal from being read by the page.
  const evil = await evilPage();
  try {
    await page.goto(`${evil.origin}/`);
    const wire = await watchWire(page);
    const outcome = await page.evaluate(
      ({ url, text }) =>
        fetch(url, {
          method: "POST",
          mode: "no-cors",
          headers: { "Content-Type": "text/plain" },
          body: text,
        }).then(
          (r) => r.type,
          (e: Error) => e.message,
        ),
      { url: `${E2E_APP_URL}${prompt}`, text: body },
    );
    expect(outcome).toBe("Failed to fetch");
    const exchange = await wire.exchange(`${E2E_APP_URL}${prompt}`);
    expect(exchange.requestHeaders.Origin).toBe(evil.origin);
    expect(exchange.requestHeaders["Sec-Fetch-Site"]).toBe("cross-site");
    expect(exchange.status).toBe(403);
    expect(exchange.responseHeaders["cross-origin-resource-policy"]).toBe("same-origin");
  } finally {
    await evil.close();
  }

  // A cross-origin file write (PUT) is refused as well; Strata's own page writes the same file fine.
  const file = (path: string) => `/api/projects/${projectId}/file?path=${encodeURIComponent(path)}`;
  const put = (headers: Record<string, string>) =>
    request.put(`/api/projects/${projectId}/file`, {
      headers: { "Content-Type": "application/json", ...headers },
      data: JSON.stringify({ path: "own.txt", content: "mine\n" }),
    });
  expect((await put({ Origin: EVIL })).status()).toBe(403);
  expect((await request.get(file("own.txt"))).status()).toBe(404);
  expect((await put({ Origin: E2E_APP_URL, "Sec-Fetch-Site": "same-origin" })).status()).toBe(200);
  expect(((await (await request.get(file("own.txt"))).json()) as { content: string }).content).toBe("mine\n");

  // Nothing was written, nothing stored in the session, and the server still answers.
  expect((await request.get(file("pwned.txt"))).status()).toBe(404);
  const sessionView = await request.get(`/api/sessions/${sessionId}`);
  expect(sessionView.status()).toBe(200);
  expect(JSON.stringify(await sessionView.json())).not.toContain("pwned");
  expect((await request.get("/api/config")).status()).toBe(200);
});

test("a foreign Host (DNS rebinding) is refused 421 on pages and API; allowed names are served", async () => {
  for (const path of ["/", "/api/config", "/api/projects"]) {
    const answer = await rawGet(path, "attacker.example");
    expect(answer.status).toBe(421);
    expect(JSON.parse(answer.body)).toEqual({
      error: {
        code: "host_not_allowed",
        message:
          'Host "attacker.example" is not a name this Strata answers to (protection against DNS rebinding). It answers to 127.0.0.1, localhost, [::1], the HOST it was started with and the names listed in STRATA_ALLOWED_HOSTS (comma-separated); to use this name, add it there and restart Strata.',
      },
    });
  }
  expect((await rawGet("/api/config", `localhost:${E2E_APP_PORT}`, ownerCookie())).status).toBe(200);
  expect((await rawGet("/api/config", `127.0.0.1:${E2E_APP_PORT}`, ownerCookie())).status).toBe(200);
});

test("security headers on the page, on /api/config and on static assets", async ({ page, request }) => {
  const pageAnswer = await page.goto("/");
  expect(pageAnswer?.status()).toBe(200);
  const pageHeaders = (await pageAnswer?.allHeaders()) ?? {};
  expectSecurityHeaders(pageHeaders);
  const nonce = /'nonce-([^']+)'/.exec(pageHeaders["content-security-policy"])?.[1] ?? "";
  expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  // Next put the same nonce on its scripts.
  const nonces = await page
    .locator("script[src]")
    .evaluateAll((nodes) => nodes.map((n) => (n as HTMLScriptElement).nonce));
  expect(nonces.length).toBeGreaterThan(0);
  expect(new Set(nonces)).toEqual(new Set([nonce]));

  const config = await request.get("/api/config");
  expect(config.status()).toBe(200);
  expectSecurityHeaders(config.headers());
  expect(config.headers()["content-security-policy"]).toBe(
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  );
  const script = await page.locator("script[src]").first().getAttribute("src");
  const asset = await request.get(script ?? "");
  expect(asset.status()).toBe(200);
  expectSecurityHeaders(asset.headers());
});

/** Collect CSP violations (page and frames), console errors and page errors from here on. */
async function watchForViolations(page: Page): Promise<() => Promise<string[]>> {
  const problems: string[] = [];
  await page.addInitScript(() => {
    const store: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = store;
    document.addEventListener("securitypolicyviolation", (e) =>
      store.push(`${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`),
    );
  });
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("worker", (w) => {
    w.on("console", (m) => {
      if (m.type() === "error") problems.push(`worker console: ${m.text()}`);
    });
  });
  return async () => [
    ...problems,
    ...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)),
  ];
}

test("the IDE runs under the CSP: Monaco and its TypeScript worker, no violation, no console error", async ({
  page,
  openProject,
}) => {
  const problems = await watchForViolations(page);
  await openProject(page, uniqueName("csp"), {
    "main.ts": "const answer: number = 'forty-two';\nexport default answer;\n",
    "README.md": "# csp\n",
  });
  await page.getByRole("treeitem", { name: "main.ts" }).click();
  const editor = page.getByTestId("editor");
  await expect(editor).toContainText("forty-two");
  // The TypeScript worker (a same-origin module worker) ran: it reported the type error.
  await expect(editor.locator(".squiggly-error").first()).toBeVisible();
  expect(await problems()).toEqual([]);

  // The watch works and the policy is enforced: injected markup's inline handler (the XSS shape) is blocked
  // and reported.
  await page.evaluate(() => {
    const div = document.createElement("div");
    div.innerHTML = `<img alt="" src="data:," onerror="document.body.dataset.injected='yes'">`;
    document.body.append(div);
  });
  await expect
    .poll(async () => (await problems()).filter((p) => p.startsWith("script-src-attr blocked inline")).length)
    .toBe(1);
  expect(await page.evaluate(() => document.body.dataset.injected ?? "no")).toBe("no");
});

test("an unknown address shows Strata's 404 page under the CSP, with no violation", async ({ page }) => {
  const problems = await watchForViolations(page);
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("alert").filter({ hasText: "Page not found" })).toContainText(
    "There is nothing at this address.",
  );
  await page.getByRole("link", { name: "Back to your projects" }).click();
  await expect(page).toHaveURL(/\/$/);
  // Chromium logs the document's own 404 status; nothing else — no CSP violation, no script error.
  expect(await problems()).toEqual([
    "console: Failed to load resource: the server responded with a status of 404 (Not Found)",
  ]);
});

test("an unknown project and an unknown API path answer 404 (page and JSON)", async ({ page, request }) => {
  const api = await request.get("/api/no/such/route");
  expect(api.status()).toBe(404);
  expect(await api.json()).toEqual({
    error: { code: "not_found", message: "API route /api/no/such/route not found" },
  });
  for (const id of ["does-not-exist", "00000000-0000-4000-8000-000000000000"]) {
    const response = await page.goto(`/projects/${id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("alert").filter({ hasText: "Page not found" })).toBeVisible();
  }
});
