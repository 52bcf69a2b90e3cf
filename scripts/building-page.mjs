// The "Strata is building…" placeholder: while `npm start` runs `next build` nothing else listens on the port,
// so a browser refresh would show "can't connect" with no hint. scripts/start.mjs listens with this tiny
// node:http server during the build and closes it (awaited) right before it spawns `next start`.
// Plain Node ESM (scripts never import lib/): the Host allow-list below mirrors lib/http-guard/hosts.ts.
import http from "node:http";

/** Seconds a client is told to wait before retrying (Retry-After and the page's meta refresh). */
export const RETRY_AFTER_SECONDS = 5;

const WILDCARDS = new Set(["0.0.0.0", "[::]"]);

/** Lower case, no trailing dot, a bare IPv6 literal in brackets; undefined when empty. */
function normalize(name) {
  let n = name.trim().toLowerCase();
  if (n.endsWith(".")) n = n.slice(0, -1);
  if (!n.startsWith("[") && n.includes(":")) n = `[${n}]`;
  return n === "" ? undefined : n;
}

/**
 * The names the app answers to: 127.0.0.1, localhost, [::1], `HOST` (unless a wildcard such as 0.0.0.0) and
 * the comma-separated `STRATA_ALLOWED_HOSTS`.
 * @param {{ HOST?: string, STRATA_ALLOWED_HOSTS?: string }} env
 * @returns {Set<string>} normalised names (lower case, IPv6 in brackets)
 */
export function allowedHostNames(env) {
  const names = new Set(["127.0.0.1", "localhost", "[::1]"]);
  for (const raw of [env.HOST ?? "", ...(env.STRATA_ALLOWED_HOSTS ?? "").split(",")]) {
    const name = normalize(raw);
    if (name && !WILDCARDS.has(name)) names.add(name);
  }
  return names;
}

/** The host name of a Host header (`name`, `name:port`, `[v6]:port`), normalised; undefined when malformed. */
function hostNameOf(header) {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]@/\\\s]+)(?::\d{1,5})?$/.exec(header ?? "");
  return match ? normalize(match[1]) : undefined;
}

const escapeHtml = (text) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );

/** The page's one line of text, e.g. "Strata is building… (the sources changed since the last build) — …". */
export function buildingText(reason) {
  return `Strata is building… (${reason}) — this page reloads itself; the terminal shows the progress`;
}

/** The message of the JSON answer to /api/* paths. */
export function buildingApiMessage(reason) {
  return `Strata is building (${reason}); retry in ${RETRY_AFTER_SECONDS} seconds. The terminal running npm start shows the progress.`;
}

/** The self-contained HTML page (no external resource, no script; reloads itself every 5 s). */
export function buildingHtml(reason) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Strata is building…</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#0f1115;color:#e6e6e6}p{max-width:36em;padding:0 1em;text-align:center}</style>
</head>
<body><p>${escapeHtml(buildingText(reason))}</p></body>
</html>
`;
}

/**
 * Listen on `host:port` and answer every request while the app builds: 503 + `Retry-After: 5` with
 * {@link buildingHtml} (or, for /api/* paths, JSON `{"error":{"code":"building","message"}}`); a Host the app
 * does not answer to (see {@link allowedHostNames}) gets the app's 421 `host_not_allowed` instead.
 * @param {{ port: number, host: string, reason: string, env?: NodeJS.ProcessEnv }} options `reason` = a short
 *   phrase shown in parentheses, e.g. "the sources changed since the last build"; `env` defaults to process.env
 * @returns {Promise<{ port: number, close: () => Promise<void> }>} `port` = the bound port (useful with 0);
 *   `close()` ends open connections and resolves once the port is free (safe to call twice).
 * @throws the listen error (EADDRINUSE: "<host>:<port> is already in use…" with the fix)
 */
export async function startBuildingPage({ port, host, reason, env = process.env }) {
  const allowed = allowedHostNames(env);
  const html = buildingHtml(reason);
  const send = (res, status, type, body, extra = {}) => {
    res.writeHead(status, {
      "Content-Type": type,
      "Content-Length": Buffer.byteLength(body),
      "Cache-Control": "no-store",
      Connection: "close",
      "X-Content-Type-Options": "nosniff",
      ...extra,
    });
    res.end(res.req.method === "HEAD" ? undefined : body);
  };
  const server = http.createServer((req, res) => {
    const name = hostNameOf(req.headers.host);
    if (name === undefined || !allowed.has(name)) {
      const shown = req.headers.host ? JSON.stringify(req.headers.host.slice(0, 100)) : "(none)";
      const message = `Host ${shown} is not a name this Strata answers to (protection against DNS rebinding). It answers to 127.0.0.1, localhost, [::1], the HOST it was started with and the names listed in STRATA_ALLOWED_HOSTS (comma-separated); to use this name, add it there and restart Strata.`;
      send(res, 421, "application/json", JSON.stringify({ error: { code: "host_not_allowed", message } }));
      return;
    }
    const retry = { "Retry-After": String(RETRY_AFTER_SECONDS) };
    if (/^\/api(\/|\?|$)/.test(req.url ?? "")) {
      const body = JSON.stringify({ error: { code: "building", message: buildingApiMessage(reason) } });
      send(res, 503, "application/json", body, retry);
    } else send(res, 503, "text/html; charset=utf-8", html, retry);
  });
  await new Promise((resolve, reject) => {
    server.once("error", (error) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`${host}:${port} is already in use. Start on another port: PORT=${port + 1} npm start`)
          : error,
      ),
    );
    server.listen(port, host, resolve);
  });
  let closing;
  const close = () => {
    closing ??= new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  return { port: server.address().port, close };
}
