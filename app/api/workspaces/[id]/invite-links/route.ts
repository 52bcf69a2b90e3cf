import { z } from "zod";
import { createInviteLink, listInviteLinks } from "@/lib/auth/invite-links";
import { withWorkspace } from "@/lib/http/access";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { inviteLinkRefusals } from "../../../invite-links/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The team's invite links (admins and owners) → `{ links }`, newest first, never a token. */
export const GET = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(request, id, "manage", async ({ scope }) =>
    Response.json({ links: await listInviteLinks(scope, id) }),
  );
});

const Create = z
  .object({
    role: z.string(),
    expiresInDays: z.number(),
    maxUses: z.number().nullable().optional(),
  })
  .strict();

/**
 * Create an invite link: `{ role, expiresInDays: 1|7|30, maxUses?: number|null }` → 201 `{ link, token, path }`; the
 * token (and `path`, `/invite/<token>`) is shown this once.
 */
export const POST = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(request, id, "manage", async ({ scope, caller }) => {
    const body = Create.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
    const { link, token } = await inviteLinkRefusals(() =>
      createInviteLink(scope, {
        workspaceId: id,
        createdBy: caller.userId,
        role: body.role,
        expiresInDays: body.expiresInDays,
        maxUses: body.maxUses ?? null,
      }),
    );
    return Response.json({ link, token, path: `/invite/${token}` }, { status: 201 });
  });
});
