import { revokeInviteLink } from "@/lib/auth/invite-links";
import { withWorkspace } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { inviteLinkRefusals } from "../../../../invite-links/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** Revoke an invite link (admins and owners) → `{ link }` with its `revokedAt`; 404 for a link of another team. */
export const DELETE = route(
  async (request: Request, { params }: { params: Promise<{ id: string; linkId: string }> }) => {
    const { id, linkId } = await params;
    return withWorkspace(request, id, "manage", async ({ scope }) =>
      Response.json({ link: await inviteLinkRefusals(() => revokeInviteLink(scope, id, linkId)) }),
    );
  },
);
