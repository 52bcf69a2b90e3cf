/** The request guard's one decision per request: refuse (with what), or pass with which headers. */
import { checkCrossSite } from "./cross-site";
import { contentSecurityPolicy, createNonce, responseKind, securityHeaders } from "./headers";
import { type AllowedHosts, checkHost, parseAllowedHosts } from "./hosts";

/** The environment the guard reads (`process.env` in the app). */
export interface GuardEnv {
  HOST?: string;
  STRATA_ALLOWED_HOSTS?: string;
  NODE_ENV?: string;
}

/** A refused request: its HTTP status and the `{ error: { code, message } }` it is answered with. */
export interface GuardRefusal {
  status: number;
  code: string;
  message: string;
}

/** What the guard decided for one request. */
export interface GuardDecision {
  /** Set when the request must not reach the app. */
  refusal?: GuardRefusal;
  /** Security headers for the response (refused or not). */
  responseHeaders: Record<string, string>;
  /** Pages only: the CSP to set on the request, from which Next takes the script nonce. */
  requestCsp?: string;
}

let cached: { key: string; hosts: AllowedHosts } | undefined;

/** {@link parseAllowedHosts}, parsed once per distinct environment. */
function allowedHosts(env: GuardEnv): AllowedHosts {
  const key = `${env.HOST ?? ""}\n${env.STRATA_ALLOWED_HOSTS ?? ""}`;
  if (cached?.key !== key) cached = { key, hosts: parseAllowedHosts(env) };
  return cached.hosts;
}

/**
 * Decide one request, in order: a bad STRATA_ALLOWED_HOSTS → 500 `bad_config`; a Host not allowed → 421
 * `host_not_allowed`; a cross-site state-changing request → 403 `cross_origin`; else pass. Every decision
 * carries the response's security headers; a page that passes gets a fresh script nonce.
 * @param request the method, full URL (its scheme is the one served) and headers of the request.
 */
export function guardRequest(
  request: { method: string; url: string; headers: Headers },
  env: GuardEnv,
): GuardDecision {
  const url = new URL(request.url);
  const kind = responseKind(url.pathname);
  const dev = env.NODE_ENV === "development";
  const hosts = allowedHosts(env);
  const host = request.headers.get("host");
  let refusal: GuardRefusal | undefined;
  if (!hosts.ok) refusal = { status: 500, code: "bad_config", message: hosts.message };
  else {
    refusal =
      checkHost(host, hosts.names) ??
      checkCrossSite({
        method: request.method,
        host,
        protocol: url.protocol,
        origin: request.headers.get("origin"),
        secFetchSite: request.headers.get("sec-fetch-site"),
      });
  }
  if (refusal) return { refusal, responseHeaders: securityHeaders("api") };
  if (kind !== "page") return { responseHeaders: securityHeaders(kind, { dev }) };
  const nonce = createNonce();
  return {
    responseHeaders: securityHeaders(kind, { nonce, dev }),
    requestCsp: contentSecurityPolicy(kind, { nonce, dev }),
  };
}

/** The JSON answer of a refusal, with the decision's security headers. */
export function refusalResponse(refusal: GuardRefusal, headers: Record<string, string>): Response {
  return Response.json(
    { error: { code: refusal.code, message: refusal.message } },
    { status: refusal.status, headers },
  );
}
