/**
 * Next's request interceptor (Next 16's `proxy.ts`, formerly middleware; Node.js runtime). It has no
 * matcher, so it runs before every page, API route and static file: the web boundary of `lib/http-guard`
 * (Host allow-list, cross-site refusal, security headers, the pages' CSP nonce). A thin adapter: decide,
 * then refuse or pass on.
 */
import { NextResponse } from "next/server";
import { guardRequest, refusalResponse } from "@/lib/http-guard";

/** Refuse (421 / 403 / 500 JSON) or pass the request on, with the security headers on the response. */
export function proxy(request: Request): Response {
  const decision = guardRequest(request, process.env);
  if (decision.refusal) return refusalResponse(decision.refusal, decision.responseHeaders);
  let response: NextResponse;
  if (decision.requestCsp) {
    const headers = new Headers(request.headers);
    headers.set("Content-Security-Policy", decision.requestCsp);
    response = NextResponse.next({ request: { headers } });
  } else {
    response = NextResponse.next();
  }
  for (const [name, value] of Object.entries(decision.responseHeaders)) response.headers.set(name, value);
  return response;
}
