/**
 * Security headers for every response, and the Content-Security-Policy per kind of response.
 *
 * Pages get a per-request nonce for scripts (Next reads it from the request's CSP header and puts it on its
 * own inline and chunk scripts; `'strict-dynamic'` lets those load the rest of the bundle). Styles allow
 * `'unsafe-inline'`: Monaco injects `<style>` elements and React renders `style` attributes, neither of
 * which can carry a nonce. Monaco's workers are same-origin module workers (`worker-src 'self' blob:`); a
 * worker's own policy is the one its script was served with, hence the asset policy allows same-origin
 * scripts and fetches.
 */

/** What a response is, for its CSP: an HTML page, an API answer, or a static asset (scripts, workers, icons). */
export type ResponseKind = "page" | "api" | "asset";

/** The kind of response a request path gets. */
export function responseKind(pathname: string): ResponseKind {
  if (pathname === "/api" || pathname.startsWith("/api/")) return "api";
  if (pathname.startsWith("/_next/")) return "asset";
  const last = pathname.slice(pathname.lastIndexOf("/") + 1);
  return /\.[A-Za-z0-9]+$/.test(last) ? "asset" : "page";
}

/** A fresh script nonce: 16 random bytes (Web Crypto), base64. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The Content-Security-Policy for a response.
 * @param options.nonce required for pages (the script nonce of this request); `dev` adds `'unsafe-eval'`
 *   to scripts, which React needs in development only.
 */
export function contentSecurityPolicy(
  kind: ResponseKind,
  options: { nonce?: string; dev?: boolean } = {},
): string {
  if (kind === "api")
    return "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
  const eval_ = options.dev ? " 'unsafe-eval'" : "";
  const scripts =
    kind === "page" && options.nonce
      ? `script-src 'self' 'nonce-${options.nonce}' 'strict-dynamic'${eval_}`
      : `script-src 'self'${eval_}`;
  return [
    "default-src 'self'",
    scripts,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Every header a response carries: the CSP of its kind plus `X-Frame-Options: DENY`,
 * `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, `Cross-Origin-Opener-Policy:
 * same-origin` and `Cross-Origin-Resource-Policy: same-origin` (no other site may embed its answers).
 */
export function securityHeaders(
  kind: ResponseKind,
  options: { nonce?: string; dev?: boolean } = {},
): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(kind, options),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
}
