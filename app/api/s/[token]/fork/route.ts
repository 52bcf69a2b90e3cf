import { z } from "zod";
import { resolveCaller } from "@/lib/auth/caller";
import { unauthenticated } from "@/lib/auth/errors";
import { DbScope } from "@/lib/db/client";
import { withWorkspaceOrPersonal } from "@/lib/http/access";
import { mediaType, readJson, readText, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { errorResponse, route } from "@/lib/http/errors";
import { shareNotFound, sharePublic } from "@/lib/http/share";
import { forkShare } from "@/lib/share/fork";
import { CONTROL_CHARS } from "@/lib/share/paths";
import { BIDI_CONTROLS } from "@/lib/share/render/unicode";
import { findLiveShare } from "@/lib/share/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const ForkBody = z
  .object({
    workspaceId: z.string().max(100).optional(),
    name: z
      .string()
      .max(200)
      .refine(
        (n) => !CONTROL_CHARS.test(n),
        "The name must not contain control characters (a line break, a tab, NUL)",
      )
      .refine(
        (n) => !BIDI_CONTROLS.test(n),
        "The name must not contain bidirectional text controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C): they make a name read differently from what it is",
      )
      .optional(),
  })
  .strict();

/**
 * Fork a share into the caller's own workspace: JSON `{ workspaceId?, name? }` → 201 `{ project, session }` (personal
 * workspace by default; a workspace the caller may write otherwise). A form post (`application/x-www-form-urlencoded`,
 * the share page without JavaScript) answers 303 to `/projects/<id>`, or when signed out 303 to
 * `/sign-in?next=/s/<token>`; a signed-out JSON call answers 401. 400 for a name with a control or bidirectional control character. Unknown, revoked or expired token: the share 404.
 * The check of the share comes first (its 404 is the same for everyone), then the caller and their role in the target.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ token: string }> }) => {
  const { token } = await params;
  const form = mediaType(request) === "application/x-www-form-urlencoded";
  let body: z.infer<typeof ForkBody>;
  if (form) {
    const fields = new URLSearchParams(await readText(request, { limit: SMALL_JSON_LIMIT, types: [] }));
    body = ForkBody.parse({
      ...(fields.get("workspaceId") ? { workspaceId: fields.get("workspaceId") } : {}),
      ...(fields.get("name") ? { name: fields.get("name") } : {}),
    });
  } else body = ForkBody.parse(await readJson(request, { limit: SMALL_JSON_LIMIT, empty: {} }));
  const probe = new DbScope();
  try {
    if (!(await findLiveShare(probe, token))) return shareNotFound();
    if (!(await resolveCaller(probe, request))) {
      if (form) return sharePublic(redirect(`/sign-in?next=${encodeURIComponent(`/s/${token}`)}`));
      return sharePublic(errorResponse(unauthenticated()));
    }
  } finally {
    await probe.release();
  }
  return withWorkspaceOrPersonal(request, body.workspaceId, "write", async ({ scope, caller, access }) => {
    const share = await findLiveShare(scope, token);
    if (!share) return shareNotFound();
    const forked = await forkShare(scope, caller, share, {
      workspaceId: access.workspaceId,
      ...(body.name ? { name: body.name } : {}),
    });
    if (form) return sharePublic(redirect(`/projects/${forked.project.id}`));
    return sharePublic(Response.json(forked, { status: 201 }));
  });
});

/**
 * 303 See Other to a path of this app, as a relative `Location` (RFC 9110 10.2.2): behind `next start` the request's
 * URL may name another host (`localhost` for `127.0.0.1`), and the page's CSP `form-action 'self'` would then block
 * the redirect.
 */
function redirect(path: string): Response {
  return new Response(null, { status: 303, headers: { location: path } });
}
