/**
 * Cross-site request refusal (CSRF): a page on another origin can POST text/plain or multipart bodies without
 * a CORS preflight, and the browser executes them. State-changing requests must come from Strata's own pages.
 */

/** Methods that never change state here (they are answered, never refused by this check). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The request facts the check needs (header values as received, null when absent). */
export interface CrossSiteInput {
  method: string;
  /** The `Host` header (already checked against the allow-list). */
  host: string | null;
  /** The scheme the request was served over: "http:" or "https:". */
  protocol: string;
  origin: string | null;
  secFetchSite: string | null;
}

/** A refused request: 403 `cross_origin`. */
export interface CrossSiteRefusal {
  status: 403;
  code: "cross_origin";
  message: string;
}

const WHO =
  "State-changing requests (POST, PUT, PATCH, DELETE) are accepted only from Strata's own pages, or from clients that send neither Origin nor Sec-Fetch-Site (curl, scripts, the strata CLI).";

/** The origin (`scheme://host[:port]`) a URL-ish string denotes, or undefined when it is not http(s). */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a request may change state. Safe methods always pass. Otherwise:
 * - `Sec-Fetch-Site`, when present (browsers send it), must be `same-origin` — `cross-site`, `same-site`
 *   (another port or subdomain) and `none` are refused;
 * - `Origin`, when present, must equal the app's own origin: `protocol` + the request's `Host`
 *   (`Origin: null` and any other origin are refused);
 * - with neither header the client is not a browser (every browser sends Origin on a cross-origin POST),
 *   so it is allowed: a web page cannot make a browser omit both.
 * @returns the 403 refusal with its message, or undefined when allowed.
 */
export function checkCrossSite(input: CrossSiteInput): CrossSiteRefusal | undefined {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return undefined;
  const site = input.secFetchSite?.trim().toLowerCase() ?? null;
  if (site !== null && site !== "same-origin") {
    return {
      status: 403,
      code: "cross_origin",
      message: `Cross-site request refused: Sec-Fetch-Site is ${JSON.stringify(site.slice(0, 40))}, not "same-origin". ${WHO}`,
    };
  }
  if (input.origin === null) return undefined;
  const own = input.host ? originOf(`${input.protocol}//${input.host}`) : undefined;
  const given = originOf(input.origin);
  if (own !== undefined && given === own) return undefined;
  return {
    status: 403,
    code: "cross_origin",
    message: `Cross-origin request refused: Origin ${JSON.stringify(input.origin.slice(0, 200))} is not this Strata (${own ?? "unknown origin"}). ${WHO}`,
  };
}
