import { notFound, route } from "@/lib/http/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** Any `/api/...` path no route handles: a JSON 404 (not the HTML 404 page, which API answers' CSP forbids). */
const unknown = route(async (request: Request) => {
  throw notFound(`API route ${new URL(request.url).pathname}`);
});

export const GET = unknown;
export const POST = unknown;
export const PUT = unknown;
export const PATCH = unknown;
export const DELETE = unknown;
