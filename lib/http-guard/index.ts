/**
 * The web boundary (issue 9): pure policy functions the request guard (`proxy.ts`, Next's request
 * interceptor, run before every page, API route and static file) applies to each request. A request is
 * answered only when its `Host` is a name Strata is served under (loopback names, `HOST`,
 * `STRATA_ALLOWED_HOSTS`: DNS rebinding, 421), and a state-changing one (POST, PUT, PATCH, DELETE) only
 * when it comes from Strata's own pages or from a non-browser client (`Origin`/`Sec-Fetch-Site`: CSRF,
 * 403). Every response carries the security headers (a CSP per kind of response with a per-request script
 * nonce for pages, frame-ancestors 'none', nosniff, no-referrer, X-Frame-Options DENY). Edge-safe: Web
 * APIs only, no state beyond a parsed-configuration cache.
 */
export { type CrossSiteInput, type CrossSiteRefusal, checkCrossSite } from "./cross-site";
export { type GuardDecision, type GuardEnv, type GuardRefusal, guardRequest, refusalResponse } from "./guard";
export {
  contentSecurityPolicy,
  createNonce,
  type ResponseKind,
  responseKind,
  securityHeaders,
} from "./headers";
export {
  type AllowedHosts,
  checkHost,
  hostNameOf,
  LOOPBACK_HOST_NAMES,
  normalizeHostName,
  parseAllowedHosts,
} from "./hosts";
