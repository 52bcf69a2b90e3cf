import { z } from "zod";
import { getSandboxEnabled, setSandboxEnabled } from "@/lib/exec/sandbox-setting";
import { withWorkspace } from "@/lib/http/access";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

const Body = z.object({ enabled: z.boolean() }).strict();

/** Whether the workspace's agent may use the sandbox (any member) → `{ enabled }`. */
export const GET = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(request, id, "read", async ({ scope, access }) =>
    Response.json({ enabled: await getSandboxEnabled(scope, access.workspaceId) }),
  );
});

/**
 * Turn the sandbox on or off (the workspace's owner only: it lets the agent run the project's code):
 * `{ enabled: boolean }` → `{ enabled }`. Sessions started afterwards see the change (docs/sandbox.md).
 */
export const PUT = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(request, id, "delete", async ({ scope, access }) => {
    const body = Body.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
    return Response.json({ enabled: await setSandboxEnabled(scope, access.workspaceId, body.enabled) });
  });
});
