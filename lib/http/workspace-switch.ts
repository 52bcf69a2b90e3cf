/**
 * The handlers of a workspace setting that is on or off (`/api/workspaces/:id/sandbox`, `/merge-approval`): `GET` for
 * any member → `{ enabled }`, `PUT { enabled }` for the role that may change it → `{ enabled }`. Another workspace
 * answers 404; the setting's own errors pass through.
 */
import { z } from "zod";
import type { Permission } from "@/lib/auth/roles";
import type { DbScope } from "@/lib/db/client";
import { withWorkspace } from "./access";
import { readJson, SMALL_JSON_LIMIT } from "./body";
import { route } from "./errors";

const Body = z.object({ enabled: z.boolean() }).strict();

type Ctx = { params: Promise<{ id: string }> };

/** `GET` and `PUT` for the setting read by `get` and written by `set`; `change`: who may `PUT`. */
export function workspaceSwitchRoutes(setting: {
  get: (scope: DbScope, workspaceId: string) => Promise<boolean>;
  set: (scope: DbScope, workspaceId: string, enabled: boolean) => Promise<boolean>;
  change: Permission;
}) {
  const GET = route(async (request: Request, { params }: Ctx) => {
    const { id } = await params;
    return withWorkspace(request, id, "read", async ({ scope, access }) =>
      Response.json({ enabled: await setting.get(scope, access.workspaceId) }),
    );
  });
  const PUT = route(async (request: Request, { params }: Ctx) => {
    const { id } = await params;
    return withWorkspace(request, id, setting.change, async ({ scope, access }) => {
      const body = Body.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
      return Response.json({ enabled: await setting.set(scope, access.workspaceId, body.enabled) });
    });
  });
  return { GET, PUT };
}
