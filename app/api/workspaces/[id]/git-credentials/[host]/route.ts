import { z } from "zod";
import { withWorkspace } from "@/lib/http/access";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { deleteGitCredential, setGitCredential } from "@/lib/secrets";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; host: string }> };

/** The host as typed (`127.0.0.1%3A4302` → `127.0.0.1:4302`); a malformed escape stays as it is (then 400). */
function hostOf(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const Body = z.object({ username: z.string(), password: z.string() }).strict();

/**
 * Set or replace the git credential for `host` (owners and admins): `{ username, password }` →
 * `{ credential: { host, updatedAt, updatedBy } }` (neither value is answered). 400 `invalid_git_host` /
 * `invalid_git_credential`.
 */
export const PUT = route(async (request: Request, { params }: Ctx) => {
  const { id, host } = await params;
  return withWorkspace(request, id, "manage", async ({ scope, caller, access }) => {
    const body = Body.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
    const credential = await setGitCredential(scope, access.workspaceId, hostOf(host), body, caller.userId);
    return Response.json({ credential });
  });
});

/** Delete the git credential for `host` (owners and admins) → `{ deleted: host }`; 404 when none is stored. */
export const DELETE = route(async (request: Request, { params }: Ctx) => {
  const { id, host } = await params;
  return withWorkspace(request, id, "manage", async ({ scope, access }) => {
    await deleteGitCredential(scope, access.workspaceId, hostOf(host));
    return Response.json({ deleted: hostOf(host) });
  });
});
