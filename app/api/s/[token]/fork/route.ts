import { route } from "@/lib/http/errors";
import { readForkBody } from "@/lib/http/share";
import { forkShareResponse } from "@/lib/http/share-fork";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * Fork a share into the caller's own workspace: JSON `{ workspaceId?, name? }` → 201 `{ project, session }` (personal
 * workspace by default; a workspace the caller may write otherwise). A form post (`application/x-www-form-urlencoded`,
 * the share page without JavaScript) answers 303 to `/projects/<id>`, or when signed out 303 to
 * `/sign-in?next=/s/<token>/fork` with a fork intent (lib/http/share-fork.ts: signing in then forks at once); a
 * signed-out JSON call answers 401; a form post that fails later answers an HTML page with the error's status and
 * message. 400 for a name with a control or bidirectional control character. Unknown, revoked or expired token: the
 * share 404. The check of the share comes first (its 404 is the same for everyone), then the caller and their role.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ token: string }> }) => {
  const { token } = await params;
  const { form, body } = await readForkBody(request);
  return forkShareResponse(request, token, body, form);
});
