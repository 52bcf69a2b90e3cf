import { z } from "zod";
import { withWorkspace } from "@/lib/http/access";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { deleteSecret, setSecret } from "@/lib/secrets";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; name: string }> };

const Body = z.object({ value: z.string() }).strict();

/**
 * Set or replace secret `name` (owners and admins): `{ value }` → `{ secret: { name, updatedAt, updatedBy } }` (the
 * value is never answered). 400 `invalid_secret_name` / `invalid_secret_value` with what to fix.
 */
export const PUT = route(async (request: Request, { params }: Ctx) => {
  const { id, name } = await params;
  return withWorkspace(request, id, "manage", async ({ scope, caller, access }) => {
    const body = Body.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
    const secret = await setSecret(scope, access.workspaceId, name, body.value, caller.userId);
    return Response.json({ secret });
  });
});

/** Delete secret `name` (owners and admins) → `{ deleted: name }`; 404 when it is not set. */
export const DELETE = route(async (request: Request, { params }: Ctx) => {
  const { id, name } = await params;
  return withWorkspace(request, id, "manage", async ({ scope, access }) => {
    await deleteSecret(scope, access.workspaceId, name);
    return Response.json({ deleted: name });
  });
});
