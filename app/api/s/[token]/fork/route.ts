import { resolveCaller } from "@/lib/auth/caller";
import { unauthenticated } from "@/lib/auth/errors";
import { DbScope } from "@/lib/db/client";
import { withWorkspaceOrPersonal } from "@/lib/http/access";
import { errorResponse, route } from "@/lib/http/errors";
import { readForkBody, shareNotFound, sharePublic } from "@/lib/http/share";
import { forkFailedPage, seeOther } from "@/lib/http/share-pages";
import { forkShare } from "@/lib/share/fork";
import { findLiveShare } from "@/lib/share/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * Fork a share into the caller's own workspace: JSON `{ workspaceId?, name? }` → 201 `{ project, session }` (personal
 * workspace by default; a workspace the caller may write otherwise). A form post (`application/x-www-form-urlencoded`,
 * the share page without JavaScript) answers 303 to `/projects/<id>`, or when signed out 303 to
 * `/sign-in?next=/s/<token>`; a signed-out JSON call answers 401; a form post that fails later answers an HTML page
 * with the error's status and message. 400 for a name with a control or bidirectional control character. Unknown,
 * revoked or expired token: the share 404.
 * The check of the share comes first (its 404 is the same for everyone), then the caller and their role in the target.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ token: string }> }) => {
  const { token } = await params;
  const { form, body } = await readForkBody(request);
  const probe = new DbScope();
  try {
    if (!(await findLiveShare(probe, token))) return shareNotFound();
    if (!(await resolveCaller(probe, request))) {
      if (form) return sharePublic(seeOther(`/sign-in?next=${encodeURIComponent(`/s/${token}`)}`));
      return sharePublic(errorResponse(unauthenticated()));
    }
  } finally {
    await probe.release();
  }
  const fork = withWorkspaceOrPersonal(
    request,
    body.workspaceId,
    "write",
    async ({ scope, caller, access }) => {
      const share = await findLiveShare(scope, token);
      if (!share) return shareNotFound();
      const forked = await forkShare(scope, caller, share, {
        workspaceId: access.workspaceId,
        ...(body.name ? { name: body.name } : {}),
      });
      if (form) return sharePublic(seeOther(`/projects/${forked.project.id}`));
      return sharePublic(Response.json(forked, { status: 201 }));
    },
  );
  // The share page's form has no script to show a JSON error: a failure answers a page saying it, with a way back.
  return form ? fork.catch((error) => forkFailedPage(token, error)) : fork;
});
