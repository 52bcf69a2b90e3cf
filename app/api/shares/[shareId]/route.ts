import { withCaller } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { revokeShare } from "@/lib/share/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * Revoke a share → 204: its snapshot and files are deleted and every URL of it answers 404 from now on. Its creator,
 * while still a member, or an admin or owner of its workspace; 403 for another member, 404 for anyone else (a former
 * member too, and for an unknown id).
 * Authorised by `revokeShare` itself (the share's workspace is known only from its row).
 */
export const DELETE = route(
  async (request: Request, { params }: { params: Promise<{ shareId: string }> }) => {
    const { shareId } = await params;
    return withCaller(request, async ({ scope, caller }) => {
      await revokeShare(scope, caller, shareId);
      return new Response(null, { status: 204 });
    });
  },
);
