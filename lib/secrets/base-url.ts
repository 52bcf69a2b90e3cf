/**
 * Which hosts a workspace's base-URL secret (`OPENAI_COMPATIBLE_BASE_URL`, any `*_BASE_URL` name) may point at. The
 * server POSTs model requests to that URL and shows the error body in the chat, so an unchecked value let any user
 * (everyone owns their personal workspace) make the server call an internal address and read its answer (SSRF). A
 * workspace base URL must be `https://` on a host the operator lists in `STRATA_WORKSPACE_BASE_URL_HOSTS`
 * (comma-separated host names, exact, case-insensitive, any port; unset or empty = no workspace may set one). Checked
 * when the secret is set ({@link baseUrlHostProblem}) and again on every use ({@link refusedBaseUrlMessage}).
 */
import type { Env } from "@/lib/llm/models";

/** The server variable listing the hosts a workspace base URL may name. */
export const BASE_URL_HOSTS_VAR = "STRATA_WORKSPACE_BASE_URL_HOSTS";

/** True when secret `name` is a base URL (the server sends requests to its value). */
export const isBaseUrlName = (name: string): boolean => name.endsWith("_BASE_URL");

/** The hosts of `STRATA_WORKSPACE_BASE_URL_HOSTS`, trimmed and lower-cased (empty when unset). */
export function allowedBaseUrlHosts(env: Env): string[] {
  return (env[BASE_URL_HOSTS_VAR] ?? "")
    .split(",")
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== "");
}

/** The host of an `https://` URL `value` (lower-case, IPv6 in brackets), or null when it is not one. */
function httpsHost(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname !== "" ? url.hostname.toLowerCase() : null;
  } catch {
    return null;
  }
}

/** True when base-URL secret `value` may be used: an `https://` URL whose host is allowed in `env`. */
export function isAllowedBaseUrl(value: string, env: Env): boolean {
  const host = httpsHost(value);
  return host !== null && allowedBaseUrlHosts(env).includes(host);
}

/**
 * Why base-URL secret `name` cannot be set to `value` on this server, or null when it can (also null for a name that
 * is not a base URL). The text names the host (the caller just sent it), never the rest of the URL.
 */
export function baseUrlHostProblem(name: string, value: string, env: Env): string | null {
  if (!isBaseUrlName(name)) return null;
  const host = httpsHost(value);
  if (host === null) return `${name} must be an https:// URL, e.g. https://api.example.com/v1.`;
  if (allowedBaseUrlHosts(env).includes(host)) return null;
  return `This server does not let workspaces send model requests to ${host}. To use it, ask the server's operator to add ${host} to ${BASE_URL_HOSTS_VAR}.`;
}

/**
 * What the chat says when a stored base-URL secret `name` is no longer allowed (its host left the list, or the list
 * is unset): the secret is not used, and nothing else is called instead. Never quotes the value.
 */
export function refusedBaseUrlMessage(name: string): string {
  return `This workspace's ${name} is not used: its host is not in the server's ${BASE_URL_HOSTS_VAR}. Ask the server's operator to add the host to ${BASE_URL_HOSTS_VAR}, or have a workspace owner or admin delete or change ${name} in Workspace settings.`;
}
