// Talking to a running Strata server (`--server URL --token TOKEN`, or STRATA_SERVER / STRATA_TOKEN) instead of its
// database: the session commands and `preview --session-id` use its HTTP API with a personal access token
// (`Authorization: Bearer`), so they see and change exactly what that user may. See docs/cli.md.
import { CliError } from "./runtime.mjs";

/**
 * Take `--server <url>` / `--token <t>` (also `--server=<url>`) out of `argv`, anywhere in it, into `env`
 * (`STRATA_SERVER`, `STRATA_TOKEN`), and return the remaining arguments.
 * @throws CliError (exit 2) for a flag without a value
 */
export function takeGlobalOptions(argv, env) {
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const match = /^--(server|token)(?:=(.*))?$/.exec(arg);
    if (!match) {
      rest.push(arg);
      continue;
    }
    const value = match[2] ?? argv[++i];
    if (value === undefined || value === "") throw new CliError(`--${match[1]} needs a value`, 2);
    env[match[1] === "server" ? "STRATA_SERVER" : "STRATA_TOKEN"] = value;
  }
  return rest;
}

/**
 * The server of `env` (`STRATA_SERVER`, `STRATA_TOKEN`) to talk to, or null (then the commands use the database).
 * @returns {{ origin: string, token: string } | null}
 * @throws CliError (exit 2) for a bad URL or no token
 */
export function remoteTarget(env) {
  const server = env.STRATA_SERVER?.trim();
  if (!server) return null;
  let url;
  try {
    url = new URL(server);
  } catch {
    throw new CliError(`--server / STRATA_SERVER is not a URL: ${server}`, 2);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new CliError(`--server / STRATA_SERVER must be an http(s) URL: ${server}`, 2);
  const token = env.STRATA_TOKEN?.trim();
  if (!token)
    throw new CliError(
      "--server needs a personal access token: --token <token> or STRATA_TOKEN (create one in Strata: Settings → Access tokens)",
      2,
    );
  return { origin: url.origin, token };
}

/**
 * `fetch` `path` on the server with the token. Answers other than 2xx become one CliError line with the server's
 * error code and message (`{ error: { code, message } }`); a server that cannot be reached says so.
 */
export async function remoteFetch(target, path, init = {}) {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${target.token}`);
  let response;
  try {
    response = await fetch(`${target.origin}${path}`, { ...init, headers, redirect: "manual" });
  } catch (error) {
    const cause = error?.cause?.code ?? error?.cause?.message ?? error?.message;
    throw new CliError(`Cannot reach ${target.origin} (${cause}). Is the server running?`);
  }
  if (response.ok) return response;
  let detail = `${response.status} ${response.statusText}`;
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text);
    if (body?.error?.message) detail = `${response.status} ${body.error.code}: ${body.error.message}`;
  } catch {
    // not JSON: the status line says enough
  }
  throw new CliError(`${target.origin} answered ${detail}`);
}
