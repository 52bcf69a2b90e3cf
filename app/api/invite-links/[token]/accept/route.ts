import { acceptInviteLink } from "@/lib/auth/invite-links";
import { withCaller } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { inviteLinkRefusals } from "../../errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * Join the team of an invite link as the signed-in caller → `{ workspaceId, role, joined }` (`joined` false: already
 * a member, nothing changed). 401 signed out; 404 unknown token; 410 expired, revoked or used up.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ token: string }> }) => {
  const { token } = await params;
  return withCaller(request, async ({ scope, caller }) =>
    Response.json(await inviteLinkRefusals(() => acceptInviteLink(scope, token, caller))),
  );
});
